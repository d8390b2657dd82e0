extension BubbleLook {
    /// The fill of a bubble whose ring shows the mix of categories (or files) inside: a neutral
    /// slate, so no category's colour also means "a group" (Madrid's museums and the airports
    /// "without IATA code" were drawn in the bubbles' own blue). Dark enough for white counts
    /// and visible on the dark map's land.
    public static let mixFill: UInt32 = 0x4B5560
}

/// Base-map colours the screenshots are checked against (must match MapRender's light palette).
enum MapColors {
    /// (sea, land) in 0…255 RGB.
    static let light = ((0xD3, 0xDD, 0xE2), (0xF3, 0xF1, 0xEC))
}

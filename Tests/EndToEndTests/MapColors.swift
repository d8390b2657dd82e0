/// Base-map colours the screenshots are checked against (must match MapRender's light palette).
enum MapColors {
    /// (sea, land) in 0…255 RGB.
    static let light = ((0xD4, 0xDA, 0xDC), (0xF2, 0xEF, 0xE9))
}

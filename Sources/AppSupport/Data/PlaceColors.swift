/// Pin colours: a categorical palette, a magnitude ramp and `marker-color` parsing (SPEC §7).
public enum PlaceColors {
    /// The default pin colour (one dataset, no categories).
    public static let defaultPin: UInt32 = 0x2F7ED8
    /// Distinct, colour-blind-friendly hues for categories and for several files shown together
    /// (Okabe–Ito based, darkened enough for a white outline to read).
    public static let categorical: [UInt32] = [0x2F7ED8, 0xE0702A, 0x139E73, 0xC0489A, 0xD4A20B,
                                                0x5B55C9, 0x3AA6C9, 0x8C6D3F, 0x6E8B1E, 0xB03A2E]

    /// The colour of category `index` (cycles through the palette).
    public static func category(_ index: Int) -> UInt32 {
        categorical[((index % categorical.count) + categorical.count) % categorical.count]
    }

    /// A yellow → orange → red ramp over `value` in `range` (e.g. earthquake magnitude).
    public static func ramp(_ value: Double, in range: ClosedRange<Double>) -> UInt32 {
        guard value.isFinite, range.upperBound > range.lowerBound else { return defaultPin }
        let t = min(1, max(0, (value - range.lowerBound) / (range.upperBound - range.lowerBound)))
        // Stops: #E8B500 (low), #E86A1A (mid), #B3122E (high).
        let stops: [(Double, Double, Double)] = [(0xE8, 0xB5, 0x00), (0xE8, 0x6A, 0x1A), (0xB3, 0x12, 0x2E)]
        let s = t * 2
        let i = min(1, Int(s))
        let f = s - Double(i)
        let a = stops[i], b = stops[i + 1]
        let r = UInt32((a.0 + (b.0 - a.0) * f).rounded()), g = UInt32((a.1 + (b.1 - a.1) * f).rounded())
        let bl = UInt32((a.2 + (b.2 - a.2) * f).rounded())
        return r << 16 | g << 8 | bl
    }

    /// Parses a simplestyle `marker-color` (`#rgb`, `#rrggbb`, with or without `#`); nil if invalid.
    public static func parse(_ text: String) -> UInt32? {
        var hex = Substring(text.trimmingCharacters(in: [" "]))
        if hex.hasPrefix("#") { hex = hex.dropFirst() }
        guard hex.count == 3 || hex.count == 6, let v = UInt32(hex, radix: 16) else { return nil }
        if hex.count == 6 { return v }
        let r = (v >> 8) & 0xF, g = (v >> 4) & 0xF, b = v & 0xF
        return (r * 17) << 16 | (g * 17) << 8 | (b * 17)
    }
}

private extension String {
    func trimmingCharacters(in set: [Character]) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}

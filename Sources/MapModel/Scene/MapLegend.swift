/// The map's legend (SPEC §7): one line per colour in use, saying what it means. Pure data, drawn
/// by MapRender's `LegendPainter` and read as text by screen readers.
public struct MapLegend: Sendable, Equatable {
    /// What a line's swatch shows.
    public enum Swatch: Sendable, Equatable {
        /// A place's round pin in a colour (0xRRGGBB).
        case dot(UInt32)
        /// A bubble in the fill of count step `n` (the palette's bubble ramp).
        case step(Int)
        /// A bubble filled with a colour (the value ramp's end).
        case bubble(UInt32)
        /// A colour ramp, low to high.
        case ramp([UInt32])
        /// A bubble with a ring of these colours.
        case ring([UInt32])
        /// A place's label capsule with this text (a price), as the map draws it.
        case capsule(String)
    }

    /// One line: a swatch and its words.
    public struct Entry: Sendable, Equatable {
        public var swatch: Swatch
        public var text: String
        public init(_ swatch: Swatch, _ text: String) { self.swatch = swatch; self.text = text }
    }

    /// Heading ("Magnitude", "Category", "Places").
    public var title: String
    public var entries: [Entry]

    public init(title: String, entries: [Entry]) { self.title = title; self.entries = entries }

    /// The legend as one sentence list, for the screen reader.
    public var accessibleText: String {
        "Legend, \(title): " + entries.map(\.text).joined(separator: "; ")
    }
}

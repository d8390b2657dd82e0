/// How many non-point geometries a load showed at a point on them (SPEC §4.1 "lines and
/// polygons are shown at a point on them (counted and said)"), by what they were. Both readers
/// place them by one rule (`WKBPlacement`) and say it with the same words.
extension LoadReport {
    /// Lines, polygons and other geometries placed at a point.
    public struct Placed: Sendable, Equatable {
        public var lines = 0
        public var polygons = 0
        public var others = 0

        public init(lines: Int = 0, polygons: Int = 0, others: Int = 0) {
            self.lines = lines
            self.polygons = polygons
            self.others = others
        }

        /// Counts one feature placed as `kind` (points, empties and invalid ones aren't counted here).
        mutating func count(_ kind: WKBPlacement.Kind) {
            switch kind {
            case .line: lines += 1
            case .polygon: polygons += 1
            case .other: others += 1
            case .point, .empty, .invalid: break
            }
        }

        mutating func add(_ other: Placed) {
            lines += other.lines
            polygons += other.polygons
            others += other.others
        }

        /// "1,204 polygons shown at a point inside each", one line per kind placed.
        public var messages: [String] {
            var out: [String] = []
            if polygons > 0 { out.append("\(formatCount(polygons)) \(polygons == 1 ? "polygon" : "polygons") shown at a point inside each") }
            if lines > 0 { out.append("\(formatCount(lines)) \(lines == 1 ? "line" : "lines") shown at \(lines == 1 ? "its" : "their") middle") }
            if others > 0 { out.append("\(formatCount(others)) other \(others == 1 ? "geometry" : "geometries") shown at a point on each") }
            return out
        }
    }
}

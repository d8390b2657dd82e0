/// What a load skipped, and why.
public struct LoadReport: Sendable, Equatable {
    /// Why a row, feature or point could not be used.
    public enum SkipReason: String, Sendable, CaseIterable, Hashable {
        /// Empty coordinate cells, missing `coordinates`, or fewer than two numbers.
        case noCoordinates
        /// A coordinate that is NaN or not a number at all.
        case notANumber
        /// Latitude beyond ±90° or longitude beyond ±180° (or infinite).
        case outOfRange
        /// A feature whose `geometry` is null or missing.
        case nullGeometry
        /// A geometry that can't be placed (a GeoJSON geometry without a type, or any non-point
        /// one when GDAL, which places them, is not installed).
        case unsupportedGeometry
        /// A CSV row with the wrong number of fields or broken quoting.
        case badRow
        /// A line of newline-delimited GeoJSON that is not a Feature (broken JSON, a stray value).
        case badLine

        /// Words for messages: "no coordinates".
        public var phrase: String {
            switch self {
            case .noCoordinates: return "no coordinates"
            case .notANumber: return "coordinates not a number"
            case .outOfRange: return "coordinates out of range"
            case .nullGeometry: return "null geometry"
            case .unsupportedGeometry: return "geometry that can't be shown at a point"
            case .badRow: return "wrong number of fields"
            case .badLine: return "not a GeoJSON feature"
            }
        }
    }

    /// How many were skipped for one reason, and where the first few were.
    public struct Skips: Sendable, Equatable {
        /// How many rows / features / points were skipped for this reason.
        public var count: Int = 0
        /// The first few places: physical line numbers (CSV, 1-based, header = line 1; and bad
        /// lines of newline-delimited GeoJSON) or feature indexes (GeoJSON and GDAL, 0-based;
        /// messages say them 1-based, as people count: "feature 1" is the first), each once.
        public var firstPositions: [Int] = []
        /// Points skipped: more than `count` when a MultiPoint feature had several bad points
        /// (`count` then counts the features, once each).
        public var points: Int = 0
        /// The last position counted, so a feature's second bad point doesn't count it again.
        var lastPosition: Int?
    }

    /// What the positions in `firstPositions` count.
    public enum Unit: String, Sendable, Equatable {
        case rows, features
    }

    /// How many positions are remembered per reason.
    public static let rememberedPositions = 5

    /// Rows (CSV) or features (GeoJSON).
    public var unit: Unit
    /// Data rows or features read (usable or not).
    public var itemsRead: Int = 0
    /// Points loaded.
    public var pointsLoaded: Int = 0
    /// Skips by reason; reasons with no skips are absent.
    public var skips: [SkipReason: Skips] = [:]
    /// Non-fatal remarks about the file.
    public var warnings: [String] = []
    /// Lines, polygons and other geometries shown at a point on them (said after `warnings`).
    public var placed = Placed()

    public init(unit: Unit) { self.unit = unit }

    /// Total skipped over all reasons.
    public var totalSkipped: Int { skips.values.reduce(0) { $0 + $1.count } }

    /// Counts one skipped row, feature or point at `position`. Several points of one feature
    /// (a MultiPoint) count that feature once and each point.
    public mutating func skip(_ reason: SkipReason, at position: Int) {
        var s = skips[reason] ?? Skips()
        s.points += 1
        if s.lastPosition != position {
            s.count += 1
            s.lastPosition = position
            if s.firstPositions.count < LoadReport.rememberedPositions { s.firstPositions.append(position) }
        }
        skips[reason] = s
    }

    /// Adds what a reader of a later part of the same file skipped; its positions (feature
    /// numbers) count from `positionBase`.
    mutating func append(_ other: LoadReport, positionBase: Int) {
        itemsRead += other.itemsRead
        pointsLoaded += other.pointsLoaded
        for (reason, theirs) in other.skips {
            var s = skips[reason] ?? Skips()
            s.count += theirs.count
            s.points += theirs.points
            for p in theirs.firstPositions where s.firstPositions.count < LoadReport.rememberedPositions {
                s.firstPositions.append(p + positionBase)
            }
            s.lastPosition = theirs.lastPosition.map { $0 + positionBase }
            skips[reason] = s
        }
        warnings += other.warnings
        placed.add(other.placed)
    }

    /// One line per reason, e.g. "1,204 rows skipped: no coordinates (lines 3, 17, 18, …)".
    public var messages: [String] {
        SkipReason.allCases.compactMap { reason in
            guard let s = skips[reason], s.count > 0 else { return nil }
            let noun: String
            let where_: String
            switch reason == .badLine ? .rows : unit {
            case .rows where reason == .badLine:
                noun = s.count == 1 ? "line" : "lines"
                where_ = s.firstPositions.count == 1 ? "line" : "lines"
            case .rows:
                noun = s.count == 1 ? "row" : "rows"
                where_ = s.firstPositions.count == 1 ? "line" : "lines"
            case .features:
                noun = s.count == 1 ? "feature" : "features"
                where_ = s.firstPositions.count == 1 ? "feature" : "features"
            }
            // Features are counted from 1 in words ("feature 1" is the first); lines already are.
            let base = reason != .badLine && unit == .features ? 1 : 0
            var list = s.firstPositions.map { formatCount($0 + base) }.joined(separator: ", ")
            if s.count > s.firstPositions.count { list += ", …" }
            // "3 points in 1 feature skipped": a MultiPoint's bad points are points, not features.
            let what = s.points > s.count
                ? "\(formatCount(s.points)) points in \(formatCount(s.count)) \(noun)"
                : "\(formatCount(s.count)) \(noun)"
            return "\(what) skipped: \(reason.phrase) (\(where_) \(list))"
        } + warnings + placed.messages
    }
}

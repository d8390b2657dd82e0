import ClusterCore
import GeoData
import MapModel

extension MapDataSession {
    /// `PlaceDirectory` over the session's point sets.
    public struct Places: PlaceDirectory, Sendable {
        let sources: [Source]
        /// Every point's coordinate, by global index.
        public let coordinates: [GeoCoordinate]
        private let firstIndices: [Int]
        private let numericRanges: [ClosedRange<Double>?]
        /// After live updates (one source): each point id's index in the source, −1 when removed.
        let localIndex: [Int32]?

        init(sources: [Source], coordinates: [GeoCoordinate], localIndex: [Int32]? = nil) {
            self.sources = sources
            self.coordinates = coordinates
            self.localIndex = localIndex
            firstIndices = sources.map(\.firstIndex)
            numericRanges = sources.map { src in
                guard case .numeric? = src.dataset?.coloring else { return nil }
                var lo = Double.infinity, hi = -Double.infinity
                for v in src.points.numericValues where v.isFinite { lo = min(lo, v); hi = max(hi, v) }
                return lo < hi ? lo...hi : nil
            }
        }

        /// Whether the id's place was removed by a live change.
        public func isRemoved(_ id: Int) -> Bool {
            guard let localIndex else { return false }
            return id >= localIndex.count || localIndex[id] < 0
        }

        func source(of point: Int) -> (source: Source, local: Int) {
            if let localIndex { return (sources[0], max(0, Int(localIndex[point]))) }
            // Few sources: a linear scan from the end is fastest.
            var i = firstIndices.count - 1
            while i > 0 && firstIndices[i] > point { i -= 1 }
            return (sources[i], point - firstIndices[i])
        }

        /// The place's name as shown (map, In View list, search): bounded and with direction
        /// overrides shown, not obeyed (`DisplayText`).
        public func name(of point: Int) -> String {
            let (src, local) = source(of: point)
            if let n = src.points.name(at: local), !n.isEmpty { return DisplayText.line(n) }
            if let l = src.points.label(at: local), !l.isEmpty { return DisplayText.line(l) }
            // Unnamed places (earthquakes): their measured value says more than a number.
            if let prop = src.points.numericPropertyName, let v = src.points.numericValue(at: local) {
                return PropertyFormat.fact(key: prop, value: v) ?? "\(PropertyFormat.words(prop)) \(PropertyFormat.number(v))"
            }
            return "Place \(src.points.sourcePositions[local] + 1)"
        }

        /// The place's name at its longest shown length (a tooltip, the card's "More"), when the
        /// shown `name(of:)` had to shorten it; nil otherwise.
        public func fullName(of point: Int) -> String? {
            let (src, local) = source(of: point)
            guard let n = src.points.name(at: local) ?? src.points.label(at: local), !n.isEmpty else { return nil }
            let full = DisplayText.line(n, limit: DisplayText.fullLength)
            return full == name(of: point) ? nil : full
        }

        public func label(of point: Int) -> String? {
            let (src, local) = source(of: point)
            guard let l = src.points.label(at: local), !l.isEmpty else { return nil }
            return DisplayText.line(l)
        }

        public func color(of point: Int) -> UInt32 {
            let (src, local) = source(of: point)
            if let text = src.points.markerColor(at: local), let c = PlaceColors.parse(text) { return c }
            let sourceNumber = sources.firstIndex { $0.firstIndex == src.firstIndex } ?? 0
            if sources.count > 1 { return PlaceColors.category(sourceNumber) }
            switch src.dataset?.coloring {
            case .numeric?:
                if let range = numericRanges[sourceNumber], let v = src.points.numericValue(at: local) {
                    return PlaceColors.ramp(v, in: range)
                }
                return PlaceColors.defaultPin
            case .category?, nil:
                if let c = src.points.category(at: local) { return PlaceColors.category(c) }
                return PlaceColors.defaultPin
            case .plain?:
                return PlaceColors.defaultPin
            }
        }

        public func coordinate(of point: Int) -> GeoCoordinate { coordinates[point] }

        /// The range of a numerically coloured source's values (the ramp's ends).
        public func numericRange(ofSource i: Int) -> ClosedRange<Double>? {
            i < numericRanges.count ? numericRanges[i] : nil
        }
    }
}

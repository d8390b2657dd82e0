import ClusterCore

// Reading a feature by a plain layout (`PlainLayout`): the fast path of generated point files.
extension GeoJSONReader {
    /// How a run of plain features (`readPlainRun`) ended.
    enum PlainRunEnd {
        /// A feature was read and something other than `,` follows it directly (white space,
        /// the array's `]`, or an error): `pos` is right after the feature, and the general
        /// path reads what follows.
        case featureRead
        /// The feature at `pos` differs from the layout; the general path reads it.
        case differs
        /// A feature and its `,` were read and the next feature starts at or after `stopAt`
        /// (`pos`).
        case reachedStop
    }

    /// Reads features by `pieces` from `pos` (a feature's start), numbering them from `index`,
    /// as long as each matches the layout and is followed directly by `,` — the whole of a
    /// generated file, with a cursor of its own instead of `pos` (issue 14: at ten million
    /// features every instruction counts). Accepts exactly what `readFeatureByLayout` with the
    /// same layout accepts: any difference leaves the feature to the general path, which reads
    /// it again from its start and reports any error.
    @inline(__always)
    mutating func readPlainRun(_ pieces: UnsafeBufferPointer<PlainLayout.Piece>, fixed: UnsafePointer<UInt8>,
                               index: inout Int, stopAt: Int) throws -> PlainRunEnd {
        let p = self.p, end = self.end
        let batch = plainBatch ?? makePlainBatch()
        // Every way out hands the batch's points over first (a throw from the ticker included).
        defer { builder.append(batch) }
        var i = pos
        while true {
            let start = i
            var lon = 0.0, lat = 0.0
            for piece in pieces {
                let n = Int(piece.count)
                guard i + n <= end, piece.matches(p + i, fixed: fixed) else {
                    pos = start
                    return .differs
                }
                i += n
                switch piece.value {
                case .longitude, .latitude, .otherCoordinate:
                    let v: Double
                    if let short = FastDouble.signedShortDecimal(p, at: i) {
                        i = short.end
                        v = short.value
                    } else {
                        pos = i
                        guard let any = anyNumber() else { pos = start; return .differs }
                        i = pos
                        v = any
                    }
                    if piece.value == .longitude { lon = v } else if piece.value == .latitude { lat = v }
                case .skip:
                    if let e = GeoJSONReader.shortIntegerEnd(p, at: i) {
                        i = e
                    } else {
                        pos = i
                        do { try skipValue(depth: Int(piece.depth)) } catch { pos = start; return .differs }
                        i = pos
                    }
                case .end:
                    break
                }
            }
            layoutMisses = 0
            if let reason = GeoJSONReader.validate(lon: lon, lat: lat, status: .ok) {
                report.skip(reason, at: index)
            } else {
                if batch.add(GeoCoordinate(latitude: lat, longitude: lon), offset: start, position: index) {
                    builder.append(batch)
                }
            }
            index += 1
            try ticker.tick(i)
            guard p[i] == UInt8(ascii: ",") else {
                pos = i
                return .featureRead
            }
            i += 1
            while GeoJSONReader.isWhitespace(p[i]) { i += 1 }
            if i >= stopAt {
                pos = i
                return .reachedStop
            }
        }
    }

    /// The batch of the plain path, made on first use (readers made to read one record again
    /// never need one).
    @inline(never)
    mutating func makePlainBatch() -> PointBatch {
        let b = PointBatch()
        plainBatch = b
        return b
    }

    /// Where a plain integer of 1 to 7 digits (`17`, not `0`, `-3`, `1.5` or `2e3`) at `p[i]`
    /// ends; nil for anything else, which `skipValue` then takes.
    @inline(__always)
    static func shortIntegerEnd(_ p: UnsafePointer<UInt8>, at i: Int) -> Int? {
        guard p[i] &- 49 < 9 else { return nil }
        let run = FastDouble.digitRun(p + i)
        guard run.count < 8 else { return nil }
        let next = p[i + run.count]
        guard next != UInt8(ascii: "."), next | 0x20 != UInt8(ascii: "e") else { return nil }
        return i + run.count
    }

    /// The number at `pos` (moving past it), or nil where `scanNumber` would throw: numbers
    /// that are not short decimals, kept out of line so that the common path stays small
    /// enough to be inlined.
    @inline(never)
    mutating func anyNumber() -> Double? {
        guard GeoJSONReader.startsNumber(p[pos]) else { return nil }
        let r = FastDouble.scanJSONNumber(p, at: pos)
        guard r.ok else { return nil }
        pos = r.end
        return r.value
    }
}

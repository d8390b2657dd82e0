import ClusterCore

// Reading a feature by a plain layout (`PlainLayout`): the fast path of generated point files.
extension GeoJSONReader {
    /// Reads feature number `index` at `pos` by `pieces` and commits its point (or counts its
    /// skip) — true; or false with `pos` back at the feature's start when it differs from the
    /// layout in any way, and the general path (`parseFeature`) then reads it and reports any
    /// error. Accepts exactly what `readFeatureByLayout` with the same layout accepts.
    @inline(__always)
    mutating func readPlainFeature(_ pieces: UnsafeBufferPointer<PlainLayout.Piece>, fixed: UnsafePointer<UInt8>,
                                   index: Int) -> Bool {
        let start = pos
        var lon = 0.0, lat = 0.0
        for piece in pieces {
            let n = Int(piece.count)
            guard pos + n <= end, GeoJSONReader.sameBytes(p + pos, fixed + Int(piece.offset), n) else {
                pos = start
                return false
            }
            pos += n
            switch piece.value {
            case .longitude, .latitude, .otherCoordinate:
                guard let v = plainNumber() else { pos = start; return false }
                if piece.value == .longitude { lon = v } else if piece.value == .latitude { lat = v }
            case .skip:
                if !skipShortInteger() {
                    do { try skipValue(depth: Int(piece.depth)) } catch { pos = start; return false }
                }
            case .end:
                break
            }
        }
        layoutMisses = 0
        if let reason = GeoJSONReader.validate(lon: lon, lat: lat, status: .ok) {
            report.skip(reason, at: index)
        } else {
            builder.addPoint(GeoCoordinate(latitude: lat, longitude: lon), offset: start, position: index,
                             category: -1, numeric: .nan)
        }
        return true
    }

    /// The number at `pos` (moving past it), or nil where `scanNumber` would throw.
    @inline(__always)
    mutating func plainNumber() -> Double? {
        let negative = p[pos] == UInt8(ascii: "-")
        if let short = FastDouble.shortDecimal(p, at: negative ? pos + 1 : pos) {
            pos = short.end
            return negative ? -short.value : short.value
        }
        return anyNumber()
    }

    /// `plainNumber` for numbers that are not short decimals; kept out of line so that the
    /// common path stays small enough to be inlined.
    @inline(never)
    mutating func anyNumber() -> Double? {
        guard GeoJSONReader.startsNumber(p[pos]) else { return nil }
        let r = FastDouble.scanJSONNumber(p, at: pos)
        guard r.ok else { return nil }
        pos = r.end
        return r.value
    }

    /// Steps over a plain integer of 1 to 7 digits (`17`, not `0`, `-3`, `1.5` or `2e3`) at
    /// `pos`; false (nothing consumed) for anything else, which `skipValue` then takes.
    @inline(__always)
    mutating func skipShortInteger() -> Bool {
        guard p[pos] &- 49 < 9 else { return false }
        let run = FastDouble.digitRun(p + pos)
        guard run.count < 8 else { return false }
        let next = p[pos + run.count]
        guard next != UInt8(ascii: "."), next | 0x20 != UInt8(ascii: "e") else { return false }
        pos += run.count
        return true
    }
}

// A feature's `geometry`: its type and coordinates (one position, a list of positions, or
// something deeper, which is skipped).
extension GeoJSONReader {
    mutating func parseGeometry(depth: Int) throws {
        let c = p[pos]
        if c == UInt8(ascii: "n") {
            try expectLiteral("null")
            cur.kind = .null
            return
        }
        guard c == UInt8(ascii: "{") else { throw expected("\"geometry\" to be an object or null") }
        cur.kind = .untyped
        cur.geometryStart = pos
        defer { cur.geometryEnd = pos }
        guard enterContainer(closedBy: UInt8(ascii: "}")) else { return }
        repeat {
            let key = try scanMemberName()
            if GeoJSONReader.keyIs(p, key, .type) {
                guard p[pos] == 34 else { throw expected("the geometry \"type\" to be a string") }
                let t = try scanString()
                if KeyWord.point.matches(p, t.start, t.end - t.start) { cur.kind = .point }
                else if KeyWord.multiPoint.matches(p, t.start, t.end - t.start) { cur.kind = .multiPoint }
                else { cur.kind = .other }
            } else if GeoJSONReader.keyIs(p, key, .coordinates) {
                try parseCoordinates(depth: depth + 1)
            } else {
                try skipValue(depth: depth + 1)
            }
        } while try nextElementFollows(closer: UInt8(ascii: "}"), expecting: "',' or '}' after a member of the geometry")
    }

    mutating func parseCoordinates(depth: Int) throws {
        let c = p[pos]
        if c == UInt8(ascii: "n") {
            try expectLiteral("null")
            cur.shape = .none
            return
        }
        guard c == UInt8(ascii: "[") else { throw expected("\"coordinates\" to be an array") }
        // Not `enterContainer`: the first byte decides the shape, so read it once.
        pos += 1
        skipWhitespace()
        let first = p[pos]
        if first == UInt8(ascii: "]") {
            pos += 1
            cur.shape = .empty
            return
        }
        if first != UInt8(ascii: "[") {
            let r = try parsePosition(depth: depth + 1)
            cur.shape = .position
            cur.lon = r.lon
            cur.lat = r.lat
            cur.status = r.status
            return
        }
        // An array of positions (MultiPoint, LineString) or deeper (polygons).
        multiLon.removeAll(keepingCapacity: true)
        multiLat.removeAll(keepingCapacity: true)
        multiStatus.removeAll(keepingCapacity: true)
        cur.shape = .positions
        while true {
            let separatorError: StaticString
            if p[pos] == UInt8(ascii: "[") {
                let elementStart = pos
                pos += 1
                skipWhitespace()
                if cur.shape == .deeper || p[pos] == UInt8(ascii: "[") {
                    cur.shape = .deeper
                    pos = elementStart
                    try skipValue(depth: depth + 1)
                } else {
                    let r = try parsePosition(depth: depth + 2)
                    multiLon.append(r.lon)
                    multiLat.append(r.lat)
                    multiStatus.append(r.status)
                    try ticker.tick(pos)   // one huge MultiPoint still reports progress and can be cancelled
                }
                separatorError = "',' or ']' after a position"
            } else {
                guard cur.shape == .deeper else { throw expected("a position '['") }
                try skipValue(depth: depth + 1)
                separatorError = "',' or ']' in coordinates"
            }
            guard try nextElementFollows(closer: UInt8(ascii: "]"), expecting: separatorError) else { return }
        }
    }

    /// Reads the elements of a position; `pos` is just inside its '['.
    @inline(__always)
    mutating func parsePosition(depth: Int) throws -> (lon: Double, lat: Double, status: PositionStatus) {
        var n = 0
        var lon = 0.0, lat = 0.0
        var status = PositionStatus.ok
        if p[pos] == UInt8(ascii: "]") { pos += 1; return (0, 0, .tooFew) }
        repeat {
            let c = p[pos]
            if GeoJSONReader.startsNumber(c) {
                let v = try scanNumber()
                if n == 0 { lon = v } else if n == 1 { lat = v }
            } else {
                if n < 2 && status == .ok { status = c == UInt8(ascii: "n") ? .tooFew : .notANumber }
                try skipValue(depth: depth)
            }
            n += 1
        } while try nextElementFollows(closer: UInt8(ascii: "]"), expecting: "',' or ']' after a coordinate")
        if n < 2 { status = .tooFew }
        return (lon, lat, status)
    }
}

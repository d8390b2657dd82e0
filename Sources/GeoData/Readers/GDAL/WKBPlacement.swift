import CGDAL

/// Where a feature's geometry is shown (issue 30 item 5): a point is itself, a MultiPoint each of
/// its points, a line its middle (along its length; the longest part of a MultiLineString), a
/// polygon a point inside it (GEOS's point on surface, through OGR), anything else a point on it.
/// Z and M are read past and dropped. Coordinates stay in the layer's CRS.
enum WKBPlacement {
    /// What kind of geometry a feature had, for counting ("1,204 polygons shown at a point inside each").
    enum Kind { case point, line, polygon, other, empty, invalid }

    /// Appends the geometry's placement point(s) to `xs`/`ys` and says what it was.
    static func place(_ wkb: UnsafeRawBufferPointer, xs: inout [Double], ys: inout [Double]) -> Kind {
        var r = Reader(p: wkb)
        guard let head = r.header() else { return .invalid }
        switch head.type {
        case 1:
            guard let (x, y) = r.xy(head), !x.isNaN, !y.isNaN else { return r.ok ? .empty : .invalid }
            xs.append(x); ys.append(y)
            return .point
        case 4:
            let n = r.count()
            var added = 0
            for _ in 0..<n {
                guard let h = r.header(), h.type == 1, let (x, y) = r.xy(h) else { return .invalid }
                if x.isNaN || y.isNaN { continue }
                xs.append(x); ys.append(y)
                added += 1
            }
            return added == 0 ? .empty : .point
        case 2:
            guard let m = r.lineMiddle(head) else { return r.ok ? .empty : .invalid }
            xs.append(m.x); ys.append(m.y)
            return .line
        case 5:
            let n = r.count()
            var best: (x: Double, y: Double, length: Double)?
            for _ in 0..<n {
                guard let h = r.header(), h.type == 2 else { return .invalid }
                if let m = r.lineMiddle(h), m.length >= (best?.length ?? -1) { best = m }
                guard r.ok else { return .invalid }
            }
            guard let best else { return .empty }
            xs.append(best.x); ys.append(best.y)
            return .line
        default:
            return placeThroughOGR(wkb, type: head.type, xs: &xs, ys: &ys)
        }
    }

    /// Polygons, curves and collections: OGR builds the geometry (curves made linear) and GEOS
    /// finds a point on its surface (the centroid if GEOS says nothing, e.g. an invalid ring).
    private static func placeThroughOGR(_ wkb: UnsafeRawBufferPointer, type: UInt32,
                                        xs: inout [Double], ys: inout [Double]) -> Kind {
        guard let base = wkb.baseAddress, wkb.count < Int(Int32.max) else { return .invalid }
        var g: OGRGeometryH?
        guard gdal.OGR_G_CreateFromWkb!(base, nil, &g, Int32(wkb.count)) == OGRERR_NONE, let geom = g else { return .invalid }
        defer { gdal.OGR_G_DestroyGeometry!(geom) }
        if gdal.OGR_G_IsEmpty!(geom) != 0 { return .empty }
        let isLine = type == 8 || type == 9 || type == 11   // CircularString, CompoundCurve, MultiCurve
        if isLine, let linear = gdal.OGR_G_GetLinearGeometry!(geom, 0, nil) {
            defer { gdal.OGR_G_DestroyGeometry!(linear) }
            let size = Int(gdal.OGR_G_WkbSize!(linear))
            var bytes = [UInt8](repeating: 0, count: size)
            guard gdal.OGR_G_ExportToIsoWkb!(linear, wkbNDR, &bytes) == OGRERR_NONE else { return .invalid }
            let kind = bytes.withUnsafeBytes { place($0, xs: &xs, ys: &ys) }
            return kind == .line ? .line : kind
        }
        let linear = gdal.OGR_G_HasCurveGeometry!(geom, 0) != 0 ? gdal.OGR_G_GetLinearGeometry!(geom, 0, nil) : nil
        defer { if let linear { gdal.OGR_G_DestroyGeometry!(linear) } }
        let shape = linear ?? geom
        var point = gdal.OGR_G_PointOnSurface!(shape)
        if point == nil || gdal.OGR_G_IsEmpty!(point) != 0 {
            if let p = point { gdal.OGR_G_DestroyGeometry!(p) }
            point = gdal.OGR_G_CreateGeometry!(wkbPoint)
            if gdal.OGR_G_Centroid!(shape, point) != OGRERR_NONE { gdal.OGR_G_DestroyGeometry!(point); return .invalid }
        }
        guard let p = point else { return .invalid }
        defer { gdal.OGR_G_DestroyGeometry!(p) }
        let x = gdal.OGR_G_GetX!(p, 0), y = gdal.OGR_G_GetY!(p, 0)
        guard !x.isNaN, !y.isNaN else { return .empty }
        xs.append(x); ys.append(y)
        // Polygon, CurvePolygon, MultiPolygon, MultiSurface, PolyhedralSurface, TIN, Triangle.
        return [3, 6, 10, 12, 15, 16, 17].contains(type) ? .polygon : .other
    }

    /// A cursor over WKB bytes (ISO and extended WKB, either byte order).
    struct Reader {
        let p: UnsafeRawBufferPointer
        var pos = 0
        var little = true
        var ok = true

        init(p: UnsafeRawBufferPointer) { self.p = p }

        struct Header { var type: UInt32; var dims: Int; var little: Bool }

        mutating func header() -> Header? {
            guard pos + 5 <= p.count else { ok = false; return nil }
            little = p[pos] == 1
            pos += 1
            let raw = u32()
            var dims = 2
            var t = raw & 0x0FFF_FFFF
            // Extended WKB flags (PostGIS): Z, M, SRID.
            if raw & 0x8000_0000 != 0 { dims += 1 }
            if raw & 0x4000_0000 != 0 { dims += 1 }
            if raw & 0x2000_0000 != 0 { pos += 4 }
            // ISO: 1000 Z, 2000 M, 3000 ZM.
            switch t / 1000 {
            case 1, 2: dims += 1
            case 3: dims += 2
            default: break
            }
            t %= 1000
            return Header(type: t, dims: dims, little: little)
        }

        mutating func u32() -> UInt32 {
            guard pos + 4 <= p.count else { ok = false; pos = p.count; return 0 }
            var v = p.loadUnaligned(fromByteOffset: pos, as: UInt32.self)
            if !little { v = v.byteSwapped }
            pos += 4
            return v
        }

        mutating func count() -> Int {
            let n = Int(u32())
            // Each element takes at least 5 bytes: a count beyond the bytes left is damage.
            if n > (p.count - pos) / 5 + 1 { ok = false; return 0 }
            return n
        }

        mutating func f64() -> Double {
            guard pos + 8 <= p.count else { ok = false; pos = p.count; return .nan }
            var bits = p.loadUnaligned(fromByteOffset: pos, as: UInt64.self)
            if !little { bits = bits.byteSwapped }
            pos += 8
            return Double(bitPattern: bits)
        }

        /// One vertex (x, y; Z/M skipped); nil when the bytes end.
        mutating func xy(_ h: Header) -> (Double, Double)? {
            guard pos + 8 * h.dims <= p.count else { ok = false; return nil }
            let x = f64(), y = f64()
            pos += 8 * (h.dims - 2)
            return (x, y)
        }

        /// The point halfway along a LineString's length (its body follows `h`), and the length.
        mutating func lineMiddle(_ h: Header) -> (x: Double, y: Double, length: Double)? {
            let n = Int(u32())
            guard ok, n > 0, n <= (p.count - pos) / (8 * h.dims) else { if n != 0 { ok = false }; return nil }
            let start = pos
            var total = 0.0
            var (px, py) = xy(h)!
            for _ in 1..<max(n, 1) {
                let (x, y) = xy(h)!
                total += ((x - px) * (x - px) + (y - py) * (y - py)).squareRoot()
                (px, py) = (x, y)
            }
            let end = pos
            pos = start
            var (ax, ay) = xy(h)!
            if n == 1 || !(total > 0) { pos = end; return (ax, ay, 0) }
            var walked = 0.0
            let half = total / 2
            var result = (x: ax, y: ay)
            for _ in 1..<n {
                let (bx, by) = xy(h)!
                let seg = ((bx - ax) * (bx - ax) + (by - ay) * (by - ay)).squareRoot()
                if walked + seg >= half && seg > 0 {
                    let t = (half - walked) / seg
                    result = (ax + (bx - ax) * t, ay + (by - ay) * t)
                    break
                }
                walked += seg
                (ax, ay) = (bx, by)
            }
            pos = end
            return (result.x, result.y, total)
        }
    }
}

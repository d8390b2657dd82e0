import CCairo

/// Where `BaseMapPainter` sends the culled vertices of a layer: cairo's current path (for fills)
/// or a `MapLinePath` (for the project's own line rasterisers, skipping cairo's path storage and
/// `cairo_copy_path` for lines). Generic, so each use is specialised (no calls through a table).
protocol MapPathSink {
    mutating func move(toX x: Double, y: Double)
    mutating func line(toX x: Double, y: Double)
    mutating func closePath()
}

/// Appends to a cairo context's current path.
struct CairoPathSink: MapPathSink {
    let cr: OpaquePointer
    @inline(__always) func move(toX x: Double, y: Double) { cairo_move_to(cr, x, y) }
    @inline(__always) func line(toX x: Double, y: Double) { cairo_line_to(cr, x, y) }
    @inline(__always) func closePath() { cairo_close_path(cr) }
}

/// Sends every vertex to two sinks (a lake's fill and its outline from one culling pass).
struct TeePathSink<First: MapPathSink, Second: MapPathSink>: MapPathSink {
    var first: First
    var second: Second
    @inline(__always) mutating func move(toX x: Double, y: Double) {
        first.move(toX: x, y: y)
        second.move(toX: x, y: y)
    }
    @inline(__always) mutating func line(toX x: Double, y: Double) {
        first.line(toX: x, y: y)
        second.line(toX: x, y: y)
    }
    @inline(__always) mutating func closePath() {
        first.closePath()
        second.closePath()
    }
}

/// Polylines in user space, kept as flat coordinate arrays (reused between strokes: see
/// `PathStroker.linePath`).
final class MapLinePath: MapPathSink {
    /// Vertices, x and y interleaved.
    @exclusivity(unchecked) private(set) var coordinates: [Double] = []
    /// Index (in vertices) where each polyline starts.
    @exclusivity(unchecked) private(set) var polylineStarts: [Int] = []
    /// Whether each polyline closes back to its first vertex.
    @exclusivity(unchecked) private(set) var isClosed: [Bool] = []

    /// Number of polylines.
    var polylineCount: Int { isClosed.count }
    var isEmpty: Bool { isClosed.isEmpty }

    /// Forgets the path, keeping the storage.
    func removeAll() {
        coordinates.removeAll(keepingCapacity: true)
        polylineStarts.removeAll(keepingCapacity: true)
        isClosed.removeAll(keepingCapacity: true)
    }

    @inline(__always) func move(toX x: Double, y: Double) {
        polylineStarts.append(coordinates.count / 2)
        isClosed.append(false)
        coordinates.append(x)
        coordinates.append(y)
    }

    @inline(__always) func line(toX x: Double, y: Double) {
        coordinates.append(x)
        coordinates.append(y)
    }

    @inline(__always) func closePath() {
        if !isClosed.isEmpty { isClosed[isClosed.count - 1] = true }
    }

    /// Vertex range of polyline `k`.
    func vertices(ofPolyline k: Int) -> Range<Int> {
        polylineStarts[k]..<(k + 1 < polylineStarts.count ? polylineStarts[k + 1] : coordinates.count / 2)
    }

    /// Replays the path into cairo's current path (the fallback for surfaces the rasterisers can't
    /// draw into).
    func appendTo(_ cr: OpaquePointer) {
        for k in 0..<polylineCount {
            let r = vertices(ofPolyline: k)
            guard let first = r.first else { continue }
            cairo_move_to(cr, coordinates[2 * first], coordinates[2 * first + 1])
            for v in r.dropFirst() { cairo_line_to(cr, coordinates[2 * v], coordinates[2 * v + 1]) }
            if isClosed[k] { cairo_close_path(cr) }
        }
    }
}

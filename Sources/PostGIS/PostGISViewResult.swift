/// What a view query returned and how it was computed.
public struct PostGISViewResult: Sendable {
    /// How the items were computed.
    public enum Method: Sendable, Equatable {
        /// The view's points were fetched and clustered in process.
        case fetched(points: Int)
        /// The server grouped the view's points into grid cells.
        case aggregated(cells: Int)
        /// Read from the per-zoom pyramid table.
        case pyramid(cells: Int)
    }
    public var items: [PostGISItem]
    public var method: Method
    /// Seconds the queries took.
    public var seconds: Double
    /// The places' own columns by id, as JSON objects without the geometry (asked for by the
    /// window's queue for the places it shows: their cards; empty otherwise).
    public var placeProperties: [Int64: String] = [:]
    /// Whether the view queue answered it from its cache (no query ran).
    public var fromCache = false
}

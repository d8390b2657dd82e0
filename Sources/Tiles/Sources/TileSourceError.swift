/// Why a tile file can't be used or a tile can't be read.
public enum TileSourceError: Error, CustomStringConvertible, Equatable {
    /// The file could not be opened.
    case cannotOpen(path: String, reason: String)
    /// The file is not of the expected kind or is damaged.
    case corrupt(path: String, reason: String)
    /// A query failed while reading a tile.
    case readFailed(reason: String)

    /// The error without the file's path, for a message that names the file itself (so the path
    /// shows once): "not a usable tile file (not a PMTiles file)".
    public var reason: String {
        switch self {
        case let .cannotOpen(_, reason): return "can't open the tile file (\(reason))"
        case let .corrupt(_, reason): return "not a usable tile file (\(reason))"
        case let .readFailed(reason): return "can't read a tile (\(reason))"
        }
    }

    /// `reason` for a tile-source error, the description for any other.
    public static func reason(of error: Error) -> String {
        (error as? TileSourceError)?.reason ?? "\(error)"
    }

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason): return "can't open \(path): \(reason)"
        case let .corrupt(path, reason): return "\(path) is not a usable tile file: \(reason)"
        case let .readFailed(reason): return "can't read a tile: \(reason)"
        }
    }
}

import Foundation
import ClusterCore

/// Machine-readable event log: one JSON object per line, flushed at once (README "Event log").
///
/// Testers and tools read it to know what the window shows without scraping pixels.
public final class EventLog: @unchecked Sendable {
    private let handle: FileHandle?
    private let lock = NSLock()

    /// Opens the log at a path (`-` is standard output); `nil` logs nothing.
    public init(path: String?) {
        guard let path else { handle = nil; return }
        if path == "-" {
            handle = FileHandle.standardOutput
        } else {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            handle = FileHandle(forWritingAtPath: path)
        }
    }

    /// Whether events are being written at all (skip building them otherwise).
    public var isEnabled: Bool { handle != nil }

    /// Characters of one string field at most: a 1 MB property value made a 1 MB event line.
    public static let maxFieldLength = 4096

    /// Writes one event: `{"event":name, …fields}` with fields in the given order. String values
    /// are made safe for a shared log: secrets in URLs show as `key=***` (`SecretRedaction`) and
    /// a string longer than `maxFieldLength` characters is cut with "…".
    public func emit(_ name: String, _ fields: [(String, JSONValue)] = []) {
        guard let handle else { return }
        var line = "{\"event\":\(JSONValue.string(name).encoded)"
        for (k, v) in fields {
            line += ",\(JSONValue.string(k).encoded):\(Self.safe(v).encoded)"
        }
        line += "}\n"
        lock.lock()
        handle.write(line.data(using: .utf8)!)
        lock.unlock()
    }

    /// A field value as the log writes it (see `emit`).
    static func safe(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let s):
            let short = !s.unicodeScalars.dropFirst(maxFieldLength).isEmpty
                ? String(String.UnicodeScalarView(s.unicodeScalars.prefix(maxFieldLength))) + "…" : s
            return .string(SecretRedaction.redacted(short))
        case .array(let a): return .array(a.map(safe))
        case .object(let o): return .object(o.map { ($0.0, safe($0.1)) })
        default: return value
        }
    }
}

/// A JSON value for event fields, encoded compactly.
public indirect enum JSONValue: Sendable, Equatable {
    case number(Double)
    case int(Int)
    case string(String)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.encoded == b.encoded }

    /// Compact JSON text. Non-finite numbers become null (JSON has no NaN).
    public var encoded: String {
        switch self {
        case .number(let d):
            guard d.isFinite else { return "null" }
            if d == d.rounded() && abs(d) < 1e15 { return String(Int(d)) }
            return String(d)
        case .int(let i): return String(i)
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .string(let s): return JSONValue.quote(s)
        case .array(let a): return "[" + a.map(\.encoded).joined(separator: ",") + "]"
        case .object(let o):
            return "{" + o.map { JSONValue.quote($0.0) + ":" + $0.1.encoded }.joined(separator: ",") + "}"
        }
    }

    /// Quotes a string with JSON escapes (`JSONText.quoted`, shared with the tile reader).
    public static func quote(_ s: String) -> String { JSONText.quoted(s) }
}

/// Milliseconds since this process started (from /proc, so it includes loading and linking).
public enum ProcessClock {
    /// Monotonic seconds (CLOCK_MONOTONIC).
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Process start in CLOCK_MONOTONIC-compatible seconds (boot-time based, from /proc/self/stat).
    public static let processStart: Double = {
        if let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
           let close = stat.lastIndex(of: ")") {
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // Field 22 (starttime) is the 20th after the ")" (fields 3… start at index 0).
            if fields.count > 19, let ticks = Double(fields[19]) {
                let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
                return ticks / hz
            }
        }
        return now()
    }()

    /// Milliseconds elapsed since the process started.
    public static func millisecondsSinceStart() -> Double {
        // CLOCK_MONOTONIC and /proc starttime both count from boot on Linux (ignoring suspend).
        max(0, (now() - processStart) * 1000)
    }
}

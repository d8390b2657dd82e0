import Foundation
import XCTest
@testable import PostGIS

/// A throw-away PostgreSQL 15 + PostGIS on 127.0.0.1 (scripts/test-postgres.sh): started by a test
/// class, stopped after it; its data in a temporary folder removed at the end.
final class TestPostgres {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let folder: String
    private(set) var port: Int

    /// Starts a server on a free port in 55400…55499.
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("postgis-tests-\(UUID().uuidString)").path
        var port = 55400 + Int(getpid() % 90)
        var lastError = ""
        for _ in 0..<10 {
            do {
                try Self.script(["start", folder, String(port)])
                self.port = port
                return
            } catch {
                lastError = "\(error)"
                _ = try? Self.script(["stop", folder, "immediate"])
                try? FileManager.default.removeItem(atPath: folder)
                port = 55400 + (port - 55400 + 7) % 100
            }
        }
        throw NSError(domain: "TestPostgres", code: 1, userInfo: [NSLocalizedDescriptionKey: "no server started: \(lastError)"])
    }

    /// `postgresql://postgres@127.0.0.1:PORT/test?table=…`
    func address(_ table: String, user: String = "postgres", extra: String = "") -> String {
        "postgresql://\(user)@127.0.0.1:\(port)/test?table=\(table)\(extra)"
    }

    /// A plain connection for loading fixtures.
    func connect() throws -> PostgresConnection {
        try PostgresConnection(uri: "postgresql://postgres@127.0.0.1:\(port)/test")
    }

    /// Stops the server (`immediate`: as if killed) without removing its data.
    func stop(mode: String = "fast") { _ = try? Self.script(["stop", folder, mode]) }

    /// Starts the stopped server again on the same port.
    func restart() throws { try Self.script(["restart", folder, String(port)]) }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs scripts/test-postgres.sh and waits for it with waitpid (Foundation's Process can miss
    /// the exit of a child whose grandchild, the server, lives on, and then waits forever).
    static func script(_ args: [String]) throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("test-postgres-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let argv = ["/bin/bash", root.appendingPathComponent("scripts/test-postgres.sh").path] + args
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid: pid_t = 0
        let cargs = argv.map { strdup($0) } + [nil]
        defer { cargs.forEach { free($0) } }
        let rc = posix_spawn(&pid, argv[0], &actions, nil, cargs, environ)
        guard rc == 0 else { throw NSError(domain: "TestPostgres", code: Int(rc)) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7f == 0, code = (status >> 8) & 0xff
        guard exited && code == 0 else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw NSError(domain: "TestPostgres", code: Int(code), userInfo: [NSLocalizedDescriptionKey: text])
        }
    }
}

/// Loads points into a table `name` (id bigserial key, geom Point 4326, mag, kind) in one statement
/// (arrays as parameters; doubles as shortest round-trip text, which PostgreSQL reads back exactly).
func loadPoints(_ points: [(lon: Double, lat: Double, mag: Double, kind: String)], into name: String,
                on c: PostgresConnection) throws {
    _ = try c.query("CREATE TABLE \(name) (id bigserial PRIMARY KEY, geom geometry(Point, 4326), mag float8, kind text)")
    func array(_ v: [String]) -> String { "{" + v.joined(separator: ",") + "}" }
    let kinds = points.map { "\"" + $0.kind.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
    _ = try c.query("INSERT INTO \(name) (geom, mag, kind) SELECT ST_SetSRID(ST_MakePoint(x, y), 4326), m, k "
                    + "FROM unnest($1::float8[], $2::float8[], $3::float8[], $4::text[]) WITH ORDINALITY AS u(x, y, m, k, o) ORDER BY o",
                    [array(points.map { "\($0.lon)" }), array(points.map { "\($0.lat)" }), array(points.map { "\($0.mag)" }), array(kinds)])
    _ = try c.query("CREATE INDEX ON \(name) USING gist (geom)")
    _ = try c.query("ANALYZE \(name)")
}

import Foundation

/// A temporary folder removed at the end of a test.
public final class TemporaryFolder {
    public let url: URL
    public init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tiles-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    deinit { try? FileManager.default.removeItem(at: url) }
}

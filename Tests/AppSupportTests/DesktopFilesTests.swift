import XCTest
import Foundation

/// The installed desktop integration files pass the freedesktop validators.
final class DesktopFilesTests: XCTestCase {
    private var resources: String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Resources").path
    }

    private func validate(_ tool: String, _ args: [String]) throws -> (Int32, String) {
        guard let path = ["/usr/bin/\(tool)", "/bin/\(tool)"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("\(tool) missing (make test installs it)") }
            throw XCTSkip("\(tool) is not installed")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, text)
    }

    func testDesktopFileIsValid() throws {
        let (status, text) = try validate("desktop-file-validate", [resources + "/org.clustermap.ClusterMap.desktop"])
        XCTAssertEqual(status, 0, text)
        XCTAssertFalse(text.contains("error"), text)
    }

    func testMetainfoIsValid() throws {
        let (status, text) = try validate("appstreamcli", ["validate", "--no-net", resources + "/org.clustermap.ClusterMap.metainfo.xml"])
        XCTAssertEqual(status, 0, text)
    }

    func testIconIsSVG() throws {
        let svg = try String(contentsOfFile: resources + "/org.clustermap.ClusterMap.svg", encoding: .utf8)
        XCTAssertTrue(svg.contains("<svg"))
    }
}

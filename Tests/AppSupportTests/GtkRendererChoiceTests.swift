import AppSupport
import Foundation
import XCTest

final class GtkRendererChoiceTests: XCTestCase {
    func testNoGPUAsksForTheCairoRenderer() {
        XCTAssertEqual(GtkRendererChoice.rendererOverride(environment: [:], hasRenderNode: false), "cairo")
    }

    func testAGPULeavesGTKsChoiceAlone() {
        XCTAssertNil(GtkRendererChoice.rendererOverride(environment: [:], hasRenderNode: true))
    }

    func testTheRenderersChosenByThePersonIsKept() {
        XCTAssertNil(GtkRendererChoice.rendererOverride(environment: ["GSK_RENDERER": "ngl"], hasRenderNode: false))
        XCTAssertNil(GtkRendererChoice.rendererOverride(environment: ["GSK_RENDERER": "gl"], hasRenderNode: true))
        // An empty value is no choice.
        XCTAssertEqual(GtkRendererChoice.rendererOverride(environment: ["GSK_RENDERER": ""], hasRenderNode: false), "cairo")
    }

    func testSoftwareGLIsTreatedAsNoGPU() {
        XCTAssertEqual(GtkRendererChoice.rendererOverride(environment: ["LIBGL_ALWAYS_SOFTWARE": "1"], hasRenderNode: true), "cairo")
        XCTAssertNil(GtkRendererChoice.rendererOverride(environment: ["LIBGL_ALWAYS_SOFTWARE": "0"], hasRenderNode: true))
    }

    func testARenderNodeIsFoundByName() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dri-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        XCTAssertFalse(GtkRendererChoice.machineHasRenderNode(devicesFolder: dir.path))
        _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("card0").path, contents: nil)
        XCTAssertFalse(GtkRendererChoice.machineHasRenderNode(devicesFolder: dir.path), "a card node alone is not a render node")
        _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("renderD128").path, contents: nil)
        XCTAssertTrue(GtkRendererChoice.machineHasRenderNode(devicesFolder: dir.path))
        XCTAssertFalse(GtkRendererChoice.machineHasRenderNode(devicesFolder: dir.path + "/missing"))
    }

    func testWithTheCairoRendererGDKLoadsNoGL() {
        func changes(_ env: [String: String], gpu: Bool) -> [String] {
            GtkRendererChoice.environmentChanges(environment: env, hasRenderNode: gpu).map { "\($0.0)=\($0.1)" }
        }
        XCTAssertEqual(changes([:], gpu: false), ["GSK_RENDERER=cairo", "GDK_DEBUG=gl-disable"])
        XCTAssertEqual(changes(["GDK_DEBUG": "events"], gpu: false), ["GSK_RENDERER=cairo", "GDK_DEBUG=events,gl-disable"])
        XCTAssertEqual(changes(["GDK_DEBUG": "gl-disable"], gpu: false), ["GSK_RENDERER=cairo"])
        XCTAssertEqual(changes([:], gpu: true), [])
        XCTAssertEqual(changes(["GSK_RENDERER": "gl"], gpu: false), [])
    }
}

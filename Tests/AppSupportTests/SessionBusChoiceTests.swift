import AppSupport
import Foundation
import XCTest

final class SessionBusChoiceTests: XCTestCase {
    func testNoSessionBusMeansNoneIsStarted() {
        XCTAssertEqual(SessionBusChoice.addressOverride(environment: [:], runtimeBusExists: false), "disabled:")
        XCTAssertEqual(SessionBusChoice.addressOverride(environment: ["DBUS_SESSION_BUS_ADDRESS": ""], runtimeBusExists: false),
                       "disabled:", "an empty address is no address")
    }

    func testADesktopsBusIsUsed() {
        XCTAssertNil(SessionBusChoice.addressOverride(environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"],
                                                      runtimeBusExists: false))
        XCTAssertNil(SessionBusChoice.addressOverride(environment: [:], runtimeBusExists: true))
    }

    func testWithoutABusAccessibilityIsNotLookedForUnlessChosen() {
        let none = SessionBusChoice.environmentChanges(environment: [:], runtimeBusExists: false)
        XCTAssertEqual(none.map(\.0), ["DBUS_SESSION_BUS_ADDRESS", "GTK_A11Y", "GSETTINGS_BACKEND"])
        XCTAssertEqual(none.first { $0.0 == "GTK_A11Y" }?.1, "none")
        let chosen = SessionBusChoice.environmentChanges(environment: ["GTK_A11Y": "atspi", "GSETTINGS_BACKEND": "keyfile"],
                                                         runtimeBusExists: false)
        XCTAssertEqual(chosen.map(\.0), ["DBUS_SESSION_BUS_ADDRESS"], "the person's choice is kept")
        XCTAssertTrue(SessionBusChoice.environmentChanges(environment: [:], runtimeBusExists: true).isEmpty)
    }

    func testWithoutABusSettingsStayInMemory() {
        // dconf writes through the bus: without one, each write warned on stderr (issue 34).
        let none = SessionBusChoice.environmentChanges(environment: [:], runtimeBusExists: false)
        XCTAssertEqual(none.first { $0.0 == "GSETTINGS_BACKEND" }?.1, "memory")
        let withBus = SessionBusChoice.environmentChanges(environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/bus"],
                                                          runtimeBusExists: false)
        XCTAssertTrue(withBus.isEmpty, "a desktop session keeps dconf")
    }

    func testTheRuntimeSocketIsFoundInXDGRuntimeDir() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        XCTAssertFalse(SessionBusChoice.runtimeBusExists(environment: ["XDG_RUNTIME_DIR": dir.path]))
        XCTAssertTrue(FileManager.default.createFile(atPath: dir.appendingPathComponent("bus").path, contents: nil))
        XCTAssertTrue(SessionBusChoice.runtimeBusExists(environment: ["XDG_RUNTIME_DIR": dir.path]))
        XCTAssertFalse(SessionBusChoice.runtimeBusExists(environment: [:]))
    }
}

import Foundation
import XCTest
@testable import PostGIS

/// The "Connect to Database…" form: its fields make an address, and its table chooser lists the
/// tables with geometry.
extension PostGISSourceTests {
    func testFormFieldsMakeAnAddressThatNamesTheTableAndConnects() throws {
        guard let s = Self.server else { throw XCTSkip("no server") }
        let uri = PostGISAddress.compose(host: "127.0.0.1", port: "\(s.port)", database: "test", user: "postgres", table: "public.pts")
        XCTAssertEqual(uri, "postgresql://postgres@127.0.0.1:\(s.port)/test?table=public.pts")
        let source = try PostGISSource(address: uri)
        XCTAssertEqual(source.table.displayName, "public.pts")
        // Hostile parts are encoded: they can't add parameters or change the host.
        let odd = PostGISAddress.compose(host: "h", port: "", database: "d b?x=1", user: "a@b/c", table: "s.t&geometry=x")
        XCTAssertEqual(odd, "postgresql://a%40b%2Fc@h/d%20b%3Fx%3D1?table=s.t%26geometry%3Dx")
        let parsed = try PostGISAddress(odd)
        XCTAssertEqual(parsed.table, "t&geometry=x")
        XCTAssertNil(parsed.geometryColumn)
        // Empty fields are left to libpq's defaults.
        XCTAssertEqual(PostGISAddress.compose(host: "", port: "", database: "", user: "", table: "t"), "postgresql:///?table=t")
    }

    func testTheFormsAddressFieldWinsAndGetsTheChosenTable() throws {
        XCTAssertEqual(try PostGISAddress.fromForm(address: "postgresql://u@h/db", host: "x", port: "", database: "", user: "",
                                                   table: "public.t"), "postgresql://u@h/db?table=public.t")
        XCTAssertEqual(try PostGISAddress.fromForm(address: "postgresql://u@h/db?sslmode=disable", host: "", port: "", database: "",
                                                   user: "", table: "t"), "postgresql://u@h/db?sslmode=disable&table=t")
        XCTAssertEqual(try PostGISAddress.fromForm(address: " postgresql://u@h/db?table=a ", host: "", port: "", database: "",
                                                   user: "", table: "b"), "postgresql://u@h/db?table=a", "the typed table wins")
        XCTAssertEqual(try PostGISAddress.fromForm(address: "", host: "h", port: "5433", database: "db", user: "u", table: "t"),
                       "postgresql://u@h:5433/db?table=t")
        XCTAssertThrowsError(try PostGISAddress.fromForm(address: "", host: "h", port: "", database: "db", user: "", table: ""))
        XCTAssertThrowsError(try PostGISAddress.fromForm(address: "/tmp/file.csv", host: "", port: "", database: "", user: "", table: "t"))
        XCTAssertEqual(PostGISAddress.withoutTable("postgresql://u@h/db?table=t&sslmode=disable"), "postgresql://u@h/db?sslmode=disable")
        XCTAssertEqual(PostGISAddress.withoutTable("postgresql://u@h/db"), "postgresql://u@h/db")
    }

    func testTheTableChooserListsTheTablesWithGeometry() throws {
        guard let s = Self.server else { throw XCTSkip("no server") }
        let tables = try PostGISSource.geometryTables(connectionURI: "postgresql://postgres@127.0.0.1:\(s.port)/test")
        XCTAssertTrue(tables.contains("public.pts"), "\(tables)")
        XCTAssertTrue(tables.contains("public.shapes"))
        XCTAssertFalse(tables.contains { $0.hasSuffix(".nogeom") })
        // A chosen name opens as it is listed.
        XCTAssertNoThrow(try PostGISSource(address: "postgresql://postgres@127.0.0.1:\(s.port)/test?table=" + tables[0]))
        XCTAssertThrowsError(try PostGISSource.geometryTables(connectionURI: "postgresql://pwuser@127.0.0.1:\(s.port)/test")) {
            XCTAssertEqual($0 as? PostGISError, .passwordRequired(user: "pwuser"))
        }
        XCTAssertNoThrow(try PostGISSource.geometryTables(connectionURI: "postgresql://pwuser@127.0.0.1:\(s.port)/test", password: "secret"))
    }
}

import XCTest
import ClusterCore
@testable import GeoData

/// Valid GeoJSON in its many shapes.
final class GeoJSONReaderTests: XCTestCase {
    func testPointsWithSimplestyleProperties() throws {
        let set = try load(collection(
            pointFeature("-3.6921", "40.4138", properties: ##"{"name":"Prado","label":"$12","description":"Art","category":"museum","marker-color":"#ff0000"}"##),
            pointFeature("2.5", "-1.25", properties: #"{"title":"Only a title","marker-symbol":"cafe"}"#),
            pointFeature("0", "0")))
        XCTAssertEqual(set.count, 3)
        XCTAssertEqual(set.format, .geoJSON)
        XCTAssertEqual(set.coordinates[0], GeoCoordinate(latitude: 40.4138, longitude: -3.6921))
        XCTAssertEqual(set.name(at: 0), "Prado")
        XCTAssertEqual(set.label(at: 0), "$12")
        XCTAssertEqual(set.description(at: 0), "Art")
        XCTAssertEqual(set.markerColor(at: 0), "#ff0000")
        XCTAssertEqual(set.categoryName(at: 0), "museum")
        XCTAssertEqual(set.name(at: 1), "Only a title")
        XCTAssertEqual(set.categoryName(at: 1), "cafe")
        XCTAssertNil(set.name(at: 2))
        XCTAssertNil(set.category(at: 2))
        XCTAssertEqual(set.categoryNames, ["museum", "cafe"])
        XCTAssertEqual(set.sourcePositions, [0, 1, 2])
        XCTAssertEqual(set.report.totalSkipped, 0)
        XCTAssertEqual(set.report.itemsRead, 3)
    }

    func testMembersInAnyOrderAndForeignMembers() throws {
        let text = """
        {"bbox":[-10,-10,10,10],"features":[
          {"geometry":{"coordinates":[1.5,2.5],"bbox":[1,2,1,2],"type":"Point"},"properties":{"name":"A"},"type":"Feature"},
          {"properties":{"name":"B","nested":{"a":[1,{"b":null}]}},"id":"b-1","extra":[true,false],"type":"Feature",
           "geometry":{"type":"Point","crs":{"type":"name"},"coordinates":[3,4,100]}}
        ],"crs":{"type":"name","properties":{"name":"EPSG:4326"}},"type":"FeatureCollection"}
        """
        let set = try load(text)
        XCTAssertEqual(set.count, 2)
        XCTAssertEqual(set.coordinates[0], GeoCoordinate(latitude: 2.5, longitude: 1.5))
        XCTAssertEqual(set.coordinates[1], GeoCoordinate(latitude: 4, longitude: 3))
        XCTAssertEqual(set.name(at: 0), "A")
        XCTAssertEqual(set.name(at: 1), "B")
        XCTAssertEqual(set.id(at: 1), .string("b-1"))
        XCTAssertNil(set.id(at: 0))
    }

    func testMultiPointMembersShareTheFeaturePosition() throws {
        let set = try load(collection(
            pointFeature("1", "1"),
            #"{"type":"Feature","properties":{"name":"M"},"geometry":{"type":"MultiPoint","coordinates":[[10,20],[11,21],[12,22]]}}"#,
            pointFeature("2", "2", properties: #"{"name":"after"}"#)))
        XCTAssertEqual(set.count, 5)
        XCTAssertEqual(set.sourcePositions, [0, 1, 1, 1, 2])
        XCTAssertEqual(set.name(at: 1), "M")
        XCTAssertEqual(set.name(at: 3), "M")
        XCTAssertEqual(set.name(at: 4), "after")
        XCTAssertEqual(set.coordinates[3], GeoCoordinate(latitude: 22, longitude: 12))
        XCTAssertEqual(set.propertiesJSON(at: 2), #"{"name":"M"}"#)
    }

    func testNullGeometriesAreSkippedAndOthersPlacedKeepingTheirPosition() throws {
        let set = try load(collection(
            #"{"type":"Feature","properties":{},"geometry":null}"#,
            #"{"type":"Feature","properties":{}}"#,
            #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]},"properties":null}"#,
            #"{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,1],[1,0],[0,0]]]}}"#,
            #"{"type":"Feature","geometry":{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,1]}]}}"#,
            #"{"type":"Feature","geometry":{"coordinates":[1,1]}}"#,
            pointFeature("5", "6")))
        XCTAssertEqual(set.count, 4)
        XCTAssertEqual(set.sourcePositions, [2, 3, 4, 6])
        XCTAssertEqual(set.coordinates[0], GeoCoordinate(latitude: 0.5, longitude: 0.5))
        XCTAssertEqual(set.report.skips[.nullGeometry]?.count, 2)
        XCTAssertEqual(set.report.skips[.nullGeometry]?.firstPositions, [0, 1])
        XCTAssertEqual(set.report.skips[.unsupportedGeometry]?.firstPositions, [5])
        XCTAssertEqual(set.report.messages, [
            "2 features skipped: null geometry (features 1, 2)",
            "1 feature skipped: geometry that can't be shown at a point (feature 6)",
            "1 polygon shown at a point inside each",
            "1 line shown at its middle",
            "1 other geometry shown at a point on each",
        ])
    }

    func testUnusableCoordinatesAreCounted() throws {
        let set = try load(collection(
            pointFeature("181", "0"), pointFeature("0", "-90.5"), pointFeature("1e400", "0"),
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1]}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[]}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":null}}"#,
            #"{"type":"Feature","geometry":{"type":"Point"}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":["NaN",1]}}"#,
            #"{"type":"Feature","geometry":{"type":"MultiPoint","coordinates":[[1,1],[200,1],[2,2]]}}"#,
            pointFeature("180", "90"), pointFeature("-180", "-90")))
        XCTAssertEqual(set.count, 4)
        XCTAssertEqual(set.sourcePositions, [8, 8, 9, 10])
        XCTAssertEqual(set.report.skips[.outOfRange]?.count, 4)
        XCTAssertEqual(set.report.skips[.outOfRange]?.firstPositions, [0, 1, 2, 8])
        XCTAssertEqual(set.report.skips[.noCoordinates]?.count, 4)
        XCTAssertEqual(set.report.skips[.notANumber]?.count, 1)
        XCTAssertEqual(set.report.totalSkipped, 9)
    }

    func testStringEscapesAndSurrogatePairs() throws {
        let set = try load(collection(pointFeature("0", "0", properties:
            #"{"name":"Caf\u00e9 \"Le Bon\"\\ \/ \n\t\ud83c\udf55 \ud800 x","description":"plain ü ✓ 😀"}"#)))
        XCTAssertEqual(set.name(at: 0), "Café \"Le Bon\"\\ / \n\t🍕 \u{FFFD} x")
        XCTAssertEqual(set.description(at: 0), "plain ü ✓ 😀")
    }

    func testEscapedMemberNames() throws {
        let set = try load(#"{"type":"FeatureCollection","features":[{"type":"Feature","\u0067eometry":{"type":"Point","coordinates":[1,2]},"properties":{"n\u0061me":"Esc"}}]}"#)
        XCTAssertEqual(set.count, 1)
        XCTAssertEqual(set.name(at: 0), "Esc")
    }

    func testNumbersWithExponentsAreExact() throws {
        let set = try load(collection(pointFeature("1.5e1", "-2.5E-1"), pointFeature("-0.0", "1E+1"),
                                      pointFeature("179.99999999999999999999", "12345678901234567890e-18")))
        XCTAssertEqual(set.coordinates[0], GeoCoordinate(latitude: -0.25, longitude: 15))
        XCTAssertEqual(set.coordinates[1].latitude, 10)
        XCTAssertEqual(set.coordinates[1].longitude.sign, .minus)
        XCTAssertEqual(set.coordinates[2].longitude, 180)
        XCTAssertEqual(set.coordinates[2].latitude, 12.345678901234567890)
    }

    func testFeatureIdsStringAndNumber() throws {
        let set = try load(collection(
            #"{"type":"Feature","id":42,"geometry":{"type":"Point","coordinates":[1,1]}}"#,
            #"{"type":"Feature","id":"abc","geometry":{"type":"Point","coordinates":[1,1]}}"#,
            #"{"type":"Feature","id":null,"geometry":{"type":"Point","coordinates":[1,1]}}"#))
        XCTAssertEqual(set.id(at: 0), .number(42))
        XCTAssertEqual(set.idJSON(at: 0), "42")
        XCTAssertEqual(set.id(at: 1), .string("abc"))
        XCTAssertEqual(set.idJSON(at: 1), "\"abc\"")
        XCTAssertNil(set.id(at: 2))
    }

    func testSingleFeatureAtTopLevel() throws {
        let set = try load(#"{"properties":{"name":"Solo"},"geometry":{"type":"Point","coordinates":[7,8]},"type":"Feature"}"#)
        XCTAssertEqual(set.count, 1)
        XCTAssertEqual(set.name(at: 0), "Solo")
        XCTAssertEqual(set.sourcePositions, [0])
    }

    func testNewlineDelimitedAndRFC8142FeatureSequences() throws {
        let lines = (0..<4).map { pointFeature(String($0), "1", properties: "{\"name\":\"f\($0)\"}") }
        let ndjson = try load(lines.joined(separator: "\n") + "\n", name: "places.ndjson")
        XCTAssertEqual(ndjson.count, 4)
        XCTAssertEqual(ndjson.sourcePositions, [0, 1, 2, 3])
        XCTAssertEqual(ndjson.name(at: 3), "f3")
        XCTAssertEqual(ndjson.report.itemsRead, 4)
        let rs = try load(lines.map { "\u{1E}" + $0 + "\n" }.joined(), name: "places.geojsons")
        XCTAssertEqual(rs.count, 4)
        XCTAssertEqual(try load(lines.map { "\u{1E}" + $0 + "\n" }.joined(), name: "noext").format, .geoJSON)
        // A stray value on line 3 is a bad line: skipped and counted, the rest loads.
        let stray = try load(lines[0] + "\n" + lines[1] + "\n[1]\n" + lines[2] + "\n", name: "seq.ndjson")
        XCTAssertEqual(stray.count, 3)
        XCTAssertEqual(stray.report.messages, ["1 line skipped: not a GeoJSON feature (line 3)"])
        // After a FeatureCollection nothing may follow.
        XCTAssertEqual(loadError(collection() + "\n" + lines[0])?.message, "unexpected '{' after the end of the GeoJSON object")
    }

    /// Issue 12 item 8: one bad line no longer rejects the file, and its line number is its own
    /// (a truncated record on line 11 was reported at line 13, where the scanner noticed).
    func testBadLinesOfNewlineDelimitedGeoJSONAreSkippedWithTheirLineNumbers() throws {
        var lines = (0..<14).map { pointFeature(String($0), "1", properties: "{\"name\":\"f\($0)\"}") }
        lines[10] = String(lines[10].dropLast(3))              // line 11: a truncated record
        lines[12] = "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]},}"  // line 13: bad JSON
        let set = try load(lines.joined(separator: "\n") + "\n", name: "live.ndjson")
        XCTAssertEqual(set.count, 12)
        XCTAssertEqual(set.name(at: 10), "f11", "the feature after the bad line loads")
        XCTAssertEqual(set.report.skips[.badLine]?.firstPositions, [11, 13])
        XCTAssertEqual(set.report.messages, ["2 lines skipped: not a GeoJSON feature (lines 11, 13)"])
        // A bad last line without a newline at the end.
        let tail = try load(lines[0] + "\n" + lines[1] + "\n{\"type\":", name: "tail.ndjson")
        XCTAssertEqual(tail.count, 2)
        XCTAssertEqual(tail.report.skips[.badLine]?.firstPositions, [3])
    }

    func testEmptyCollectionAndWhitespaceAndBOM() throws {
        XCTAssertEqual(try load("\u{FEFF} \n{\"type\":\"FeatureCollection\",\"features\":[ ]}\r\n").count, 0)
        let pretty = """
        {
          "type": "FeatureCollection",
          "features": [
            {
              "type": "Feature",
              "geometry": { "type": "Point", "coordinates": [ 1 , 2 ] },
              "properties": { "name": "P" }
            }
          ]
        }
        """
        XCTAssertEqual(try load(pretty).name(at: 0), "P")
    }

    func testNumericAndCategoryOptions() throws {
        let options = LoadOptions(numericProperty: "mag", categoryProperty: "kind", categoryLabels: ["1": "One"])
        let set = try load(collection(
            pointFeature("0", "0", properties: #"{"mag":5.5,"kind":1,"category":"ignored"}"#),
            pointFeature("0", "0", properties: #"{"mag":"6.25","kind":"two"}"#),
            pointFeature("0", "0", properties: #"{"mag":null}"#)), options: options)
        XCTAssertEqual(set.numericValue(at: 0), 5.5)
        XCTAssertEqual(set.numericValue(at: 1), 6.25)
        XCTAssertNil(set.numericValue(at: 2))
        XCTAssertEqual(set.numericPropertyName, "mag")
        XCTAssertEqual(set.categoryName(at: 0), "One")
        XCTAssertEqual(set.categoryName(at: 1), "two")
        XCTAssertNil(set.category(at: 2))
    }

    func testPropertiesAreDecodedLazilyInFileOrder() throws {
        let props = #"{"z":1,"a":"x\u00e9","t":true,"f":false,"n":null,"arr":[1, 2],"obj":{"k":"v"},"neg":-1.5e2}"#
        let set = try load(collection(pointFeature("0", "0", properties: props)))
        let decoded = set.properties(at: 0)
        XCTAssertEqual(decoded.map(\.key), ["z", "a", "t", "f", "n", "arr", "obj", "neg"])
        XCTAssertEqual(decoded.map(\.value), [.number(1), .string("xé"), .bool(true), .bool(false), .null,
                                              .json("[1, 2]"), .json(#"{"k":"v"}"#), .number(-150)])
        XCTAssertEqual(set.propertiesJSON(at: 0), props)
    }

    func testMissingOrNullPropertiesGiveEmptyObject() throws {
        let set = try load(collection(
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,1]}}"#,
            #"{"type":"Feature","properties":null,"geometry":{"type":"Point","coordinates":[1,1]}}"#))
        XCTAssertEqual(set.propertiesJSON(at: 0), "{}")
        XCTAssertEqual(set.propertiesJSON(at: 1), "{}")
        XCTAssertTrue(set.properties(at: 1).isEmpty)
    }

    /// The string scanner reads 8 bytes at a time: put a special byte at every offset.
    func testSpecialCharactersAtEveryOffsetInAString() throws {
        for length in 0..<24 {
            for (special, decoded) in [(#"\""#, "\""), (#"\n"#, "\n"), ("é", "é"), ("😀", "😀")] {
                for at in 0...length {
                    let plain = String(repeating: "a", count: length)
                    let raw = String(plain.prefix(at)) + special + String(plain.dropFirst(at))
                    let set = try load(collection(pointFeature("0", "0", properties: "{\"name\":\"\(raw)\"}")))
                    XCTAssertEqual(set.name(at: 0), String(plain.prefix(at)) + decoded + String(plain.dropFirst(at)))
                }
            }
        }
    }
}

import XCTest
import ClusterCore
@testable import GeoData

/// CSV: RFC 4180 quoting, column detection, bad rows counted with their lines.
final class CSVReaderTests: XCTestCase {
    func csv(_ text: String, options: LoadOptions = LoadOptions()) throws -> PointSet {
        try load(text, name: "places.csv", options: options)
    }

    func testBasicFileWithNameAndNumbers() throws {
        let set = try csv("name,lat,lon,population\nA,1.5,2.5,100\nB,-3,4,\n")
        XCTAssertEqual(set.format, .csv)
        XCTAssertEqual(set.count, 2)
        XCTAssertEqual(set.coordinates[0], GeoCoordinate(latitude: 1.5, longitude: 2.5))
        XCTAssertEqual(set.name(at: 1), "B")
        XCTAssertEqual(set.sourcePositions, [0, 1])
        XCTAssertEqual(set.columnNames, ["name", "lat", "lon", "population"])
        XCTAssertEqual(set.propertiesJSON(at: 0), #"{"name":"A","population":100}"#)
        XCTAssertEqual(set.propertiesJSON(at: 1), #"{"name":"B","population":""}"#)
        XCTAssertEqual(set.properties(at: 0).map(\.value), [.string("A"), .number(100)])
    }

    /// More columns than the scanner's first field storage holds (16): it grows, and every
    /// cell, short decimals and others, reads as before.
    func testWideRowsAndCoordinateCellsOfEveryShape() throws {
        let extra = (0..<20).map { "c\($0)" }
        var text = (["name", "lat"] + extra + ["lon"]).joined(separator: ",") + "\n"
        let cells = ["1.5", "-3", " 12.25 ", "-0.5", "0", "1e1", "-12.1234567", "7.", "+4", "12345678.5"]
        for (i, lat) in cells.enumerated() {
            text += (["p\(i)", lat] + extra.map { "\($0)v\(i)" } + ["\(i).75"]).joined(separator: ",") + "\n"
        }
        let set = try csv(text)
        // "7." and "+4" are read leniently (spreadsheets write them); 12345678.5 is out of range.
        XCTAssertEqual(set.coordinates.map(\.latitude), [1.5, -3, 12.25, -0.5, 0, 10, -12.1234567, 7, 4])
        XCTAssertEqual(set.coordinates.map(\.longitude), [0.75, 1.75, 2.75, 3.75, 4.75, 5.75, 6.75, 7.75, 8.75])
        XCTAssertEqual(set.report.totalSkipped, 1)
        XCTAssertEqual(set.properties(at: 6).first { $0.key == "c19" }?.value, .string("c19v6"))
    }

    func testQuotedFieldsWithCommasQuotesAndNewlines() throws {
        let text = "name,description,lat,lon\n"
            + "\"Smith, John\",\"He said \"\"hi\"\"\",1,2\n"
            + "\"Two\nLines\",\"a\r\nb\",3,4\n"
            + "\"\",\"\",\"5\",\"6\"\n"
        let set = try csv(text)
        XCTAssertEqual(set.count, 3)
        XCTAssertEqual(set.name(at: 0), "Smith, John")
        XCTAssertEqual(set.description(at: 0), "He said \"hi\"")
        XCTAssertEqual(set.name(at: 1), "Two\nLines")
        XCTAssertEqual(set.description(at: 1), "a\r\nb")
        XCTAssertNil(set.name(at: 2))
        XCTAssertEqual(set.coordinates[2], GeoCoordinate(latitude: 5, longitude: 6))
        XCTAssertEqual(set.propertiesJSON(at: 0), #"{"name":"Smith, John","description":"He said \"hi\""}"#)
        XCTAssertEqual(set.propertiesJSON(at: 1), #"{"name":"Two\nLines","description":"a\r\nb"}"#)
    }

    func testBOMAndCRLF() throws {
        let set = try csv("\u{FEFF}Name,Latitude,Longitude\r\nÁgua,-10.5,20.25\r\nZ,1,1\r\n")
        XCTAssertEqual(set.count, 2)
        XCTAssertEqual(set.name(at: 0), "Água")
        XCTAssertEqual(set.coordinates[0], GeoCoordinate(latitude: -10.5, longitude: 20.25))
        XCTAssertEqual(set.columnNames.first, "Name")
    }

    func testNoTrailingNewlineAndBlankLines() throws {
        let set = try csv("lat,lon\n1,1\n\n2,2")
        XCTAssertEqual(set.count, 2)
        XCTAssertEqual(set.sourcePositions, [0, 1])
    }

    func testCoordinateColumnNamesAreFoundCaseInsensitively() throws {
        for (header, latIndex) in [("LAT,LNG", 0), ("y,x", 0), ("long,latitude", 1), ("X,Y", 1), ("lon,lat", 1)] {
            let set = try csv("\(header)\n10,20\n")
            let expected = latIndex == 0 ? GeoCoordinate(latitude: 10, longitude: 20) : GeoCoordinate(latitude: 20, longitude: 10)
            XCTAssertEqual(set.coordinates, [expected], header)
        }
    }

    func testColumnOverrides() throws {
        let set = try csv("a,b,lat,lon\n1,2,80,80\n", options: LoadOptions(latitudeColumn: "B", longitudeColumn: "a"))
        XCTAssertEqual(set.coordinates, [GeoCoordinate(latitude: 2, longitude: 1)])
        let e = loadError("a,b\n1,2\n", name: "p.csv", options: LoadOptions(latitudeColumn: "c", longitudeColumn: "a"))
        XCTAssertEqual(e?.description, "p.csv: line 1: no latitude column named \"c\"; the columns are: a, b")
    }

    func testFileWithoutCoordinateColumnsNamesItsColumns() throws {
        let e = loadError("name,city,country\nA,B,C\n", name: "people.csv")
        XCTAssertEqual(e?.kind, .noCoordinateColumns)
        XCTAssertEqual(e?.description, "people.csv: line 1: no latitude/longitude columns (looked for lat, latitude, y and lon, lng, long, longitude, x); the columns are: name, city, country")
        XCTAssertEqual(loadError("name,lat\nA,1\n", name: "p.csv")?.message,
                       "no longitude column (looked for lon, lng, long, longitude, x); the columns are: name, lat")
    }

    func testBadRowsAreSkippedAndCountedWithLineNumbers() throws {
        let text = """
        name,lat,lon
        ok1,1,1
        empty,,1
        nan,NaN,1
        text,abc,1
        far,91,1
        far2,1,-180.5
        short,1
        long,1,1,1
        "multi
        line",95,0
        ok2,2,2
        inf,inf,2
        """
        let set = try csv(text)
        XCTAssertEqual(set.count, 2)
        XCTAssertEqual(set.sourcePositions, [0, 9])
        let r = set.report
        XCTAssertEqual(r.itemsRead, 11)
        XCTAssertEqual(r.skips[.noCoordinates]?.firstPositions, [3])
        XCTAssertEqual(r.skips[.notANumber]?.firstPositions, [4, 5])
        XCTAssertEqual(r.skips[.outOfRange]?.firstPositions, [6, 7, 10, 13])
        XCTAssertEqual(r.skips[.badRow]?.firstPositions, [8, 9])
        XCTAssertEqual(r.totalSkipped, 9)
        XCTAssertEqual(r.messages, [
            "1 row skipped: no coordinates (line 3)",
            "2 rows skipped: coordinates not a number (lines 4, 5)",
            "4 rows skipped: coordinates out of range (lines 6, 7, 10, 13)",
            "2 rows skipped: wrong number of fields (lines 8, 9)",
        ])
    }

    func testSkipMessagesUseThousandsSeparators() throws {
        var text = "lat,lon\n"
        for _ in 0..<1_204 { text += ",\n" }
        text += "1,1\n"
        let set = try csv(text)
        XCTAssertEqual(set.count, 1)
        XCTAssertEqual(set.report.messages, ["1,204 rows skipped: no coordinates (lines 2, 3, 4, 5, 6, …)"])
    }

    func testUnterminatedQuoteIsAnError() throws {
        let e = loadError("name,lat,lon\nA,1,1\n\"B,2,2\nC,3,3\n", name: "q.csv")
        XCTAssertEqual(e?.kind, .syntax)
        XCTAssertEqual(e?.line, 3)
        XCTAssertEqual(e?.description, "q.csv: line 3, column 1 (byte 19): a quoted field that starts on line 3 never ends (missing closing '\"')")
    }

    func testTextAfterAClosingQuoteMakesABadRow() throws {
        let set = try csv("name,lat,lon\n\"A\"x,1,1\nB,2,2\n")
        XCTAssertEqual(set.count, 1)
        XCTAssertEqual(set.report.skips[.badRow]?.firstPositions, [2])
    }

    func testInvalidUTF8IsAnErrorWithItsLine() throws {
        var bytes = Array("name,lat,lon\nA,1,1\nCaf".utf8)
        bytes += [0xE9] + Array(",2,2\n".utf8)
        let e = loadError(bytes: bytes, name: "latin1.csv")
        XCTAssertEqual(e?.kind, .invalidUTF8)
        XCTAssertEqual(e?.description, "latin1.csv: line 3, column 4 (byte 22): invalid UTF-8 byte 0xE9 (the file must be UTF-8)")
    }

    func testEmptyFileAndHeaderOnly() throws {
        XCTAssertEqual(loadError("", name: "e.csv")?.description, "e.csv: the file is empty")
        XCTAssertEqual(loadError("\u{FEFF}\r\n", name: "e.csv")?.kind, .empty)
        XCTAssertEqual(try csv("lat,lon\n").count, 0)
    }

    func testCategoryNumericAndIdColumns() throws {
        let options = LoadOptions(numericProperty: "MAG", categoryProperty: "has_iata",
                                  categoryLabels: ["1": "With IATA code", "0": "Without IATA code"])
        let set = try csv("id,lat,lon,mag,has_iata,label,marker-color\n7,1,1,5.5,1,$9,#fff\n\"x\",2,2,,0,,\n", options: options)
        XCTAssertEqual(set.numericValue(at: 0), 5.5)
        XCTAssertNil(set.numericValue(at: 1))
        XCTAssertEqual(set.categoryName(at: 0), "With IATA code")
        XCTAssertEqual(set.categoryName(at: 1), "Without IATA code")
        XCTAssertEqual(set.label(at: 0), "$9")
        XCTAssertEqual(set.markerColor(at: 0), "#fff")
        XCTAssertEqual(set.id(at: 0), .number(7))
        XCTAssertEqual(set.id(at: 1), .string("x"))
        XCTAssertEqual(set.idJSON(at: 1), "\"x\"")
    }

    func testLeadingZeroCodesStayStrings() throws {
        let set = try csv("lat,lon,zip,code\n1,1,01234,1e3\n")
        XCTAssertEqual(set.propertiesJSON(at: 0), #"{"zip":"01234","code":1e3}"#)
    }

    func testContentSniffingForOtherExtensions() throws {
        XCTAssertEqual(try load("lat,lon\n1,1\n", name: "data.txt").format, .csv)
        XCTAssertEqual(try load(collection(pointFeature("1", "1")), name: "data.txt").format, .geoJSON)
        XCTAssertEqual(try load("lat,lon\n1,1\n", name: "x.geojson", options: LoadOptions(format: .csv)).count, 1)
    }

    func testTabAndSemicolonSeparatedFiles() throws {
        let tsv = try load("name\tlat\tlon\nA, B\t1.5\t2.5\n", name: "places.tsv")
        XCTAssertEqual(tsv.name(at: 0), "A, B")
        XCTAssertEqual(tsv.coordinates, [GeoCoordinate(latitude: 1.5, longitude: 2.5)])
        XCTAssertEqual(tsv.propertiesJSON(at: 0), #"{"name":"A, B"}"#)
        let semicolons = try csv("name;lat;lon\n\"x;y\";-1,5;2\n\"z\";3;4\n")
        XCTAssertEqual(semicolons.count, 1)   // "-1,5" (decimal comma) is not a number
        XCTAssertEqual(semicolons.report.skips[.notANumber]?.firstPositions, [2])
        XCTAssertEqual(semicolons.name(at: 0), "z")
        XCTAssertEqual(semicolons.properties(at: 0).map(\.key), ["name"])
    }
}

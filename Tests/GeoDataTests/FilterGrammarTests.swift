import XCTest
@testable import GeoData

/// The filter grammar: what parses to what, and where errors point.
final class FilterGrammarTests: XCTestCase {
    private func parse(_ s: String) throws -> FilterExpression { try FilterExpression.parse(s) }

    private func error(_ s: String, file: StaticString = #filePath, line: UInt = #line) -> FilterError? {
        do {
            let e = try parse(s)
            XCTFail("'\(s)' parsed as \(e)", file: file, line: line)
        } catch let e as FilterError {
            return e
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
        return nil
    }

    func testComparisonsOfEveryKind() throws {
        let cases: [(String, FilterComparison)] = [("=", .equal), ("==", .equal), ("!=", .notEqual), ("<>", .notEqual),
                                                   ("<", .less), ("<=", .lessOrEqual), (">", .greater), (">=", .greaterOrEqual)]
        for (text, op) in cases {
            XCTAssertEqual(try parse("mag \(text) 6"),
                           .compare(FilterField(name: "mag", column: 1), op, FilterLiteral(.number(6), column: 6 + text.count)))
        }
        XCTAssertEqual(try parse("mag>=-1.5e1"),
                       .compare(FilterField(name: "mag", column: 1), .greaterOrEqual, FilterLiteral(.number(-15), column: 6)))
    }

    func testValuesTextsDatesAndBooleans() throws {
        XCTAssertEqual(try parse("type = 'earth''quake'"),
                       .compare(FilterField(name: "type", column: 1), .equal, FilterLiteral(.text("earth'quake"), column: 8)))
        XCTAssertEqual(try parse("type = \"a \\\" b\""),
                       .compare(FilterField(name: "type", column: 1), .equal, FilterLiteral(.text("a \" b"), column: 8)))
        XCTAssertEqual(try parse("time >= 2011-03-11"),
                       .compare(FilterField(name: "time", column: 1), .greaterOrEqual,
                                FilterLiteral(.date(1_299_801_600, "2011-03-11"), column: 9)))
        XCTAssertEqual(try parse("time < 2011-03-11T05:46:24Z"),
                       .compare(FilterField(name: "time", column: 1), .less,
                                FilterLiteral(.date(1_299_822_384, "2011-03-11T05:46:24Z"), column: 8)))
        XCTAssertEqual(try parse("tsunami = true"),
                       .compare(FilterField(name: "tsunami", column: 1), .equal, FilterLiteral(.bool(true), column: 11)))
        XCTAssertEqual(try parse("`marker-symbol` = 'x'").fieldNames, ["marker-symbol"])
        XCTAssertEqual(try parse("`and` = 1").fieldNames, ["and"])
        // A bare word where a value belongs is a text.
        XCTAssertEqual(try parse("type = earthquake"),
                       .compare(FilterField(name: "type", column: 1), .equal, FilterLiteral(.text("earthquake"), column: 8)))
        XCTAssertEqual(try parse("type in (quake, blast)").fieldNames, ["type"])
    }

    func testPrecedenceNotAndOr() throws {
        // a or b and not c  ==  a or (b and (not c))
        let e = try parse("a = 1 or b = 2 and not c = 3")
        guard case .or(let left, .and(let mid, .not(let right))) = e else { return XCTFail("\(e)") }
        XCTAssertEqual(left.fieldNames, ["a"])
        XCTAssertEqual(mid.fieldNames, ["b"])
        XCTAssertEqual(right.fieldNames, ["c"])
        let p = try parse("(a = 1 or b = 2) AND c = 3")
        guard case .and(.or, _) = p else { return XCTFail("\(p)") }
    }

    func testInContainsAndNull() throws {
        XCTAssertEqual(try parse("type in ('a', 'b', 3)"),
                       .isIn(FilterField(name: "type", column: 1),
                             [FilterLiteral(.text("a"), column: 10), FilterLiteral(.text("b"), column: 15),
                              FilterLiteral(.number(3), column: 20)]))
        XCTAssertEqual(try parse("type not in ('a')"),
                       .not(.isIn(FilterField(name: "type", column: 1), [FilterLiteral(.text("a"), column: 14)])))
        XCTAssertEqual(try parse("place contains 'Japan'"),
                       .contains(FilterField(name: "place", column: 1), FilterLiteral(.text("Japan"), column: 16)))
        XCTAssertEqual(try parse("place is null"), .isMissing(FilterField(name: "place", column: 1)))
        XCTAssertEqual(try parse("place is not null"), .not(.isMissing(FilterField(name: "place", column: 1))))
    }

    func testErrorsPointAtTheColumn() {
        XCTAssertEqual(error("mag >= ")?.description, "column 8: expected a value after '>='")
        XCTAssertEqual(error("mag >= and")?.description, "column 8: expected a value after '>=', found 'and'")
        XCTAssertEqual(error("mag >= 6 and")?.column, 13)
        XCTAssertEqual(error("(mag >= 6")?.description, "column 10: the '(' at column 1 is never closed")
        XCTAssertEqual(error("mag >= 6)")?.description, "column 9: ')' without a matching '('")
        XCTAssertEqual(error("type = 'quake")?.description, "column 8: the quote ' opened here is never closed")
        XCTAssertEqual(error("type = 'quake' type")?.column, 16)
        XCTAssertEqual(error("mag ! 6")?.column, 5)
        XCTAssertEqual(error("mag 6")?.column, 5)
        XCTAssertEqual(error("mag >= 6 mag")?.column, 10)
        XCTAssertEqual(error("type in 'a'")?.column, 9)
        XCTAssertEqual(error("type in ('a' 'b')")?.column, 14)
        XCTAssertEqual(error("mag >= 6x")?.column, 9)
        XCTAssertEqual(error("a = 1 § 2")?.description, "column 7: unexpected '§'")
        XCTAssertEqual(error("")?.column, 1)
        XCTAssertEqual(error("not")?.column, 4)
        // Columns count characters, not bytes.
        XCTAssertEqual(error("née = 'x' or")?.column, 13)
    }

    func testNothingIsEvaluated() throws {
        // Shell or code-looking text is just a string value or an error, never run.
        XCTAssertEqual(try parse("name = '$(rm -rf /)'").fieldNames, ["name"])
        XCTAssertNotNil(error("name = 1; drop table x"))
    }

    func testDateText() {
        XCTAssertEqual(DateText.seconds("1970-01-01"), 0)
        XCTAssertEqual(DateText.seconds("2000-02-29T12:00:00Z"), 951_825_600)
        XCTAssertEqual(DateText.seconds("2000-02-29T21:00:00+09:00"), 951_825_600)
        XCTAssertEqual(DateText.seconds("2000-02-29 12:00:00.25"), 951_825_600.25)
        XCTAssertEqual(DateText.seconds("1969-12-31T23:59:59Z"), -1)
        XCTAssertNil(DateText.seconds("2001-02-29"))
        XCTAssertNil(DateText.seconds("2001-13-01"))
        XCTAssertNil(DateText.seconds("2001-01-01T"))
        XCTAssertNil(DateText.seconds("20010101"))
        XCTAssertNil(DateText.seconds("2001-01-01x"))
        XCTAssertEqual(DateText.text(951_825_600), "2000-02-29T12:00:00Z")
        XCTAssertEqual(DateText.text(-86400), "1969-12-31")
        var r = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let s = Double(Int.random(in: -5_000_000_000...5_000_000_000, using: &r))
            XCTAssertEqual(DateText.seconds(DateText.text(s)), s)
        }
    }
}

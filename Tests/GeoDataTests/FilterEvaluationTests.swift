import ClusterCore
import XCTest
@testable import GeoData

/// Type inference over property columns, and filter evaluation checked against a place-by-place
/// oracle on random data.
final class FilterEvaluationTests: XCTestCase {
    private func table(_ columns: [(String, [PropertyValue])]) -> PropertyTable {
        PropertyTable(count: columns.map { $0.1.count }.max() ?? 0, values: columns.map { ($0.0, $0.1) })
    }

    func testInferenceOfEveryType() {
        let n = 200
        let t = table([
            ("mag", (0..<n).map { .number(Double($0) / 10) }),
            ("depth", (0..<n).map { $0 % 7 == 0 ? .null : .string("\($0).5") }),           // numbers in texts, missing
            ("tsunami", (0..<n).map { .bool($0 % 3 == 0) }),
            ("flag", (0..<n).map { .string($0 % 2 == 0 ? "TRUE" : "false") }),
            ("when", (0..<n).map { .string("2011-03-\(10 + $0 % 9)T05:46:24Z") }),
            ("time", (0..<n).map { .number(1_299_822_384_000 + Double($0) * 1000) }),    // epoch ms
            ("updated", (0..<n).map { .number(1_299_822_384 + Double($0)) }),             // epoch s
            ("population", (0..<n).map { .number(1_299_822_384 + Double($0)) }),          // not a time name
            ("type", (0..<n).map { .string(["quake", "blast", "slide"][$0 % 3]) }),
            ("place", (0..<n).map { .string("place number \($0)") }),
            ("nothing", (0..<n).map { _ in .null }),
        ])
        XCTAssertEqual(t.type(of: "mag"), .number)
        XCTAssertEqual(t.type(of: "depth"), .number)
        XCTAssertEqual(t.profile(of: "depth")?.missing, 29)
        XCTAssertEqual(t.type(of: "tsunami"), .boolean)
        XCTAssertEqual(t.type(of: "flag"), .boolean)
        XCTAssertEqual(t.type(of: "when"), .date)
        XCTAssertEqual(t.type(of: "time"), .date)
        XCTAssertEqual(t.profile(of: "time")?.epochUnit, .milliseconds)
        XCTAssertEqual(t.column("time")?.numbers.first, 1_299_822_384)
        XCTAssertEqual(t.type(of: "updated"), .date)
        XCTAssertEqual(t.profile(of: "updated")?.epochUnit, .seconds)
        XCTAssertEqual(t.type(of: "population"), .number)
        XCTAssertEqual(t.type(of: "type"), .category)
        XCTAssertEqual(t.type(of: "place"), .text)
        XCTAssertEqual(t.type(of: "nothing"), .category)
        XCTAssertNil(t.type(of: "absent"))
        XCTAssertEqual(t.column("when")?.numbers.first, 1_299_822_384 - 86400)
        XCTAssertEqual(t.column("type")?.textCounts().map(\.count), [67, 67, 66])
    }

    func testMixedValuesAndOverride() {
        // 95 % numbers and a few words: a number column, the words mismatched (missing in filters).
        var values: [PropertyValue] = (0..<100).map { .number(Double($0)) }
        for i in [3, 50, 77] { values[i] = .string("n/a") }
        values[10] = .null
        var t = table([("v", values)])
        XCTAssertEqual(t.type(of: "v"), .number)
        XCTAssertEqual(t.profile(of: "v"), PropertyProfile(present: 99, missing: 1, mismatched: 3, distinctTexts: 97))
        XCTAssertTrue(t.column("v")!.numbers[3].isNaN)
        // Half words: not numbers any more.
        let half: [PropertyValue] = (0..<100).map { $0 % 2 == 0 ? .number(Double($0 % 4)) : .string("x") }
        XCTAssertEqual(table([("h", half)]).type(of: "h"), .category)
        // Override: read as text, the numbers become their texts.
        t.setType(.category, of: "v")
        XCTAssertEqual(t.type(of: "v"), .category)
        let c = t.column("v")!
        XCTAssertEqual(c.texts[Int(c.codes[5])], "5")
        XCTAssertEqual(t.profile(of: "v")?.mismatched, 0)
        let e = FilterEvaluator(table: t)
        XCTAssertEqual(try e.selection(for: "v = 'n/a'").chosenCount, 3)
        e.setType(.number, of: "v")
        XCTAssertEqual(try e.selection(for: "v >= 90").chosenCount, 10)
    }

    func testSemanticErrorsPointAtTheColumn() {
        let e = FilterEvaluator(table: table([("mag", [.number(1)]), ("type", [.string("a")]), ("t", [.string("2011-01-01")])]))
        func message(_ s: String) -> String? {
            do { _ = try e.selection(for: s); return nil } catch { return "\(error)" }
        }
        XCTAssertEqual(message("magg >= 6"), "column 1: no property 'magg' (there are: mag, type, t)")
        XCTAssertEqual(message("mag >= 'big'"), "column 8: 'mag' holds numbers: compare it with a number, not 'big'")
        XCTAssertEqual(message("mag contains 'x'"), "column 1: 'mag' holds numbers; 'contains' works on texts")
        XCTAssertEqual(message("type = 'a' and t > 5"), "column 20: 't' holds dates: compare it with a date like 2011-03-11 or 2011-03-11T05:46:24Z, not 5")
        XCTAssertNil(message("t > '2010-12-31'"))
    }

    /// Random places and random expressions of every kind: the evaluator's selection equals a
    /// place-by-place evaluation of the parsed expression.
    func testRandomExpressionsMatchThePlaceByPlaceOracle() throws {
        var rng = SeededRandom(seed: 29)
        let n = 3_001
        let kinds = ["quake", "blast", "slide", "Quake"]
        var mag: [PropertyValue] = [], type: [PropertyValue] = [], time: [PropertyValue] = []
        var flag: [PropertyValue] = [], note: [PropertyValue] = []
        for i in 0..<n {
            mag.append(Int.random(in: 0..<10, using: &rng) == 0 ? .null : .number(Double(Int.random(in: 0...90, using: &rng)) / 10))
            type.append(Int.random(in: 0..<12, using: &rng) == 0 ? .null : .string(kinds.randomElement(using: &rng)!))
            let day = Int.random(in: 1...28, using: &rng)
            time.append(i % 13 == 0 ? .null : .string("2011-02-\(day < 10 ? "0" : "")\(day)T12:00:00Z"))
            flag.append(i % 17 == 0 ? .null : .bool(Bool.random(using: &rng)))
            note.append(.string("note \(i) \(["red", "Green", "blue"].randomElement(using: &rng)!)"))
        }
        let t = table([("mag", mag), ("type", type), ("time", time), ("flag", flag), ("note", note)])
        XCTAssertEqual(t.type(of: "note"), .text)
        let evaluator = FilterEvaluator(table: t)
        let rows: [[String: PropertyValue]] = (0..<n).map {
            ["mag": mag[$0], "type": type[$0], "time": time[$0], "flag": flag[$0], "note": note[$0]]
        }
        func condition() -> String {
            let ops = ["=", "!=", "<", "<=", ">", ">="]
            switch Int.random(in: 0..<9, using: &rng) {
            case 0: return "mag \(ops.randomElement(using: &rng)!) \(Double(Int.random(in: 0...90, using: &rng)) / 10)"
            case 1: return "type \(ops.randomElement(using: &rng)!) '\(kinds.randomElement(using: &rng)!)'"
            case 2: return "type in ('\(kinds.randomElement(using: &rng)!)', '\(kinds.randomElement(using: &rng)!)')"
            case 3: return "time \(ops.randomElement(using: &rng)!) 2011-02-\(10 + Int.random(in: 0...18, using: &rng))"
            case 4: return "flag = \(Bool.random(using: &rng))"
            case 5: return "note contains '\(["RED", "green", "1", "note"].randomElement(using: &rng)!)'"
            case 6: return "mag in (\(Int.random(in: 0...9, using: &rng)), \(Double(Int.random(in: 0...90, using: &rng)) / 10))"
            case 7: return "\(["mag", "type", "time", "flag"].randomElement(using: &rng)!) is null"
            default: return "type not in ('quake')"
            }
        }
        func expression(_ depth: Int) -> String {
            if depth == 0 || Int.random(in: 0..<3, using: &rng) == 0 { return condition() }
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: return "(\(expression(depth - 1)) and \(expression(depth - 1)))"
            case 1: return "(\(expression(depth - 1)) or \(expression(depth - 1)))"
            default: return "not \(expression(depth - 1))"
            }
        }
        for _ in 0..<300 {
            let text = expression(3)
            let parsed = try FilterExpression.parse(text)
            let got = try evaluator.selection(for: parsed)
            let want = PointSelection(count: n) { FilterOracle.passes(parsed, rows[$0]) }
            XCTAssertEqual(got.chosenCount, want.chosenCount, text)
            XCTAssertEqual(got, want, text)
        }
    }

    func testSelectionWordsAndDifference() {
        var a = PointSelection(count: 130, indices: [0, 63, 64, 129])
        XCTAssertEqual(a.chosenCount, 4)
        let b = PointSelection(count: 130, indices: [0, 5, 129])
        XCTAssertEqual(a.difference(b).added, [63, 64])
        XCTAssertEqual(a.difference(b).removed, [5])
        a.invert()
        XCTAssertEqual(a.chosenCount, 126)
        XCTAssertFalse(a[129])
        XCTAssertEqual(PointSelection(count: 130, all: true).chosenIndices.count, 130)
    }
}

/// The plain meaning of an expression for one place, written independently of the evaluator.
enum FilterOracle {
    static func passes(_ e: FilterExpression, _ row: [String: PropertyValue]) -> Bool {
        switch e {
        case .and(let a, let b): return passes(a, row) && passes(b, row)
        case .or(let a, let b): return passes(a, row) || passes(b, row)
        case .not(let a): return !passes(a, row)
        case .isMissing(let f): return row[f.name] == nil || row[f.name] == .null
        case .compare(let f, let op, let lit):
            guard let v = row[f.name], let order = compare(v, lit) else { return false }
            switch op {
            case .equal: return order == 0
            case .notEqual: return order != 0
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            case .greaterOrEqual: return order >= 0
            }
        case .isIn(let f, let lits):
            guard let v = row[f.name] else { return false }
            return lits.contains { compare(v, $0) == 0 }
        case .contains(let f, let lit):
            guard case .string(let s)? = row[f.name], case .text(let needle) = lit.value else { return false }
            return s.lowercased().contains(needle.lowercased())
        }
    }

    private static func compare(_ v: PropertyValue, _ lit: FilterLiteral) -> Int? {
        func sign<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : (a == b ? 0 : 1) }
        switch (v, lit.value) {
        case (.number(let a), .number(let b)): return sign(a, b)
        case (.string(let a), .date(let b, _)): return DateText.seconds(a).map { sign($0, b) }
        case (.string(let a), .text(let b)): return sign(a, b)
        case (.string(let a), .number(let b)): return sign(a, PropertyValue.plainText(b))
        case (.bool(let a), .bool(let b)): return a == b ? 0 : 1
        default: return nil
        }
    }
}

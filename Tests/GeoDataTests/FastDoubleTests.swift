import XCTest
import ClusterCore
import Foundation
@testable import GeoData

/// The number parser is bit-exact with strtod on every path.
final class FastDoubleTests: XCTestCase {
    func parse(_ s: String) -> Double? {
        let bytes = Array(s.utf8) + [UInt8](repeating: 0, count: 16)   // scanners read up to 16 bytes ahead
        return bytes.withUnsafeBufferPointer { b -> Double? in
            let r = FastDouble.scanJSONNumber(b.baseAddress!, at: 0)
            return r.ok && r.end == s.utf8.count ? r.value : nil
        }
    }

    func reference(_ s: String) -> Double { strtod(s, nil) }

    func testKnownHardCases() {
        let cases = ["0", "-0", "1", "0.1", "0.3", "9007199254740993", "9007199254740992.5",
                     "179.99999999999997", "2.2250738585072011e-308", "4.9e-324", "1.7976931348623157e308",
                     "1e400", "-1e-400", "123456789012345678901234567890", "0.000000000000000000000000001234",
                     "45.67890123456789", "-122.41941550000001", "89.999999999999999999",
                     "7.2057594037927933e16", "1.00000000000000011102230246251565404236316680908203125",
                     "1.00000000000000011102230246251565404236316680908203124", "3.141592653589793238462643383279",
                     // around the short-decimal path's limits (8 whole digits, 7 decimals, 15 in all)
                     "1234567.1234567", "12345678", "1234567", "12345678.5", "9.9999999", "1.5e3", "1.5E3", "-7.0000001",
                     "1234567.12345678", "99999999.9999999", "7", "-9"]
        for s in cases {
            XCTAssertEqual(parse(s)?.bitPattern, reference(s).bitPattern, s)
        }
    }

    func testRandomDecimalsMatchStrtod() {
        var rng = SeededRandom(seed: 7)
        for i in 0..<60_000 {
            let digits = 1 + Int(rng.next() % 19)
            var s = rng.next() % 2 == 0 ? "-" : ""
            let intDigits = Int(rng.next() % 4)
            s += intDigits == 0 ? "0" : String(1 + rng.next() % 9) + (0..<intDigits - 1).map { _ in String(rng.next() % 10) }.joined()
            s += "." + (0..<digits).map { _ in String(rng.next() % 10) }.joined()
            if i % 5 == 0 { s += "e" + String(Int(rng.next() % 40) - 20) }
            XCTAssertEqual(parse(s)?.bitPattern, reference(s).bitPattern, s)
        }
    }

    func testShortestReprOfRandomDoublesRoundTrips() {
        var rng = SeededRandom(seed: 11)
        for _ in 0..<60_000 {
            let d = Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF)
            let s = "\(d)"
            if !d.isFinite { continue }
            XCTAssertEqual(parse(s.replacingOccurrences(of: "e+", with: "e"))?.bitPattern, d.bitPattern, s)
            let coordinate = (Double(rng.next() % 3_600_000_000) / 1e7) - 180
            XCTAssertEqual(parse("\(coordinate)")?.bitPattern, coordinate.bitPattern)
        }
    }

    func testLenientCSVNumbers() {
        func lenient(_ s: String) -> Double? {
            let b = Array(s.utf8) + [UInt8](repeating: 0, count: 16)
            return b.withUnsafeBufferPointer { FastDouble.parseLenient($0.baseAddress!, count: s.utf8.count) }
        }
        XCTAssertEqual(lenient(" 1.5 "), 1.5)
        XCTAssertEqual(lenient("+2"), 2)
        XCTAssertEqual(lenient(".5"), 0.5)
        XCTAssertEqual(lenient("5."), 5)
        XCTAssertTrue(lenient("NaN")?.isNaN ?? false)
        XCTAssertNil(lenient("abc"))
        XCTAssertNil(lenient("1,5"))
        XCTAssertNil(lenient("0x1p3"))
        XCTAssertNil(lenient(""))
    }
}

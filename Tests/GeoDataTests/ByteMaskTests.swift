import XCTest
import ClusterCore
@testable import GeoData

final class ByteMaskTests: XCTestCase {
    /// The first byte a reader must stop at, found one byte at a time.
    private func firstSpecial(_ bytes: [UInt8], _ stops: [UInt8]) -> Int? {
        bytes.firstIndex { $0 < 0x20 || $0 >= 0x80 || stops.contains($0) }
    }

    private func word(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
    }

    /// The lowest marked byte is exactly the first one to stop at, in random words that mix
    /// plain text with quotes, backslashes, delimiters, control and non-ASCII bytes.
    func testLowestMarkedByteIsTheFirstRealStop() {
        var rng = SeededRandom(seed: 7)
        let alphabet: [UInt8] = [0x00, 0x09, 0x0A, 0x1F, 0x20, 0x21, 0x22, 0x2C, 0x3B, 0x41, 0x5C, 0x7E, 0x7F, 0x80, 0xC3, 0xFF]
        for _ in 0..<20_000 {
            let bytes = (0..<8).map { _ -> UInt8 in
                let r = rng.next()
                return r & 1 == 0 ? UInt8(ascii: "a") : alphabet[Int((r >> 1) % UInt64(alphabet.count))]
            }
            let x = word(bytes)
            let one = ByteMask.special(x, or: 0x2C)
            let two = ByteMask.special(x, or: 0x22, 0x5C)
            XCTAssertEqual(one == 0 ? nil : one.trailingZeroBitCount >> 3, firstSpecial(bytes, [0x2C]), "\(bytes)")
            XCTAssertEqual(two == 0 ? nil : two.trailingZeroBitCount >> 3, firstSpecial(bytes, [0x22, 0x5C]), "\(bytes)")
        }
    }

    func testPlainTextIsNotMarked() {
        XCTAssertEqual(ByteMask.special(word(Array("abc 1.5,".utf8)), or: 0x22, 0x5C), 0)
        XCTAssertEqual(ByteMask.special(word(Array("abc 1.5x".utf8)), or: 0x2C), 0)
        XCTAssertNotEqual(ByteMask.special(word(Array("abc 1.5,".utf8)), or: 0x2C), 0)
    }
}

import Foundation
import XCTest
@testable import Compression

final class GzipTests: XCTestCase {
    /// `gzip.compress(b'hello, world\n' * 3, mtime=0)` from Python.
    let gzipped: [UInt8] = [31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 203, 72, 205, 201, 201, 215, 81, 40, 207, 47, 202, 73,
                            225, 202, 192, 201, 1, 0, 240, 76, 249, 230, 39, 0, 0, 0]
    /// `zlib.compress(b'abcabcabc')`.
    let zlibbed: [UInt8] = [120, 156, 75, 76, 74, 78, 4, 35, 0, 17, 61, 3, 115]

    func testGzipRoundTripsKnownBytes() throws {
        XCTAssertTrue(Gzip.isGzipped(gzipped))
        let out = try Gzip.decompress(Data(gzipped))
        XCTAssertEqual(String(decoding: out, as: UTF8.self), String(repeating: "hello, world\n", count: 3))
    }

    func testZlibFramingIsAccepted() throws {
        XCTAssertFalse(Gzip.isGzipped(zlibbed))
        XCTAssertEqual(String(decoding: try Gzip.decompress(Data(zlibbed)), as: UTF8.self), "abcabcabc")
    }

    func testOutputLargerThanTheFirstBufferGrowsAndTheLimitHolds() throws {
        // zlib.compress(bytes(range(256)) * 400, 9): ~730 bytes in, 102,400 out.
        let input = Data(base64Encoded: "eNrtzwMCEAYAAMBs27Zt2+aybdu2bW5Zy7Zt27Z7SHc/uAABAwUOEjRY8BAhQ4UOEzZc+AgRI0WOEjVa9BgxY8WOEzde/AQJEyVOkjRZ8hQpU6VOkzZd+gwZM2XOkjVb9hw5c+XOkzdf/gIFCxUuUrRY8RIlS5UuU7Zc+QoVK1WuUrVa9Ro1/6lVu07devUbNGzUuEnTZs1btGzVuk3bdu07dOzUuUvXbt179OzVu0/ffv0HDBw0eMjQYcNHjBw1eszYceMnTJw0ecrUadNnzJw1e87cefMXLFy0eMnSZcv//W/FylWr16xdt37Dxk3/b96yddv2HTt37d6zd9/+AwcPHT5y9NjxEydPnT5z9tz5CxcvXb5y9dr1Gzdv3b5z9979Bw8fPX7y9NnzFy9fvX7z9t37Dx8/ff7y9dv3Hz9//Q7g7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7//X/P8AKuNDqg==")!
        let out = try Gzip.decompress(input)
        XCTAssertEqual(out.count, 102_400)
        XCTAssertEqual(out[257], 1)
        XCTAssertEqual(out[102_399], 255)
        XCTAssertThrowsError(try Gzip.decompress(input, sizeLimit: 50_000))
        XCTAssertThrowsError(try Gzip.decompress(Data(gzipped), sizeLimit: 10))
    }

    func testTruncatedAndCorruptInputThrow() {
        XCTAssertThrowsError(try Gzip.decompress(Data(gzipped.prefix(20))))
        var corrupt = gzipped
        corrupt[12] ^= 0xff
        XCTAssertThrowsError(try Gzip.decompress(Data(corrupt)))
        XCTAssertThrowsError(try Gzip.decompress(Data([1, 2, 3, 4])))
        XCTAssertThrowsError(try Gzip.decompress(Data()))
    }

    /// A whole gzip member is inflated by libdeflate into a buffer of its trailer's size; what that
    /// path can't take (a limit below the size, two members, a lying size) goes through zlib as before.
    func testWholeGzipMembersAndTheirEdgeCases() throws {
        // gzip.compress(bytes(range(256)) * 400, 9, mtime=0)
        let big = Data(base64Encoded: "H4sIAAAAAAACA+3PAwIQBgAAwGzbtm3b5rJt27ZtblnLtm3btntIdz+4AAEDBQ4SNFjwECFDhQ4TNlz4CBEjRY4SNVr0GDFjxY4TN178BAkTJU6SNFnyFClTpU6TNl36DBkzZc6SNVv2HDlz5c6TN1/+AgULFS5StFjxEiVLlS5Ttlz5ChUrVa5StVr1GjX/qVW7Tt169Rs0bNS4SdNmzVu0bNW6Tdt27Tt07NS5S9du3Xv07NW7T99+/QcMHDR4yNBhw0eMHDV6zNhx4ydMnDR5ytRp02fMnDV7ztx58xcsXLR4ydJly//9b8XKVavXrF23fsPGTf9v3rJ12/YdO3ft3rN33/4DBw8dPnL02PETJ0+dPnP23PkLFy9dvnL12vUbN2/dvnP33v0HDx89fvL02fMXL1+9fvP23fsPHz99/vL12/cfP3/9DuDv7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v/9f8/wCMDA6aAJABAA==")!
        let out = try Gzip.decompress(big)
        XCTAssertEqual(out, Data((0..<400).flatMap { _ in (0...255).map { UInt8($0) } }))
        XCTAssertThrowsError(try Gzip.decompress(big, sizeLimit: 102_399))
        // Two members (gzip "first " then "second member"): zlib stops after the first, as before.
        let two = Data(base64Encoded: "H4sIAAAAAAACA0vLLCouUQAA/HrxHAYAAAAfiwgAAAAAAAIDK05Nzs9LUchNzU1KLQIAJHT6nw0AAAA=")!
        XCTAssertEqual(String(decoding: try Gzip.decompress(two), as: UTF8.self), "first ")
        // A trailer claiming another size: not trusted, zlib's answer stands.
        var lying = [UInt8](big)
        lying[lying.count - 4] ^= 0x10
        XCTAssertThrowsError(try Gzip.decompress(Data(lying)))
    }
}

import ClusterCore
import Foundation
import TileTestSupport
@testable import Tiles
import XCTest

/// Random, truncated and mutated inputs (seeded, reproducible) must never crash the readers: each
/// either decodes or throws.
final class TileFuzzTests: XCTestCase {
    /// Cases per reader: the suite's short run, or `TILES_FUZZ_ITERATIONS` (`make fuzz`).
    private func iterations(_ short: Int) -> Int {
        ProcessInfo.processInfo.environment["TILES_FUZZ_ITERATIONS"].flatMap(Int.init) ?? short
    }

    private func realTiles() throws -> [Data] {
        let leipzig = try MBTilesSource(path: Fixtures.path("leipzig-subset.mbtiles"))
        let firenze = try PMTilesSource(path: Fixtures.path("firenze-subset.pmtiles"))
        // Mid-size tiles keep the run short while covering every layer type of both schemas.
        return [
            try XCTUnwrap(try leipzig.tileData(for: TileID(z: 13, x: 4378, y: 2730))),
            try XCTUnwrap(try firenze.tileData(for: TileID(z: 11, x: 1088, y: 746))),
            MVTEncoder.encode([MVTEncoder.Layer(name: "l", keys: ["k"], values: [MVTEncoder.stringValue("v")],
                                                features: [MVTEncoder.Feature(type: 3, tags: [0, 0],
                                                                              geometry: MVTEncoder.ring([(0, 0), (9, 0), (9, 9)]))])]),
        ]
    }

    func testMVTDecoderSurvivesRandomTruncatedAndMutatedInput() throws {
        var rng = SeededRandom(seed: 0x5EED_0001)
        let seeds = try realTiles()
        var decoded = 0, rejected = 0
        let cases = iterations(4000)
        for i in 0..<cases {
            var bytes: [UInt8]
            switch i % 4 {
            case 0:  // pure noise
                bytes = (0..<Int.random(in: 0..<512, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            case 1:  // a real tile cut short
                let s = seeds[i % seeds.count]
                bytes = [UInt8](s.prefix(Int.random(in: 0..<s.count, using: &rng)))
            default:  // a real (or tiny) tile with a few bytes flipped
                let s = seeds[i % 4 == 2 ? 2 : (i / 4) % seeds.count]
                bytes = [UInt8](s)
                for _ in 0..<Int.random(in: 1...8, using: &rng) {
                    bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                }
            }
            do {
                let tile = try MVTDecoder.decode(Data(bytes))
                // Whatever decodes must be safe to walk.
                for l in tile.layers {
                    for f in l.features {
                        for p in 0..<f.parts.count { _ = f.partRange(p) }
                        _ = l.value(of: f, key: "class")
                    }
                }
                decoded += 1
            } catch {
                rejected += 1
            }
        }
        XCTAssertEqual(decoded + rejected, cases)
        XCTAssertGreaterThan(rejected, cases / 4, "most damaged input is rejected")
        XCTAssertGreaterThan(decoded, cases / 40, "some damaged input still decodes")
    }

    func testPMTilesReaderSurvivesDamagedFiles() throws {
        var rng = SeededRandom(seed: 0x5EED_0002)
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("leipzig-subset.pmtiles"))))
        // Only the header, directories and metadata are interesting to damage (the tile data
        // is MVT, fuzzed above); keep the files small by cutting most tile data.
        let header = try PMTilesHeader(original)
        let keep = Int(header.tileDataOffset) + 4096
        let folder = TemporaryFolder()
        var opened = 0, refused = 0
        let cases = iterations(1500)
        for i in 0..<cases {
            var bytes = Array(original.prefix(keep))
            if i % 3 == 0 {
                bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &rng)))
            } else {
                for _ in 0..<Int.random(in: 1...6, using: &rng) {
                    // Aim most flips at the header and directories.
                    let limit = Bool.random(using: &rng) ? 127 : Int(header.tileDataOffset)
                    bytes[Int.random(in: 0..<limit, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                }
            }
            let path = folder.path("f\(i % 8).pmtiles")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            do {
                let source = try PMTilesSource(path: path)
                opened += 1
                for (z, x, y) in Fixtures.leipzigTiles {
                    _ = try? source.tileData(for: TileID(z: z, x: x, y: y))
                }
                for _ in 0..<8 {
                    let z = Int.random(in: 0...16, using: &rng)
                    _ = try? source.tileData(for: TileID(z: z, x: Int.random(in: 0..<(1 << z), using: &rng),
                                                         y: Int.random(in: 0..<(1 << z), using: &rng)))
                }
            } catch {
                refused += 1
            }
        }
        XCTAssertEqual(opened + refused, cases)
        XCTAssertGreaterThan(refused, cases / 5)
        XCTAssertGreaterThan(opened, cases / 15)
    }

    func testDirectoryDecoderSurvivesNoise() {
        var rng = SeededRandom(seed: 0x5EED_0003)
        for _ in 0..<iterations(5000) {
            let bytes = (0..<Int.random(in: 0..<64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if let d = try? PMTilesDirectory(decoding: bytes) {
                _ = d.entry(for: UInt64.random(in: 0...UInt64.max, using: &rng))
            }
        }
    }
}

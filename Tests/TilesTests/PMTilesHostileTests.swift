import Foundation
import TileTestSupport
@testable import Tiles
import XCTest

/// Small PMTiles files that claim huge directories (issue 34): a 39 KB file whose gzipped leaf
/// directory claimed 10 million entries took 565 MB and was decoded again for every tile. Now a
/// directory is capped, a leaf is decoded once (kept, or remembered as bad), and errors are words.
final class PMTilesHostileTests: XCTestCase {
    /// Writes a PMTiles v3 file with gzipped directories: a root of one leaf pointer, and a leaf
    /// claiming `claimed` entries of which `written` are really there (ids 0, 1, 2…, each run 1,
    /// one byte of tile data). Python's gzip does the compressing.
    func write(claimed: Int, written: Int, root: Bool = false, to path: String) throws {
        let script = """
        import gzip, struct, sys
        claimed, written, as_root, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4]
        def varint(v):
            out = bytearray()
            while True:
                b = v & 0x7F; v >>= 7
                if v: out.append(b | 0x80)
                else: out.append(b); return bytes(out)
        # ids: first 0, then deltas of 1; runs 1; lengths 1; offsets 1 (→ 0) each.
        directory = varint(claimed) + b"\\x00" + b"\\x01" * (written - 1) + b"\\x01" * written * 3
        leaf = gzip.compress(directory, 9)
        if as_root:
            root, leaf = leaf, b""
        else:
            root = gzip.compress(varint(1) + varint(0) + varint(0) + varint(len(leaf)) + varint(1))
        meta = gzip.compress(b"{}")
        r_off = 127; m_off = r_off + len(root); l_off = m_off + len(meta); d_off = l_off + len(leaf)
        header = b"PMTiles\\x03" + struct.pack("<QQQQQQQQQQQ", r_off, len(root), m_off, len(meta), l_off, len(leaf),
                                               d_off, 1, written, written, 1)
        header += bytes([1, 2, 1, 2, 0, 9]) + struct.pack("<iiii", -1800000000, -850000000, 1800000000, 850000000)
        header += bytes([0]) + struct.pack("<ii", 0, 0)
        assert len(header) == 127
        open(path, "wb").write(header + root + meta + leaf + b"\\x07")
        """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script, "\(claimed)", "\(written)", root ? "1" : "0", path]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
    }

    /// Tiles at zooms 2…9 (Hilbert ids 5…349524, inside the leaf's first ids).
    let tiles = (0..<20).map { i in TileID(z: 2 + i % 8, x: i % 4, y: (i / 4) % 4) }

    func testAHugeClaimedLeafCostsLittleAndIsReadOnce() throws {
        let folder = TemporaryFolder()
        for (claimed, written, reason) in [(10_000_000, 10_000_000, "inflates to more than 16 MB"), (3_000_000, 3_000_000, "more than 1000000 entries")] {
            let path = folder.path("claims-\(claimed).pmtiles")
            try write(claimed: claimed, written: written, to: path)
            let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            XCTAssertLessThan(size, 60_000, "a small file")
            var failures: [String] = []
            var source: PMTilesSource?
            let started = Date()
            let rise = PeakMemory.rise {
                guard let s = try? PMTilesSource(path: path) else { return }
                source = s
                for t in tiles {
                    do { _ = try s.tileData(for: t) } catch { failures.append("\(error)") }
                }
            }
            let seconds = Date().timeIntervalSince(started)
            let s = try XCTUnwrap(source, "the root is fine: the file opens")
            XCTAssertEqual(failures.count, tiles.count)
            XCTAssertTrue(failures.allSatisfy { $0.contains(reason) }, "\(failures.first ?? "")")
            XCTAssertEqual(s.leafDecodes, 1, "a bad leaf is not decoded again for every tile")
            XCTAssertLessThan(rise, 64, "peak rise in MB for \(claimed) claimed entries")
            print("\(claimed) claimed entries, \(size) bytes: \(tiles.count) tiles in \(String(format: "%.2f", seconds)) s, "
                  + "peak rise \(Int(rise)) MB; \(failures[0])")
        }
    }

    func testABigHonestLeafIsDecodedOnce() throws {
        let folder = TemporaryFolder()
        let path = folder.path("big-leaf.pmtiles")
        try write(claimed: 500_000, written: 500_000, to: path)
        let s = try PMTilesSource(path: path)
        for t in tiles { XCTAssertEqual(try s.tileData(for: t), Data([7]), "\(t)") }
        XCTAssertEqual(s.leafDecodes, 1, "kept after the first tile")
    }

    func testErrorsAreWords() throws {
        let folder = TemporaryFolder()
        let root = folder.path("root.pmtiles")
        try write(claimed: 3_000_000, written: 3_000_000, root: true, to: root)
        XCTAssertThrowsError(try PMTilesSource(path: root)) { error in
            XCTAssertEqual("\(error)", "\(root) is not a usable tile file: a directory claims more than 1000000 entries")
        }
        let notPM = folder.path("not.pmtiles")
        try Data(repeating: 0x41, count: 200).write(to: URL(fileURLWithPath: notPM))
        XCTAssertThrowsError(try PMTilesSource(path: notPM)) { error in
            XCTAssertEqual("\(error)", "\(notPM) is not a usable tile file: not a PMTiles file")
        }
        XCTAssertEqual("\(PMTilesHeader.HeaderError.unsupportedVersion(2))", "PMTiles version 2 (this app reads version 3)")
        XCTAssertEqual("\(PMTilesDirectory.DirectoryError.truncated)", "a directory is cut short")
        XCTAssertEqual(TileSourceError.reason(of: TileSourceError.corrupt(path: notPM, reason: "not a PMTiles file")),
                       "not a usable tile file (not a PMTiles file)", "the path named once, by the message")
    }
}

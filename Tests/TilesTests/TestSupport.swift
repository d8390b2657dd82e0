import Foundation
import XCTest

/// The committed fixtures next to this file (tests read nothing outside the repository).
enum Fixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Tiles in `leipzig-subset.*` (XYZ), from `make-fixtures.py`.
    static let leipzigTiles: [(Int, Int, Int)] = [
        (10, 547, 341), (11, 1094, 682), (12, 2188, 1365), (12, 2189, 1365),
        (13, 4377, 2730), (13, 4378, 2730), (14, 8755, 5460), (14, 8756, 5460),
    ]
    /// Tiles in `firenze-subset.pmtiles` (XYZ).
    static let firenzeTiles: [(Int, Int, Int)] = [
        (0, 0, 0), (1, 1, 0), (2, 2, 1), (3, 4, 2), (4, 8, 5), (5, 17, 11), (6, 34, 23), (7, 68, 46),
        (8, 136, 93), (9, 272, 186), (10, 544, 373), (11, 1088, 746), (12, 2176, 1493), (13, 4352, 2986),
        (14, 8704, 5972), (14, 8705, 5972),
    ]
}

import Foundation

/// The street-tile fixtures (real Leipzig and Florence subsets), committed once in TilesTests,
/// whose readers they test first; the painting tests here read them by path.
enum TileFixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TilesTests/Fixtures")
    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
}

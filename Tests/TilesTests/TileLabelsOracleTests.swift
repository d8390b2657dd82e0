import Foundation
import GeoData
import MapModel
@testable import Tiles
import XCTest

/// `TileLabels.candidates` tests features with a compiled `FilterProgram` and looks keys up once
/// per layer; it must give exactly the candidates of the plain reading of the rules (each feature
/// tested with `StyleFilter.matches` and a property lookup by name — the code it replaced, kept
/// here as the oracle), on every tile of both real fixtures, at the tile's zoom and the next.
final class TileLabelsOracleTests: XCTestCase {
    func testCandidatesMatchThePlainReadingOfTheRules() throws {
        let leipzig = try MBTilesSource(path: Fixtures.path("leipzig-subset.mbtiles"))
        let florence = try PMTilesSource(path: Fixtures.path("firenze-subset.pmtiles"))
        var compared = 0
        for (source, tiles) in [(leipzig as TileSource, Fixtures.leipzigTiles), (florence as TileSource, Fixtures.firenzeTiles)] {
            let style = TileStyle.builtIn(for: TileSchema(vectorLayers: source.metadata.vectorLayers))
            for (z, x, y) in tiles {
                guard let data = try source.tileData(for: TileID(z: z, x: x, y: y)) else { continue }
                let tile = try MVTDecoder.decode(data, layers: style.sourceLayers)
                for (zoom, size) in [(Double(z), 512.0), (Double(z) + 1, 1.0)] {
                    let got = TileLabels.candidates(in: tile, style: style, zoom: zoom, tileSize: size)
                    let expected = Self.reference(in: tile, style: style, zoom: zoom, tileSize: size)
                    XCTAssertEqual(got, expected, "\(style.name) \(z)/\(x)/\(y) at zoom \(zoom)")
                    compared += got.count
                }
            }
        }
        XCTAssertGreaterThan(compared, 500, "the fixtures offer names to compare")
    }

    /// The candidates as the rules read plainly (the implementation before the compiled filters).
    private static func reference(in tile: VectorTile, style: TileStyle, zoom: Double, tileSize: Double) -> [TileLabelCandidate] {
        var result: [TileLabelCandidate] = []
        for rule in style.labels where zoom >= rule.minZoom {
            guard let layer = tile.layer(named: rule.sourceLayer) else { continue }
            var index: [String: Int] = [:]
            for (i, k) in layer.keys.enumerated() where index[k] == nil { index[k] = i }
            let scale = tileSize / Double(layer.extent)
            var bestRoad: [String: (length: Double, candidate: TileLabelCandidate)] = [:]
            for feature in layer.features where !feature.parts.isEmpty {
                let property: (String) -> VectorTileValue? = { key in
                    index[key].flatMap { layer.value(of: feature, keyIndex: $0) }
                }
                guard rule.filter.matches(type: feature.type, property: property) else { continue }
                guard let raw = TileLabels.nameKeys.lazy.compactMap({ property($0)?.stringValue }).first(where: { !$0.isEmpty })
                else { continue }
                let text = DisplayText.line(raw)  // names from data are bounded and made safe (issue 34)
                let cls = rule.classKeys.lazy.compactMap { property($0)?.stringValue }.first
                var priority = cls.flatMap { rule.priorities[$0] } ?? rule.defaultPriority
                if let rankKey = rule.rankKey, let rank = property(rankKey) {
                    let r = rank.doubleValue ?? rank.stringValue.flatMap(Double.init) ?? 0
                    priority -= min(9, max(0, r)) * 0.5
                }
                guard let anchor = TileLabels.anchor(of: feature) else { continue }
                // An area smaller than the rule's least size (in 512-px tile pixels) is not named.
                if rule.minimumSize > 0, anchor.length * scale * 512 / tileSize < rule.minimumSize { continue }
                let (x, y) = (anchor.x * scale, anchor.y * scale)
                guard x >= 0, y >= 0, x < tileSize, y < tileSize else { continue }
                let candidate = TileLabelCandidate(text: text, x: x, y: y, angle: anchor.angle, priority: priority,
                                                   kind: rule.kind, featureClass: cls)
                if rule.kind == .road {
                    if let best = bestRoad[text], best.length >= anchor.length { continue }
                    bestRoad[text] = (anchor.length, candidate)
                } else {
                    result.append(candidate)
                }
            }
            result += bestRoad.values.map(\.candidate)
        }
        return result.sorted { $0.priority != $1.priority ? $0.priority > $1.priority : ($0.text, $0.x) < ($1.text, $1.x) }
    }
}

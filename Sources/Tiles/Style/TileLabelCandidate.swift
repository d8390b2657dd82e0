import Foundation
import MapModel

/// A name a vector tile offers for the map's label placer: plain data, placed and drawn elsewhere
/// (the same placement as the built-in map's labels, so names never collide across sources).
public struct TileLabelCandidate: Sendable, Hashable {
    /// The text (plain text, never markup).
    public var text: String
    /// Anchor in tile pixels (0…tileSize, y down): a place's point, a lake's middle, the middle of a
    /// street's longest stretch.
    public var x: Double
    /// (`x`, `y`: see above.)
    public var y: Double
    /// Direction of the text in radians (0 = left to right), kept within ±π/2 so it never reads
    /// upside down; 0 for places and lakes.
    public var angle: Double
    /// Higher is more important (a city before a neighbourhood before a street).
    public var priority: Double
    /// Place, water or road.
    public var kind: TileLabelKind
    /// The feature's class (`city`, `lake`, `primary`, …), when it has one.
    public var featureClass: String?
}

/// Extracts label candidates from a decoded tile by a style's label rules.
public enum TileLabels {
    /// Properties read for the text, first present wins: the local name as on the ground (what
    /// OSM-based maps show), then its Latin transliteration.
    static let nameKeys = ["name", "name:latin", "name_int"]

    /// The candidates of `tile` at tile zoom `zoom`, anchored in a `tileSize`-pixel tile, most
    /// important first. Only anchors inside the tile are kept (tiles carry a buffer of their
    /// neighbours' features), and a street keeps one candidate per tile.
    public static func candidates(in tile: VectorTile, style: TileStyle, zoom: Double,
                                  tileSize: Double = 512) -> [TileLabelCandidate] {
        var result: [TileLabelCandidate] = []
        for rule in style.labels where zoom >= rule.minZoom {
            guard let layer = tile.layer(named: rule.sourceLayer) else { continue }
            // The filter compiled against the layer's property table (`FilterProgram`, as the
            // painter does), and the name, class and rank keys looked up once: testing features
            // with `StyleFilter.matches` and a property closure copied the layer and the feature
            // into the closure and hashed a key string per lookup, which cost more than decoding
            // the tile.
            let table = PreparedLayer(layer, keys: rule.filter.keys)
            let filter = FilterProgram(rule.filter, layer: table)
            if filter.isNever { continue }
            let passing = filter.passingKinds(of: table)
            let index = layer.keyIndex
            let nameColumns = nameKeys.map { index[$0] }, classColumns = rule.classKeys.map { index[$0] }
            let rankColumn = rule.rankKey.flatMap { index[$0] }
            let scale = tileSize / Double(layer.extent)
            var bestRoad: [String: (length: Double, candidate: TileLabelCandidate)] = [:]
            layer.features.withUnsafeBufferPointer { features in
                table.withKinds { kinds, _, _ in
                    for i in 0..<features.count where passing[Int(kinds[i])] {
                        let feature = features.baseAddress! + i
                        guard !feature.pointee.parts.isEmpty else { continue }
                        func property(_ column: Int?) -> VectorTileValue? {
                            column.flatMap { layer.value(of: feature.pointee, keyIndex: $0) }
                        }
                        guard let raw = nameColumns.lazy.compactMap({ property($0)?.stringValue }).first(where: { !$0.isEmpty })
                        else { continue }
                        let text = DisplayText.line(raw)  // bounded; direction overrides shown, not obeyed
                        let cls = classColumns.lazy.compactMap { property($0)?.stringValue }.first
                        var priority = cls.flatMap { rule.priorities[$0] } ?? rule.defaultPriority
                        if rule.rankKey != nil, let rank = property(rankColumn) {
                            let r = rank.doubleValue ?? rank.stringValue.flatMap(Double.init) ?? 0
                            priority -= min(9, max(0, r)) * 0.5
                        }
                        guard let anchor = anchor(of: feature.pointee) else { continue }
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
                }
            }
            result += bestRoad.values.map(\.candidate)
        }
        return result.sorted { $0.priority != $1.priority ? $0.priority > $1.priority : ($0.text, $0.x) < ($1.text, $1.x) }
    }

    /// Where to anchor a feature's label, in tile units, with the text angle and the length of
    /// the stretch chosen (for lines) or the longer side of the outer ring's box (for areas).
    static func anchor(of f: VectorTileFeature) -> (x: Double, y: Double, angle: Double, length: Double)? {
        func point(_ i: Int) -> (Double, Double) {
            let p = f.point(i)
            return (Double(p.x), Double(p.y))
        }
        switch f.type {
        case .point, .unknown:
            let (x, y) = point(f.partRange(0).lowerBound)
            return (x, y, 0, 0)
        case .polygon:
            // The middle of the outer ring's bounding box: good enough for lakes and districts.
            let r = f.partRange(0)
            guard !r.isEmpty else { return nil }
            var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
            for i in r {
                let (x, y) = point(i)
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
            return ((minX + maxX) / 2, (minY + maxY) / 2, 0, max(maxX - minX, maxY - minY))
        case .lineString:
            var best: (x: Double, y: Double, angle: Double, length: Double)?
            for p in 0..<f.parts.count {
                let r = f.partRange(p)
                guard r.count >= 2 else { continue }
                var total = 0.0
                for i in r.dropFirst() {
                    let (ax, ay) = point(i - 1), (bx, by) = point(i)
                    total += hypot(bx - ax, by - ay)
                }
                guard total > (best?.length ?? 0) else { continue }
                // Walk to half the length: the label sits on the segment there.
                var walked = 0.0
                for i in r.dropFirst() {
                    let (ax, ay) = point(i - 1), (bx, by) = point(i)
                    let d = hypot(bx - ax, by - ay)
                    if walked + d >= total / 2, d > 0 {
                        let t = (total / 2 - walked) / d
                        var angle = atan2(by - ay, bx - ax)
                        if angle > .pi / 2 { angle -= .pi } else if angle < -.pi / 2 { angle += .pi }
                        best = (ax + (bx - ax) * t, ay + (by - ay) * t, angle, total)
                        break
                    }
                    walked += d
                }
            }
            return best
        }
    }
}

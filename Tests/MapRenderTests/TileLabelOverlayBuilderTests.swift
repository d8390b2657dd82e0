import MapModel
@testable import MapRender
@testable import Tiles
import XCTest

/// `TileLabelOverlayBuilder` converts each tile's names once and keeps their ids; its overlays
/// must be those of the builder it replaced (kept below as the oracle: every name converted and
/// looked up again at every rebuild), over a seeded walk of tile sets, covered areas, versions and
/// replaced tiles: the same candidates in the same order with the same ids, and a new revision
/// exactly when the names or the covered area changed.
final class TileLabelOverlayBuilderTests: XCTestCase {
    func testOverlaysAreThoseOfTheBuilderItReplaced() {
        var rng = LCG(seed: 0x71E5_0011)
        // Tiles of zoom 14 and their zoom-13 parents, with names drawn from a small pool, so the
        // same text comes at the same priority in many places (the sort's ties), and neighbours
        // repeat names at the same place (their buffers).
        let texts = ["Via Roma", "Piazza della Signoria", "Arno", "Oltrarno", "Via dei Servi", "Borgo San Frediano",
                     "Via Roma", "Santa Croce", "Lungarno", "Firenze",
                     // Non-ASCII names sort through their bytes when in NFC form, as strings when
                     // not (a decomposed "Città"): both orders must be String's.
                     "Città", "Citta\u{300}", "Via de’ Benci", "Ponte Santa Trìnita", "Straße", "Strasse", "Œuvre", "Zürich",
                     "Zu\u{308}rich", "東京", "Ängelholm", "Angelholm", "Ç"]
        let kinds: [(TileLabelKind, String?)] = [(.road, "primary"), (.road, nil), (.water, "river"), (.water, "lake"),
                                                 (.place, "city"), (.place, "suburb"), (.place, "village")]
        var tiles: [TileID: [TileLabelCandidate]] = [:]
        func makeLabels(_ tile: TileID) -> [TileLabelCandidate] {
            (0..<rng.int(40)).map { _ in
                let (kind, cls) = kinds[rng.int(kinds.count)]
                return TileLabelCandidate(text: texts[rng.int(texts.count)], x: Double(rng.int(9)) / 8 - 0.0625,
                                          y: Double(rng.int(9)) / 8 - 0.0625, angle: kind == .road ? Double(rng.int(3)) * 0.3 : 0,
                                          priority: Double([8, 18, 30, 60][rng.int(4)]), kind: kind, featureClass: cls)
            }
        }
        var ids: [TileID] = []
        for y in 0..<3 { for x in 0..<4 { ids.append(TileID(z: 14, x: 8700 + x, y: 5970 + y)) } }
        ids += [TileID(z: 13, x: 4350, y: 2985), TileID(z: 13, x: 4351, y: 2985)]
        for t in ids { tiles[t] = makeLabels(t) }
        var builder = TileLabelOverlayBuilder()
        var oracle = ReferenceOverlayBuilder()
        var version = 0
        var lastRevision = -1, lastOracleRevision = -1
        var lastOracle: MapLabelOverlay?
        var newOverlays = 0, sameContentNewVersions = 0
        var previousChosen: [TileID]?, previousCovered: [UnitBox]?
        var compared = 0
        for step in 0..<300 {
            if step % 17 == 5 { version += 1 }
            if step % 23 == 9 {
                // A tile delivered again, with other names.
                let t = ids[rng.int(ids.count)]
                tiles[t] = makeLabels(t)
                builder.forget(t)
                version += 1
            }
            var chosen = ids.filter { _ in rng.int(3) > 0 }.sorted { ($0.z, $0.y, $0.x) < ($1.z, $1.y, $1.x) }
            // Now and then the tiles of the step before under a new version (another tile was
            // delivered: the same names, as over-zoomed tiles sharing one ancestor bring).
            if step % 13 == 7, let previous = previousChosen {
                chosen = previous
                version += 1
            }
            // Now and then the same tiles, one of them delivered again with other names: a new
            // overlay with those names although the tiles and boxes are the same.
            var sameTilesNewNames = false
            if step % 29 == 14, let previous = previousChosen, let t = previous.first {
                chosen = previous
                tiles[t] = makeLabels(t)
                builder.forget(t)
                version += 1
                sameTilesNewNames = true
            }
            previousChosen = chosen
            let input = chosen.map { (tile: $0, labels: tiles[$0]!) }
            // Covered: the chosen tiles' squares, some cut to a quarter (placements of a deeper zoom).
            var covered = chosen.map { t -> UnitBox in
                let n = Double(t.tilesPerSide), q = rng.int(4) == 0 ? 0.5 : 1
                return UnitBox(minX: Double(t.x) / n, minY: Double(t.y) / n, maxX: (Double(t.x) + q) / n, maxY: (Double(t.y) + q) / n)
            }.sorted { ($0.minY, $0.minX) < ($1.minY, $1.minX) }
            if step % 13 == 7 || sameTilesNewNames, let previous = previousCovered { covered = previous }
            previousCovered = covered
            // Now and then the same input twice: no new overlay from either.
            for _ in 0..<(step % 5 == 0 ? 2 : 1) {
                let a = builder.overlay(tiles: input, covered: covered)
                let b = oracle.overlay(tiles: input, covered: covered, version: version)
                let firstDifference = zip(a.candidates, b.candidates).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    ?? min(a.candidates.count, b.candidates.count)
                XCTAssertTrue(a.candidates == b.candidates, "step \(step): \(a.candidates.count) and \(b.candidates.count) names, "
                              + "first difference at \(firstDifference)")
                XCTAssertEqual(a.covered, b.covered)
                // A new revision exactly when the names or the area changed (the old builder also
                // made one for every new version with the same names).
                let changed = lastOracle.map { $0.candidates != b.candidates || $0.covered != b.covered } ?? true
                XCTAssertEqual(a.revision != lastRevision, changed, "step \(step): a new overlay exactly when its names or area changed")
                if changed { newOverlays += 1 } else if b.revision != lastOracleRevision { sameContentNewVersions += 1 }
                (lastRevision, lastOracleRevision, lastOracle) = (a.revision, b.revision, b)
                compared += a.candidates.count
            }
        }
        XCTAssertGreaterThan(compared, 20_000, "names compared")
        // Both kinds of step happened: new names, and a new version with the same names.
        XCTAssertGreaterThan(newOverlays, 50)
        XCTAssertGreaterThan(sameContentNewVersions, 3)
    }
}

/// A seeded generator (the test's own, so the walk never changes).
private struct LCG {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func int(_ n: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(max(1, n)))
    }
}

/// `TileLabelOverlayBuilder.overlay` as it was until session 10: every name converted, its identity
/// hashed and its id looked up at every rebuild.
private struct ReferenceOverlayBuilder {
    private struct Identity: Hashable {
        var text: String
        var kind: MapLabelKind
        var x: Int64, y: Int64
    }
    private var ids: [Identity: Int] = [:]
    private var nextID = -1
    private var revision = 0
    private var lastInput: [TileID] = []
    private var lastCovered: [UnitBox] = []
    private var lastVersion = -1
    private var last: MapLabelOverlay?

    mutating func overlay(tiles: [(tile: TileID, labels: [TileLabelCandidate])], covered: [UnitBox],
                          version: Int) -> MapLabelOverlay {
        let input = tiles.map(\.tile)
        if let last, version == lastVersion, input == lastInput, covered == lastCovered { return last }
        if ids.count > 200_000 { ids.removeAll(); nextID = -1 }
        var seen = Set<Int>()
        var list: [(priority: Double, candidate: MapLabelCandidate)] = []
        let probe = MapLabelOverlay(candidates: [], covered: covered, revision: 0)
        for (tile, labels) in tiles {
            let n = Double(tile.tilesPerSide)
            for c in labels {
                let x = (Double(tile.x) + c.x) / n, y = (Double(tile.y) + c.y) / n
                guard probe.covers(x: x, y: y) else { continue }
                let kind = TileLabelOverlayBuilder.kind(of: c)
                let text = kind == .district ? c.text.uppercased() : c.text
                let identity = Identity(text: text, kind: kind, x: Int64((x * 1_048_576).rounded()),
                                        y: Int64((y * 1_048_576).rounded()))
                let id: Int
                if let known = ids[identity] {
                    id = known
                } else {
                    id = nextID
                    nextID -= 1
                    ids[identity] = id
                }
                guard seen.insert(id).inserted else { continue }
                list.append((c.priority, MapLabelCandidate(id: id, text: text, x: x, y: y, kind: kind, minZoom: 0,
                                                          angle: c.angle)))
            }
        }
        list.sort { a, b in
            if a.priority != b.priority { return a.priority > b.priority }
            if a.candidate.text != b.candidate.text { return a.candidate.text < b.candidate.text }
            return a.candidate.id > b.candidate.id
        }
        // One name per water (a lake or river named by several tiles): the first in that order.
        var waterNames = Set<String>()
        list = list.filter { e in
            let isWater = [MapLabelKind.lake, .river, .sea, .ocean].contains(e.candidate.kind)
            return !isWater || waterNames.insert(e.candidate.text).inserted
        }
        revision += 1
        let overlay = MapLabelOverlay(candidates: list.map(\.candidate), covered: covered, revision: revision)
        (last, lastVersion, lastInput, lastCovered) = (overlay, version, input, covered)
        return overlay
    }
}

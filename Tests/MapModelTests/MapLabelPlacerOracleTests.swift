import ClusterCore
import Foundation
import XCTest
@testable import MapModel

/// The placer with flat grids (`RegionGrid`, `LineNameAnchors`) against the dictionary-based
/// placer it replaced (kept below as the oracle): the same labels, in the same order, at the same
/// places, for random built-in names, street maps' names (repeated street names, turned text),
/// several world copies, kept labels and names still unmeasured.
final class MapLabelPlacerOracleTests: XCTestCase {
    let fixtures = LabelFixtures()

    /// Random names: built-in kinds (point labels with dots, centred names, rivers that repeat).
    func builtIn(_ n: Int, _ rng: inout SeededRandom, cx: Double, cy: Double, spread: Double) -> [MapLabelCandidate] {
        let kinds: [MapLabelKind] = [.country, .capital, .city, .town, .village, .sea, .lake, .river, .river]
        return (0..<n).map { i in
            let kind = kinds[Int(rng.next() % UInt64(kinds.count))]
            // Rivers share a few names, so the repeat rule is exercised.
            let text = kind == .river ? "River \(rng.next() % 5)" : String(repeating: "x", count: 2 + Int(rng.next() % 14)) + "\(i)"
            return MapLabelCandidate(text: text, x: cx + (unit(&rng) - 0.5) * spread, y: cy + (unit(&rng) - 0.5) * spread,
                                     kind: kind, minZoom: Double(rng.next() % 8), angle: kind == .river ? unit(&rng) - 0.5 : 0)
        }
    }

    /// A street map's names: many streets sharing names, districts, towns.
    func overlay(_ n: Int, _ rng: inout SeededRandom, cx: Double, cy: Double, spread: Double, covered: [UnitBox]) -> MapLabelOverlay {
        let candidates: [MapLabelCandidate] = (0..<n).map { i in
            let road = rng.next() % 4 != 0
            let kind: MapLabelKind = road ? .road : [.district, .town, .village, .lake][Int(rng.next() % 4)]
            let text = road ? "Via \(rng.next() % 40)" : "Place \(i)"
            return MapLabelCandidate(id: -1 - i, text: text, x: cx + (unit(&rng) - 0.5) * spread, y: cy + (unit(&rng) - 0.5) * spread,
                                     kind: kind, minZoom: 0, angle: road ? (unit(&rng) - 0.5) * 3 : 0)
        }
        return MapLabelOverlay(candidates: candidates, covered: covered, revision: 1)
    }

    /// Equal lists, or the first difference (not two thousand labels printed).
    func assertSame(_ a: [PlacedMapLabel], _ b: [PlacedMapLabel], _ what: String, line: UInt = #line) {
        guard a != b else { return }
        let i = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        XCTFail("\(what): \(a.count) vs \(b.count) labels, first difference at \(i): "
                + "\(i < a.count ? "\(a[i].id) \(a[i].text)" : "none") vs \(i < b.count ? "\(b[i].id) \(b[i].text)" : "none")", line: line)
    }

    func unit(_ rng: inout SeededRandom) -> Double { Double(rng.next() >> 11) / Double(1 << 53) }

    func testFlatGridPlacementEqualsTheDictionaryPlacer() {
        var rng = SeededRandom(seed: 42)
        var compared = 0, placedTotal = 0
        for round in 0..<60 {
            let zoom = [3.0, 5.5, 9.25, 13.7, 15.2, 16.9][round % 6]
            let ws = 256 * exp2(zoom)
            // Near the antimeridian every third round: two world copies in the region.
            let cx = round % 3 == 0 ? 0.999 : 0.3 + unit(&rng) * 0.4, cy = 0.3 + unit(&rng) * 0.4
            let spread = 3000 / ws
            let index = MapLabelIndex(candidates: builtIn(300 + Int(rng.next() % 900), &rng, cx: cx, cy: cy, spread: spread))
            let covered = round % 2 == 0 ? [UnitBox(minX: cx - spread / 4, minY: cy - spread / 4, maxX: cx + spread / 4, maxY: cy + spread / 4)] : []
            let over: MapLabelOverlay? = round % 4 == 3 ? nil : overlay(500 + Int(rng.next() % 1500), &rng, cx: cx, cy: cy,
                                                                        spread: spread, covered: covered)
            let minX = cx * ws - 1300, minY = cy * ws - 1100, maxX = cx * ws + 1300, maxY = cy * ws + 1100
            let candidateOf: (Int) -> MapLabelCandidate = { id in id >= 0 ? index.candidates[id] : over!.candidate(id: id)! }
            // Every fifth name unmeasured in odd rounds (placed later, in motion).
            let size: (Int) -> MapLabelSize? = { id in
                round % 2 == 1 && abs(id) % 5 == 0 ? nil : self.fixtures.size(candidateOf(id))
            }
            var placer = MapLabelPlacer()
            placer.maxCandidates = round % 5 == 4 ? 300 : 4000
            let reference = ReferenceLabelPlacer(placer: placer)
            let new = placer.place(index, overlay: over, zoom: zoom, minX: minX, minY: minY, maxX: maxX, maxY: maxY, sizeIfMeasured: size)
            let old = reference.place(index, overlay: over, zoom: zoom, minX: minX, minY: minY, maxX: maxX, maxY: maxY,
                                      keeping: [], sizeIfMeasured: size)
            assertSame(new.labels, old.labels, "round \(round)")
            XCTAssertEqual(new.unmeasured, old.unmeasured, "round \(round)")
            // Then again over a region moved east, keeping what was placed (as panning does).
            let kept = Array(new.labels.prefix(new.labels.count / 2))
            let again = placer.place(index, overlay: over, zoom: zoom, minX: minX + 700, minY: minY, maxX: maxX + 700, maxY: maxY,
                                     keeping: kept, sizeIfMeasured: size)
            let againOld = reference.place(index, overlay: over, zoom: zoom, minX: minX + 700, minY: minY, maxX: maxX + 700,
                                           maxY: maxY, keeping: kept, sizeIfMeasured: size)
            assertSame(again.labels, againOld.labels, "round \(round), kept")
            compared += 2
            placedTotal += new.labels.count + again.labels.count
        }
        XCTAssertEqual(compared, 120)
        // The comparison means something only if names were placed, and some gave way.
        XCTAssertGreaterThan(placedTotal, 5000)
    }

    func testRegionGridAnswersAsTestingEveryBox() {
        var rng = SeededRandom(seed: 7)
        var grid = RegionGrid(cellSize: 64, minX: 0, minY: 0, maxX: 1000, maxY: 800)
        var boxes: [Box] = []
        var hitsSeen = 0
        for _ in 0..<3000 {
            // Boxes partly or wholly outside the region too (clamped into border cells).
            let x = unit(&rng) * 1600 - 300, y = unit(&rng) * 1400 - 300
            let b = Box(minX: x, minY: y, maxX: x + unit(&rng) * 150, maxY: y + unit(&rng) * 40)
            let expected = boxes.contains { $0.intersects(b) }
            XCTAssertEqual(grid.hits(b), expected)
            if expected { hitsSeen += 1 }
            if unit(&rng) < 0.3 {
                grid.insert(b)
                boxes.append(b)
            }
        }
        XCTAssertGreaterThan(hitsSeen, 500)
    }
}

/// The placer as it was before the flat grids (dictionary of cells, dictionary of names by text,
/// overlay candidates looked up by id): the oracle.
struct ReferenceLabelPlacer {
    let placer: MapLabelPlacer

    func place(_ index: MapLabelIndex, overlay: MapLabelOverlay?, zoom: Double, minX: Double, minY: Double, maxX: Double,
               maxY: Double, keeping previous: [PlacedMapLabel], sizeIfMeasured: (Int) -> MapLabelSize?)
        -> (labels: [PlacedMapLabel], unmeasured: Int) {
        let worldSize = 256 * exp2(zoom)
        var order: [(id: Int, copy: Int)] = []
        var overlayOrder: [(rank: Int, id: Int, copy: Int)] = []
        let firstCopy = Int((minX / worldSize).rounded(.down)), lastCopy = Int((maxX / worldSize).rounded(.down))
        for k in firstCopy...max(firstCopy, lastCopy) {
            let offset = Double(k) * worldSize
            let x0 = max(0, (minX - offset) / worldSize), x1 = min(1, (maxX - offset) / worldSize)
            let y0 = max(0, minY / worldSize), y1 = min(1, maxY / worldSize)
            guard x0 <= x1 else { continue }
            for id in index.candidates(inUnitBox: x0, y0, x1, y1, zoom: zoom) {
                if let overlay, !overlay.covered.isEmpty {
                    let c = index.candidates[id]
                    if overlay.covers(x: c.x, y: c.y) { continue }
                }
                order.append((id, k))
            }
            for (rank, c) in (overlay?.candidates ?? []).enumerated() where c.x >= x0 && c.x <= x1 && c.y >= y0 && c.y <= y1
                && zoom > c.minZoom - MapLabelCandidate.fadeZooms && zoom < c.maxZoom {
                overlayOrder.append((rank, c.id, k))
            }
        }
        order.sort { $0.id != $1.id ? $0.id < $1.id : $0.copy < $1.copy }
        if !overlayOrder.isEmpty {
            overlayOrder.sort { $0.rank != $1.rank ? $0.rank < $1.rank : $0.copy < $1.copy }
            order = overlayOrder.map { (id: $0.id, copy: $0.copy) } + order
        }
        func candidate(_ id: Int) -> MapLabelCandidate { id >= 0 ? index.candidates[id] : overlay!.candidate(id: id)! }
        var grid = CollisionGrid(cellSize: 64)
        var placed: [PlacedMapLabel] = []
        var kept = Set<Int64>()
        func key(_ id: Int, _ copy: Int) -> Int64 { Int64(id) << 16 ^ Int64(copy & 0xFFFF) }
        let inRegion = Set(order.map { key($0.id, $0.copy) })
        let r = placer.dotRadius
        for p in previous where inRegion.contains(key(p.id, p.copy)) {
            var hit = Box(minX: p.minX, minY: p.minY, maxX: p.maxX, maxY: p.maxY)
            if let d = p.dot { hit = hit.union(Box(minX: d.x - r, minY: d.y - r, maxX: d.x + r, maxY: d.y + r)) }
            grid.insert(hit)
            placed.append(p)
            kept.insert(key(p.id, p.copy))
        }
        var lineNames: [String: [(x: Double, y: Double)]] = [:]
        var unmeasured = 0
        for p in placed where p.kind.repeatsAlongLines { lineNames[p.text, default: []].append((p.anchorX, p.anchorY)) }
        for (id, copy) in order.prefix(placer.maxCandidates) where !kept.contains(key(id, copy)) {
            let c = candidate(id)
            let alpha = c.alpha(atZoom: zoom)
            guard alpha > 0 else { continue }
            let ax = (c.x + Double(copy)) * worldSize, ay = c.y * worldSize
            if c.kind.repeatsAlongLines, let others = lineNames[c.text],
               others.contains(where: { hypot($0.x - ax, $0.y - ay) < placer.repeatDistance }) { continue }
            guard let s = sizeIfMeasured(id) else { unmeasured += 1; continue }
            for i in 0..<placer.positionCount(c.kind) {
                let box = placer.position(i, for: c, anchorX: ax, anchorY: ay, size: s)
                let p = placer.padding
                guard !grid.hits(Box(minX: box.minX - p, minY: box.minY - p, maxX: box.maxX + p, maxY: box.maxY + p)) else { continue }
                var hit = box
                if c.kind.isPointLabel { hit = hit.union(Box(minX: ax - r, minY: ay - r, maxX: ax + r, maxY: ay + r)) }
                grid.insert(hit)
                placed.append(PlacedMapLabel(id: id, copy: copy, text: c.text, kind: c.kind, minX: box.minX, minY: box.minY,
                                             maxX: box.maxX, maxY: box.maxY, dot: c.kind.isPointLabel ? (ax, ay) : nil,
                                             anchorX: ax, anchorY: ay, alpha: alpha, angle: c.angle))
                if c.kind.repeatsAlongLines { lineNames[c.text, default: []].append((ax, ay)) }
                break
            }
        }
        return (placed, unmeasured)
    }
}

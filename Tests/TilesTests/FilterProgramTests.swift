import Foundation
@testable import Tiles
import XCTest

/// `FilterProgram` (the painter's compiled filters) against `StyleFilter.matches` (the plain
/// definition), on random layers and filters and on both built-in styles over real tiles.
final class FilterProgramTests: XCTestCase {
    private struct Random {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
    }

    private let keys = ["class", "kind", "pmap:kind", "brunnel", "admin_level", "name"]
    private let texts = ["road", "rail", "tunnel", "2", "park", "yes", "1"]

    private func randomFilter(_ r: inout Random, depth: Int = 0) -> StyleFilter {
        let pick = depth > 2 ? r.next(4) : r.next(7)
        func someKeys() -> [String] { (0...r.next(2)).map { _ in keys[r.next(keys.count)] } }
        func someValues() -> Set<String> { Set((0...r.next(3)).map { _ in texts[r.next(texts.count)] }) }
        switch pick {
        case 0: return .equals(keys: someKeys(), values: someValues())
        case 1: return .notEquals(keys: someKeys(), values: someValues())
        case 2: return .has(keys[r.next(keys.count)])
        case 3: return r.next(5) == 0 ? .always : .geometry(r.next(2) == 0 ? .polygon : .lineString)
        case 4, 5: return .all((0..<r.next(4)).map { _ in randomFilter(&r, depth: depth + 1) })
        default: return .any((0..<r.next(4)).map { _ in randomFilter(&r, depth: depth + 1) })
        }
    }

    private func randomLayer(_ r: inout Random) -> VectorTileLayer {
        // Not every key is in every layer; values mix strings and numbers (2 and "2" compare equal).
        let layerKeys = keys.filter { _ in r.next(4) > 0 }
        var values: [VectorTileValue] = texts.map { .string($0) } + [.int(2), .double(1), .bool(true)]
        var generator = SeededGenerator(r.next(1000))
        values.shuffle(using: &generator)
        var features: [VectorTileFeature] = []
        for _ in 0..<60 {
            var tags: [UInt32] = []
            for k in 0..<layerKeys.count where r.next(3) > 0 {
                tags += [UInt32(k), UInt32(r.next(values.count + 1))]  // now and then an index past the table
            }
            features.append(VectorTileFeature(type: r.next(2) == 0 ? .polygon : .lineString, tags: tags,
                                              points: [0, 0, 10, 10], parts: [0]))
        }
        return VectorTileLayer(name: "l", keys: layerKeys, values: values, features: features)
    }

    private func assertAgrees(_ filter: StyleFilter, _ layer: VectorTileLayer, file: StaticString = #filePath, line: UInt = #line) {
        let prepared = PreparedLayer(layer, keys: filter.keys)
        let program = FilterProgram(filter, layer: prepared)
        prepared.withRows { rows, types, _ in
            for (i, f) in layer.features.enumerated() {
                let expected = filter.matches(type: f.type) { layer.value(of: f, key: $0) }
                let got = program.matches(row: rows + i * prepared.width, type: types[i])
                XCTAssertEqual(got, expected, "\(filter) feature \(i) tags \(f.tags)", file: file, line: line)
                if got != expected { return }
            }
            // Features grouped by kind get the same answer through `passingKinds`.
            let passing = program.passingKinds(of: prepared)
            prepared.withKinds { kinds, _, _ in
                for (i, f) in layer.features.enumerated() {
                    let expected = filter.matches(type: f.type) { layer.value(of: f, key: $0) }
                    XCTAssertEqual(passing[Int(kinds[i])], expected, "\(filter) kind of feature \(i)", file: file, line: line)
                }
            }
            if program.isNever { XCTAssertFalse(layer.features.contains { f in filter.matches(type: f.type) { layer.value(of: f, key: $0) } }) }
        }
    }

    func testRandomFiltersAgreeWithTheirDefinition() {
        var r = Random(state: 11)
        for _ in 0..<400 {
            let layer = randomLayer(&r)
            assertAgrees(randomFilter(&r), layer)
        }
    }

    func testBuiltInStylesAgreeOnRealTiles() throws {
        let cases: [(TileSource, TileID)] = [
            (try MBTilesSource(path: Fixtures.path("leipzig-subset.mbtiles")), TileID(z: 14, x: 8755, y: 5460)),
            (try PMTilesSource(path: Fixtures.path("firenze-subset.pmtiles")), TileID(z: 14, x: 8704, y: 5972)),
        ]
        for (source, id) in cases {
            let style = TileStyle.builtIn(for: TileSchema(vectorLayers: source.metadata.vectorLayers))
            let tile = try MVTDecoder.decode(try XCTUnwrap(try source.tileData(for: id)))
            for rule in style.layers {
                guard let layer = tile.layer(named: rule.sourceLayer) else { continue }
                assertAgrees(rule.filter, layer)
            }
        }
    }
}

/// A seeded generator for `shuffle(using:)`.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(_ seed: Int) { state = UInt64(seed) &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state
    }
}

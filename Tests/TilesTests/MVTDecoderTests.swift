import Foundation
import TileTestSupport
@testable import Tiles
import XCTest

final class MVTDecoderTests: XCTestCase {
    typealias E = MVTEncoder

    func testDecodesLayersFeaturesGeometryAndValues() throws {
        let square = E.ring([(10, 10), (20, 10), (20, 20), (10, 20)])
        let hole = E.ring([(12, 12), (12, 18), (18, 18), (18, 12)], from: (10, 20))
        let layer = E.Layer(
            name: "water", extent: 4096, keys: ["class", "rank", "area", "flag", "neg", "f"],
            values: [E.stringValue("lake"), E.intValue(3), E.doubleValue(2.5), E.boolValue(true), E.sintValue(-7), E.floatValue(1.5)],
            features: [
                E.Feature(id: 42, type: 3, tags: [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5], geometry: square + hole),
                E.Feature(type: 2, tags: [0, 0], geometry: E.line([(0, 0), (100, -50), (4200, 10)])),
                E.Feature(type: 1, tags: [], geometry: [E.command(1, 2), E.zigzag(5), E.zigzag(6), E.zigzag(1), E.zigzag(-1)]),
            ])
        let tile = try MVTDecoder.decode(E.encode([layer, E.Layer(name: "empty")]))
        XCTAssertEqual(tile.layers.map(\.name), ["water", "empty"])
        let water = try XCTUnwrap(tile.layer(named: "water"))
        XCTAssertEqual(water.extent, 4096)
        let poly = water.features[0]
        XCTAssertEqual(poly.id, 42)
        XCTAssertEqual(poly.type, .polygon)
        XCTAssertEqual(poly.parts, [0, 4])
        XCTAssertEqual(poly.points, [10, 10, 20, 10, 20, 20, 10, 20, 12, 12, 12, 18, 18, 18, 18, 12])
        XCTAssertEqual(water.value(of: poly, key: "class"), .string("lake"))
        XCTAssertEqual(water.value(of: poly, key: "rank"), .int(3))
        XCTAssertEqual(water.value(of: poly, key: "area"), .double(2.5))
        XCTAssertEqual(water.value(of: poly, key: "flag"), .bool(true))
        XCTAssertEqual(water.value(of: poly, key: "neg"), .int(-7))
        XCTAssertEqual(water.value(of: poly, key: "f"), .double(1.5))
        XCTAssertNil(water.value(of: poly, key: "nope"))
        let line = water.features[1]
        XCTAssertEqual(line.type, .lineString)
        XCTAssertEqual(line.points, [0, 0, 100, -50, 4200, 10], "buffers beyond the extent are kept")
        let points = water.features[2]
        XCTAssertEqual(points.parts, [0, 1], "each MoveTo point of a multipoint is a part")
        XCTAssertEqual(points.points, [5, 6, 6, 5])
        XCTAssertEqual(points.partRange(1), 1..<2)
    }

    func testLayerFilterSkipsOtherLayers() throws {
        let data = E.encode([E.Layer(name: "poi", features: [E.Feature(type: 1, tags: [], geometry: [9, 2, 2])]),
                             E.Layer(name: "water")])
        XCTAssertEqual(try MVTDecoder.decode(data, layers: ["water"]).layers.map(\.name), ["water"])
    }

    func testMalformedTilesThrow() {
        let ok = E.Layer(name: "l", features: [E.Feature(type: 2, tags: [], geometry: E.line([(0, 0), (5, 5)]))])
        let good = E.encode([ok])
        XCTAssertNoThrow(try MVTDecoder.decode(good))
        func geometry(_ g: [UInt32], tags: [UInt32] = []) -> Data {
            E.encode([E.Layer(name: "l", keys: ["k"], values: [E.intValue(1)], features: [E.Feature(type: 2, tags: tags, geometry: g)])])
        }
        let cases: [(String, Data)] = [
            ("truncated", good.dropLast(3)),
            ("truncated varint", Data([0x1a, 0x80])),
            ("overlong varint", Data([0x1a] + Array(repeating: 0xff, count: 11) + [0x01])),
            ("length past the end", Data([0x1a, 0x7f, 0x00])),
            ("bad wire type", Data([0x1f, 0x00])),
            ("unknown command", geometry([E.command(3, 1), 0, 0])),
            ("LineTo first", geometry([E.command(2, 1), 2, 2])),
            ("huge count", geometry([E.command(2, 0x1fff_ffff), 2, 2])),
            ("zero count", geometry([E.command(1, 0)])),
            ("ClosePath count 2", geometry([E.command(1, 1), 0, 0, E.command(7, 2)])),
            ("missing parameter", geometry([E.command(1, 1), 2])),
            ("odd tags", geometry(E.line([(0, 0), (1, 1)]), tags: [0])),
            ("layer without name", E.bytesField(3, E.key(5, 0) + E.varint(4096))),
            ("zero extent", E.bytesField(3, E.bytesField(1, Data("x".utf8)) + E.key(5, 0) + E.varint(0))),
        ]
        for (name, data) in cases {
            XCTAssertThrowsError(try MVTDecoder.decode(data), name)
        }
        // Coordinates that overflow 32 bits: a long run of maximal deltas.
        var overflow: [UInt32] = [E.command(1, 1), 0, 0, E.command(2, 3)]
        for _ in 0..<3 { overflow += [E.zigzag(Int64(Int32.max)), 0] }
        XCTAssertThrowsError(try MVTDecoder.decode(geometry(overflow)), "overflow")
        // Out-of-range tag indices don't throw at decode time; lookups just find nothing.
        let tile = try? MVTDecoder.decode(geometry(E.line([(0, 0), (1, 1)]), tags: [5, 9]))
        XCTAssertNil(tile?.layers[0].value(of: tile!.layers[0].features[0], key: "k"))
        XCTAssertNil(tile?.layers[0].value(of: tile!.layers[0].features[0], keyIndex: 5))
    }

    func testDecodesTheRealTilesOfBothSchemas() throws {
        let leipzig = try MBTilesSource(path: Fixtures.path("leipzig-subset.mbtiles"))
        let t = try MVTDecoder.decode(try XCTUnwrap(try leipzig.tileData(for: TileID(z: 14, x: 8755, y: 5460))))
        let transportation = try XCTUnwrap(t.layer(named: "transportation"))
        XCTAssertGreaterThan(transportation.features.count, 1000)
        let classes = Set(transportation.features.compactMap { transportation.value(of: $0, key: "class")?.stringValue })
        XCTAssertTrue(classes.isSuperset(of: ["primary", "secondary", "minor", "path"]))
        let names = t.layer(named: "place").map { l in l.features.compactMap { l.value(of: $0, key: "name")?.stringValue } } ?? []
        XCTAssertTrue(names.contains("Leipzig"), "\(names)")
        XCTAssertGreaterThan(t.layer(named: "building")?.features.count ?? 0, 1000)
        // Every polygon part has at least 3 points and all coordinates stay near the tile.
        for layer in t.layers {
            for f in layer.features where f.type == .polygon {
                for i in 0..<f.parts.count { XCTAssertGreaterThanOrEqual(f.partRange(i).count, 3) }
                XCTAssertTrue(f.points.allSatisfy { $0 > -1024 && $0 < 4096 + 1024 }, layer.name)
            }
        }
    }
}

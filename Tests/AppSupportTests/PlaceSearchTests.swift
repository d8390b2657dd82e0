import XCTest
@testable import AppSupport

final class PlaceSearchTests: XCTestCase {
    func testFolding() {
        XCTAssertEqual(PlaceSearch.fold("Évora"), "evora")
        XCTAssertEqual(PlaceSearch.fold("MÜNCHEN"), "munchen")
        XCTAssertEqual(PlaceSearch.fold("Straße"), "strasse")
        XCTAssertEqual(PlaceSearch.fold("São Paulo"), "sao paulo")
        XCTAssertEqual(PlaceSearch.fold("Łódź"), "lodz")
        XCTAssertEqual(PlaceSearch.fold("Takht-e Qeyşar"), "takht-e qeysar")
        XCTAssertEqual(PlaceSearch.fold("東京"), "東京", "scripts without case or accents pass through")
    }

    func testCaseAndAccentInsensitivePrefixAndWordMatches() {
        let s = PlaceSearch(names: ["São Paulo", "Paulo Afonso", "Sao Tome", "Lisbon", "North Lisbon", "Lisboa", "Vila Nova de Gaia"])
        XCTAssertEqual(s.search("sao").map(\.name), ["Sao Tome", "São Paulo"], "shorter first at equal rank")
        XCTAssertEqual(s.search("PAULO").map(\.name), ["Paulo Afonso", "São Paulo"], "name prefix before word prefix")
        XCTAssertEqual(s.search("lisbon").map(\.rank), [.exact, .wordPrefix])
        XCTAssertEqual(s.search("lisb").map(\.name), ["Lisbon", "Lisboa", "North Lisbon"])
        XCTAssertEqual(s.search("gaia").map(\.name), ["Vila Nova de Gaia"])
        XCTAssertEqual(s.search("aulo"), [], "only word starts match")
        XCTAssertEqual(s.search("   "), [])
        XCTAssertEqual(s.search(""), [])
        XCTAssertEqual(s.search("  lisbon ").first?.name, "Lisbon")
        XCTAssertEqual(s.search("nova de").map(\.name), ["Vila Nova de Gaia"], "queries with spaces")
    }

    func testWeightsOrderEqualMatchesAndLimit() {
        let names = ["Lisbon", "Lisbon", "Lisbon", "Lisbon Falls"] + (0..<20).map { "Lisbon \($0)" }
        let weights: [Double] = [2845, 517_802, 4234, 999_999] + [Double](repeating: 1, count: 20)
        let s = PlaceSearch(names: names, weights: weights)
        let r = s.search("Lisbon")
        XCTAssertEqual(r.count, 8, "limited")
        XCTAssertEqual(r.prefix(3).map(\.index), [1, 2, 0], "exact matches first, most populous first")
        XCTAssertEqual(r[3].index, 3, "then prefixes by weight")
        XCTAssertEqual(s.search("lisbon", limit: 2).map(\.index), [1, 2])
    }

    /// Live changes: a removed place is never offered, a new or renamed one is found under its
    /// id, and the index counts only what is there.
    func testLiveChangesRemoveAddAndRename() {
        var s = PlaceSearch(names: ["Alpha", nil, "Betania", "Bethel"], weights: [1, 0, 5, 3])
        XCTAssertEqual(s.count, 3, "a nil name is no place")
        XCTAssertEqual(s.search("bet").map(\.index), [2, 3])
        s.remove(2)
        XCTAssertEqual(s.search("bet").map(\.index), [3], "removed: not offered")
        XCTAssertEqual(s.count, 2)
        s.update(4, name: "Betancuria", weight: 9)
        XCTAssertEqual(s.search("bet").map(\.index), [4, 3], "added under its id, by weight")
        s.update(3, name: "Zeta", weight: 3)
        XCTAssertEqual(s.search("bet").map(\.index), [4], "the old name is gone")
        XCTAssertEqual(s.search("zeta").map(\.index), [3], "renamed: found under the same id")
        s.update(7, name: "Alphaville")
        XCTAssertEqual(s.search("alpha").map(\.name), ["Alpha", "Alphaville"])
        s.remove(0); s.remove(0)
        XCTAssertEqual(s.search("alpha").map(\.index), [7])
        XCTAssertEqual(s.count, 3)
        s.update(3, name: nil)
        XCTAssertEqual(s.search("zeta"), [])
    }

    func testLargeIndexIsQuick() {
        let names = (0..<170_000).map { "Place \($0) Ville-\($0 % 977)" } + ["Lisbon"]
        let s = PlaceSearch(names: names)
        measure {
            XCTAssertEqual(s.search("lisbon").first?.name, "Lisbon")
        }
    }
}

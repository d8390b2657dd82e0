import Foundation
import ClusterCore

extension PostGISSource {
    /// Every row's point (filters applied) with its id and the total column read as text: for
    /// writing a table's tiles with a most-common total (`clustermap tiles postgresql://…
    /// --total most-common:COLUMN`). `texts[i]` is nil where the row has no value.
    public func allPointTexts(options: PostGISViewOptions) throws -> (coordinates: [GeoCoordinate], ids: [Int64?], texts: [String?]) {
        let sql = try ViewSQL(table: table, conditions: options.conditions, filter: options.filter, total: options.total,
                              mostCommon: true, quote: connection.quoted)
        let r = try connection.query(sql.fetchSQL(limit: Int(Int32.max)), ViewSQL.boxValues(-180, -90, 180, 90) + sql.filterValues)
        var coordinates: [GeoCoordinate] = [], ids: [Int64?] = [], texts: [String?] = []
        coordinates.reserveCapacity(r.rowCount)
        for i in 0..<r.rowCount {
            coordinates.append(GeoCoordinate(latitude: r.double(i, 1) ?? .nan, longitude: r.double(i, 0) ?? .nan))
            ids.append(r.integer(i, 3))
            texts.append(options.total == nil ? nil : r.text(i, 2))
        }
        return (coordinates, ids, texts)
    }

    /// Texts in the order of their UTF-8 bytes, numbered: the category codes whose lower number
    /// wins a tie, as SQL's `mode() WITHIN GROUP (ORDER BY v COLLATE "C")` picks.
    public static func byteOrderedCodes(_ texts: [String?]) -> (names: [String], codes: [Int32]) {
        let names = byteOrdered(Set(texts.compactMap { $0 }))
        let code = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, Int32($0)) })
        return (names, texts.map { $0.flatMap { code[$0] } ?? -1 })
    }
}

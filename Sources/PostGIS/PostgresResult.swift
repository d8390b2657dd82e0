import CPostgres
import Foundation

/// A query's rows (binary format: numbers in network byte order, text as UTF-8 bytes).
public final class PostgresResult: @unchecked Sendable {
    private let result: OpaquePointer

    init(_ result: OpaquePointer) { self.result = result }
    deinit { PQclear(result) }

    /// Number of rows.
    public var rowCount: Int { Int(PQntuples(result)) }
    /// Number of columns.
    public var columnCount: Int { Int(PQnfields(result)) }

    /// Whether the value is SQL NULL.
    public func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(result, Int32(row), Int32(column)) == 1 }

    private func bigEndian(_ row: Int, _ column: Int) -> UInt64? {
        guard !isNull(row, column), let p = PQgetvalue(result, Int32(row), Int32(column)) else { return nil }
        let n = Int(PQgetlength(result, Int32(row), Int32(column)))
        var v: UInt64 = 0
        let raw = UnsafeRawPointer(p)
        for i in 0..<n { v = v << 8 | UInt64(raw.load(fromByteOffset: i, as: UInt8.self)) }
        return v
    }

    /// A float8 column (binary); nil for NULL.
    public func double(_ row: Int, _ column: Int) -> Double? {
        guard PQfsize(result, Int32(column)) == 8 else { return integer(row, column).map(Double.init) }
        return bigEndian(row, column).map { Double(bitPattern: $0) }
    }

    /// An int2/int4/int8 column (binary, sign-extended); nil for NULL.
    public func integer(_ row: Int, _ column: Int) -> Int64? {
        let size = Int(PQfsize(result, Int32(column)))
        guard let v = bigEndian(row, column) else { return nil }
        switch size {
        case 2: return Int64(Int16(truncatingIfNeeded: v))
        case 4: return Int64(Int32(truncatingIfNeeded: v))
        default: return Int64(bitPattern: v)
        }
    }

    /// A bool column (binary: one byte); nil for NULL.
    public func boolean(_ row: Int, _ column: Int) -> Bool? { bigEndian(row, column).map { $0 != 0 } }

    /// Whether a column is `text` (its values are read with `text`, not as numbers).
    public func isText(_ column: Int) -> Bool { PQftype(result, Int32(column)) == 25 }

    /// The name a column was given.
    public func name(ofColumn column: Int) -> String? { PQfname(result, Int32(column)).map { String(cString: $0) } }

    /// A text column (binary format of text is its UTF-8 bytes); nil for NULL.
    public func text(_ row: Int, _ column: Int) -> String? {
        guard !isNull(row, column), let p = PQgetvalue(result, Int32(row), Int32(column)) else { return nil }
        let n = Int(PQgetlength(result, Int32(row), Int32(column)))
        return String(decoding: UnsafeRawBufferPointer(start: p, count: n), as: UTF8.self)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Literals and numbers, and validating-and-skipping any JSON value the reader has no use for.
extension GeoJSONReader {
    mutating func expectLiteral(_ lit: StaticString) throws {
        let n = lit.utf8CodeUnitCount
        if pos + n <= end && memcmp(p + pos, lit.utf8Start, n) == 0 {
            pos += n
            return
        }
        throw expected("a JSON value")
    }

    /// Validates a number at `pos` without converting it.
    @inline(__always)
    mutating func skipNumber() throws {
        var i = pos
        if p[i] == UInt8(ascii: "-") { i += 1 }
        if p[i] == UInt8(ascii: "0") {
            i += 1
        } else if p[i] &- 49 < 9 {
            while p[i] &- 48 < 10 { i += 1 }
        } else {
            throw error("invalid number", at: pos)
        }
        if p[i] == UInt8(ascii: ".") {
            i += 1
            guard p[i] &- 48 < 10 else { throw error("invalid number: expected a digit after '.'", at: i) }
            while p[i] &- 48 < 10 { i += 1 }
        }
        if p[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "+") { i += 1 }
            guard p[i] &- 48 < 10 else { throw error("invalid number: expected a digit in the exponent", at: i) }
            while p[i] &- 48 < 10 { i += 1 }
        }
        pos = i
    }

    @inline(__always)
    mutating func scanNumber() throws -> Double {
        let r = FastDouble.scanJSONNumber(p, at: pos)
        guard r.ok else {
            if r.end >= end { throw error("invalid number: the file ends here (truncated?)", at: pos) }
            throw error("invalid number", at: pos)
        }
        pos = r.end
        return r.value
    }

    /// Validates and skips any JSON value at `pos`.
    mutating func skipValue(depth: Int) throws {
        switch p[pos] {
        case UInt8(ascii: "\""):
            _ = try scanString()
        case UInt8(ascii: "{"):
            guard depth < GeoJSONReader.maxDepth else { throw nestingTooDeep() }
            guard enterContainer(closedBy: UInt8(ascii: "}")) else { return }
            repeat {
                _ = try scanMemberName()
                try skipValue(depth: depth + 1)
            } while try nextElementFollows(closer: UInt8(ascii: "}"), expecting: "',' or '}' in an object")
        case UInt8(ascii: "["):
            guard depth < GeoJSONReader.maxDepth else { throw nestingTooDeep() }
            guard enterContainer(closedBy: UInt8(ascii: "]")) else { return }
            repeat {
                try skipValue(depth: depth + 1)
            } while try nextElementFollows(closer: UInt8(ascii: "]"), expecting: "',' or ']' in an array")
        case UInt8(ascii: "t"): try expectLiteral("true")
        case UInt8(ascii: "f"): try expectLiteral("false")
        case UInt8(ascii: "n"): try expectLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try skipNumber()
        default:
            throw expected("a JSON value")
        }
    }
}

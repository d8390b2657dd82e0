#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decimal-to-double conversion that is bit-exact with a correctly rounded parser (strtod).
///
/// Ordinary decimals (up to 19 significant digits, small exponents) take a fast path:
/// Clinger's exact single-operation case when the digits fit in 53 bits, otherwise a candidate
/// from one division that is verified (and nudged by one ulp if needed) with 128-bit integer
/// arithmetic. Everything else — long mantissas, huge or tiny exponents, ties — goes to `strtod`,
/// so the result is always the correctly rounded value.
enum FastDouble {
    /// 10^0 … 10^22, all exactly representable as doubles.
    @usableFromInline static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
    /// 10^0 … 10^8 as integers: a literal, so it needs no lazy initialisation (digit runs).
    @usableFromInline static let smallIntegerPowersOfTen: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000,
    ]
    /// 10^0 … 10^19 as integers.
    @usableFromInline static let integerPowersOfTen: [UInt64] = {
        var table: [UInt64] = []
        var p: UInt64 = 1
        for _ in 0...19 { table.append(p); p = p &* 10 }
        return table
    }()

    /// Scans a JSON-grammar number starting at `p[i]` and converts it.
    ///
    /// Grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    /// Returns the value and the index just past the number, or nil when the bytes at `i` are not
    /// a number by that grammar (the index then says where the grammar broke).
    /// The buffer must be readable (and NUL-padded) past `end`: the scan stops at any non-digit.
    @inline(__always)
    static func scanJSONNumber(_ p: UnsafePointer<UInt8>, at start: Int) -> (value: Double, end: Int, ok: Bool) {
        if let short = signedShortDecimal(p, at: start) { return (short.value, short.end, true) }
        var i = start
        var negative = false
        if p[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0          // digits kept in `mantissa` (at most 19)
        var exponent = 0        // decimal exponent applied to `mantissa`
        var truncated = false   // a non-zero digit was dropped
        var c = p[i]
        if c == UInt8(ascii: "0") {
            i += 1
            c = p[i]
            if c &- 48 < 10 { return (0, i, false) }   // leading zero
        } else if c &- 49 < 9 {
            keepDigits(p, &i, &mantissa, &digits)
            c = p[i]
            while c &- 48 < 10 {   // beyond 19 digits: dropped, scaled by the exponent
                exponent += 1
                if c != 48 { truncated = true }
                i += 1
                c = p[i]
            }
        } else {
            return (0, i, false)
        }
        if c == UInt8(ascii: ".") {
            i += 1
            if p[i] &- 48 >= 10 { return (0, i, false) }
            let fractionStart = i
            var dropped = 0
            if mantissa == 0 { while p[i] == 48 { i += 1 } }   // leading zeros are not significant
            keepDigits(p, &i, &mantissa, &digits)
            c = p[i]
            while c &- 48 < 10 {   // beyond 19 digits: dropped
                dropped += 1
                if c != 48 { truncated = true }
                i += 1
                c = p[i]
            }
            exponent -= (i - fractionStart) - dropped
        }
        if c | 0x20 == UInt8(ascii: "e") {
            i += 1
            c = p[i]
            var expNegative = false
            if c == UInt8(ascii: "-") { expNegative = true; i += 1; c = p[i] }
            else if c == UInt8(ascii: "+") { i += 1; c = p[i] }
            if c &- 48 >= 10 { return (0, i, false) }
            var e = 0
            while c &- 48 < 10 {
                if e < 100_000 { e = e * 10 + Int(c &- 48) }
                i += 1
                c = p[i]
            }
            exponent += expNegative ? -e : e
        }
        if !truncated, let v = fastValue(mantissa: mantissa, exponent: exponent) {
            return (negative ? -v : v, i, true)
        }
        return (strtodBytes(p + start, count: i - start), i, true)
    }

    /// Appends the digits at `p[i]` to `mantissa` while fewer than 19 are kept (eight at a time
    /// while they fit, then one at a time), moving `i` past them.
    @inline(__always)
    static func keepDigits(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ mantissa: inout UInt64, _ digits: inout Int) {
        while true {
            let run = digitRun(p + i)
            guard run.count > 0 && digits + run.count <= 19 else { break }
            mantissa = mantissa &* smallIntegerPowersOfTen.withUnsafeBufferPointer { $0[run.count] } &+ run.value
            digits += run.count
            i += run.count
            if run.count < 8 { return }
        }
        while digits < 19 {
            let c = p[i]
            guard c &- 48 < 10 else { return }
            mantissa = mantissa &* 10 &+ UInt64(c &- 48)
            digits += 1
            i += 1
        }
    }

    /// `shortDecimal` after an optional `-`.
    @inline(__always)
    static func signedShortDecimal(_ p: UnsafePointer<UInt8>, at i: Int) -> (value: Double, end: Int)? {
        let negative = p[i] == UInt8(ascii: "-")
        guard let short = shortDecimal(p, at: negative ? i + 1 : i) else { return nil }
        return (negative ? -short.value : short.value, short.end)
    }

    /// The common case, in one pass: `[1-9]` and up to 7 more digits, then optionally `.` and 1 to 7
    /// digits, 15 digits at most and no exponent (coordinates, magnitudes, populations). The
    /// digits then fit in 53 bits and the power of ten is exact, so one division is correctly
    /// rounded (Clinger), as in `fastValue`. Nil for anything else (the general scan decides).
    @inline(__always)
    static func shortDecimal(_ p: UnsafePointer<UInt8>, at i: Int) -> (value: Double, end: Int)? {
        guard p[i] &- 49 < 9 else { return nil }
        let whole = digitRun(p + i)
        guard whole.count < 8 else { return nil }
        let j = i + whole.count
        let c = p[j]
        if c == UInt8(ascii: ".") {
            let fraction = digitRun(p + j + 1)
            guard fraction.count > 0 && fraction.count < 8 && whole.count + fraction.count <= 15 else { return nil }
            let k = j + 1 + fraction.count
            guard p[k] | 0x20 != UInt8(ascii: "e") else { return nil }
            let m = whole.value &* smallIntegerPowersOfTen.withUnsafeBufferPointer { $0[fraction.count] } &+ fraction.value
            return (Double(m) / powersOfTen.withUnsafeBufferPointer { $0[fraction.count] }, k)
        }
        guard c | 0x20 != UInt8(ascii: "e") else { return nil }
        return (Double(whole.value), j)
    }

    /// The ASCII digits at the start of the 8 bytes at `p` (0 to 8 of them) and their value (SWAR):
    /// the bytes after the first non-digit are shifted out, and the digits before it become the
    /// low end of an eight-digit number with leading zeros.
    @inline(__always)
    static func digitRun(_ p: UnsafePointer<UInt8>) -> (value: UInt64, count: Int) {
        let x = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)
        // A byte is a digit when its high nibble is 3 both as it is and with 6 added. (A carry
        // out of a byte ≥ 0xFA only disturbs bytes after it, past the first non-digit.)
        let notDigit = ((x & 0xF0F0_F0F0_F0F0_F0F0) ^ 0x3030_3030_3030_3030)
            | (((x &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) ^ 0x3030_3030_3030_3030)
        let count = notDigit.trailingZeroBitCount >> 3
        guard count > 0 else { return (0, 0) }
        var v = (x & 0x0F0F_0F0F_0F0F_0F0F) &<< UInt64(8 * (8 - count))   // count is 1…8
        v = (v &* 2561) >> 8
        v = ((v & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
        v = ((v & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
        return (v, count)
    }

    /// The correctly rounded value of `mantissa · 10^exponent` when a cheap exact method exists.
    @inline(__always)
    static func fastValue(mantissa: UInt64, exponent: Int) -> Double? {
        if mantissa == 0 { return 0 }
        if mantissa <= 1 << 53 {
            if exponent == 0 { return Double(mantissa) }
            if exponent < 0 && exponent >= -22 {
                return Double(mantissa) / powersOfTen.withUnsafeBufferPointer { $0[-exponent] }
            }
            if exponent > 0 && exponent <= 22 {
                return Double(mantissa) * powersOfTen.withUnsafeBufferPointer { $0[exponent] }
            }
            return nil
        }
        if exponent < 0 && exponent >= -19 {
            return verifiedQuotient(mantissa: mantissa, k: -exponent)
        }
        return nil
    }

    /// `m / 10^k` for m > 2^53, k ≤ 19: a one-division candidate, checked exactly.
    @inline(__always)
    static func verifiedQuotient(mantissa m: UInt64, k: Int) -> Double? {
        let p10 = integerPowersOfTen.withUnsafeBufferPointer { UInt128($0[k]) }
        var d = Double(m) / powersOfTen.withUnsafeBufferPointer { $0[k] }
        for _ in 0..<3 {
            // d = M · 2^E with M a 53-bit integer.
            let e = Int(d.exponent) - 52
            let shift = 1 - e
            guard shift >= 1 && shift <= 64 else { return nil }
            let bigM = UInt64(d.significandBitPattern) | (1 << 52)
            if bigM == 1 << 52 { return nil }    // lower neighbour is closer: leave it to strtod
            let scaled = UInt128(m) << UInt128(shift)            // m · 2^(1−E)
            let low = UInt128(2 * bigM - 1) * p10                 // (2M − 1) · 10^k
            let high = UInt128(2 * bigM + 1) * p10                // (2M + 1) · 10^k
            if scaled > low && scaled < high { return d }
            if scaled == low || scaled == high { return bigM & 1 == 0 ? d : nil }
            d = scaled < low ? d.nextDown : d.nextUp
        }
        return nil
    }

    /// Correctly rounded conversion of arbitrary number text through the C library.
    static func strtodBytes(_ p: UnsafePointer<UInt8>, count: Int) -> Double {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { buf in
            for j in 0..<count { buf[j] = CChar(bitPattern: p[j]) }
            buf[count] = 0
            return strtod(buf.baseAddress!, nil)
        }
    }

    /// Parses a whole field as a number, leniently (CSV cells): surrounding spaces, a leading `+`,
    /// `.5`, `5.`, and NaN/Infinity spellings are accepted. Returns nil when it is not a number.
    static func parseLenient(_ p: UnsafePointer<UInt8>, count: Int) -> Double? {
        var s = 0, e = count
        while s < e && (p[s] == 32 || p[s] == 9) { s += 1 }
        while e > s && (p[e - 1] == 32 || p[e - 1] == 9) { e -= 1 }
        if s == e { return nil }
        let n = e - s
        // Fast path: the JSON grammar on a copy that is NUL-padded (digit runs read 8 bytes at a time).
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: n + 16) { buf in
            for j in 0..<n { buf[j] = p[s + j] }
            for j in n..<(n + 16) { buf[j] = 0 }
            let base = UnsafePointer(buf.baseAddress!)
            let r = scanJSONNumber(base, at: 0)
            if r.ok && r.end == n { return r.value }
            // Slow path: strtod, which also reads "+1", ".5", "nan", "inf".
            var endPtr: UnsafeMutablePointer<CChar>? = nil
            let v = base.withMemoryRebound(to: CChar.self, capacity: n + 1) { cs in
                strtod(cs, &endPtr)
            }
            guard let endPtr else { return nil }
            let consumed = base.withMemoryRebound(to: CChar.self, capacity: n + 1) { endPtr - UnsafeMutablePointer(mutating: $0) }
            // Reject hex floats and other strtod extensions beyond plain decimals and nan/inf.
            for j in 0..<n where buf[j] | 0x20 == UInt8(ascii: "x") { return nil }
            return consumed == n ? v : nil
        }
    }
}

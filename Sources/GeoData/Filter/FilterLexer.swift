/// Splits a filter expression into tokens. Our own code: nothing in the text is ever run.
struct FilterLexer {
    static let keywords: Set<String> = ["and", "or", "not", "in", "contains", "true", "false", "is", "null"]

    /// All tokens of `text`, ending with `.end`.
    /// - Throws: `FilterError` at the first character that starts no token.
    static func tokens(_ text: String) throws -> [FilterToken] {
        let chars = Array(text)
        var out: [FilterToken] = []
        var i = 0
        func add(_ kind: FilterToken.Kind, _ start: Int) {
            out.append(FilterToken(kind: kind, column: start + 1, length: i - start))
        }
        while i < chars.count {
            let c = chars[i]
            let start = i
            if c.isWhitespace {
                i += 1
                continue
            }
            switch c {
            case "(": i += 1; add(.leftParen, start)
            case ")": i += 1; add(.rightParen, start)
            case ",": i += 1; add(.comma, start)
            case "=":
                i += 1
                if i < chars.count && chars[i] == "=" { i += 1 }
                add(.comparison(.equal), start)
            case "!":
                guard i + 1 < chars.count && chars[i + 1] == "=" else {
                    throw FilterError(column: start + 1, message: "'!' must be followed by '=' (use 'not' to negate)")
                }
                i += 2
                add(.comparison(.notEqual), start)
            case "<":
                i += 1
                if i < chars.count && chars[i] == "=" { i += 1; add(.comparison(.lessOrEqual), start) }
                else if i < chars.count && chars[i] == ">" { i += 1; add(.comparison(.notEqual), start) }
                else { add(.comparison(.less), start) }
            case ">":
                i += 1
                if i < chars.count && chars[i] == "=" { i += 1; add(.comparison(.greaterOrEqual), start) }
                else { add(.comparison(.greater), start) }
            case "'", "\"", "`":
                var value = ""
                i += 1
                var closed = false
                while i < chars.count {
                    if chars[i] == c {
                        // A doubled quote stands for itself, as in SQL.
                        if i + 1 < chars.count && chars[i + 1] == c { value.append(c); i += 2; continue }
                        i += 1
                        closed = true
                        break
                    }
                    if chars[i] == "\\" && i + 1 < chars.count { value.append(chars[i + 1]); i += 2; continue }
                    value.append(chars[i])
                    i += 1
                }
                guard closed else {
                    throw FilterError(column: start + 1, message: "the quote \(c) opened here is never closed")
                }
                add(c == "`" ? .name(value) : .string(value), start)
            default:
                if c.isNumber || ((c == "-" || c == "+" || c == ".") && i + 1 < chars.count && (chars[i + 1].isNumber || chars[i + 1] == ".")) {
                    try number(chars, &i, &out)
                } else if c.isLetter || c == "_" {
                    while i < chars.count && (chars[i].isLetter || chars[i].isNumber || "_-.:".contains(chars[i])) { i += 1 }
                    let word = String(chars[start..<i])
                    let lower = word.lowercased()
                    add(keywords.contains(lower) ? .keyword(lower) : .name(word), start)
                } else {
                    throw FilterError(column: start + 1, message: "unexpected '\(c)'")
                }
            }
        }
        out.append(FilterToken(kind: .end, column: chars.count + 1, length: 0))
        return out
    }

    /// A number, or a date literal when the digits read as one (`2011-03-11`, `2011-03-11T05:46Z`).
    private static func number(_ chars: [Character], _ i: inout Int, _ out: inout [FilterToken]) throws {
        let start = i
        // A date literal: the longest run of date characters that reads as a date.
        var j = i
        while j < chars.count && (chars[j].isNumber || "-:+.TtZz".contains(chars[j])) { j += 1 }
        let candidate = String(chars[i..<j])
        if chars[i].isNumber, candidate.count >= 10 {
            let bytes = Array(candidate.utf8)
            if let parsed = bytes.withUnsafeBufferPointer({ DateText.seconds($0, from: 0, partial: true) }), parsed.end >= 10 {
                let used = String(decoding: bytes[0..<parsed.end], as: UTF8.self).count
                i += used
                out.append(FilterToken(kind: .date(parsed.value, text: String(chars[start..<i])), column: start + 1, length: used))
                return
            }
        }
        if chars[i] == "-" || chars[i] == "+" { i += 1 }
        while i < chars.count && (chars[i].isNumber || chars[i] == ".") { i += 1 }
        if i < chars.count && (chars[i] == "e" || chars[i] == "E") {
            var k = i + 1
            if k < chars.count && (chars[k] == "-" || chars[k] == "+") { k += 1 }
            if k < chars.count && chars[k].isNumber {
                i = k
                while i < chars.count && chars[i].isNumber { i += 1 }
            }
        }
        let text = String(chars[start..<i])
        guard let value = Double(text), value.isFinite else {
            throw FilterError(column: start + 1, message: "'\(text)' is not a number")
        }
        if i < chars.count && (chars[i].isLetter || chars[i] == "_") {
            throw FilterError(column: i + 1, message: "a number can't run into a word ('\(text)\(chars[i])…'); put a space or quotes")
        }
        out.append(FilterToken(kind: .number(value), column: start + 1, length: i - start))
    }
}

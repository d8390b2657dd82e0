/// JSON string literals, written by hand where output is assembled as text (the event log, the
/// properties of a cluster-tile feature, `clusters` output): one quoter for every module above.
public enum JSONText {
    /// `s` as a JSON string: quotes, backslashes and control characters escaped (`\n`, `\r`,
    /// `\t`, else `\u00XX`); everything else, non-ASCII included, written as it is (UTF-8).
    public static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}

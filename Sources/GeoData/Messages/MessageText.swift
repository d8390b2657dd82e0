/// Makes text from files, paths and the command line safe to show in a message (SPEC §4, §9).
///
/// A message may quote anything a file holds, and it ends up in a terminal (stderr) and in a GTK
/// label. Raw control bytes there retitle or clear the terminal (`ESC ] 0 ;`, `ESC [ 2 J`), and one
/// long word makes Pango's line wrapping spin for seconds. So every quote is a short excerpt and
/// every message is one line of bounded length with control characters written as `\x1b`.
public enum MessageText {
    /// How many characters of the input a message quotes before "…".
    public static let excerptLength = 60
    /// The longest line a message may be (characters), including its quotes.
    public static let lineLength = 400

    /// A short, safe quote of input: control characters escaped, at most `limit` characters,
    /// then "…".
    public static func excerpt(_ text: some StringProtocol, limit: Int = excerptLength) -> String {
        line(text, limit: limit)
    }

    /// A short, safe quote of raw bytes: invalid UTF-8 becomes U+FFFD, then as `excerpt`.
    public static func excerpt(bytes: some Collection<UInt8>, limit: Int = excerptLength) -> String {
        // Decode only what can be shown (4 bytes per character at most), so a huge input costs nothing.
        line(String(decoding: bytes.prefix(limit * 4 + 4), as: UTF8.self), limit: limit,
             truncated: bytes.count > limit * 4 + 4)
    }

    /// One line of at most `limit` characters: line breaks and tabs become spaces, other control
    /// and invisible direction-changing characters are escaped (`\x1b`, `\u202e`), and longer text
    /// is cut with "…". Counts Unicode scalars, not grapheme clusters, so a base letter with a
    /// million combining marks is long too.
    public static func line(_ text: some StringProtocol, limit: Int = lineLength) -> String {
        line(text, limit: limit, truncated: false)
    }

    /// Several messages, each made one safe line (for a banner that lists one line per file).
    public static func lines(_ text: some StringProtocol, limit: Int = lineLength, maxLines: Int = 12) -> String {
        let parts = text.split(separator: "\n", omittingEmptySubsequences: true)
        var out = parts.prefix(maxLines).map { line($0, limit: limit) }
        if parts.count > maxLines { out.append("… and \(formatCount(parts.count - maxLines)) more") }
        return out.joined(separator: "\n")
    }

    private static func line(_ text: some StringProtocol, limit: Int, truncated: Bool) -> String {
        var out = ""
        out.reserveCapacity(min(text.utf8.count, limit * 2) + 8)
        var shown = 0
        var cut = truncated
        for scalar in text.unicodeScalars {
            if shown >= limit { cut = true; break }
            let piece = escaped(scalar)
            // An escape counts as the characters it shows.
            if let piece {
                out += piece
                shown += piece.unicodeScalars.count
            } else {
                out.unicodeScalars.append(scalar)
                shown += 1
            }
        }
        if cut { out += "…" }
        return out
    }

    /// The escape for a scalar that must not be shown raw, or nil to show it as is.
    static func escaped(_ s: Unicode.Scalar) -> String? {
        switch s.value {
        case 0x09, 0x0A, 0x0D: return " "
        case 0x00...0x1F, 0x7F: return "\\x" + hex(s.value, width: 2)
        case 0x80...0x9F: return "\\u" + hex(s.value, width: 4)                     // C1 controls (CSI, OSC…)
        case 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF:
            return "\\u" + hex(s.value, width: 4)                                    // direction marks, separators
        default: return nil
        }
    }

    private static func hex(_ v: UInt32, width: Int) -> String {
        let digits = String(v, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

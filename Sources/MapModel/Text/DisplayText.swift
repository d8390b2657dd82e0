/// Makes a text from data (a place's name, a label, a tile's attribution) safe to draw in one line
/// of map text (issue 34): bounded in length and unable to reorder what follows it.
///
/// A 1 MB property value turned the callout title into a garbled bar over its close button and
/// made the In View list fill the window; names of 2,000–20,000 characters ran across the map.
/// And a right-to-left override inside a name reverses what follows: "Quake\u{202E}gpj.exe" shows
/// as "Quakeexe.jpg". So, as banners already do (`MessageText`), the direction overrides,
/// embeddings and isolates are shown as escapes (`\u202e`) rather than obeyed; line breaks and
/// other control characters become spaces; and a text longer than `limit` characters is cut with
/// "…". Right-to-left scripts are untouched (they need no control characters), and so are the
/// left-to-right and right-to-left marks (U+200E, U+200F), which only affect neutral characters.
public enum DisplayText {
    /// Characters of a place's name, label or In View row at most.
    public static let nameLength = 64
    /// Characters of the longer excerpt behind a callout's "More".
    public static let fullLength = 600
    /// Characters of a tile file's credit line at most (a 100 KB one hid the scale bar).
    public static let attributionLength = 100

    /// `text` safe for one line of map text, at most `limit` characters (Unicode scalars, so a
    /// letter with a million combining marks is long too), ending in "…" when cut.
    public static func line(_ text: String, limit: Int = nameLength) -> String {
        if isSafe(text, limit: limit) { return text }
        var out: [Unicode.Scalar] = []
        var shown = 0
        var fitsWithEllipsis = 0  // how much of `out` still leaves room for "…"
        for scalar in text.unicodeScalars {
            let piece: [Unicode.Scalar]
            switch scalar.value {
            case 0x202A...0x202E, 0x2066...0x2069:
                piece = Array(("\\u" + String(scalar.value, radix: 16)).unicodeScalars)
            case 0x00...0x1F, 0x7F, 0x80...0x9F, 0x2028, 0x2029:
                // Line breaks and controls: one space (runs of them collapse).
                piece = out.last == " " ? [] : [" "]
            default:
                piece = [scalar]
            }
            if shown + piece.count > limit {
                out.removeSubrange(fitsWithEllipsis...)
                while out.last == " " { out.removeLast() }  // no space before the ellipsis
                out.append("…")
                break
            }
            out += piece
            shown += piece.count
            if shown <= limit - 1 { fitsWithEllipsis = out.count }
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: out)
        return String(view)
    }

    /// Whether `text` is short and holds nothing `line` would change (the common case, checked
    /// on bytes: the controls are < 0x20, 0x7F, C2 80…9F, and E2 80 A8…AE / E2 81 A6…A9).
    static func isSafe(_ text: String, limit: Int) -> Bool {
        let fast = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            // Every character is at least one byte: a short byte count is a short text.
            guard bytes.count <= limit else { return false }
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                if b < 0x20 || b == 0x7F { return false }
                if b == 0xC2, i + 1 < bytes.count, (0x80...0x9F).contains(bytes[i + 1]) { return false }
                if b == 0xE2, i + 2 < bytes.count {
                    let (c, d) = (bytes[i + 1], bytes[i + 2])
                    if c == 0x80 && (0xA8...0xAE).contains(d) { return false }
                    if c == 0x81 && (0xA6...0xA9).contains(d) { return false }
                }
                i += 1
            }
            return true
        }
        return fast ?? false  // not contiguous (bridged): `line` looks at it scalar by scalar
    }
}

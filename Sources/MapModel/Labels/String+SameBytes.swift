import Foundation

extension String {
    /// Whether the two texts have the same UTF-8 bytes (a `memcmp`). Why: `==` compares texts
    /// through Unicode normalisation when they are not ASCII, slow for the street names of most of
    /// the world; where names come from one source (a tile file) the same name has the same bytes.
    /// (Two spellings that differ only in their normal form are different here.)
    public func hasSameUTF8(as other: String) -> Bool {
        var a = self, b = other
        return a.withUTF8 { x in
            b.withUTF8 { y in x.count == y.count && (x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0) }
        }
    }
}

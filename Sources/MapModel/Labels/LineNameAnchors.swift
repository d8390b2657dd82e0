import Foundation

/// The anchors of the river and street names placed so far, by text, for "not the same name again
/// within `distance`".
///
/// Keyed by a hash of the text's UTF-8 bytes (FNV-1a) and compared byte for byte: a dictionary by
/// `String` hashed and compared every street name with Unicode normalisation (Italian and German
/// street names are not ASCII), a tenth of a placement. (Two spellings of one name that differ
/// only in their Unicode normal form count as two names here.)
struct LineNameAnchors {
    private var byText: [Int: [(x: Double, y: Double, text: String)]] = [:]
    private let distance: Double

    init(distance: Double) { self.distance = distance }

    /// Whether `text` (whose `key(_:)` is `key`) was placed at an anchor closer than `distance` to
    /// (`x`, `y`).
    func hasNear(_ text: String, key: Int, x: Double, y: Double) -> Bool {
        guard !byText.isEmpty, let others = byText[key] else { return false }
        return others.contains { hypot($0.x - x, $0.y - y) < distance && $0.text.hasSameUTF8(as: text) }
    }

    mutating func add(_ text: String, key: Int, x: Double, y: Double) {
        byText[key, default: []].append((x, y, text))
    }

    /// FNV-1a over the UTF-8 bytes.
    static func key(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            var h: UInt64 = 0xCBF2_9CE4_8422_2325
            for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
            return Int(truncatingIfNeeded: h)
        }
    }
}

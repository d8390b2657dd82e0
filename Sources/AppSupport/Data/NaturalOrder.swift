import Foundation

/// The order people expect for names in a list: numbers by value, case and accents aside
/// ("Locker 2" before "Locker 10", as file managers sort), then the names' bytes as a tie-break so
/// the order never depends on how the list came in.
public enum NaturalOrder {
    /// Whether `a` comes before `b`.
    public static func precedes(_ a: String, _ b: String) -> Bool {
        switch a.compare(b, options: [.numeric, .caseInsensitive, .diacriticInsensitive, .widthInsensitive]) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame: return a.utf8.lexicographicallyPrecedes(b.utf8)
        }
    }

    /// `ids` ordered by their names (`name(id)` asked once per id).
    public static func sorted(_ ids: [Int], name: (Int) -> String) -> [Int] {
        ids.map { ($0, name($0)) }.sorted { precedes($0.1, $1.1) }.map(\.0)
    }
}

/// The short label for a count: `999`, `1.2k`, `15k`, `1.2M`, `15M`.
///
/// Below a million this is supercluster's `point_count_abbreviated` rule (≥ 10,000: thousands
/// rounded, `15k`; ≥ 1,000: thousands to one decimal, `1.2k`, with a whole number shown without
/// the decimal, `1k`); the same rule goes on in millions. JavaScript's `Math.round` (halves up)
/// is used throughout, so labels agree with supercluster's. The exact count stays on the item
/// for tooltips and screen readers.
public func abbreviatedCount(_ n: Int) -> String {
    func jsRound(_ x: Double) -> Int { Int((x + 0.5).rounded(.down)) }
    func tenths(_ t: Int, _ unit: String) -> String {
        t % 10 == 0 ? "\(t / 10)\(unit)" : "\(t / 10).\(t % 10)\(unit)"
    }
    if n < 1000 { return String(n) }
    if n < 10_000 { return tenths(jsRound(Double(n) / 100), "k") }
    let thousands = jsRound(Double(n) / 1000)
    if thousands < 1000 { return "\(thousands)k" }
    if n < 10_000_000 {
        let t = jsRound(Double(n) / 100_000)
        return t >= 100 ? "10M" : tenths(t, "M")
    }
    return "\(jsRound(Double(n) / 1_000_000))M"
}

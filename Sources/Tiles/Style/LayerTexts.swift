/// A layer's values as the text filters compare, converted on first use (layers such as
/// Protomaps' `landuse` carry thousands of values, mostly names no filter ever looks at).
public final class LayerTexts: @unchecked Sendable {
    private let values: [VectorTileValue]
    private var texts: [String?]
    private var done: [Bool]

    /// Prepares the texts of `layer`'s values. Not thread-safe: one paint or label pass uses it.
    public init(_ layer: VectorTileLayer) {
        values = layer.values
        texts = Array(repeating: nil, count: layer.values.count)
        done = Array(repeating: false, count: layer.values.count)
    }

    /// Number of values in the layer.
    public var count: Int { values.count }

    /// The text of value `i` (nil for an index outside the table).
    func text(_ i: Int) -> String? {
        guard i >= 0, i < values.count else { return nil }
        if !done[i] {
            texts[i] = StyleFilter.text(of: values[i])
            done[i] = true
        }
        return texts[i]
    }
}

extension VectorTileLayer {
    /// Property name → index of its first occurrence in `keys`.
    public var keyIndex: [String: Int] {
        var index: [String: Int] = [:]
        for (i, k) in keys.enumerated() where index[k] == nil { index[k] = i }
        return index
    }
}

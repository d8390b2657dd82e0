/// A `StyleFilter` resolved against one tile layer: property names become key indices and value
/// sets become flags over the layer's value table, so matching a feature compares small integers
/// instead of hashing strings (the difference between ~30 ms and ~1 ms on a dense street tile).
public indirect enum CompiledFilter: Sendable {
    case always
    case never
    /// The first present key's value index must (or, `negated`, must not) be flagged in `mask`.
    case equals(keyIndices: [Int], mask: [Bool], negated: Bool)
    case has(keyIndex: Int)
    case geometry(VectorTileFeature.GeometryType)
    case all([CompiledFilter])
    case any([CompiledFilter])

    /// Compiles `filter` for `layer`, whose key index is `keyIndex` (name → first index).
    public init(_ filter: StyleFilter, layer: VectorTileLayer, keyIndex: [String: Int]) {
        switch filter {
        case .always: self = .always
        case let .geometry(t): self = .geometry(t)
        case let .has(k): self = keyIndex[k].map { .has(keyIndex: $0) } ?? .never
        case let .equals(keys, values), let .notEquals(keys, values):
            let negated: Bool
            if case .notEquals = filter { negated = true } else { negated = false }
            let indices = keys.compactMap { keyIndex[$0] }
            guard !indices.isEmpty else {
                // No feature of this layer has the key: equals never matches, notEquals always does.
                self = negated ? .always : .never
                return
            }
            let mask = layer.values.map { StyleFilter.text(of: $0).map(values.contains) ?? false }
            self = .equals(keyIndices: indices, mask: mask, negated: negated)
        case let .all(fs):
            let parts = fs.map { CompiledFilter($0, layer: layer, keyIndex: keyIndex) }
            if parts.contains(where: { if case .never = $0 { return true } else { return false } }) {
                self = .never
            } else {
                self = .all(parts.filter { if case .always = $0 { return false } else { return true } })
            }
        case let .any(fs):
            self = .any(fs.map { CompiledFilter($0, layer: layer, keyIndex: keyIndex) })
        }
    }

    /// Whether nothing in the layer can match (the rule can skip the layer).
    public var isNever: Bool {
        if case .never = self { return true }
        return false
    }

    /// Whether a feature passes.
    public func matches(_ f: VectorTileFeature) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case let .geometry(t): return f.type == t
        case let .has(k): return Self.valueIndex(f, key: k) != nil
        case let .equals(keys, mask, negated):
            for k in keys {
                if let v = Self.valueIndex(f, key: k) {
                    let hit = v < mask.count && mask[v]
                    return hit != negated
                }
            }
            return negated
        case let .all(parts):
            for p in parts where !p.matches(f) { return false }
            return true
        case let .any(parts):
            for p in parts where p.matches(f) { return true }
            return false
        }
    }

    @inline(__always)
    private static func valueIndex(_ f: VectorTileFeature, key: Int) -> Int? {
        let tags = f.tags
        var i = 0
        while i + 1 < tags.count {
            if Int(tags[i]) == key { return Int(tags[i + 1]) }
            i += 2
        }
        return nil
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

/// Reading a condition back from its expression, so the filter panel can show what the command
/// line or a saved state asked (`--where 'mag >= 6'` is the range "mag ≥ 6" in the panel).
extension FilterCondition {
    /// The panel's condition that `text` states, nil when it is not one of the panel's forms
    /// (those `expression` writes, plus `name = value` for one ticked value and a lone
    /// `>=` / `<=` bound); such an expression stays a free condition of its own.
    public init?(parsing text: String) {
        guard let e = try? FilterExpression.parse(text), let c = Self.condition(e) else { return nil }
        self = c
    }

    private static func condition(_ e: FilterExpression) -> FilterCondition? {
        switch e {
        case .isIn(let f, let values):
            var texts: [String] = []
            for v in values {
                switch v.value {
                case .text(let t): texts.append(t)
                case .number(let d): texts.append(PropertyValue.plainText(d))
                case .date(_, let s): texts.append(s)
                case .bool(let b): texts.append(b ? "true" : "false")
                }
            }
            return FilterCondition(property: f.name, kind: .oneOf(texts))
        case .compare(let f, .equal, let v):
            switch v.value {
            case .text(let t): return FilterCondition(property: f.name, kind: .oneOf([t]))
            case .bool(let b): return FilterCondition(property: f.name, kind: .isTrue(b))
            default: return nil
            }
        case .compare(let f, .greaterOrEqual, let v):
            return bound(f.name, lower: v, upper: nil)
        case .compare(let f, .lessOrEqual, let v):
            return bound(f.name, lower: nil, upper: v)
        case .and(.compare(let f, .greaterOrEqual, let lo), .compare(let g, .lessOrEqual, let hi)) where f.name == g.name:
            return bound(f.name, lower: lo, upper: hi)
        case .and(.isMissing(let f), .not(.isMissing(let g))) where f.name == g.name:
            return FilterCondition(property: f.name, kind: .oneOf([]))
        case .contains(let f, let v):
            guard case .text(let t) = v.value else { return nil }
            return FilterCondition(property: f.name, kind: .contains(t))
        default:
            return nil
        }
    }

    /// A number or date range from its literal ends (both of one kind).
    private static func bound(_ name: String, lower: FilterLiteral?, upper: FilterLiteral?) -> FilterCondition? {
        func number(_ l: FilterLiteral?) -> (Double?, isDate: Bool)? {
            guard let l else { return (nil, false) }
            switch l.value {
            case .number(let d): return (d, false)
            case .date(let s, _): return (s, true)
            default: return nil
            }
        }
        guard let lo = number(lower), let hi = number(upper) else { return nil }
        let isDate = lo.isDate || hi.isDate
        if lower != nil && upper != nil && lo.isDate != hi.isDate { return nil }
        return FilterCondition(property: name, kind: isDate ? .dateRange(lower: lo.0, upper: hi.0) : .numberRange(lower: lo.0, upper: hi.0))
    }
}

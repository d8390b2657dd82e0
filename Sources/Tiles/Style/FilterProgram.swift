/// A `StyleFilter` compiled against one `PreparedLayer`: a flat postfix program over the layer's
/// property table, evaluated with a bit stack, so testing a feature allocates nothing and retains
/// nothing.
///
/// Property names become table columns and value sets become a membership byte per value of the
/// layer, decided on first use (layers such as Protomaps' `landuse` carry thousands of values,
/// mostly names no filter looks at).
public final class FilterProgram: @unchecked Sendable {
    fileprivate enum Op: UInt8 {
        case constant, geometry, has, equals, all, any
    }

    fileprivate struct Instruction {
        var op: Op
        /// `constant`: the value; `equals`: negated.
        var flag: Bool = false
        /// `geometry`: the type's raw value.
        var geometry: UInt8 = 0
        /// `has`/`equals`: the columns' range in `columns`; `all`/`any`: number of operands.
        var start: Int32 = 0
        var count: Int32 = 0
        /// `equals`: the set's index in `sets`.
        var set: Int32 = 0
    }

    // Raw buffers: the program runs for every feature and rule of a tile, and array properties of
    // a class pay a retain or an exclusivity check per access.
    private let code: UnsafeMutablePointer<Instruction>
    private let codeCount: Int
    private let columns: UnsafeMutablePointer<Int32>
    private let sets: [Set<String>]
    /// Per set, per layer value: 0 undecided, 1 in, 2 out.
    private let membership: UnsafeMutablePointer<UInt8>
    private let valueCount: Int
    private let texts: LayerTexts

    /// Whether nothing in the layer can match (the rule can skip the layer).
    public let isNever: Bool

    /// Compiles `filter` for `layer`.
    public init(_ filter: StyleFilter, layer: PreparedLayer) {
        var compiler = FilterCompiler(layer: layer)
        let top = compiler.emit(filter)
        isNever = top == .never
        if top == .always { compiler.code = [Instruction(op: .constant, flag: true)] }
        texts = layer.texts
        valueCount = layer.texts.count
        code = .allocate(capacity: max(1, compiler.code.count))
        code.initialize(from: compiler.code, count: compiler.code.count)
        codeCount = compiler.code.count
        columns = .allocate(capacity: max(1, compiler.columns.count))
        columns.initialize(from: compiler.columns, count: compiler.columns.count)
        sets = compiler.sets
        membership = .allocate(capacity: max(1, sets.count * valueCount))
        membership.initialize(repeating: 0, count: max(1, sets.count * valueCount))
    }

    /// Whether a feature passes, given its row of the layer's property table
    /// (`PreparedLayer.withRows`) and its geometry type. Not thread-safe (membership is decided
    /// on first use): one paint uses a program.
    @inline(__always)
    public func matches(row: UnsafePointer<Int32>, type: UInt8) -> Bool {
        if isNever { return false }
        // A stack of up to 64 booleans as bits (filters nest a few levels).
        var stack: UInt64 = 0
        var depth = 0
        for n in 0..<codeCount {
            let ins = code[n]
            var result: Bool
            switch ins.op {
            case .constant: result = ins.flag
            case .geometry: result = type == ins.geometry
            case .has: result = row[Int(columns[Int(ins.start)])] >= 0
            case .equals:
                result = ins.flag
                for c in Int(ins.start)..<Int(ins.start + ins.count) {
                    let v = Int(row[Int(columns[c])])
                    if v < 0 { continue }
                    if v < valueCount { result = isMember(v, set: Int(ins.set)) != ins.flag }
                    break
                }
            case .all, .any:
                let k = Int(ins.count)
                let mask: UInt64 = k >= 64 ? ~0 : (1 << UInt64(k)) - 1
                let operands = stack & mask
                stack >>= UInt64(k)
                depth -= k
                result = ins.op == .all ? operands == mask : operands != 0
            }
            stack = stack << 1 | (result ? 1 : 0)
            depth += 1
        }
        return depth > 0 && stack & 1 == 1
    }

    @inline(__always)
    private func isMember(_ v: Int, set: Int) -> Bool {
        let slot = set * valueCount + v
        var state = membership[slot]
        if state == 0 {
            state = texts.text(v).map(sets[set].contains) == true ? 1 : 2
            membership[slot] = state
        }
        return state == 1
    }

    deinit {
        code.deallocate()
        columns.deallocate()
        membership.deallocate()
    }
}

/// Turns a `StyleFilter` into postfix instructions for `FilterProgram`, folding what the layer
/// decides by itself (a property no feature has) into constants.
private struct FilterCompiler {
    typealias Instruction = FilterProgram.Instruction
    let layer: PreparedLayer
    var code: [Instruction] = []
    var columns: [Int32] = []
    var sets: [Set<String>] = []

    /// What compiling a sub-filter left: a constant (nothing emitted) or code on the stack.
    enum Emitted { case always, never, code }

    init(layer: PreparedLayer) { self.layer = layer }

    mutating func emit(_ filter: StyleFilter) -> Emitted {
        switch filter {
        case .always: return .always
        case let .geometry(t):
            code.append(Instruction(op: .geometry, geometry: t.rawValue))
            return .code
        case let .has(k):
            guard let c = layer.columnOfKey[k] else { return .never }
            code.append(Instruction(op: .has, start: Int32(columns.count), count: 1))
            columns.append(Int32(c))
            return .code
        case let .equals(keys, values), let .notEquals(keys, values):
            let negated: Bool
            if case .notEquals = filter { negated = true } else { negated = false }
            let cs = keys.compactMap { layer.columnOfKey[$0] }
            // No feature of this layer has the key: equals never matches, notEquals always does.
            guard !cs.isEmpty else { return negated ? .always : .never }
            code.append(Instruction(op: .equals, flag: negated, start: Int32(columns.count), count: Int32(cs.count),
                                    set: Int32(sets.count)))
            columns += cs.map { Int32($0) }
            sets.append(values)
            return .code
        case let .all(fs), let .any(fs):
            let isAll: Bool
            if case .all = filter { isAll = true } else { isAll = false }
            let mark = (code: code.count, columns: columns.count, sets: sets.count)
            var operands: Int32 = 0
            for f in fs {
                switch emit(f) {
                case .code: operands += 1
                case .always where !isAll, .never where isAll:
                    // The whole `any` holds / the whole `all` fails: drop what its operands emitted.
                    code.removeSubrange(mark.code...)
                    columns.removeSubrange(mark.columns...)
                    sets.removeSubrange(mark.sets...)
                    return isAll ? .never : .always
                default: break  // `always` in an `all`, `never` in an `any`: no effect
                }
            }
            if operands == 0 { return isAll ? .always : .never }
            if operands > 1 { code.append(Instruction(op: isAll ? .all : .any, count: operands)) }
            return .code
        }
    }
}

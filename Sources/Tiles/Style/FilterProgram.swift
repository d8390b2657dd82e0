/// A `StyleFilter` compiled against one `PreparedLayer`: a flat prefix program over the layer's
/// property table, evaluated with short cuts (an `all` stops at its first failing operand), so
/// testing a feature allocates nothing, retains nothing and mostly reads one or two entries.
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
        /// Instructions in this subtree, itself included (to skip an operand).
        var size: Int32 = 1
    }

    // Raw buffers: the program runs for every feature and rule of a tile, and array properties of
    // a class pay a retain or an exclusivity check per access.
    private let code: UnsafeMutablePointer<Instruction>
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
        if top != .code { compiler.code = [Instruction(op: .constant, flag: top == .always)] }
        texts = layer.texts
        valueCount = layer.texts.count
        code = .allocate(capacity: compiler.code.count)
        code.initialize(from: compiler.code, count: compiler.code.count)
        columns = .allocate(capacity: max(1, compiler.columns.count))
        columns.initialize(from: compiler.columns, count: compiler.columns.count)
        sets = compiler.sets
        membership = .allocate(capacity: max(1, sets.count * valueCount))
        membership.initialize(repeating: 0, count: max(1, sets.count * valueCount))
    }

    deinit {
        code.deallocate()
        columns.deallocate()
        membership.deallocate()
    }

    /// Whether a feature passes, given its row of the layer's property table
    /// (`PreparedLayer.withRows`) and its geometry type. Not thread-safe (membership is decided
    /// on first use): one paint uses a program.
    @inline(__always)
    public func matches(row: UnsafePointer<Int32>, type: UInt8) -> Bool {
        evaluate(0, row, type)
    }

    /// Per kind of feature of `layer` (`PreparedLayer.withKinds`), whether it passes.
    public func passingKinds(of layer: PreparedLayer) -> [Bool] {
        guard !isNever else { return [Bool](repeating: false, count: max(1, layer.kindCount)) }
        var out = [Bool](repeating: false, count: max(1, layer.kindCount))
        layer.kindRows.withUnsafeBufferPointer { rows in
            for k in 0..<layer.kindCount {
                out[k] = matches(row: rows.baseAddress! + k * layer.width, type: layer.kindTypes[k])
            }
        }
        return out
    }

    private func evaluate(_ i: Int, _ row: UnsafePointer<Int32>, _ type: UInt8) -> Bool {
        let ins = code[i]
        switch ins.op {
        case .constant: return ins.flag
        case .geometry: return type == ins.geometry
        case .has: return row[Int(columns[Int(ins.start)])] >= 0
        case .equals:
            for c in Int(ins.start)..<Int(ins.start + ins.count) {
                let v = Int(row[Int(columns[c])])
                if v < 0 { continue }
                return isMember(v, set: Int(ins.set)) != ins.flag
            }
            return ins.flag
        case .all, .any:
            let wanted = ins.op == .any
            var j = i + 1
            for _ in 0..<Int(ins.count) {
                if evaluate(j, row, type) == wanted { return wanted }
                j += Int(code[j].size)
            }
            return !wanted
        }
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
}

/// Turns a `StyleFilter` into prefix instructions for `FilterProgram`, folding what the layer
/// decides by itself (a property no feature has) into constants.
private struct FilterCompiler {
    typealias Instruction = FilterProgram.Instruction
    let layer: PreparedLayer
    var code: [Instruction] = []
    var columns: [Int32] = []
    var sets: [Set<String>] = []

    /// What compiling a sub-filter left: a constant (nothing emitted) or code.
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
            func dropAll() {
                code.removeSubrange(mark.code...)
                columns.removeSubrange(mark.columns...)
                sets.removeSubrange(mark.sets...)
            }
            code.append(Instruction(op: isAll ? .all : .any))
            var operands: Int32 = 0
            for f in fs {
                switch emit(f) {
                case .code: operands += 1
                case .always where !isAll, .never where isAll:
                    // The whole `any` holds / the whole `all` fails.
                    dropAll()
                    return isAll ? .never : .always
                default: break  // `always` in an `all`, `never` in an `any`: no effect
                }
            }
            if operands == 0 {
                dropAll()
                return isAll ? .always : .never
            }
            if operands == 1 {
                code.remove(at: mark.code)
            } else {
                code[mark.code].count = operands
                code[mark.code].size = Int32(code.count - mark.code)
            }
            return .code
        }
    }
}

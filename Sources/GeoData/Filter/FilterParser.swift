/// Recursive-descent parser for `FilterExpression`'s grammar (see there).
struct FilterParser {
    let tokens: [FilterToken]
    var position = 0

    init(tokens: [FilterToken]) { self.tokens = tokens }

    var current: FilterToken { tokens[position] }
    /// The token before the current one (what a value was expected after).
    var previous: FilterToken? { position > 0 ? tokens[position - 1] : nil }

    mutating func advance() { if position < tokens.count - 1 { position += 1 } }

    func isKeyword(_ k: String) -> Bool { current.kind == .keyword(k) }

    func fail(_ message: String, at token: FilterToken? = nil) -> FilterError {
        FilterError(column: (token ?? current).column, message: message)
    }

    mutating func parseAll() throws -> FilterExpression {
        if current.kind == .end { throw fail("the expression is empty") }
        let e = try parseOr()
        guard current.kind == .end else {
            if current.kind == .rightParen { throw fail("')' without a matching '('") }
            throw fail("expected 'and', 'or' or the end, found \(current.shown)")
        }
        return e
    }

    mutating func parseOr() throws -> FilterExpression {
        var left = try parseAnd()
        while isKeyword("or") {
            advance()
            left = .or(left, try parseAnd())
        }
        return left
    }

    mutating func parseAnd() throws -> FilterExpression {
        var left = try parseUnary()
        while isKeyword("and") {
            advance()
            left = .and(left, try parseUnary())
        }
        return left
    }

    mutating func parseUnary() throws -> FilterExpression {
        if isKeyword("not") {
            advance()
            return .not(try parseUnary())
        }
        if current.kind == .leftParen {
            let open = current
            advance()
            let inner = try parseOr()
            guard current.kind == .rightParen else {
                if current.kind == .end { throw fail("the '(' at column \(open.column) is never closed") }
                throw fail("expected ')' or 'and'/'or', found \(current.shown)")
            }
            advance()
            return inner
        }
        return try parseCondition()
    }

    mutating func parseCondition() throws -> FilterExpression {
        let field: FilterField
        switch current.kind {
        case .name(let n): field = FilterField(name: n, column: current.column)
        case .end:
            throw fail(previous.map { "expected a condition after \($0.shown)" } ?? "expected a condition")
        case .keyword(let k):
            throw fail("expected a property name, found the word '\(k)' (quote a property with that name in backticks: `\(k)`)")
        default:
            throw fail("expected a property name, found \(current.shown)")
        }
        advance()
        switch current.kind {
        case .comparison(let op):
            let opToken = current
            advance()
            let value = try parseValue(after: opToken)
            return .compare(field, op, value)
        case .keyword("in"):
            advance()
            return .isIn(field, try parseList())
        case .keyword("contains"):
            let kw = current
            advance()
            return .contains(field, try parseValue(after: kw))
        case .keyword("not"):
            advance()
            if isKeyword("in") {
                advance()
                return .not(.isIn(field, try parseList()))
            }
            if isKeyword("contains") {
                let kw = current
                advance()
                return .not(.contains(field, try parseValue(after: kw)))
            }
            throw fail("expected 'in' or 'contains' after 'not'")
        case .keyword("is"):
            advance()
            var negate = false
            if isKeyword("not") { negate = true; advance() }
            guard isKeyword("null") else { throw fail("expected 'null' after 'is'") }
            advance()
            return negate ? .not(.isMissing(field)) : .isMissing(field)
        case .end:
            throw fail("expected a comparison (=, !=, <, <=, >, >=), 'in' or 'contains' after \(field.name)")
        default:
            throw fail("expected a comparison (=, !=, <, <=, >, >=), 'in' or 'contains' after \(field.name), found \(current.shown)")
        }
    }

    mutating func parseList() throws -> [FilterLiteral] {
        guard current.kind == .leftParen else { throw fail("expected '(' and a list of values after 'in'") }
        let open = current
        advance()
        var values: [FilterLiteral] = []
        while true {
            values.append(try parseValue(after: previous ?? open))
            if current.kind == .comma { advance(); continue }
            if current.kind == .rightParen { advance(); return values }
            if current.kind == .end { throw fail("the list opened at column \(open.column) is never closed") }
            throw fail("expected ',' or ')' in the list, found \(current.shown)")
        }
    }

    mutating func parseValue(after token: FilterToken) throws -> FilterLiteral {
        let t = current
        let value: FilterLiteral.Value
        switch t.kind {
        case .number(let d): value = .number(d)
        case .string(let s): value = .text(s)
        case .date(let s, let text): value = .date(s, text)
        case .keyword("true"): value = .bool(true)
        case .keyword("false"): value = .bool(false)
        case .name(let n):
            // A bare word where a value belongs is a text (`type = earthquake`): properties are
            // never compared with each other, so it can't mean anything else.
            value = .text(n)
        case .end:
            throw fail("expected a value after \(token.shown)")
        default:
            throw fail("expected a value after \(token.shown), found \(t.shown)")
        }
        advance()
        return FilterLiteral(value, column: t.column)
    }
}

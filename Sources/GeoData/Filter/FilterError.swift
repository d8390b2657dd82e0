/// A mistake in a filter expression, or a condition the data can't answer, with the 1-based
/// column (in characters) where it is: `column 9: expected a value after '>='`.
public struct FilterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// 1-based character column of the mistake in the expression text.
    public var column: Int
    /// What is wrong, for a person.
    public var message: String

    public init(column: Int, message: String) {
        self.column = column
        self.message = message
    }

    public var description: String { "column \(column): \(message)" }

    /// The expression with a caret under the column, for a terminal (two lines).
    public func pointing(at expression: String) -> String {
        let line = expression.map { $0.isNewline ? " " : $0 }
        return String(line) + "\n" + String(repeating: " ", count: max(0, column - 1)) + "^"
    }
}

/// One line for the event log, returned by `MapPresentation`'s intents: the presentation decides
/// what happened, its owner writes it (so the order of the log is the order things happened in).
public struct MapEvent {
    /// The event's name (`select`, `deselect`, `fan-open`, …).
    public var name: String
    /// Its fields, in the order they are written.
    public var fields: [(String, JSONValue)]

    public init(_ name: String, _ fields: [(String, JSONValue)] = []) {
        self.name = name
        self.fields = fields
    }
}

extension EventLog {
    /// Writes `events` in order.
    public func emit(_ events: [MapEvent]) {
        for e in events { emit(e.name, e.fields) }
    }
}

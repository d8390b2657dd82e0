import ClusterCore
import GeoData
import MapModel

/// A bubble's card (issue 29 item 5): opened by a secondary click or Shift+Enter / Menu on a
/// bubble, drawn above it in the look of a place's callout, closed like it (Escape, a click on
/// the empty map, a zoom). One card at a time: it and a place's callout close each other.
extension MapPresentation {
    /// Tallest a bubble's card grows before its lines are cut with "…".
    public static let bubbleCardMaxHeight = 300.0

    /// Opens the card of the bubble `id` at `now`: `times` is the time bar's property (its date
    /// span), `maxZoom` the deepest zoom a flight reaches. Logs `bubble-card` with what it says.
    public func openBubbleCard(_ id: SceneItemID, times: PropertyColumn? = nil, maxZoom: Double = 22,
                               now: Double, reducedMotion: Bool) -> [MapEvent] {
        guard case .cluster(let raw) = id, let session,
              let content = session.bubbleCard(of: ClusterID(rawValue: raw), times: times, maxZoom: maxZoom) else { return [] }
        var events = clearSelection()
        showBubbleCard(id, content, in: session, times: times, maxZoom: maxZoom)
        state.calloutFades = reducedMotion
        calloutOpenedAt = now
        events.append(MapPresentation.bubbleCardEvent(id, content))
        return events
    }

    /// Puts the card of `id` saying `content` in the scene state (measured), and what it was read from.
    func showBubbleCard(_ id: SceneItemID, _ content: BubbleCardContent, in session: MapDataSession,
                        times: PropertyColumn?, maxZoom: Double) {
        let lines = content.lines
        let measured = labelRenderer.calloutCard(title: content.title, lines: lines.map(\.text), links: content.links,
                                                 maxHeight: MapPresentation.bubbleCardMaxHeight)
        state.bubbleCard = SceneState.BubbleCard(bubble: id, title: content.title, lines: lines.map(\.text),
                                                 swatches: lines.map(\.swatch), size: measured.size, buttons: measured.buttons)
        bubbleCardShown = BubbleCardShown(id: id, count: content.count, session: MapPresentation.clustersStamp(of: session),
                                          clusterer: ObjectIdentifier(session.clusterer), places: BubbleCardShown.places(of: id, in: session), times: times, maxZoom: maxZoom)
    }

    /// Closes the bubble's card, if one is open; `reason` says why when the person did not.
    public func closeBubbleCard(reason: String? = nil) -> [MapEvent] {
        guard let card = state.bubbleCard else { return [] }
        state.bubbleCard = nil
        bubbleCardShown = nil
        calloutOpenedAt = nil
        return [MapEvent("bubble-card-close", [("id", .int(card.bubble.logID))] + (reason.map { [("reason", .string($0))] } ?? []))]
    }

    /// What the clusters' ids belong to: the filter's build while one is shown, else the session
    /// (a new filter result renumbers the bubbles).
    static func clustersStamp(of session: MapDataSession) -> ObjectIdentifier {
        // Every clusterer a filter shows is a class (a subset build or, for an interim, a live index).
        session.filtered.map { ObjectIdentifier($0.index as AnyObject) } ?? ObjectIdentifier(session)
    }

    /// The column of the date property `name` (the time bar's) as the filter engine reads it,
    /// for a card's date span; nil without data or such a property.
    public func timeColumn(named name: String?) -> PropertyColumn? {
        guard let name, let session, session.remote == nil else { return nil }
        let types = session.filtered?.settings.types ?? [:]
        return filtering.engine(for: session).withEvaluator(types: types) { $0.column(name) }
    }

    /// The bubble whose card is open, if any.
    public var bubbleCardBubble: SceneItemID? { state.bubbleCard?.bubble }

    /// Whether the open card still belongs to what the map shows: the same data (a remote
    /// source's next view keeps the bubbles it still has: their keys are the source's) and a
    /// bubble of the same count (a filter or live change that renumbered the clusters closes it).
    func bubbleCardIsCurrent(over bubble: SceneBubble) -> Bool {
        guard let shown = bubbleCardShown, let session, shown.id == bubble.id, shown.count == bubble.count else { return false }
        return shown.session == MapPresentation.clustersStamp(of: session) || session.remote != nil
    }

    /// Puts the open card over its bubble in a finished (decorated, laid out) scene: the copy
    /// nearest the view's middle, growing as a place's callout does. A card read from clusters
    /// the map no longer shows (a filter or the time bar renumbered them) follows its bubble
    /// when the same bubble still shows, with its new numbers; otherwise it closes, saying why.
    func placeBubbleCard(in scene: inout Scene, view: Camera, now: Double) -> [MapEvent] {
        let viewWidth = view.viewportSize.width
        guard state.bubbleCard != nil else { return [] }
        var events: [MapEvent] = []
        if let session, let shown = bubbleCardShown, session.remote == nil,
           shown.session != MapPresentation.clustersStamp(of: session) {
            events = followBubbleCard(shown, view: view, session: session)
        }
        guard let card = state.bubbleCard else { return events }
        let copies = scene.bubbles.filter { $0.id == card.bubble && bubbleCardIsCurrent(over: $0) }
        guard let b = copies.min(by: { abs($0.center.x - viewWidth / 2) < abs($1.center.x - viewWidth / 2) }) else { return events }
        bubbleCardShown?.centre = b.center
        var c = card.callout(over: b)
        if let opened = calloutOpenedAt {
            c.progress = Easing.easeOut(min(1, max(0, (now - opened) / MapPresentation.calloutAppearSeconds)))
        }
        c.fades = state.calloutFades
        scene.callout = c
        return events
    }

    /// `bubble-card`: the bubble, its exact count, the totals (title and value), the categories
    /// (name and count), the date span and the lines as drawn, so a test reads what it says.
    static func bubbleCardEvent(_ id: SceneItemID, _ c: BubbleCardContent) -> MapEvent {
        var fields: [(String, JSONValue)] = [("id", .int(id.logID)), ("count", .int(c.count)), ("title", .string(c.title))]
        fields.append(("totals", .array(c.totals.map { t in
            .object([("title", .string(t.title)), ("text", .string(t.text))] + (t.value.map { [("value", JSONValue.number($0))] } ?? []))
        })))
        fields.append(("categories", .array(c.categories.map { .object([("name", .string($0.name)), ("count", .int($0.count))]) })))
        if let g = c.groupCategory { fields.append(("group", .string(g.name))) }
        if let d = c.dates { fields.append(("dates", .array([.number(d.lowerBound), .number(d.upperBound)]))) }
        fields.append(("lines", .array(c.lines.map { .string($0.text) })))
        fields.append(("buttons", .array(c.links.map { .string($0.action.rawValue) })))
        return MapEvent("bubble-card", fields)
    }
}

import ClusterCore
import MapModel

/// What the map shows, without a display (ARCHITECTURE §1): the data session, the selection and
/// its callout, hover, focus and the same-spot fan, the bubbles' transitions, the base-map names
/// and the legend; and the scene they make for a camera. The window, `clustermap render` and the
/// golden tests all compose their pictures here, so there is one composition.
///
/// It takes intents (select a place, press a callout button, open a fan, the data changed) and
/// returns the events to log; time comes in as an argument. It never draws, and never reaches
/// back into its owner: whoever holds it asks for the scene when it draws a frame.
public final class MapPresentation {
    /// The data on the map (nil until the first load finishes).
    public internal(set) var session: MapDataSession? {
        didSet { contentVersion &+= 1 }
    }
    /// Selection, hover, focus and fan state.
    public internal(set) var state = SceneState() {
        didSet { if state != oldValue { contentVersion &+= 1 } }
    }
    /// Counts changes to what the scene shows other than the camera (a stamp for cached layers).
    public internal(set) var contentVersion = 0
    /// Bubbles splitting and merging when the index zoom changes, and moving when the data does.
    public internal(set) var transitions = ClusterTransitions()
    /// When the callout started to appear (it grows, or fades under reduced motion).
    public internal(set) var calloutOpenedAt: Double?
    /// How long the callout takes to appear.
    public static let calloutAppearSeconds = 0.2
    /// Which selected place's container was computed for which index zoom (cached).
    var containerCache: (point: Int, zoom: Int, container: SceneItemID?)?
    /// The callout last reported in the event log (`sceneEvents`).
    var lastLoggedCallout: Int?
    /// The bubble whose card is open, its count, the clusters it was read from and some of its
    /// places (a card over renumbered clusters follows its bubble: `MapPresentation+BubbleCardFollow.swift`).
    var bubbleCardShown: BubbleCardShown?
    /// The looks of the bubbles last shown: a bubble still fading or gliding after its cluster left
    /// the index (a live change, a compaction) keeps its colour instead of the plain count step's.
    var bubbleLooks: [SceneItemID: BubbleLook] = [:]
    /// The filter asked and its engine (`MapPresentation+Filter.swift`).
    public let filtering = FilterPipeline()
    /// Turns data, camera and state into bubbles, pins, callout and fan.
    public let sceneBuilder = SceneBuilder()
    /// Base-map names (seas, countries, cities, places), placed for the camera.
    public let labelLayout: MapLabelLayout
    /// Measures the names and the callout card (the scene renderer's label renderer, so sizes and
    /// sprites are made once).
    public let labelRenderer: any MapTextMeasuring
    /// Credits for the base map and the data shown (GeoNames is added while its names show).
    public internal(set) var dataAttribution = MapCredits.builtIn
    /// The street map over the built-in one, if any: its names are placed first, and its credit
    /// follows the others.
    public internal(set) var streetMap: (any StreetMapLabels)?

    /// A presentation measuring its names with `labelRenderer`, placing them from `labels`.
    public init(labelRenderer: any MapTextMeasuring, labels: MapLabelIndex = .empty) {
        self.labelRenderer = labelRenderer
        labelLayout = MapLabelLayout(index: labels)
    }

    /// The legend for what the data's colours mean, with the grouping's lines while a filter groups
    /// or totals the bubbles (nil without data).
    public var legend: MapLegend? {
        session.map { s in s.grouping.map { $0.legend(over: s.legend) } ?? s.remote?.legend(over: s.legend) ?? s.legend }
    }

    // MARK: Data

    /// A load finished: its session replaces what was shown; selection, fan and focus are gone.
    public func show(_ session: MapDataSession) {
        self.session = session
        state = SceneState()
        // The last frame's items were another session's ids: nothing of them fades or glides
        // (a filter landing right after the load would otherwise animate them out of the new data).
        transitions = ClusterTransitions()
        calloutOpenedAt = nil
        containerCache = nil
        bubbleLooks = [:]
        dataAttribution = session.attribution
    }

    /// The shown data changed in place (a live update): ids follow `newID`, the camera stays.
    /// A fan is closed by the caller first (it may be a list the window shows). A selected place
    /// keeps its card, read again from the new data (the same card the click made: buttons,
    /// width, "More" still open); one that went away is deselected. `renumbered`: the new data
    /// numbers its places afresh (a remote source's next view), so hover, focus and the last
    /// frame's places follow `newID` too, or are dropped (`MapPresentation+Remote.swift`).
    public func dataDidChange(to updated: MapDataSession, renumbered: Bool = false, newID: (Int) -> Int?) -> [MapEvent] {
        session = updated
        containerCache = nil
        state.fan = nil
        if renumbered { renumberPoints(newID) }
        var events: [MapEvent] = []
        if let selected = state.selectedPoint {
            if let id = newID(selected) {
                state.selectedPoint = id
                state.callout = calloutContent(of: id, expanded: isCalloutExpanded)
                // The card was read again: logged again at the next rest (its text may have changed).
                lastLoggedCallout = nil
            } else {
                events += clearSelection()
            }
        }
        // A bubble's card was read from the old clusters (a remote view keeps it: same keys).
        if updated.remote == nil { events += closeBubbleCard() }
        transitions.dataDidChange()
        return events
    }

    /// The replay showed more of its places (ids only grow; selection and fan stay).
    public func dataDidGrow(to updated: MapDataSession) {
        session = updated
        containerCache = nil
        transitions.dataDidChange()
    }

    /// The shown index regrouped its clusters in place (a background compaction): the bubbles
    /// split and merge as after a data change; selection and fan stay.
    public func clustersDidRegroup() {
        containerCache = nil
        // The session is the same object, its index regrouped: a layer drawn before is stale.
        contentVersion &+= 1
        transitions.dataDidChange()
    }

    /// New base-map names (the first part, then all of them).
    public func setLabelIndex(_ index: MapLabelIndex) {
        labelLayout.setIndex(index)
    }

    /// A street map over the built-in map, or none.
    public func setStreetMap(_ layer: (any StreetMapLabels)?) {
        streetMap = layer
    }

    // MARK: Time

    /// Whether the callout is still growing or fading in at `now`.
    public func isCalloutAnimating(at now: Double) -> Bool {
        guard let opened = calloutOpenedAt else { return false }
        return now - opened < MapPresentation.calloutAppearSeconds
    }

    /// Whether anything the presentation shows moves by itself at `now` (bubble transitions, the
    /// callout appearing): its owner keeps drawing frames until it doesn't.
    public func isAnimating(at now: Double) -> Bool {
        transitions.isAnimating(at: now) || isCalloutAnimating(at: now)
    }

    /// What the scene shows besides the camera, as one stamp for a cached layer; nil while it
    /// changes from frame to frame by itself (bubbles splitting or merging, a callout growing) or
    /// a street map places names as its tiles arrive.
    public func contentStamp(at now: Double) -> Int? {
        guard streetMap == nil, !isAnimating(at: now) else { return nil }
        var h = Hasher()
        h.combine(contentVersion)
        h.combine(session.map { ObjectIdentifier($0) })
        h.combine(labelLayout.index.count)
        // Names measured off the drawing thread since (see `MapTextMeasuring.placementSize`): a
        // layer placed without them is out of date once they are known.
        h.combine(labelRenderer.sizeRevision)
        return h.finalize()
    }
}

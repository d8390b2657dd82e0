import MapModel

/// The `scene` and `callout` events: what is on screen, positions moved by `offset` (where the
/// map's origin is in the window's surface, so a test can click what the log names).
extension MapPresentation {
    /// The `scene` event for `scene` in a view of `viewport`, and a `callout` event after it when
    /// the open card is not the one last logged.
    public func sceneEvents(for scene: Scene, viewport: ScreenSize, offset o: ScreenPoint) -> [MapEvent] {
        func r(_ v: Double) -> JSONValue { .number((v * 10).rounded() / 10) }
        let vw = viewport.width, vh = viewport.height
        func onScreen(_ p: ScreenPoint) -> Bool { p.x >= 0 && p.y >= 0 && p.x <= vw && p.y <= vh }
        let bubbles: [JSONValue] = scene.bubbles.filter { onScreen($0.center) }.map {
            var fields: [(String, JSONValue)] = [("id", .int($0.id.logID)), ("x", r($0.center.x + o.x)),
                                                 ("y", r($0.center.y + o.y)), ("r", r($0.radius)), ("count", .int($0.count))]
            if $0.containsSelection { fields.append(("marked", .bool(true))) }
            fields.append(("label", .string($0.label)))
            return .object(fields)
        }
        let pins: [JSONValue] = scene.pins.filter { onScreen($0.center) }.map {
            var fields: [(String, JSONValue)] = [("id", .int($0.id.logID)), ("x", r($0.center.x + o.x)),
                                                 ("y", r($0.center.y + o.y)), ("name", .string($0.name))]
            if $0.isSelected { fields.append(("selected", .bool(true))) }
            return .object(fields)
        }
        let labels: [JSONValue] = scene.labels.map {
            .object([("text", .string($0.text)), ("x", r($0.frame.x + o.x)), ("y", r($0.frame.y + o.y)),
                     ("width", r($0.frame.width)), ("height", r($0.frame.height))])
        }
        let names: [JSONValue] = scene.placeNames.map {
            .object([("text", .string($0.text)), ("x", r($0.frame.x + o.x)), ("y", r($0.frame.y + o.y)),
                     ("width", r($0.frame.width)), ("height", r($0.frame.height))])
        }
        var events = [MapEvent("scene", [("bubbles", .array(bubbles)), ("pins", .array(pins)), ("labels", .array(labels)),
                                         ("names", .array(names))])]
        // A bubble's card is logged when it opens (`bubble-card`), not as a place's callout.
        let placeCallout = scene.callout?.bubble == nil ? scene.callout?.pointIndex : nil
        if placeCallout != lastLoggedCallout {
            lastLoggedCallout = placeCallout
            events += calloutEvent(for: scene, offset: o)
        }
        return events
    }

    /// The open callout's box, text and buttons (button positions are their centres).
    public func calloutEvent(for scene: Scene, offset o: ScreenPoint) -> [MapEvent] {
        guard let c = scene.callout, c.bubble == nil else { return [] }
        return [MapEvent("callout", [("id", .int(c.pointIndex)), ("x", .number((c.frame.x + o.x).rounded())),
                                     ("y", .number((c.frame.y + o.y).rounded())), ("width", .number(c.frame.width.rounded())),
                                     ("height", .number(c.frame.height.rounded())),
                                     ("title", .string(c.title)), ("lines", .array(c.lines.map { .string($0) })),
                                     ("buttons", .array(c.buttons.map { b in
                                         .object([("action", .string(b.action.rawValue)),
                                                  ("x", .number((c.frame.x + b.frame.x + b.frame.width / 2 + o.x).rounded())),
                                                  ("y", .number((c.frame.y + b.frame.y + b.frame.height / 2 + o.y).rounded()))])
                                     }))])]
    }
}

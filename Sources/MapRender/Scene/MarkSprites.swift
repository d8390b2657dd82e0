import CCairo
import MapModel

/// What a bubble, pin or label sprite looks like besides the palette and device scale (which select
/// a `SceneRenderer` style generation, also part of the key).
enum MarkKey: Hashable {
    /// A bubble without its count: shared by every bubble of a step, size and state.
    case bubble(style: Int, step: Int, radiusQuarterPixels: Int, flags: UInt8, look: BubbleLook)
    /// A whole bubble with its count (used at scale 1, where the pixels are few and one paint is cheaper).
    case labelledBubble(style: Int, step: Int, label: String, radiusQuarterPixels: Int, flags: UInt8, look: BubbleLook)
    /// A bubble's count text alone (drawn over the bubble), cropped to its ink.
    case bubbleLabel(style: Int, step: Int, label: String, radiusQuarterPixels: Int, fill: UInt32?)
    case pin(style: Int, color: UInt32, flags: UInt8)
    case capsule(style: Int, text: String, selected: Bool)
}

/// Makes the sprites of data marks: the only place where their look is defined.
enum MarkSprites {
    static let selectedFlag: UInt8 = 1
    static let hoveredFlag: UInt8 = 2

    /// Logical pixels around a bubble's radius kept in its sprite (shadow, hover halo, selection ring).
    static let bubbleMargin = 7.0

    /// A bubble's fill: its look's (the members' value on the ramp) or its count step's.
    static func fill(step: Int, look: BubbleLook?, palette: MapPalette) -> MapColor {
        if let f = look?.fill { return MapColor(hex: f) }
        return palette.bubbleRamp[min(max(step, 0), palette.bubbleRamp.count - 1)]
    }

    /// Width of a category ring, drawn just outside the white outline.
    static let ringWidth = 3.5

    /// The category ring: arcs clockwise from the top, one per segment, with hairline gaps.
    static func drawRing(_ ring: [BubbleLook.RingSegment], centre c: Double, radius r: Double, in cr: OpaquePointer) {
        guard !ring.isEmpty else { return }
        let rr = r + ringWidth / 2
        var a = -Double.pi / 2
        cairo_set_line_width(cr, ringWidth)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        for seg in ring {
            let sweep = 2 * .pi * Double(seg.twentyFourths) / 24
            let gap = ring.count > 1 ? 0.05 : 0
            cairo_new_sub_path(cr)
            cairo_arc(cr, c, c, rr, a + gap / 2, a + sweep - gap / 2)
            MapColor(hex: seg.color).setSource(on: cr)
            cairo_stroke(cr)
            a += sweep
        }
    }

    /// The bubble font size (points) for a step; the label shrinks further if it doesn't fit.
    static func bubbleFont(step: Int) -> String {
        ["Sans Bold 9.5", "Sans Bold 10.5", "Sans Bold 11.5"][min(max(step, 0), 2)]
    }

    /// A count bubble without its count (see `bubbleLabel`), or with it when `label` is given: soft shadow, fill by step, white
    /// outline; `hovered` adds a translucent halo, `selected` a ring in the selection ink. Its anchor is the centre.
    ///
    /// Bodies are shared by all bubbles of a look and the counts are small separate sprites, so the
    /// pixels composited per frame stay in the CPU caches (one sprite per count label would be tens
    /// of megabytes at scale 2).
    static func bubble(step: Int, radius r: Double, hovered: Bool, selected: Bool, label: String? = nil,
                       look: BubbleLook = BubbleLook(), palette: MapPalette, scale: Double) -> Sprite {
        let size = 2 * (r + bubbleMargin)
        let c = r + bubbleMargin
        let fill = self.fill(step: step, look: look, palette: palette)
        let key = BubbleBodyCache.Key(step: step, radius: r, hovered: hovered, selected: selected, look: look,
                                      palette: palette, scale: scale)
        let body = BubbleBodyCache.forCurrentThread.body(for: key, size: size) { cr in
            drawBubbleBody(step: step, radius: r, hovered: hovered, selected: selected, look: look,
                           palette: palette, scale: scale, in: cr)
        }
        return Sprite(width: size, height: size, anchorX: c, anchorY: c, scale: scale) { cr in
            BubbleBodyCache.copy(body, onto: cr)
            if let label {
                drawCentredText(label, font: bubbleFont(step: step), color: fill.readableTextColor,
                                centreX: c, centreY: c, maxWidth: 2 * r - 7, smallest: bubbleTextSmallest, in: cr)
            }
        }
    }

    /// Draws a bubble's body (everything but its count) on a transparent canvas of
    /// `2 * (r + bubbleMargin)` logical pixels, centred.
    static func drawBubbleBody(step: Int, radius r: Double, hovered: Bool, selected: Bool, look: BubbleLook,
                               palette: MapPalette, scale: Double, in cr: OpaquePointer) {
        let size = 2 * (r + bubbleMargin)
        let c = r + bubbleMargin
        let fill = self.fill(step: step, look: look, palette: palette)
        SoftShadow.paint(in: cr, width: size, height: size, scale: scale, blur: 3, dy: 1,
                         opacity: palette.isDark ? 0.55 : 0.30) { m in
            cairo_arc(m, c, c, r, 0, 2 * .pi)
        }
        if hovered {
            cairo_arc(cr, c, c, r + 5, 0, 2 * .pi)
            fill.withAlpha(0.35).setSource(on: cr)
            cairo_fill(cr)
        }
        let outline = 2.0
        cairo_arc(cr, c, c, r - outline / 2, 0, 2 * .pi)
        fill.setSource(on: cr)
        cairo_fill_preserve(cr)
        palette.bubbleOutline.setSource(on: cr)
        cairo_set_line_width(cr, outline)
        cairo_stroke(cr)
        drawRing(look.ring, centre: c, radius: r, in: cr)
        if selected {
            cairo_arc(cr, c, c, r + (look.ring.isEmpty ? 2.6 : 2.6 + ringWidth), 0, 2 * .pi)
            palette.selection.setSource(on: cr)
            cairo_set_line_width(cr, 2.6)
            cairo_stroke(cr)
        }
    }

    /// The count of a bubble of radius `r`, in black or white by the fill's luminance, drawn on the
    /// same canvas (and so at the same device-pixel phase) as the bubble body and cropped to its
    /// ink. Its anchor is the bubble's centre, so painted at the same point it lands exactly where
    /// it would have been drawn inside the body.
    static func bubbleLabel(step: Int, label: String, radius r: Double, fill look: UInt32? = nil,
                            palette: MapPalette, scale: Double) -> Sprite {
        let m = bubbleMargin
        let size = 2 * (r + m)
        let c = r + m
        let fill = self.fill(step: step, look: BubbleLook(fill: look), palette: palette)
        return Sprite(width: size, height: size, anchorX: c, anchorY: c, scale: scale) { cr in
            drawCentredText(label, font: bubbleFont(step: step), color: fill.readableTextColor,
                            centreX: c, centreY: c, maxWidth: 2 * r - 7, smallest: bubbleTextSmallest, in: cr)
        }
    }

    /// Radius of a pin as drawn.
    static func pinRadius(_ style: BubbleStyle, selected: Bool, hovered: Bool) -> Double {
        selected ? style.pinRadius + 2.5 : (hovered ? style.pinRadius + 1 : style.pinRadius)
    }

    /// A round pin: soft shadow, fill colour, thin white outline; selected pins are bigger, keep
    /// their colour (it says the category) and get a white dot and a ring in the selection ink.
    static func pin(color: UInt32, selected: Bool, hovered: Bool, style: BubbleStyle,
                    palette: MapPalette, scale: Double) -> Sprite {
        let r = pinRadius(style, selected: selected, hovered: hovered)
        let m = 5.0
        let size = 2 * (r + m), c = r + m
        let fill = MapColor(hex: color)
        return Sprite(width: size, height: size, anchorX: c, anchorY: c, scale: scale) { cr in
            SoftShadow.paint(in: cr, width: size, height: size, scale: scale, blur: 2.5, dy: 1,
                             opacity: palette.isDark ? 0.6 : 0.38) { m in
                cairo_arc(m, c, c, r, 0, 2 * .pi)
            }
            let outline = selected ? 2.0 : 1.6
            cairo_arc(cr, c, c, r - outline / 2, 0, 2 * .pi)
            fill.setSource(on: cr)
            cairo_fill_preserve(cr)
            palette.pinOutline.setSource(on: cr)
            cairo_set_line_width(cr, outline)
            cairo_stroke(cr)
            if selected {
                cairo_arc(cr, c, c, r * 0.36, 0, 2 * .pi)
                palette.pinOutline.setSource(on: cr)
                cairo_fill(cr)
                cairo_arc(cr, c, c, r + 1.3, 0, 2 * .pi)
                palette.selection.setSource(on: cr)
                cairo_set_line_width(cr, 2.2)
                cairo_stroke(cr)
            }
        }
    }

    /// Margin around a label capsule kept in its sprite (shadow).
    static let capsuleMargin = 4.0

    /// A label capsule at `SceneHitTester.labelRect` (relative to the pin's centre, the anchor).
    static func capsule(text: String, selected: Bool, style: BubbleStyle, palette: MapPalette,
                        scale: Double) -> Sprite {
        let rect = SceneHitTester.labelRect(for: .zero, text: text, style: style)
        let m = capsuleMargin
        let w = rect.width + 2 * m, h = rect.height + 2 * m
        // Sprite origin relative to the pin centre, snapped so the capsule sits on whole pixels.
        let ox = rect.minX - m, oy = rect.minY - m
        let fill = selected ? palette.selection : palette.labelFill
        let textColor = selected ? fill.readableTextColor : palette.labelText
        return Sprite(width: w, height: h, anchorX: -ox, anchorY: -oy, scale: scale) { cr in
            let shape: (OpaquePointer) -> Void = { c in
                appendRoundedRect(c, x: m, y: m, width: rect.width, height: rect.height, radius: rect.height / 2)
            }
            SoftShadow.paint(in: cr, width: w, height: h, scale: scale, blur: 3, dy: 1,
                             opacity: palette.isDark ? 0.6 : 0.28, shape: shape)
            shape(cr)
            fill.setSource(on: cr)
            cairo_fill_preserve(cr)
            // A hairline edge keeps the capsule distinct from land of a similar tone.
            (palette.isDark ? MapColor(hex: 0xFFFFFF, alpha: 0.14) : MapColor(hex: 0x000000, alpha: 0.10))
                .setSource(on: cr)
            cairo_set_line_width(cr, 1)
            cairo_stroke(cr)
            drawCentredText(text, font: "Sans Bold 8.5", color: textColor, centreX: m + rect.width / 2,
                            centreY: m + rect.height / 2, maxWidth: rect.width - 8, in: cr)
        }
    }

    /// The height (Pango units, from the layout's top) to centre `text` on: the middle of its
    /// digits' and capitals' ink. A price's "$" reaches above and below the digits, and ink
    /// centring on it drew "$210" visibly high in its capsule; text of digits alone (a bubble's
    /// count) centres exactly as before. Leaves `layout` holding `text`.
    private static func opticalMidY(_ text: String, ink: PangoRectangle, layout: OpaquePointer) -> Double {
        let body = String(text.unicodeScalars.filter { $0.properties.isUppercase || ("0"..."9").contains($0) }.map(Character.init))
        guard !body.isEmpty, body.count != text.count else { return Double(ink.y) + Double(ink.height) / 2 }
        var bodyInk = PangoRectangle()
        pango_layout_set_text(layout, body, -1)
        pango_layout_get_extents(layout, &bodyInk, nil)
        pango_layout_set_text(layout, text, -1)
        return Double(bodyInk.y) + Double(bodyInk.height) / 2
    }

    /// How far a bubble's text may shrink before it is cut: a total ("137k") on a bubble sized by
    /// weight can be wider than a count of its step, and "13…" says nothing, so it shrinks further.
    static let bubbleTextSmallest = 0.55

    /// Draws one line of plain text (never markup) centred on a point: horizontally by its logical
    /// width, vertically by its digits' and capitals' ink (see `opticalMidY`). Shrinks text wider than
    /// `maxWidth` down to `smallest` (75 %), then ellipsizes.
    static func drawCentredText(_ text: String, font: String, color: MapColor, centreX: Double, centreY: Double,
                                maxWidth: Double, smallest: Double = 0.75, in cr: OpaquePointer) {
        guard !text.isEmpty, let layout = PangoLayouts.make(for: cr) else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let desc = pango_font_description_from_string(font)
        pango_layout_set_font_description(layout, desc)
        pango_font_description_free(desc)
        pango_layout_set_text(layout, text, -1)
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        let unit = Double(PANGO_SCALE)
        var width = Double(logical.width) / unit
        var shrink = 1.0
        if width > maxWidth {
            shrink = max(smallest, maxWidth / width)
            if width * shrink > maxWidth {
                pango_layout_set_width(layout, Int32(maxWidth / shrink * unit))
                pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
                pango_layout_get_extents(layout, &ink, &logical)
                width = Double(logical.width) / unit
            }
        }
        let inkMidY = opticalMidY(text, ink: ink, layout: layout) / unit
        cairo_save(cr)
        cairo_translate(cr, centreX, centreY)
        cairo_scale(cr, shrink, shrink)
        cairo_move_to(cr, -width / 2, -inkMidY)
        color.setSource(on: cr)
        pango_cairo_show_layout(cr, layout)
        cairo_restore(cr)
    }
}

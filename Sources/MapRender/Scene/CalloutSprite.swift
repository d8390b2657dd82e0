import CCairo
import MapModel

/// Draws the callout box: rounded, soft shadow, a pointer arrow towards the anchor, the title in
/// bold and the lines wrapped below it (cut with "…" when they don't fit the frame).
enum CalloutSprite {
    static let margin = 14.0

    struct Key: Hashable {
        var style: Int
        var title: String
        var lines: [String]
        var size: ScreenSize
        var buttons: [String]
        var swatches: [UInt32?]
        /// Arrow tip relative to the frame's top-left (quarter pixels), or nil without an arrow.
        var tipX: Int
        var tipY: Int
    }

    /// Where the arrow goes for a callout: from the box edge nearest the anchor (its bottom in the
    /// usual placement) towards the anchor, at most `CalloutPlacement.arrowHeight` long.
    static func arrowTip(frame: ScreenRect, anchor: ScreenPoint) -> ScreenPoint? {
        guard anchor.y > frame.maxY else { return nil }
        let inset = CalloutMetrics.cornerRadius + CalloutMetrics.arrowHalfWidth
        let x = min(max(anchor.x, frame.minX + inset), frame.maxX - inset)
        let y = frame.maxY + min(CalloutPlacement.arrowHeight, anchor.y - frame.maxY)
        return ScreenPoint(x: x - frame.minX, y: y - frame.minY)
    }

    /// The box outline with the arrow, relative to the frame's top-left, as one path.
    static func appendShape(_ cr: OpaquePointer, x: Double, y: Double, width w: Double, height h: Double,
                            tip: ScreenPoint?) {
        let r = min(CalloutMetrics.cornerRadius, w / 2, h / 2)
        let a = CalloutMetrics.arrowHalfWidth
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + w - r, y + r, r, -.pi / 2, 0)
        cairo_arc(cr, x + w - r, y + h - r, r, 0, .pi / 2)
        if let tip {
            cairo_line_to(cr, x + tip.x + a, y + h)
            cairo_line_to(cr, x + tip.x, y + tip.y)
            cairo_line_to(cr, x + tip.x - a, y + h)
        }
        cairo_arc(cr, x + r, y + h - r, r, .pi / 2, .pi)
        cairo_arc(cr, x + r, y + r, r, .pi, 3 * .pi / 2)
        cairo_close_path(cr)
    }

    /// A sprite of the whole callout; its anchor is the frame's top-left corner.
    static func make(_ callout: SceneCallout, palette: MapPalette, scale: Double) -> Sprite {
        let f = callout.frame
        let tip = arrowTip(frame: f, anchor: callout.anchor)
        let m = margin
        let w = f.width + 2 * m
        let h = f.height + 2 * m + (tip.map { $0.y - f.height } ?? 0)
        return Sprite(width: w, height: h, anchorX: m, anchorY: m, scale: scale) { cr in
            SoftShadow.paint(in: cr, width: w, height: h, scale: scale, blur: 9, dy: 3,
                             opacity: palette.isDark ? 0.7 : 0.30) { c in
                appendShape(c, x: m, y: m, width: f.width, height: f.height, tip: tip)
            }
            appendShape(cr, x: m, y: m, width: f.width, height: f.height, tip: tip)
            palette.calloutFill.setSource(on: cr)
            cairo_fill_preserve(cr)
            (palette.isDark ? MapColor(hex: 0xFFFFFF, alpha: 0.12) : MapColor(hex: 0x000000, alpha: 0.08))
                .setSource(on: cr)
            cairo_set_line_width(cr, 1)
            cairo_stroke(cr)

            let footer = callout.buttons.contains { $0.action != .close } ? CalloutCardLayout.footerHeight : 0
            let hasClose = callout.buttons.contains { $0.action == .close }
            let titleInset = hasClose ? CalloutCardLayout.closeSize + CalloutCardLayout.closeInset - CalloutMetrics.paddingX + 4 : 0
            var y = m + CalloutMetrics.paddingTop
            let available = f.height - CalloutMetrics.paddingTop - CalloutMetrics.paddingBottom - footer
            let titleLayout = CalloutMetrics.layouts(title: callout.title, lines: [], width: f.width,
                                                     bodyMaxHeight: nil, titleInset: titleInset, in: cr).title
            var titleHeight = 0.0
            if let t = titleLayout {
                titleHeight = CalloutMetrics.size(of: t).height
                cairo_move_to(cr, m + CalloutMetrics.paddingX, y)
                palette.calloutText.setSource(on: cr)
                pango_cairo_show_layout(cr, t)
                g_object_unref(UnsafeMutableRawPointer(t))
                y += titleHeight + CalloutMetrics.titleBodyGap
            }
            let bodyRoom = available - titleHeight - (titleLayout == nil ? 0 : CalloutMetrics.titleBodyGap)
            if bodyRoom > 4, let b = CalloutMetrics.layouts(title: "", lines: callout.lines, width: f.width,
                                                             bodyMaxHeight: bodyRoom, swatches: callout.swatches, in: cr).body {
                cairo_move_to(cr, m + CalloutMetrics.paddingX, y)
                palette.calloutSecondaryText.setSource(on: cr)
                pango_cairo_show_layout(cr, b)
                g_object_unref(UnsafeMutableRawPointer(b))
            }
            drawButtons(callout.buttons, in: cr, origin: ScreenPoint(x: m, y: m), width: f.width,
                        footerTop: m + f.height - footer, palette: palette)
        }
    }

    /// The close × and the footer links (underlined ink above a hairline).
    static func drawButtons(_ buttons: [CalloutButton], in cr: OpaquePointer, origin: ScreenPoint, width: Double,
                            footerTop: Double, palette: MapPalette) {
        for b in buttons {
            let r = ScreenRect(x: origin.x + b.frame.x, y: origin.y + b.frame.y, width: b.frame.width, height: b.frame.height)
            if b.action == .close {
                let c = ScreenPoint(x: r.x + r.width / 2, y: r.y + r.height / 2), arm = 4.5
                palette.calloutSecondaryText.setSource(on: cr)
                cairo_set_line_width(cr, 1.6)
                cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
                cairo_move_to(cr, c.x - arm, c.y - arm); cairo_line_to(cr, c.x + arm, c.y + arm)
                cairo_move_to(cr, c.x + arm, c.y - arm); cairo_line_to(cr, c.x - arm, c.y + arm)
                cairo_stroke(cr)
                continue
            }
            guard let l = CalloutMetrics.layout(b.title, font: CalloutMetrics.bodyFont, width: nil, in: cr) else { continue }
            let h = CalloutMetrics.size(of: l).height
            cairo_move_to(cr, r.x + 4, r.y + (r.height - h) / 2)
            // Links in the selection ink, underlined: the old orange accent was also a category's
            // colour (Madrid's "park"), and colours on the map mean one thing each (issue 32 item 5).
            let attrs = pango_attr_list_new()
            pango_attr_list_insert(attrs, pango_attr_underline_new(PANGO_UNDERLINE_SINGLE))
            pango_layout_set_attributes(l, attrs)
            pango_attr_list_unref(attrs)
            palette.selection.setSource(on: cr)
            pango_cairo_show_layout(cr, l)
            g_object_unref(UnsafeMutableRawPointer(l))
        }
        guard buttons.contains(where: { $0.action != .close }) else { return }
        (palette.isDark ? MapColor(hex: 0xFFFFFF, alpha: 0.12) : MapColor(hex: 0x000000, alpha: 0.08)).setSource(on: cr)
        cairo_rectangle(cr, origin.x + CalloutMetrics.paddingX, footerTop, width - 2 * CalloutMetrics.paddingX, 1)
        cairo_fill(cr)
    }
}

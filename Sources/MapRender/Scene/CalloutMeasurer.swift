import CCairo
import MapModel

/// Typography and spacing of the callout, shared by measuring and drawing so both agree.
enum CalloutMetrics {
    static let paddingX = 12.0
    static let paddingTop = 9.0
    static let paddingBottom = 10.0
    static let titleBodyGap = 3.0
    static let cornerRadius = 10.0
    static let arrowHalfWidth = 9.0
    static let titleFont = "Sans Bold 10.5"
    static let bodyFont = "Sans 9"
    /// Extra pixels between body lines.
    static let bodyLineSpacing = 1.5
    /// The title wraps to at most this many lines.
    static let titleMaxLines: Int32 = 2
    static let minWidth = 120.0
    /// One property value wraps to at most this many lines.
    static let bodyMaxLinesPerParagraph: Int32 = 6

    /// A plain-text layout (never markup) wrapped to `width` logical pixels (nil: unwrapped).
    static func layout(_ text: String, font: String, width: Double?, in cr: OpaquePointer) -> OpaquePointer? {
        guard let layout = pango_cairo_create_layout(cr) else { return nil }
        let desc = pango_font_description_from_string(font)
        pango_layout_set_font_description(layout, desc)
        pango_font_description_free(desc)
        if let width {
            pango_layout_set_width(layout, Int32((width * Double(PANGO_SCALE)).rounded(.down)))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        }
        pango_layout_set_text(layout, text, -1)
        return layout
    }

    /// Logical size of a layout in (fractional) pixels.
    static func size(of layout: OpaquePointer) -> (width: Double, height: Double) {
        var w: Int32 = 0, h: Int32 = 0
        pango_layout_get_size(layout, &w, &h)
        return (Double(w) / Double(PANGO_SCALE), Double(h) / Double(PANGO_SCALE))
    }

    /// The title and body layouts for a box of `width`, the body cut to `bodyMaxHeight` with "…".
    static func layouts(title: String, lines: [String], width: Double, bodyMaxHeight: Double?,
                        titleInset: Double = 0, swatches: [UInt32?] = [],
                        in cr: OpaquePointer) -> (title: OpaquePointer?, body: OpaquePointer?) {
        let inner = max(10, width - 2 * paddingX)
        // The title leaves room for the close button in the corner.
        let t = title.isEmpty ? nil : layout(title, font: titleFont, width: max(10, inner - titleInset), in: cr)
        if let t { pango_layout_set_height(t, -titleMaxLines) }
        let bodyText = lines.joined(separator: "\n")
        let b = bodyText.isEmpty ? nil : layout(bodyText, font: bodyFont, width: inner, in: cr)
        if let b {
            pango_layout_set_spacing(b, Int32(bodyLineSpacing * Double(PANGO_SCALE)))
            colourSwatches(b, lines: lines, swatches: swatches)
            // Negative height = lines per paragraph (the default, −1, would ellipsize every value
            // to one line); a very long value is cut with "…" after a few.
            pango_layout_set_height(b, -bodyMaxLinesPerParagraph)
            if let bodyMaxHeight, size(of: b).height > bodyMaxHeight {
                if !cut(b, text: bodyText, toHeight: bodyMaxHeight) {
                    g_object_unref(UnsafeMutableRawPointer(b))
                    return (t, nil)
                }
            }
        }
        return (t, b)
    }

    /// Paints the first character of each line that has a swatch (a bubble card's "●" before a
    /// category) in that colour; the rest keeps the layout's colour. Same text, same size.
    static func colourSwatches(_ layout: OpaquePointer, lines: [String], swatches: [UInt32?]) {
        guard swatches.contains(where: { $0 != nil }) else { return }
        let attrs = pango_attr_list_new()
        var start = 0
        for (i, line) in lines.enumerated() {
            if i < swatches.count, let rgb = swatches[i], let first = line.unicodeScalars.first {
                func channel(_ shift: UInt32) -> UInt16 { UInt16((rgb >> shift) & 0xFF) * 257 }
                if let a = pango_attr_foreground_new(channel(16), channel(8), channel(0)) {
                    a.pointee.start_index = UInt32(start)
                    a.pointee.end_index = UInt32(start + String(first).utf8.count)
                    pango_attr_list_insert(attrs, a)
                }
            }
            start += line.utf8.count + 1
        }
        pango_layout_set_attributes(layout, attrs)
        pango_attr_list_unref(attrs)
    }

    /// Cuts a wrapped layout to the lines that fit in `height`, ending the last one with "…".
    /// (Pango's own height-ellipsizing keeps one line of every paragraph, which squeezes a long
    /// description instead of cutting a long list, so the text is trimmed here.)
    /// Returns false when not even one line fits.
    static func cut(_ layout: OpaquePointer, text: String, toHeight height: Double) -> Bool {
        let unit = Double(PANGO_SCALE)
        guard let iter = pango_layout_get_iter(layout) else { return false }
        var lastFitting = -1, index = 0
        repeat {
            var y0: Int32 = 0, y1: Int32 = 0
            pango_layout_iter_get_line_yrange(iter, &y0, &y1)
            if Double(y1) / unit <= height + 0.5 { lastFitting = index } else { break }
            index += 1
        } while pango_layout_iter_next_line(iter) != 0
        pango_layout_iter_free(iter)
        guard lastFitting >= 0, let line = pango_layout_get_line_readonly(layout, Int32(lastFitting)) else { return false }
        let bytes = Array(text.utf8)
        let lineEnd = min(bytes.count, Int(line.pointee.start_index + line.pointee.length))
        let endsParagraph = lineEnd >= bytes.count || bytes[lineEnd] == UInt8(ascii: "\n")
        var prefix = String(decoding: bytes[0..<lineEnd], as: UTF8.self)
        let ellipsis = endsParagraph ? " …" : "…"
        // Drop characters until the text plus "…" fits on the lines that were visible.
        while true {
            while let last = prefix.last, last.isWhitespace { prefix.removeLast() }
            pango_layout_set_text(layout, prefix + ellipsis, -1)
            if pango_layout_get_line_count(layout) <= Int32(lastFitting + 1) || prefix.isEmpty { break }
            prefix.removeLast()
        }
        return true
    }
}

/// Measures the callout box so the app can place it before drawing (SPEC §5.3).
public enum CalloutMeasurer {
    /// A scratch context for pango measuring; used on the drawing (GTK) thread only.
    nonisolated(unsafe) private static var scratch: ImageSurface?
    nonisolated(unsafe) private static var scratchContext: OpaquePointer?

    /// Default upper bound on the box height; longer content is cut with "…".
    public static let defaultMaxHeight = CalloutCardLayout.defaultMaxHeight

    /// The size of the callout box (without its pointer arrow) for a title and text lines, at most
    /// `maxWidth` wide (text wraps) and `maxHeight` tall (text is cut with "…"). Use it as the
    /// `size` of `CalloutPlacement.frame(above:size:)`; the renderer fills exactly that frame.
    public static func size(title: String, lines: [String], maxWidth: Double = 280,
                            maxHeight: Double = defaultMaxHeight) -> ScreenSize {
        size(title: title, lines: lines, maxWidth: maxWidth, maxHeight: maxHeight, titleInset: 0, minInner: 0)
    }

    /// A card (SPEC §7): the callout with a close button in its corner and a row of links along
    /// its bottom ("Copy coordinates", "More"); returns its size and the buttons placed on it.
    public static func card(title: String, lines: [String], links: [(action: CalloutAction, title: String)],
                            maxWidth: Double = 300, maxHeight: Double = defaultMaxHeight) -> (size: ScreenSize, buttons: [CalloutButton]) {
        let cr = context()
        let widths = links.map { link -> Double in
            guard let l = CalloutMetrics.layout(link.title, font: CalloutMetrics.bodyFont, width: nil, in: cr) else { return 0 }
            defer { g_object_unref(UnsafeMutableRawPointer(l)) }
            return CalloutMetrics.size(of: l).width.rounded(.up)
        }
        let footerWidth = widths.reduce(0, +) + Double(max(0, widths.count - 1)) * CalloutCardLayout.footerGap
        let footer = links.isEmpty ? 0 : CalloutCardLayout.footerHeight
        let inset = CalloutCardLayout.closeSize + CalloutCardLayout.closeInset - CalloutMetrics.paddingX + 4
        var size = size(title: title, lines: lines, maxWidth: maxWidth, maxHeight: maxHeight - footer,
                        titleInset: inset, minInner: footerWidth)
        size.height += footer
        let items = zip(links, widths).map { (action: $0.0.action, title: $0.0.title, textWidth: $0.1) }
        return (size, [CalloutCardLayout.closeButton(in: size)]
                      + CalloutCardLayout.footerButtons(items, in: size, paddingX: CalloutMetrics.paddingX))
    }

    private static func size(title: String, lines: [String], maxWidth: Double, maxHeight: Double,
                             titleInset: Double, minInner: Double) -> ScreenSize {
        let cr = context()
        let maxInner = max(10, maxWidth - 2 * CalloutMetrics.paddingX)
        // Natural (unwrapped) width of the widest paragraph, capped at the maximum.
        var natural = minInner
        let texts = [(title, CalloutMetrics.titleFont, titleInset)] + lines.map { ($0, CalloutMetrics.bodyFont, 0.0) }
        for (text, font, extra) in texts where !text.isEmpty {
            for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
                guard let l = CalloutMetrics.layout(String(paragraph), font: font, width: nil, in: cr) else { continue }
                natural = max(natural, CalloutMetrics.size(of: l).width + extra)
                g_object_unref(UnsafeMutableRawPointer(l))
            }
        }
        let inner = min(maxInner, natural.rounded(.up) + 1)
        let width = min(maxWidth, max(CalloutMetrics.minWidth, inner + 2 * CalloutMetrics.paddingX))
        let (t, b) = CalloutMetrics.layouts(title: title, lines: lines, width: width, bodyMaxHeight: nil,
                                            titleInset: titleInset, in: cr)
        defer {
            if let t { g_object_unref(UnsafeMutableRawPointer(t)) }
            if let b { g_object_unref(UnsafeMutableRawPointer(b)) }
        }
        var height = CalloutMetrics.paddingTop + CalloutMetrics.paddingBottom
        if let t { height += CalloutMetrics.size(of: t).height }
        if let b { height += CalloutMetrics.size(of: b).height + (t == nil ? 0 : CalloutMetrics.titleBodyGap) }
        return ScreenSize(width: width.rounded(.up), height: min(maxHeight, height.rounded(.up)))
    }

    private static func context() -> OpaquePointer {
        if let c = scratchContext { return c }
        let s = ImageSurface(width: 1, height: 1)
        let c = cairo_create(s.surface)!
        scratch = s
        scratchContext = c
        return c
    }
}

import CCairo
import Foundation

/// Pango layouts from one reused Pango context per thread.
///
/// `pango_cairo_create_layout` makes a new context for every layout, and a new context resolves
/// its fonts again through fontconfig: about half the cost of a short count label. The frame that
/// first shows data makes dozens of such sprites at once. The context is brought up to date with
/// the target's transform and font options on every use (`pango_cairo_update_context`), so a layout
/// made here measures and draws exactly as one from `pango_cairo_create_layout(cr)`.
///
/// Only for layouts used at once and released by the caller: a layout kept while the context is
/// updated for another target would follow that target's settings.
enum PangoLayouts {
    private final class Context {
        var context: OpaquePointer?
        deinit { if let context { g_object_unref(UnsafeMutableRawPointer(context)) } }
    }

    /// A new layout for text drawn on `cr` (release it with `g_object_unref`).
    static func make(for cr: OpaquePointer) -> OpaquePointer? {
        let holder = Thread.perThread("clustermap.PangoContext") { Context() }
        if let context = holder.context {
            pango_cairo_update_context(cr, context)
        } else {
            holder.context = pango_cairo_create_context(cr)
        }
        guard let context = holder.context else { return nil }
        return pango_layout_new(context)
    }
}

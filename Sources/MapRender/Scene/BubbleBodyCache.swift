import CCairo
import Foundation
import MapModel

/// The bodies of count bubbles (shadow, fill, outline, ring, hover halo, selection ring) on their
/// full sprite canvas, kept per look so that a labelled bubble's sprite is a copy of its body plus
/// its count.
///
/// At scale 1 every distinct count is its own sprite, and the first clustered frame makes dozens
/// of them at once (the launch's world view: ~60). Drawing each body from scratch — above all
/// its blurred shadow, ~1 M instructions — was half of that frame's CPU. The body depends only on
/// the step, radius, state, look, palette and scale, of which a view has a handful.
///
/// One cache per thread (bubble sprites are made on the drawing thread; a cairo surface is not
/// shared across threads), a few dozen bodies at most.
final class BubbleBodyCache {
    struct Key: Hashable {
        var step: Int
        var radius: Double
        var hovered: Bool
        var selected: Bool
        var look: BubbleLook
        var palette: MapPalette
        var scale: Double
    }

    /// Bodies kept before the cache starts again (hover and selection make a few variants per step).
    static let capacity = 48

    private var bodies: [Key: ImageSurface] = [:]

    static var forCurrentThread: BubbleBodyCache { Thread.perThread("clustermap.BubbleBodyCache") { BubbleBodyCache() } }

    /// The body for `key` on a canvas of `size × size` logical pixels, drawn by `draw` on first use.
    func body(for key: Key, size: Double, draw: (OpaquePointer) -> Void) -> ImageSurface {
        if let body = bodies[key] { return body }
        if bodies.count >= BubbleBodyCache.capacity { bodies.removeAll(keepingCapacity: true) }
        let canvas = ImageSurface(width: Int(size.rounded(.up)), height: Int(size.rounded(.up)), scale: key.scale)
        canvas.withContext { cr in draw(cr) }
        cairo_surface_flush(canvas.surface)
        bodies[key] = canvas
        return canvas
    }

    /// Copies `body` onto `cr`, whose target is a fresh (transparent) canvas of the same size and
    /// scale: the same pixels as drawing the body there, so whatever is drawn next (the count)
    /// blends exactly as it did before.
    static func copy(_ body: ImageSurface, onto cr: OpaquePointer) {
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_surface(cr, body.surface, 0, 0)
        cairo_paint(cr)
        cairo_restore(cr)
    }
}

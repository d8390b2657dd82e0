import CGtk
import MapModel

/// Paints one frame into the drawing area's cairo context.
enum MapPainter {
    static func paint(_ cr: OpaquePointer, camera: Camera, controller: MapViewController) {
        cairo_set_source_rgb(cr, 0.83, 0.86, 0.87)
        cairo_paint(cr)
    }
}

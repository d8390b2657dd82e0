import CGtk

/// Accessible names and descriptions for screen readers (GtkAccessible). The variadic
/// `gtk_accessible_update_property` is unavailable in Swift; the GValue form is used instead.
enum AccessibleText {
    static func setLabel(of widget: UnsafeMutablePointer<GtkWidget>, to text: String) {
        set(GTK_ACCESSIBLE_PROPERTY_LABEL, text, on: widget)
    }

    static func setDescription(of widget: UnsafeMutablePointer<GtkWidget>, to text: String) {
        set(GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, on: widget)
    }

    private static func set(_ property: GtkAccessibleProperty, _ text: String, on widget: UnsafeMutablePointer<GtkWidget>) {
        var value = GValue()
        g_value_init(&value, GType(16 << G_TYPE_FUNDAMENTAL_SHIFT)) // G_TYPE_STRING
        g_value_set_string(&value, text)
        var props = [property]
        withUnsafeMutablePointer(to: &value) { v in
            gtk_accessible_update_property_value(OpaquePointer(widget), 1, &props, v)
        }
        g_value_unset(&value)
    }
}

import CGtk

/// Widgets with an accessible role other than their class default (the `accessible-role`
/// property can only be set at construction; variadic g_object_new is unavailable in Swift).
enum AccessibleRole {
    /// A new widget of `type` with `role`.
    static func newWidget(_ type: GType, role: GtkAccessibleRole) -> UnsafeMutablePointer<GtkWidget> {
        var value = GValue()
        g_value_init(&value, gtk_accessible_role_get_type())
        g_value_set_enum(&value, Int32(bitPattern: role.rawValue))
        defer { g_value_unset(&value) }
        var names: [UnsafePointer<CChar>?] = [UnsafePointer(strdup("accessible-role"))]
        defer { free(UnsafeMutableRawPointer(mutating: names[0])) }
        let object = g_object_new_with_properties(type, 1, &names, &value)!
        return gcast(object)
    }

    /// The map: a drawing area that screen readers present as an image named "Map" whose name
    /// follows the focused item and whose description is the selected place's callout.
    static func newMapArea() -> UnsafeMutablePointer<GtkWidget> {
        newWidget(gtk_drawing_area_get_type(), role: GTK_ACCESSIBLE_ROLE_IMG)
    }
}

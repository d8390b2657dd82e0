import CGtk
import AppSupport
import GeoData

/// The filter panel's sections: a heading with the type drop-down, then the row's control.
extension FilterPanel {
    /// Check boxes shown at once in a checklist (a search box finds the rest): the panel stays
    /// short enough to reach the rows below a long checklist.
    static let checklistLimit = 15

    func section(for row: FilterPanelModel.Row) -> UnsafeMutablePointer<GtkWidget> {
        let box = AccessibleRole.newWidget(gtk_box_get_type(), role: GTK_ACCESSIBLE_ROLE_GROUP)
        gtk_orientable_set_orientation(opaque(box), GTK_ORIENTATION_VERTICAL)
        gtk_box_set_spacing(gcast(box), 4)
        AccessibleText.setLabel(of: box, to: row.accessibleLabel)

        let heading = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        let name = plainLabel(row.property)
        gtk_widget_add_css_class(name, "cm-filter-name")
        gtk_label_set_ellipsize(opaque(name), PANGO_ELLIPSIZE_END)
        gtk_widget_set_hexpand(name, 1)
        gtk_box_append(gcast(heading), name)
        let types = PropertyType.allCases
        let dropDown = withCStringArray(types.map(\.rawValue)) { gtk_drop_down_new_from_strings($0) }!
        gtk_drop_down_set_selected(opaque(dropDown), UInt32(types.firstIndex(of: row.type) ?? 0))
        gtk_widget_set_tooltip_text(dropDown, "Read \(row.property) as… (guessed: \(row.inferred.rawValue))")
        AccessibleText.setLabel(of: dropDown, to: "Type of \(row.property)")
        let typeTarget = FilterRowTarget(panel: self, property: row.property)
        targets.append(typeTarget)
        connectSignal(dropDown, "notify::selected", unsafeBitCast(FilterPanel.typeChanged, to: GCallback.self), owner: typeTarget)
        gtk_box_append(gcast(heading), dropDown)
        gtk_box_append(gcast(box), heading)
        let summary = plainLabel(row.summary)
        gtk_widget_add_css_class(summary, "dim-label")
        gtk_widget_add_css_class(summary, "caption")
        gtk_box_append(gcast(box), summary)

        switch row.control {
        case .checklist(let items, let searchable):
            let list = FilterChecklist(panel: self, property: row.property, items: items)
            targets.append(list)
            if searchable {
                let search = gtk_search_entry_new()!
                gtk_editable_set_text(opaque(search), "")
                AccessibleText.setLabel(of: search, to: "Find a value of \(row.property)")
                setStringProperty(gpointer(search), "placeholder-text", "Find among \(items.count) values")
                connectSignal(search, "search-changed", unsafeBitCast(FilterPanel.searchChanged, to: GCallback.self), owner: list)
                gtk_box_append(gcast(box), search)
            }
            if items.count > 2 { gtk_box_append(gcast(box), list.allNoneBar()) }
            gtk_box_append(gcast(box), list.box)
            list.fill(search: "")
        case .range(let r):
            let range = FilterRangeRow(panel: self, property: row.property, control: r)
            targets.append(range)
            ranges[row.property] = range
            gtk_box_append(gcast(box), range.box)
        case .contains(let text):
            let entry = gtk_entry_new()!
            gtk_editable_set_text(opaque(entry), text)
            setStringProperty(gpointer(entry), "placeholder-text", "Contains…")
            AccessibleText.setLabel(of: entry, to: "\(row.property) contains")
            let target = FilterRowTarget(panel: self, property: row.property)
            targets.append(target)
            connectSignal(entry, "changed", unsafeBitCast(FilterPanel.containsChanged, to: GCallback.self), owner: target)
            gtk_box_append(gcast(box), entry)
        case .empty:
            gtk_box_append(gcast(box), plainLabel("No usable values."))
        }
        return box
    }

    fileprivate func set(_ type: PropertyType, of property: String) {
        guard !isBuilding, let catalog, let c = controller else { return }
        let s = FilterPanelModel.settingType(type, of: property, catalog: catalog, settings: c.presentation.filterSettings)
        builtSettings = nil  // a new catalog comes: the rows are rebuilt then
        c.setFilter(s)
    }

    private static let typeChanged: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { dropDown, _, data in
        guard let dropDown, let t = UserData.object(data, as: FilterRowTarget.self), let panel = t.panel else { return }
        let k = Int(gtk_drop_down_get_selected(dropDown))
        guard k < PropertyType.allCases.count else { return }
        panel.set(PropertyType.allCases[k], of: t.property)
    }

    private static let containsChanged: @convention(c) (OpaquePointer?, gpointer?) -> Void = { entry, data in
        guard let entry, let t = UserData.object(data, as: FilterRowTarget.self), let panel = t.panel, let c = panel.controller else { return }
        let text = String(cString: gtk_editable_get_text(entry))
        panel.ask(FilterPanelModel.settingContains(text, of: t.property, settings: c.presentation.filterSettings))
    }

    private static let searchChanged: @convention(c) (OpaquePointer?, gpointer?) -> Void = { entry, data in
        guard let entry, let list = UserData.object(data, as: FilterChecklist.self) else { return }
        list.fill(search: String(cString: gtk_editable_get_text(entry)))
    }
}

/// A control's property (signal user data).
final class FilterRowTarget {
    weak var panel: FilterPanel?
    let property: String
    init(panel: FilterPanel, property: String) {
        self.panel = panel
        self.property = property
    }
}

/// A category's checklist: a check box per value with its count, most common first.
final class FilterChecklist {
    weak var panel: FilterPanel?
    let property: String
    let items: [FilterPanelModel.CheckItem]
    let box: UnsafeMutablePointer<GtkWidget>
    private var targets: [FilterCheckTarget] = []
    /// The All / None buttons' targets, the search shown and the "only" buttons reported so far.
    var actionTargets: [FilterCheckTarget] = []
    private(set) var search = ""
    var onlyReported = 0
    private var checks: [(value: String, check: UnsafeMutablePointer<GtkWidget>)] = []

    init(panel: FilterPanel, property: String, items: [FilterPanelModel.CheckItem]) {
        self.panel = panel
        self.property = property
        self.items = items
        box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
    }

    /// Shows the values matching `search` (at most `FilterPanel.checklistLimit`).
    func fill(search: String) {
        while let child = gtk_widget_get_first_child(box) { gtk_box_remove(gcast(box), child) }
        targets = []
        checks = []
        onlyReported = 0
        self.search = search
        // The boxes as the filter is now (the panel's own changes do not rebuild `items`).
        let ticked = panel.flatMap { p in p.catalog.flatMap { cat in
            p.controller.map { FilterPanelModel.ticked(property, catalog: cat, settings: $0.presentation.filterSettings) } } }
        let matching = FilterPanelModel.items(items, matching: search)
        for item in matching.prefix(FilterPanel.checklistLimit) {
            let check = gtk_check_button_new()!
            let line = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
            let name = plainLabel(item.text)
            gtk_label_set_ellipsize(opaque(name), PANGO_ELLIPSIZE_END)
            gtk_widget_set_hexpand(name, 1)
            let count = plainLabel(formatCount(item.count), xalign: 1)
            gtk_widget_add_css_class(count, "dim-label")
            gtk_widget_add_css_class(count, "numeric")
            gtk_box_append(gcast(line), name)
            gtk_box_append(gcast(line), count)
            gtk_check_button_set_child(gcast(check), line)
            gtk_check_button_set_active(gcast(check), (ticked?.contains(item.text) ?? item.isChecked) ? 1 : 0)
            checks.append((item.text, check))
            AccessibleText.setLabel(of: check, to: item.accessibleLabel)
            let target = FilterCheckTarget(list: self, value: item.text)
            targets.append(target)
            connectSignal(check, "toggled", unsafeBitCast(FilterChecklist.toggled, to: GCallback.self), owner: target)
            gtk_box_append(gcast(box), withOnlyButton(check, item: item, target: target))
            if let c = panel?.controller, targets.count <= 12 {
                reportPosition(of: check, name: "filter-check:\(property)=\(item.text)", eventLog: c.eventLog)
            }
        }
        if matching.count > FilterPanel.checklistLimit {
            let more = plainLabel("\(matching.count - FilterPanel.checklistLimit) more: type to find them")
            gtk_widget_add_css_class(more, "dim-label")
            gtk_box_append(gcast(box), more)
        }
    }

    /// Ticks exactly `ticked` among the boxes shown (their signals are not the person's).
    func showTicks(_ ticked: Set<String>) {
        let wasBuilding = panel?.isBuilding ?? false
        panel?.isBuilding = true
        defer { panel?.isBuilding = wasBuilding }
        for (value, check) in checks { gtk_check_button_set_active(gcast(check), ticked.contains(value) ? 1 : 0) }
    }

    private static let toggled: @convention(c) (OpaquePointer?, gpointer?) -> Void = { check, data in
        guard let check, let t = UserData.object(data, as: FilterCheckTarget.self), let list = t.list,
              let panel = list.panel, let catalog = panel.catalog, let c = panel.controller else { return }
        let on = gtk_check_button_get_active(typed(check)) != 0
        panel.ask(FilterPanelModel.toggling(t.value, of: list.property, on: on, catalog: catalog, settings: c.presentation.filterSettings))
    }
}

/// One check box's value.
final class FilterCheckTarget {
    weak var list: FilterChecklist?
    let value: String
    init(list: FilterChecklist, value: String) {
        self.list = list
        self.value = value
    }
}

import CGtk
import Foundation
import GeoData
import PostGIS

/// "Connect to Database…" (main menu, Ctrl+Shift+O): a PostGIS table by its address or by host,
/// port, database, user and table, with a chooser filled from the database's `geometry_columns`.
/// A password typed here goes to the connection only (never saved, never logged); left empty, it
/// is asked for when the server wants one. A bad address is said in the window, under the fields.
/// A filter (the `--where` grammar) and "watch for changes" (`--refresh`) apply to the table opened;
/// a filter the grammar refuses is said under the fields, the cursor at its column. A total
/// (`--total`: `sum:damage`) is checked against the table's columns before the dialog closes,
/// with the command line's messages, the cursor put in its field.
final class DatabaseDialog {
    let window: UnsafeMutablePointer<GtkWidget>
    private let address: UnsafeMutablePointer<GtkWidget>
    private let host: UnsafeMutablePointer<GtkWidget>
    private let port: UnsafeMutablePointer<GtkWidget>
    private let database: UnsafeMutablePointer<GtkWidget>
    private let user: UnsafeMutablePointer<GtkWidget>
    private let password: UnsafeMutablePointer<GtkWidget>
    private let table: UnsafeMutablePointer<GtkWidget>
    private let tables: UnsafeMutablePointer<GtkWidget>
    private let problem: UnsafeMutablePointer<GtkWidget>
    private let filter: UnsafeMutablePointer<GtkWidget>
    private let watch: UnsafeMutablePointer<GtkWidget>
    private let total: UnsafeMutablePointer<GtkWidget>
    /// A total is being checked against the table (Connect waits for it).
    private var checking = false
    /// How often a watched table is asked again at most (NOTIFY comes at once; counters each second).
    static let watchSeconds = 2.0
    private weak var controller: MapViewController?
    /// The tables the chooser lists (its items' order).
    private var listed: [String] = []

    /// Installs `win.connect-database` and its shortcut on the main window.
    static func installAction(window: UnsafeMutablePointer<GtkWidget>, controller: MapViewController) {
        let action = g_simple_action_new("connect-database", nil)!
        typealias Activate = @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void
        let open: Activate = { _, _, data in
            guard let c = UserData.controller(data), let root = gtk_widget_get_root(c.drawingArea) else { return }
            DatabaseDialog.present(over: asWidget(root), controller: c)
        }
        connectSignal(action, "activate", unsafeBitCast(open, to: GCallback.self), owner: controller)
        g_action_map_add_action(OpaquePointer(window), action)
        g_object_unref(gpointer(action))
        if let app = gtk_window_get_application(gcast(window)) {
            withCStringArray(["<Control><Shift>o"]) { gtk_application_set_accels_for_action(app, "win.connect-database", $0) }
        }
    }

    /// Opens the dialog over `parent`; it lives as long as its window.
    static func present(over parent: UnsafeMutablePointer<GtkWidget>, controller: MapViewController) {
        let dialog = DatabaseDialog(parent: parent, controller: controller)
        g_object_set_data_full(gcast(dialog.window), "cm-database-dialog", Unmanaged.passRetained(dialog).toOpaque(), UserData.release)
        controller.eventLog.emit("db-dialog")
        gtk_window_present(gcast(dialog.window))
    }

    private init(parent: UnsafeMutablePointer<GtkWidget>, controller: MapViewController) {
        self.controller = controller
        window = DialogParts.modalWindow(title: "Connect to Database", over: parent, width: 520)
        let box = DialogParts.column(spacing: 10)
        let intro = plainLabel("A PostGIS table is asked for what each view shows; the server does the counting.")
        gtk_label_set_wrap(opaque(intro), 1)
        gtk_box_append(gcast(box), intro)

        let grid = gtk_grid_new()!
        gtk_grid_set_row_spacing(gcast(grid), 6)
        gtk_grid_set_column_spacing(gcast(grid), 10)
        func field(_ row: Int32, _ label: String, _ placeholder: String, _ widget: UnsafeMutablePointer<GtkWidget>? = nil)
            -> UnsafeMutablePointer<GtkWidget> {
            let l = plainLabel(label, xalign: 1)
            let w = widget ?? gtk_entry_new()!
            if widget == nil {
                gtk_entry_set_placeholder_text(gcast(w), placeholder)
                gtk_entry_set_activates_default(gcast(w), 1)
                AccessibleText.setLabel(of: w, to: label)
            }
            gtk_widget_set_hexpand(w, 1)
            gtk_grid_attach(gcast(grid), l, 0, row, 1, 1)
            gtk_grid_attach(gcast(grid), w, 1, row, 1, 1)
            return w
        }
        address = field(0, "Address", "postgresql://user@host/database?table=schema.name")
        host = field(1, "Host", "localhost")
        port = field(2, "Port", "5432")
        database = field(3, "Database", "")
        user = field(4, "User", "")
        password = field(5, "Password", "asked for when needed")
        gtk_entry_set_visibility(gcast(password), 0)
        gtk_entry_set_input_purpose(gcast(password), GTK_INPUT_PURPOSE_PASSWORD)
        table = field(6, "Table", "schema.name")
        let chooserRow = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        tables = gtk_drop_down_new(nil, nil)!
        gtk_widget_set_hexpand(tables, 1)
        gtk_widget_set_sensitive(tables, 0)
        AccessibleText.setLabel(of: tables, to: "Tables with geometry")
        let find = gtk_button_new_with_mnemonic("_Find Tables")!
        gtk_box_append(gcast(chooserRow), tables)
        gtk_box_append(gcast(chooserRow), find)
        _ = field(7, "", "", chooserRow)
        filter = field(8, "Filter", "e.g. mag >= 5 and kind in ('quake')")
        if let label = gtk_grid_get_child_at(gcast(grid), 0, 8) {
            // Alt+R reaches it (Alt+F is Find Tables).
            gtk_label_set_text_with_mnemonic(opaque(label), "Filte_r")
            gtk_label_set_mnemonic_widget(opaque(label), filter)
        }
        total = field(9, "Total", "e.g. sum:damage, mean:damage, max:damage")
        if let label = gtk_grid_get_child_at(gcast(grid), 0, 9) {
            gtk_label_set_text_with_mnemonic(opaque(label), "_Total")
            gtk_label_set_mnemonic_widget(opaque(label), total)
        }
        watch = gtk_check_button_new_with_mnemonic("_Watch for changes")!
        gtk_widget_set_tooltip_text(watch, "Show new, changed and deleted rows as they are written")
        _ = field(10, "", "", watch)
        gtk_box_append(gcast(box), grid)

        problem = DialogParts.problemLine(in: box)
        let (cancel, connect) = DialogParts.buttonRow(accept: "C_onnect", in: box, of: window)

        typealias Clicked = @convention(c) (UnsafeMutablePointer<GtkWidget>?, gpointer?) -> Void
        let onConnect: Clicked = { _, data in UserData.object(data, as: DatabaseDialog.self)?.connect() }
        let onCancel: Clicked = { _, data in UserData.object(data, as: DatabaseDialog.self)?.close() }
        let onFind: Clicked = { _, data in UserData.object(data, as: DatabaseDialog.self)?.findTables() }
        connectSignal(connect, "clicked", unsafeBitCast(onConnect, to: GCallback.self), owner: self)
        connectSignal(cancel, "clicked", unsafeBitCast(onCancel, to: GCallback.self), owner: self)
        connectSignal(find, "clicked", unsafeBitCast(onFind, to: GCallback.self), owner: self)
        let onChosen: @convention(c) (OpaquePointer?, gpointer?, gpointer?) -> Void = { _, _, data in
            UserData.object(data, as: DatabaseDialog.self)?.tableChosen()
        }
        connectSignal(tables, "notify::selected", unsafeBitCast(onChosen, to: GCallback.self), owner: self)
    }

    private func text(_ entry: UnsafeMutablePointer<GtkWidget>) -> String {
        String(cString: gtk_editable_get_text(OpaquePointer(entry)))
    }

    private func say(_ message: String?) {
        gtk_label_set_text(opaque(problem), message ?? "")
        gtk_widget_set_visible(problem, message == nil ? 0 : 1)
    }

    /// The form's address, or nil after saying what is wrong with it.
    private func formAddress(table chosen: String) -> String? {
        do {
            return try PostGISAddress.fromForm(address: text(address), host: text(host), port: text(port),
                                               database: text(database), user: text(user), table: chosen)
        } catch {
            say("\(error)")
            return nil
        }
    }

    private func connect() {
        guard !checking, let uri = formAddress(table: text(table)), let opening = tableOptions() else { return }
        let typed = text(password)
        guard let asked = opening.settings.total else { return open(uri, password: typed, opening) }
        // The total is checked against the table's columns before the dialog closes (a table
        // that can't be reached here is opened anyway: the window says what is wrong).
        checking = true
        say("Checking the total against the table…")
        Thread.detachNewThread { [weak self] in
            let problem = (try? PostGISSource(address: uri, password: typed.isEmpty ? nil : typed))?
                .table.totalProblem(kind: asked.kind, column: asked.property)
            runOnGtkThread { [weak self] in
                guard let self else { return }
                checking = false
                guard let problem else { return open(uri, password: typed, opening) }
                // The cursor after the colon: the column is what the table can't total.
                let written = text(total)
                sayTotalProblem(problem, at: written.firstIndex(of: ":").map { written.distance(from: written.startIndex, to: $0) + 1 } ?? 0)
            }
        }
    }

    private func open(_ uri: String, password typed: String, _ opening: TableOpenOptions) {
        let controller = self.controller
        let parent = gtk_window_get_transient_for(gcast(window))
        close()
        // The keys go back to the map (without a window manager nobody else gives them back:
        // Ctrl+T, the time bar's keys did nothing after Connect).
        if let parent { gtk_window_present(parent) }
        controller?.eventLog.emit("db-dialog-open", [("where", .string(opening.settings.conditions.first ?? "")),
                                                     ("total", .string(opening.settings.total?.text ?? "")),
                                                     ("watch", .bool(opening.refreshSeconds != nil))])
        controller?.openDatabase(uri, password: typed.isEmpty ? nil : typed, table: opening)
    }

    /// Says what is wrong with the total (the command line's words) and puts the cursor in its
    /// field at `position` (characters).
    private func sayTotalProblem(_ message: String, at position: Int) {
        say(message)
        controller?.eventLog.emit("db-dialog-problem", [("field", .string("total")), ("message", .string(message))])
        gtk_widget_grab_focus(total)
        gtk_editable_set_position(OpaquePointer(total), Int32(position))
    }

    /// The filter and watch asked for, or nil after saying where the filter is wrong.
    private func tableOptions() -> TableOpenOptions? {
        let written = text(filter).trimmingCharacters(in: .whitespaces)
        if !written.isEmpty {
            do {
                _ = try FilterExpression.parse(written)
            } catch let e as FilterError {
                say("Filter, column \(e.column): \(e.message)")
                controller?.eventLog.emit("db-dialog-problem", [("field", .string("filter")), ("column", .int(e.column))])
                gtk_widget_grab_focus(filter)
                gtk_editable_set_position(OpaquePointer(filter), Int32(e.column - 1))
                return nil
            } catch {
                say("Filter: \(error)")
                return nil
            }
        }
        let watched = gtk_check_button_get_active(gcast(watch)) != 0
        var settings = FilterSettings()
        settings.conditions = written.isEmpty ? [] : [written]
        let totalText = text(total).trimmingCharacters(in: .whitespaces)
        if !totalText.isEmpty {
            do {
                _ = try settings.set("total", totalText)
            } catch {
                sayTotalProblem("\(error)", at: 0)
                return nil
            }
        }
        return TableOpenOptions(settings: settings, refreshSeconds: watched ? Self.watchSeconds : nil)
    }

    /// Lists the database's tables with geometry (off the GTK thread) into the chooser.
    private func findTables() {
        // Any table name makes the address valid; it is dropped for the listing.
        guard let uri = formAddress(table: "_") else { return }
        let base = PostGISAddress.withoutTable(uri)
        let typed = text(password)
        say(nil)
        controller?.eventLog.emit("db-tables-asked")
        Thread.detachNewThread { [weak self] in
            let outcome = Result { try PostGISSource.geometryTables(connectionURI: base, password: typed.isEmpty ? nil : typed) }
            runOnGtkThread { self?.tablesFound(outcome) }
        }
    }

    private func tablesFound(_ outcome: Result<[String], Error>) {
        switch outcome {
        case .success(let names):
            listed = names
            let model = withCStringArray(names) { gtk_string_list_new($0) }
            gtk_drop_down_set_model(opaque(tables), model)
            g_object_unref(gpointer(model))
            gtk_widget_set_sensitive(tables, names.isEmpty ? 0 : 1)
            if names.isEmpty { say("No table with a geometry column that this user may read.") }
            controller?.eventLog.emit("db-tables", [("count", .int(names.count))])
            tableChosen()
        case .failure(let error):
            say("\(error)")
        }
    }

    private func tableChosen() {
        let i = Int(gtk_drop_down_get_selected(opaque(tables)))
        guard i >= 0, i < listed.count else { return }
        gtk_editable_set_text(OpaquePointer(table), listed[i])
    }

    private func close() {
        gtk_window_destroy(gcast(window))
    }
}

import CGtk
import Foundation
import AppSupport
import ClusterCore
import GeoData
import MapModel
import PostGIS

/// A PostGIS table on the map (issue 31, SPEC §4.2): the window asks the server per view for
/// only what it draws (`PostGISViewQueue`: off the GTK thread, one query in flight plus the
/// latest view, a cache), keeps its last clusters while a view is on its way ("querying…"), and
/// shows faults in the window while the map keeps what it showed; it reconnects when the
/// server comes back. The decisions are the pure `PostGISViewPlanner` and `RemoteView`.
extension MapViewController {
    /// Server-side limit for one view's query (`CLUSTERMAP_STATEMENT_TIMEOUT_MS`, default 30 s):
    /// a view nobody waits that long for is stopped and said so.
    static var databaseStatementTimeoutMs: Int {
        ProcessInfo.processInfo.environment["CLUSTERMAP_STATEMENT_TIMEOUT_MS"].flatMap(Int.init) ?? 30_000
    }

    /// The `postgresql://` address among the launch's arguments, if any.
    static func databaseAddress(_ options: LaunchOptions) -> String? {
        options.files.first(where: PostGISAddress.looksLikeAddress)
    }

    /// Connects to a table off the GTK thread (the password, when the server asks for one, is
    /// asked for in a prompt and kept in memory only); what is shown stays until it answers.
    /// With `fit` the camera then shows the table's extent (from the server's statistics).
    /// `table` says its filter and change watch (nil: the launch's `--where/--refresh` for the
    /// launch's table, none for another).
    func openDatabase(_ address: String, password: String? = nil, fit: Bool = true, table: TableOpenOptions? = nil) {
        closeDatabase()
        clusterTiles = nil
        currentLoadCancel?.cancel()
        currentLoadCancel = nil
        loadGeneration += 1
        let generation = loadGeneration
        let name = (try? PostGISAddress(address).qualifiedName) ?? "database"
        chrome?.loadDidStart(name: name)
        eventLog.emit("db-connect", [("table", .string(name)), ("password", .bool(password != nil))])
        let timeout = MapViewController.databaseStatementTimeoutMs
        Thread.detachNewThread { [weak self] in
            let outcome = Result { try PostGISSource(address: address, password: password, statementTimeoutMilliseconds: timeout) }
            let extent = fit ? (try? outcome.get())?.estimatedExtent() : nil
            runOnGtkThread(priority: G_PRIORITY_DEFAULT) {
                guard let c = self, !c.isClosed, c.loadGeneration == generation else { return }
                c.databaseDidConnect(outcome, address: address, password: password, generation: generation, fit: fit,
                                     table: table ?? c.launchTableOptions(for: address))
                if let extent, c.database != nil { c.fitDatabase(extent) }
            }
        }
    }

    private func databaseDidConnect(_ outcome: Result<PostGISSource, Error>, address: String, password: String?, generation: Int,
                                    fit: Bool, table: TableOpenOptions) {
        chrome?.loadDidEnd()
        let source: PostGISSource
        switch outcome {
        case .success(let s):
            source = s
        case .failure(let error):
            let e = error as? PostGISError
            eventLog.emit("db-fault", [("kind", .string(e?.kind ?? "other")), ("message", .string("\(error)"))])
            switch e {
            case .passwordRequired(let user)?:
                askDatabasePassword(address: address, user: user, problem: nil, fit: fit, table: table)
            case .authenticationFailed(let user)? where password != nil:
                askDatabasePassword(address: address, user: user, problem: "\(error)", fit: fit, table: table)
            default:
                showError("\(error)")
            }
            return
        }
        var table = table
        table.settings = tableOpenSettings(table.settings, address: address)
        var viewOptions: PostGISViewOptions
        do {
            viewOptions = try databaseViewOptions(table, on: source.table)
        } catch let error where table.settings != (launchTableOptions(for: address).settings) {
            // A remembered filter the table can no longer answer: forgotten, the table opens without.
            forgetTableSettings(table.settings)
            showError("\(source.table.displayName): the remembered filter no longer applies: \(error)")
            table.settings = FilterSettings()
            viewOptions = MapViewController.databaseViewOptions()
        } catch {
            eventLog.emit("db-fault", [("kind", .string((error as? PostGISError)?.kind ?? "other")), ("message", .string("\(error)"))])
            showError("\(source.table.displayName): \(error)")
            return
        }
        let total = checkedTableTotal(table.settings.total, on: source.table, pyramid: source.pyramid)
        viewOptions.total = total?.property
        let filter = makeTableFilter(source: source, options: viewOptions)
        let live = filter.live
        live.setTotal(total)
        let queue = PostGISViewQueue(source: source, options: { live.options(for: $0.variant) },
                                     placeCards: DatabaseLink.placeCards) { [weak self] view, result in
            // On the queue's thread: the session is built here (reading the places' columns),
            // then handed to the GTK thread.
            let total = live.total(for: view.variant)
            let built = result.map { r in
                (r, MapDataSession.remote(DatabaseLink.items(of: r, total: total), zoom: view.zoom, name: source.table.displayName,
                                          total: total))
            }
            runOnGtkThread(priority: G_PRIORITY_DEFAULT) {
                guard let c = self, !c.isClosed else { return }
                c.databaseDidAnswer(view, built, generation: generation)
            }
        }
        let link = DatabaseLink(source: source, generation: generation, queue: queue)
        database = link
        tableFilter = filter
        tableFilterDidOpen(filter, settings: table.settings)
        tableTimeBarDidOpen(launchTime: launchTableOptions(for: address).settings.timeProperty)
        rememberTableSettings(table.settings)
        startDatabaseWatch(link, seconds: table.refreshSeconds)
        if let chrome = chrome as? AppChrome { chrome.datasetMenu.setTitle(source.table.displayName) }
        eventLog.emit("db-connected", [("table", .string(source.table.displayName)),
                                       ("geometry", .string(source.table.geometryType)),
                                       ("pyramid", .bool(source.pyramid != nil))])
        databaseCameraDidChange()
    }

    /// The views' options: the window's own clustering (radius in pixels at every zoom).
    static func databaseViewOptions() -> PostGISViewOptions {
        var options = PostGISViewOptions()
        options.hierarchical = MapDataSession.clusterOptions
        // `CLUSTERMAP_FETCH_LIMIT`: a test reaches the server's grid cells with a small table.
        if let limit = ProcessInfo.processInfo.environment["CLUSTERMAP_FETCH_LIMIT"].flatMap(Int.init) { options.fetchLimit = max(0, limit) }
        return options
    }

    /// Asks for the password in a prompt (never stored: it goes to the connection only).
    private func askDatabasePassword(address: String, user: String, problem: String?, fit: Bool, table: TableOpenOptions) {
        guard let window = gtk_widget_get_root(drawingArea).map({ asWidget($0) }) else { return }
        eventLog.emit("db-password-asked", [("user", .string(user)), ("retry", .bool(problem != nil))])
        let message = (problem.map { $0 + ". " } ?? "") + "The database server asks for the password of user \(user)."
        TextPromptDialog.show(parent: window, title: "Database Password", message: message, placeholder: "Password",
                              acceptLabel: "_Connect", secret: true, check: { $0.isEmpty ? "Type the password." : nil }) { [weak self] typed in
            // The keys go back to the map (without a window manager nobody else gives them back).
            gtk_window_present(gcast(window))
            self?.openDatabase(address, password: typed, fit: fit, table: table)
        }
    }

    /// Forgets the open table (another load replaces it); its last queries' answers are dropped.
    func closeDatabase() {
        guard let link = database else { return }
        database = nil
        tableFilter = nil
        link.watchStop.stop()
        link.queue.stop()
        databaseChip?.show(nil)
    }

    /// The camera moved: asks for the view it needs unless the last one asked for covers it.
    /// Runs in the loop's next turn: a camera change can come while a frame is being drawn, and
    /// showing the "querying…" chip there made GTK snapshot it before it had a size (a warning).
    func databaseCameraDidChange() {
        guard let link = database, link.queueRequest() else { return }
        runOnGtkThread(priority: G_PRIORITY_DEFAULT) { [weak self] in
            link.requestStarted()
            guard let c = self, !c.isClosed, c.database === link else { return }
            c.requestDatabaseView(link)
        }
    }

    private func requestDatabaseView(_ link: DatabaseLink) {
        guard !link.isReconnecting else { return }
        guard let view = link.ask(visible: camera.visibleBounds, zoom: camera.zoom, variant: tableFilter?.live.variant ?? "") else { return }
        statusChip().show("querying…")
        eventLog.emit("db-request", [("zoom", .int(view.zoom)), ("west", .number(view.bounds.west)),
                                     ("south", .number(view.bounds.south)), ("east", .number(view.bounds.east)),
                                     ("north", .number(view.bounds.north))])
        link.queue.request(view)
    }

    private func databaseDidAnswer(_ view: PostGISViewQueue.View, _ outcome: Result<(PostGISViewResult, MapDataSession), Error>,
                                   generation: Int) {
        guard let link = database, link.generation == generation else { return }
        link.viewAnswered(view)
        switch outcome {
        case .success(let (result, session)):
            let fault = link.fault
            if link.answerShown(view), let fault {
                // The red fault goes (not left above the good news); a quiet note fades.
                chrome?.errorIsOver(fault, note: "The database answers again: \(link.source.table.displayName)")
            }
            showRemoteView(session, first: link.answers == 1)
            chrome?.dataDidChange()
            // The header names the table (the places' set is only this view's few).
            if let chrome = chrome as? AppChrome { chrome.datasetMenu.setTitle(link.source.table.displayName) }
            let points = session.remote?.pointCount ?? 0
            eventLog.emit("db-query", [("zoom", .int(view.zoom)), ("method", .string(result.method.name)),
                                       ("items", .int(result.items.count)), ("points", .int(points)),
                                       ("places", .int(session.pointCount)),
                                       ("ms", .number((result.seconds * 10_000).rounded() / 10)),
                                       ("where", .string(view.variant)), ("cached", .bool(result.fromCache))])
            if link.answers == 1 { eventLog.emit("load-done", [("points", .int(points)), ("skipped", .int(0))]) }
            sceneDidChange()
            timeBarFilterDidLand()  // a playing time bar moves on once its window is on the map
        case .failure(let error):
            if case PostGISError.cancelled? = error as? PostGISError { return }
            databaseDidFail(link, error)
        }
        if link.waiting == nil && !link.isReconnecting { statusChip().show(nil) }
    }

    /// A view failed: said in the window (once per distinct fault), the map keeps what it shows,
    /// the next camera change asks again; a lost server is tried again until it answers.
    private func databaseDidFail(_ link: DatabaseLink, _ error: Error) {
        let e = error as? PostGISError
        let message = "\(link.source.table.displayName): \(error)"
        eventLog.emit("db-fault", [("kind", .string(e?.kind ?? "other")), ("message", .string(message))])
        if link.failed(message: message) {
            showError(message)
        }
        if e?.isConnectionFault == true { reconnectDatabase(link, afterMilliseconds: 500) }
    }

    /// Tries the lost server again, waiting longer each time (up to 8 s between tries).
    private func reconnectDatabase(_ link: DatabaseLink, afterMilliseconds delay: UInt32) {
        if link.startReconnecting() {
            statusChip().show("reconnecting…")
        }
        runAfter(milliseconds: delay) { [weak self] in
            guard let c = self, !c.isClosed, c.database === link else { return }
            let source = link.source
            Thread.detachNewThread { [weak self] in
                let ok = source.reconnect()
                runOnGtkThread(priority: G_PRIORITY_DEFAULT) {
                    guard let c = self, !c.isClosed, c.database === link else { return }
                    guard ok else {
                        c.reconnectDatabase(link, afterMilliseconds: min(delay * 2, 8000))
                        return
                    }
                    link.reconnected()
                    c.eventLog.emit("db-reconnected", [("table", .string(source.table.displayName))])
                    c.statusChip().show(nil)
                    c.databaseCameraDidChange()
                }
            }
        }
    }

    /// Shows the table's extent (at most zoom 14, as a file opens).
    private func fitDatabase(_ extent: GeoBounds) {
        let ctx = beginInput()
        apply(.set(ctx.camera.fitting(extent, paddingPixels: 60, maxZoom: 14)))
        gestureDidEnd()
        eventLog.emit("db-extent", [("west", .number(extent.west)), ("south", .number(extent.south)),
                                    ("east", .number(extent.east)), ("north", .number(extent.north))])
    }

    /// Flies into a bubble of a remote view: to where it splits when known, else two zooms in.
    func flyIntoRemoteBubble(_ cluster: ClusterID, of remote: RemoteView) {
        guard let item = remote.item(for: cluster) else { return }
        let ctx = beginInput()
        var target = ctx.camera
        target.setZoom(min(target.maxZoom, max(Double(remote.flightZoom(for: cluster)), target.zoom + 1)))
        target.setCenter(item.coordinate)
        apply(.fly(to: target, in: ctx))
        gestureDidEnd()
    }

    /// The chip over the map (made on first use, in the map's overlay).
    private func statusChip() -> DatabaseStatusChip {
        if let chip = databaseChip { return chip }
        let overlay = gtk_widget_get_parent(drawingArea)!
        let chip = DatabaseStatusChip(overlay: overlay)
        databaseChip = chip
        return chip
    }
}

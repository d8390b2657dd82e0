import CGtk

/// Where a background load's results go on the GTK thread: to its window's controller, found here
/// rather than through a global. The launch load starts before the window exists; its results wait
/// here until `attach` hands them the controller (at idle priority, as the window's start goes on).
final class LoadReceiver {
    private(set) weak var controller: MapViewController?
    private var waiting: [(MapViewController) -> Void] = []
    private var isClosed = false

    /// A receiver for `controller` (loads started by the window), or for a controller to come.
    init(controller: MapViewController? = nil) {
        self.controller = controller
    }

    /// The window's controller exists: results that arrived before it are delivered.
    func attach(_ controller: MapViewController) {
        self.controller = controller
        guard !waiting.isEmpty else { return }
        runOnGtkThread(priority: G_PRIORITY_DEFAULT_IDLE) { [weak self] in self?.deliverWaiting() }
    }

    /// The window is closing: nothing more is delivered.
    func close() {
        isClosed = true
        waiting = []
    }

    /// Runs `body` with the controller, or keeps it until there is one; dropped once closed.
    func deliver(_ body: @escaping (MapViewController) -> Void) {
        guard !isClosed else { return }
        guard let c = controller else { waiting.append(body); return }
        if !c.isClosed { body(c) }
    }

    private func deliverWaiting() {
        let bodies = waiting
        waiting = []
        for body in bodies { deliver(body) }
    }
}

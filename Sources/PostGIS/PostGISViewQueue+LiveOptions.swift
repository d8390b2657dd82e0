/// A view queue whose options can change while it runs (the window's filter panel on a table:
/// issue 31 item 5). Each query reads the options current when it starts; after a change the
/// caller `invalidate()`s the queue, so cached views and a query already running with the old
/// options are never shown.
extension PostGISViewQueue {
    /// A queue over `source` reading its options from `options` at the start of every query; with
    /// `placeCards` > 0 each view also reads the columns of up to that many of its places.
    public convenience init(source: PostGISSource, options: @escaping @Sendable () -> PostGISViewOptions, cacheSize: Int = 32,
                            placeCards: Int = 0, deliver: @escaping @Sendable (View, Result<PostGISViewResult, Error>) -> Void) {
        self.init(cacheSize: cacheSize, run: { view in
            var result = try source.clusters(in: view.bounds, zoom: Double(view.zoom), options: options())
            if placeCards > 0 {
                let places = result.items.lazy.filter { !$0.isCluster && $0.id != nil }.prefix(placeCards)
                result.placeProperties = try source.rowProperties(of: Array(places))
            }
            return result
        }, cancel: { source.cancel() }, deliver: deliver)
    }
}

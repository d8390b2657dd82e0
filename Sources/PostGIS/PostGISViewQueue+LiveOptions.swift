/// A view queue whose options can change while it runs (the window's filter panel and time bar on
/// a table: issue 31 item 5). Each query runs with the options of its view's `variant` (the
/// options current when that variant was asked: `options(view)`), so a view and its cache entry
/// always hold the rows of the filter it names; a change of data still `invalidate()`s the queue.
extension PostGISViewQueue {
    /// A queue over `source` reading each view's options from `options` when its query starts; with
    /// `placeCards` > 0 each view also reads the columns of up to that many of its places.
    public convenience init(source: PostGISSource, options: @escaping @Sendable (View) -> PostGISViewOptions, cacheSize: Int = 32,
                            placeCards: Int = 0, deliver: @escaping @Sendable (View, Result<PostGISViewResult, Error>) -> Void) {
        self.init(cacheSize: cacheSize, run: { view in
            var result = try source.clusters(in: view.bounds, zoom: Double(view.zoom), options: options(view))
            if placeCards > 0 {
                let places = result.items.lazy.filter { !$0.isCluster && $0.id != nil }.prefix(placeCards)
                result.placeProperties = try source.rowProperties(of: Array(places))
            }
            return result
        }, cancel: { source.cancel() }, deliver: deliver)
    }
}

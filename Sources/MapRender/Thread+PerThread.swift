import Foundation

extension Thread {
    /// The calling thread's object under `key`, made by `make` on first use: scratch that is not
    /// thread-safe and too costly to make per use (rasterisers), one per loader thread.
    static func perThread<T: AnyObject>(_ key: String, make: () -> T) -> T {
        if let object = Thread.current.threadDictionary[key] as? T { return object }
        let object = make()
        Thread.current.threadDictionary[key] = object
        return object
    }
}

extension LevelBuilder {
    /// One level's items in visiting order, as supercluster's `data` array holds them (columns
    /// of a fixed capacity, reused from level to level).
    struct Working {
        let capacity: Int
        let items: UnsafeMutablePointer<UInt32>
        let x: UnsafeMutablePointer<Double>
        let y: UnsafeMutablePointer<Double>
        let count: UnsafeMutablePointer<UInt32>
        /// The item's position on the level above, `LevelBand.dead` for a new cluster.
        let from: UnsafeMutablePointer<UInt32>
        var n = 0

        init(capacity: Int) {
            self.capacity = max(capacity, 1)
            items = .allocate(capacity: self.capacity)
            x = .allocate(capacity: self.capacity)
            y = .allocate(capacity: self.capacity)
            count = .allocate(capacity: self.capacity)
            from = .allocate(capacity: self.capacity)
        }

        func deallocate() {
            items.deallocate(); x.deallocate(); y.deallocate(); count.deallocate(); from.deallocate()
        }

        @inline(__always) mutating func append(_ item: UInt32, _ x: Double, _ y: Double, _ count: UInt32,
                                               from: UInt32) {
            let k = n
            self.items[k] = item
            self.x[k] = x
            self.y[k] = y
            self.count[k] = count
            self.from[k] = from
            n = k + 1
        }

        /// Appends items `from..<to` of `other`.
        @inline(__always) mutating func append(from other: Working, _ from: Int, _ to: Int) {
            let m = to - from
            guard m > 0 else { return }
            (items + n).update(from: other.items + from, count: m)
            (x + n).update(from: other.x + from, count: m)
            (y + n).update(from: other.y + from, count: m)
            (count + n).update(from: other.count + from, count: m)
            for k in 0..<m { self.from[n + k] = UInt32(from + k) }
            n += m
        }

        /// Interleaved Float coordinates for the level's tree.
        func floatCoordinates() -> [Float] {
            var coords = [Float](repeating: 0, count: 2 * n)
            coords.withUnsafeMutableBufferPointer { c in
                for i in 0..<n {
                    c[2 * i] = Float(x[i])
                    c[2 * i + 1] = Float(y[i])
                }
            }
            return coords
        }
    }
}

import ClusterCore


/// Named point sets the invariant tests run on.
enum Fixtures {
    static func uniform(_ n: Int, seed: UInt64) -> [GeoCoordinate] {
        var r = SeededRandom(seed: seed)
        return (0..<n).map { _ in GeoCoordinate(latitude: r.uniform(-85, 85), longitude: r.uniform(-180, 180)) }
    }

    /// A dense city: most points within ~5 km, some further out, a few exact duplicates.
    static func denseCity(_ n: Int, seed: UInt64) -> [GeoCoordinate] {
        var r = SeededRandom(seed: seed)
        var pts: [GeoCoordinate] = []
        for i in 0..<n {
            if i % 50 == 7, let last = pts.last { pts.append(last); continue }
            let spread = i % 5 == 0 ? 0.5 : 0.05
            pts.append(GeoCoordinate(latitude: 40.4168 + r.uniform(-spread, spread),
                                     longitude: -3.7038 + r.uniform(-spread, spread)))
        }
        return pts
    }

    static func sameSpot(_ n: Int) -> [GeoCoordinate] {
        Array(repeating: GeoCoordinate(latitude: 51.5, longitude: -0.12), count: n)
    }

    /// Points on both sides of 180°.
    static func antimeridian(_ n: Int, seed: UInt64) -> [GeoCoordinate] {
        var r = SeededRandom(seed: seed)
        return (0..<n).map { i in
            let lon = i % 2 == 0 ? r.uniform(179, 180) : r.uniform(-180, -179)
            return GeoCoordinate(latitude: r.uniform(-10, 10), longitude: lon)
        }
    }

    /// Near the poles, including exactly ±90 (projected to the top/bottom edge).
    static func poles(_ n: Int, seed: UInt64) -> [GeoCoordinate] {
        var r = SeededRandom(seed: seed)
        return (0..<n).map { i in
            let lat = i % 10 == 0 ? (i % 20 == 0 ? 90 : -90) : (i % 2 == 0 ? r.uniform(84, 90) : r.uniform(-90, -84))
            return GeoCoordinate(latitude: lat, longitude: r.uniform(-180, 180))
        }
    }

    /// Valid points mixed with NaN, out-of-range and infinite ones.
    static func withInvalid(_ n: Int, seed: UInt64) -> [GeoCoordinate] {
        var pts = uniform(n, seed: seed)
        for i in stride(from: 3, to: n, by: 11) {
            switch i % 4 {
            case 0: pts[i] = GeoCoordinate(latitude: .nan, longitude: 10)
            case 1: pts[i] = GeoCoordinate(latitude: 95, longitude: 10)
            case 2: pts[i] = GeoCoordinate(latitude: 10, longitude: -181)
            default: pts[i] = GeoCoordinate(latitude: .infinity, longitude: .nan)
            }
        }
        return pts
    }
}

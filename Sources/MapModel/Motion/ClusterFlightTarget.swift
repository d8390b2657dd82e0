import Foundation
import ClusterCore

/// Where clicking a bubble flies to (SPEC §5.2): one click reveals as much as it can. The target
/// is centred on the members' bounds at the deepest zoom at which they all fit with a margin (their
/// span × `spanMargin`, as Leaflet.markercluster and the seeds' apps do), but never shallower than
/// the cluster's expansion zoom (where it splits) and always deeper than now.
///
/// The one exception is the camera's maximum zoom: a cluster that only splits beyond it (its
/// members share a spot) gives `zoomRule == .maxZoom`, possibly at the current zoom — that is the
/// app's cue to fan the members out instead (SPEC §5.4).
public struct ClusterFlightTarget: Sendable {
    /// At least this margin is kept around the members, in screen pixels.
    public static let paddingPixels = 48.0
    /// The view shows at least this multiple of the members' span (the seeds use 1.8).
    public static let spanMargin = 1.8
    /// The flight always goes at least this much deeper than the current zoom, even when the
    /// members would then not all fit: a click on a bubble must make progress.
    public static let minimumZoomGainLevels = 0.5

    /// Which rule decided the target zoom.
    public enum ZoomRule: Sendable, Equatable {
        /// The deepest zoom at which all members fit with the margin.
        case fitMembers
        /// The cluster's expansion zoom: fitting the members would stay shallower than where the
        /// bubble splits.
        case expansionZoom
        /// Fitting would not go deep enough: current zoom + `minimumZoomGainLevels`.
        case minimumGain
        /// Clamped to the camera's maximum zoom.
        case maxZoom
    }

    /// The camera to fly to.
    public let camera: Camera
    /// Why its zoom is what it is.
    public let zoomRule: ZoomRule

    /// The target for a cluster whose members span `membersBounds` (may cross 180°).
    public init(from current: Camera, expansionZoom: Double, membersBounds: GeoBounds) {
        let fitZoom = min(current.zoomToFit(membersBounds, paddingPixels: ClusterFlightTarget.paddingPixels),
                          current.zoomToFit(membersBounds, paddingPixels: 0) - log2(ClusterFlightTarget.spanMargin))
        var z = fitZoom
        var rule = ZoomRule.fitMembers
        if z < expansionZoom { z = expansionZoom; rule = .expansionZoom }
        let floorZoom = current.zoom + ClusterFlightTarget.minimumZoomGainLevels
        if z < floorZoom { z = floorZoom; rule = .minimumGain }
        if z >= current.maxZoom { z = current.maxZoom; rule = .maxZoom }
        var c = current
        c.setZoom(z)
        c.setCenter(Camera.center(of: membersBounds))
        camera = c
        zoomRule = rule
    }

    /// The target for a cluster with these members (at least one).
    public init?(from current: Camera, expansionZoom: Double, members: [GeoCoordinate]) {
        guard let b = ClusterFlightTarget.bounds(enclosing: members) else { return nil }
        self.init(from: current, expansionZoom: expansionZoom, membersBounds: b)
    }

    /// The smallest box holding every coordinate, crossing 180° when that is narrower (members
    /// at 179° and −179° span 2°, not 358°). Nil for no valid coordinates.
    public static func bounds(enclosing coordinates: [GeoCoordinate]) -> GeoBounds? {
        var lons: [Double] = []
        lons.reserveCapacity(coordinates.count)
        var south = Double.infinity, north = -Double.infinity
        for c in coordinates where c.latitude.isFinite && c.longitude.isFinite {
            lons.append(GeoCoordinate.wrapLongitude(c.longitude))
            south = min(south, c.latitude)
            north = max(north, c.latitude)
        }
        guard !lons.isEmpty else { return nil }
        lons.sort()
        // The box is the circle minus its largest empty gap; start with the gap across 180°.
        var gap = lons[0] + 360 - lons[lons.count - 1]
        var west = lons[0], east = lons[lons.count - 1]
        for i in 1..<lons.count where lons[i] - lons[i - 1] > gap {
            gap = lons[i] - lons[i - 1]
            west = lons[i]
            east = lons[i - 1]
        }
        return GeoBounds(west: west, south: south, east: east, north: north)
    }
}

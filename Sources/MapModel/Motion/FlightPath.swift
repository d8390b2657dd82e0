import Foundation

/// A smooth zoom-and-pan flight between two cameras (van Wijk & Nuij, "Smooth and efficient
/// zooming and panning", 2003), as SPEC §5.2 spells it out.
///
/// The path is computed in zoom-0 world pixels (the 256-pixel world) with the visible width
/// `w = viewport width / 2^zoom`; it zooms out while it pans far and back in as it arrives, so the
/// perceived speed stays constant. It is a pure function of the elapsed time: `camera(at:)` never
/// reads a clock. Flights whose duration would pass `maxDurationSeconds` become a jump with an
/// optional short cross-fade, as do flights under reduced motion (see `jump(from:to:crossFadeSeconds:)`).
public struct FlightPath: Sendable {
    /// Curvature ρ of the path: how much it zooms out to travel (van Wijk's recommended 1.42).
    public static let curvature = 1.42
    /// Speed V in screenfuls per second (of path length S).
    public static let speedScreenfulsPerSecond = 1.2
    /// Longest flight; a longer one becomes a jump (a slow 6-second flight helps nobody).
    public static let maxDurationSeconds = 2.0
    /// Cross-fade length reported for jumps, so the app can fade the old frame out.
    public static let jumpCrossFadeSeconds = 0.15
    /// Flights up to this many times the cap are sped up to the cap instead of becoming jumps.
    /// 2.5: one click on a bubble at world view now flies to street level (about ten levels,
    /// a 4.3-second natural flight), and that must fly, not cut.
    public static let compressibleFactor = 2.5

    /// How the camera gets from start to target.
    public enum Style: Sendable, Equatable {
        /// Along the van Wijk–Nuij path.
        case smooth
        /// At once; the app may cross-fade from the old frame over `crossFadeSeconds` (0 = a cut).
        case jump(crossFadeSeconds: Double)
    }

    /// The camera at elapsed time 0.
    public let start: Camera
    /// The camera at the end of the flight, returned exactly once the flight is over.
    public let target: Camera
    /// Smooth, or a jump (long flight or reduced motion).
    public let style: Style
    /// Seconds from start to target (for a jump, the cross-fade length).
    public let duration: Double
    /// Path length S (in ρ-scaled screenfuls); 0 for a jump between equal cameras.
    public let pathLength: Double

    // Path parameters in zoom-0 world pixels.
    private let rho: Double
    private let x0, y0, dx, dy: Double
    private let u1, w0, w1, r0: Double
    /// True when the centres (nearly) coincide: the flight is a pure zoom.
    private let isPureZoom: Bool

    /// Plans a flight from `start` to `target`.
    ///
    /// Intermediate cameras keep `start`'s viewport and limits. The pan goes the short way
    /// round the world (across 180° when that is shorter).
    /// - Parameters:
    ///   - curvature: ρ.
    ///   - speed: V in screenfuls per second; duration = S / V.
    ///   - maxDuration: flights longer than this become a jump.
    ///   - crossFadeSeconds: the cross-fade of such a jump.
    public init(from start: Camera, to target: Camera,
                curvature: Double = FlightPath.curvature,
                speed: Double = FlightPath.speedScreenfulsPerSecond,
                maxDuration: Double = FlightPath.maxDurationSeconds,
                crossFadeSeconds: Double = FlightPath.jumpCrossFadeSeconds) {
        self.start = start
        self.target = target
        rho = curvature
        let c0 = start.world0Center, c1 = target.world0Center
        x0 = c0.x; y0 = c0.y
        dx = Camera.shortestDelta(from: c0.x, to: c1.x, width: Camera.world0Size)
        dy = c1.y - c0.y
        let u = (dx * dx + dy * dy).squareRoot()
        let wStart = start.visibleWorld0Width
        // The target's width measured with the start's viewport: the viewport is fixed in flight.
        let wEnd = max(start.viewportSize.width, 1) / pow(2, target.zoom)
        w0 = wStart; w1 = wEnd; u1 = u

        let rho2 = rho * rho
        // Below this the pan is invisible (far under a pixel at zoom 18) and the general
        // formulas divide by ~0: treat the flight as a pure zoom.
        isPureZoom = u <= 1e-9 * max(wStart, wEnd)
        var s: Double
        var rStart = 0.0
        if isPureZoom {
            s = abs(log(wEnd / wStart)) / rho
        } else {
            let rho4 = rho2 * rho2
            let b0 = (wEnd * wEnd - wStart * wStart + rho4 * u * u) / (2 * wStart * rho2 * u)
            let b1 = (wEnd * wEnd - wStart * wStart - rho4 * u * u) / (2 * wEnd * rho2 * u)
            // ln(√(b²+1) − b) is −asinh(b); asinh avoids the cancellation for large b.
            rStart = -asinh(b0)
            let rEnd = -asinh(b1)
            s = (rEnd - rStart) / rho
        }
        r0 = rStart
        if !s.isFinite || s < 0 { s = .infinity }
        let d = s / speed
        if d.isFinite && d <= maxDuration {
            style = .smooth
            duration = d
            pathLength = s
        } else if d.isFinite && d <= maxDuration * FlightPath.compressibleFactor {
            // "Long flights capped near 2 s" (SPEC §5.2): a flight up to 2.5 times the cap still flies,
            // along the same path, sped up to end at the cap (as clicking a bubble at world view
            // must fly, not cut). Only longer ones become a jump.
            style = .smooth
            duration = maxDuration
            pathLength = s
        } else {
            let fade = max(0, crossFadeSeconds)
            style = .jump(crossFadeSeconds: fade)
            duration = fade
            pathLength = s.isFinite ? s : 0
        }
    }

    /// A jump from `start` to `target` (reduced motion): the camera is at the target from the
    /// first frame; `duration` is the cross-fade the app may draw (0 = a cut).
    public static func jump(from start: Camera, to target: Camera,
                            crossFadeSeconds: Double = FlightPath.jumpCrossFadeSeconds) -> FlightPath {
        FlightPath(from: start, to: target, maxDuration: -1, crossFadeSeconds: crossFadeSeconds)
    }

    /// Whether the flight is a jump rather than a smooth path.
    public var isJump: Bool { style != .smooth }

    /// Whether the flight is over at `elapsed` seconds after its start.
    public func isFinished(at elapsed: Double) -> Bool { elapsed >= duration }

    /// The camera `elapsed` seconds after the start: exactly `start` at 0 (for a smooth flight),
    /// exactly `target` from `duration` on. A jump is at `target` from time 0.
    public func camera(at elapsed: Double) -> Camera {
        if elapsed >= duration { return target }
        switch style {
        case .jump:
            return elapsed < 0 ? start : target
        case .smooth:
            if elapsed <= 0 { return start }
            let p = point(atArcLength: arcLength(at: elapsed))
            let zoom = log2(max(start.viewportSize.width, 1) / p.w)
            return start.moved(toWorld0: p.x, p.y, zoom: zoom)
        }
    }

    /// Opacity of the previous frame drawn over the new one during a jump's cross-fade
    /// (1 → 0 linearly); 0 for smooth flights and once the fade is over.
    public func crossFadeOpacity(at elapsed: Double) -> Double {
        guard case .jump(let fade) = style, fade > 0 else { return 0 }
        return 1 - min(1, max(0, elapsed / fade))
    }

    /// Arc length s travelled after `elapsed` seconds: S times the ease-in-out of elapsed/duration.
    func arcLength(at elapsed: Double) -> Double {
        guard duration > 0 else { return pathLength }
        return pathLength * Easing.easeInOut(elapsed / duration)
    }

    /// Centre (zoom-0 world pixels, x possibly outside the world) and visible width at arc length s.
    func point(atArcLength s: Double) -> (x: Double, y: Double, w: Double) {
        if isPureZoom {
            let k: Double = w1 < w0 ? -1 : 1
            let f = pathLength > 0 ? s / pathLength : 1
            // The residual sub-pixel pan is spread over the zoom so the end has no jump.
            return (x0 + dx * f, y0 + dy * f, w0 * exp(k * rho * s))
        }
        let w = w0 * cosh(r0) / cosh(rho * s + r0)
        let u = w0 / (rho * rho) * (cosh(r0) * tanh(rho * s + r0) - sinh(r0))
        let f = u / u1
        return (x0 + dx * f, y0 + dy * f, w)
    }

    /// Fraction (0…1) of the centre's distance covered after `elapsed` seconds.
    func panFraction(at elapsed: Double) -> Double {
        if elapsed >= duration { return 1 }
        if isJump { return elapsed < 0 ? 0 : 1 }
        let p = point(atArcLength: arcLength(at: elapsed))
        let d = (dx * dx + dy * dy).squareRoot()
        guard d > 0 else { return pathLength > 0 ? arcLength(at: elapsed) / pathLength : 1 }
        return ((p.x - x0) * dx + (p.y - y0) * dy) / (d * d)
    }
}

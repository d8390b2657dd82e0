/// Drag pans the map with the pointer and, on release, may throw it (kinetic inertia).
///
/// Fed from GtkGestureDrag: `begin` on drag-begin, `update` with the offset from the start point
/// on drag-update, `end` on drag-end. Movement within `clickSlopPixels` is not a drag: the map
/// does not move and `isClick` stays true, so a click on a bubble still counts as a click.
public struct DragPanHandler: Sendable {
    /// The pointer must move this far (screen pixels) before a press becomes a drag.
    public static let clickSlopPixels = 4.0
    /// Samples kept for the release velocity (older ones are dropped).
    static let maxSamples = 32

    /// Whether the pointer has stayed within `clickSlopPixels` since the press.
    public private(set) var isClick = true
    /// Recent pointer positions (offsets from the start point) with their times.
    public private(set) var samples: [KineticPan.Sample] = []
    /// The offset already applied to the camera.
    private var appliedOffset = ScreenPoint.zero

    /// A handler between drags.
    public init() {}

    /// Starts a drag (the press). The controller has already interrupted any animation.
    public mutating func begin(in context: GestureContext) -> CameraChange {
        isClick = true
        appliedOffset = .zero
        samples = [KineticPan.Sample(time: context.now, position: .zero)]
        return .none
    }

    /// The pointer is `offset` away from where the drag began: pan by the part not applied yet.
    public mutating func update(offset: ScreenPoint, in context: GestureContext) -> CameraChange {
        record(offset, at: context.now)
        if isClick {
            guard (offset.x * offset.x + offset.y * offset.y).squareRoot() >= DragPanHandler.clickSlopPixels
            else { return .none }
            // Catch up with the whole offset, so the grabbed point ends up under the pointer.
            isClick = false
        }
        let dx = offset.x - appliedOffset.x, dy = offset.y - appliedOffset.y
        appliedOffset = offset
        guard dx != 0 || dy != 0 else { return .none }
        return .set(context.camera.panned(by: dx, dy))
    }

    /// The drag ended at `offset`: apply the rest and throw the map if it was moving fast.
    /// (The controller drops the throw under reduced motion.)
    public mutating func end(offset: ScreenPoint, in context: GestureContext) -> CameraChange {
        let last = update(offset: offset, in: context)
        var camera = context.camera
        if case .set(let c) = last { camera = c }
        defer { samples = [] }
        guard !isClick,
              let pan = KineticPan(velocity: KineticPan.velocity(of: samples, at: context.now))
        else { return last }
        return .animate(CameraAnimation(.kinetic(pan, from: camera), purpose: .kinetic,
                                        startTime: context.now))
    }

    private mutating func record(_ offset: ScreenPoint, at time: Double) {
        samples.append(KineticPan.Sample(time: time, position: offset))
        if samples.count > DragPanHandler.maxSamples {
            samples.removeFirst(samples.count - DragPanHandler.maxSamples)
        }
    }
}

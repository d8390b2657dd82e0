/// "Ease just enough" to bring something into view (SPEC §5.3: a selected pin and its callout),
/// without changing the zoom. The shift itself comes from `CalloutPlacement.revealShift`.
public enum RevealPan {
    /// Length of the reveal ease.
    public static let durationSeconds = 0.3

    /// An eased pan by a content shift (as for `Camera.pan(by:_:)`), or `.none` when there is
    /// nothing to shift. Under reduced motion the controller makes it a jump.
    public static func change(panBy dx: Double, _ dy: Double, in context: GestureContext) -> CameraChange {
        guard dx.isFinite, dy.isFinite, dx != 0 || dy != 0 else { return .none }
        let ease = CameraEase(from: context.camera, to: context.camera.panned(by: dx, dy),
                              duration: durationSeconds)
        return .animate(CameraAnimation(.ease(ease), purpose: .reveal, startTime: context.now))
    }
}

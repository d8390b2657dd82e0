/// Whether the person asked for reduced motion, from every place they can say so (SPEC §5.6).
///
/// Precedence: the app's menu toggle, once touched, wins (it is the latest explicit choice);
/// else `--reduce-motion`; else the desktop (`gtk-enable-animations` off, or
/// `gtk-interface-reduced-motion` on where GTK ≥ 4.22 has it).
///
/// | toggle | flag  | enable-animations | reduced-motion | result |
/// |--------|-------|-------------------|----------------|--------|
/// | true   | any   | any               | any            | reduce |
/// | false  | any   | any               | any            | full   |
/// | nil    | true  | any               | any            | reduce |
/// | nil    | false | false             | any            | reduce |
/// | nil    | false | true              | true           | reduce |
/// | nil    | false | true              | false / nil    | full   |
public struct MotionPolicy: Sendable, Equatable {
    /// Longest cross-fade used instead of a flight under reduced motion.
    public static let reducedMotionCrossFadeSeconds = 0.15

    /// GTK's `gtk-enable-animations` setting.
    public var gtkEnableAnimations: Bool
    /// GTK's `gtk-interface-reduced-motion` (true when set to "reduce"); nil where GTK lacks it.
    public var gtkInterfaceReducedMotion: Bool?
    /// The app's menu toggle: nil until the person uses it, then their choice.
    public var userToggle: Bool?
    /// Whether `--reduce-motion` was given.
    public var commandLineFlag: Bool

    /// Creates a policy; the defaults mean "full motion".
    public init(gtkEnableAnimations: Bool = true, gtkInterfaceReducedMotion: Bool? = nil,
                userToggle: Bool? = nil, commandLineFlag: Bool = false) {
        self.gtkEnableAnimations = gtkEnableAnimations
        self.gtkInterfaceReducedMotion = gtkInterfaceReducedMotion
        self.userToggle = userToggle
        self.commandLineFlag = commandLineFlag
    }

    /// Whether the desktop itself asks for reduced motion.
    public var systemPrefersReducedMotion: Bool {
        !gtkEnableAnimations || gtkInterfaceReducedMotion == true
    }

    /// Whether motion should be reduced: flights jump, eases jump, no inertia, fades not moves.
    public var prefersReducedMotion: Bool {
        userToggle ?? (commandLineFlag || systemPrefersReducedMotion)
    }

    /// Whether a drag may coast after release.
    public var allowsKineticPan: Bool { !prefersReducedMotion }

    /// The flight to use from `start` to `target`: smooth, or a jump with a short cross-fade.
    public func flight(from start: Camera, to target: Camera) -> FlightPath {
        prefersReducedMotion
            ? .jump(from: start, to: target, crossFadeSeconds: MotionPolicy.reducedMotionCrossFadeSeconds)
            : FlightPath(from: start, to: target)
    }
}

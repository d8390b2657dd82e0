import Foundation

/// Which of GTK's renderers the window asks for.
///
/// ClusterMap draws every frame itself with cairo into the drawing area's image surface, so the
/// renderer only composites that image and the chrome. Where there is no GPU (no DRM render node,
/// as on servers, in containers and under Xvfb), GTK's default GL renderer runs in software
/// (Mesa's llvmpipe): it compiles its shaders on the GTK thread at the first launch (≈ 3 s on a
/// 2-core machine, again whenever Mesa's shader cache is empty), uploads the frame as a texture
/// every time and holds ≈ 100 MB more. The cairo renderer does none of that, so there the app asks
/// for it (and tells GDK not to load GL at all). A GSK_RENDERER the person set is always kept.
public enum GtkRendererChoice {
    /// The value to give `GSK_RENDERER` before GTK starts, or nil to leave GTK's choice alone.
    /// `hasRenderNode` says whether a GPU's DRM render node (`/dev/dri/renderD*`) is there.
    public static func rendererOverride(environment: [String: String], hasRenderNode: Bool) -> String? {
        if let chosen = environment["GSK_RENDERER"], !chosen.isEmpty { return nil }
        if environment["LIBGL_ALWAYS_SOFTWARE"].map({ $0 == "1" || $0.lowercased() == "true" }) == true {
            return "cairo"
        }
        return hasRenderNode ? nil : "cairo"
    }

    /// Whether this machine has a DRM render node (a GPU that GL can use).
    public static func machineHasRenderNode(devicesFolder: String = "/dev/dri") -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: devicesFolder)) ?? []
        return names.contains { $0.hasPrefix("renderD") }
    }

    /// The environment to set before GTK starts: with the cairo renderer, also GDK's `gl-disable`
    /// (added to any `GDK_DEBUG` flags already there), or GDK still loads Mesa's software GL
    /// driver to probe it (≈ 55 MB resident and its LLVM to relocate at launch).
    public static func environmentChanges(environment: [String: String], hasRenderNode: Bool) -> [(String, String)] {
        guard let renderer = rendererOverride(environment: environment, hasRenderNode: hasRenderNode) else { return [] }
        var changes = [("GSK_RENDERER", renderer)]
        if renderer == "cairo" {
            let flags = environment["GDK_DEBUG"].map { $0.split(separator: ",").map(String.init) } ?? []
            if !flags.contains("gl-disable") {
                changes.append(("GDK_DEBUG", (flags + ["gl-disable"]).joined(separator: ",")))
            }
        }
        return changes
    }

    /// Sets this process's environment as `environmentChanges` says; returns the renderer asked
    /// for, or nil when GTK's choice is left alone.
    @discardableResult
    public static func apply() -> String? {
        let changes = environmentChanges(environment: ProcessInfo.processInfo.environment, hasRenderNode: machineHasRenderNode())
        for (name, value) in changes { setenv(name, value, 1) }
        return changes.first { $0.0 == "GSK_RENDERER" }?.1
    }
}

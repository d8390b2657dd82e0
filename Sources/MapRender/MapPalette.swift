/// Colours and line widths for the base map, overlays and data marks.
///
/// Quiet, muted base colours (in the spirit of MapLibre's and Apple Maps' light/dark bases) so that
/// bubbles and pins stand out. `MapPalette.light` and `.dark` follow the desktop style.
public struct MapPalette: Hashable, Sendable {
    /// Palette name (`"light"` / `"dark"`), also part of render-cache keys.
    public var name: String
    /// Whether this is a dark palette.
    public var isDark: Bool

    // Base map
    public var water: MapColor
    public var land: MapColor
    public var lakeFill: MapColor
    public var lakeOutline: MapColor
    public var coastline: MapColor
    public var border: MapColor
    /// Line widths in logical pixels.
    public var coastlineWidth: Double
    public var borderWidth: Double
    public var lakeOutlineWidth: Double

    // Overlays
    public var overlayText: MapColor
    public var overlayBacking: MapColor
    public var scaleBarLine: MapColor

    // Data marks (used by the scene renderer)
    /// Bubble fills for the three count steps (SPEC §7: < 100, < 750, ≥ 750): blue → violet → plum,
    /// all dark enough that the white count text wins on luminance (consistent labels).
    public var bubbleRamp: [MapColor]
    /// Bubble outline (white in both palettes).
    public var bubbleOutline: MapColor
    /// Default pin colour when a place has no category colour.
    public var pin: MapColor
    /// Pin outline.
    public var pinOutline: MapColor
    /// Selection / accent colour.
    public var accent: MapColor
    /// Label capsule fill and text.
    public var labelFill: MapColor
    public var labelText: MapColor
    /// Callout background, text and secondary text.
    public var calloutFill: MapColor
    public var calloutText: MapColor
    public var calloutSecondaryText: MapColor
    /// Hover hull fill and stroke.
    public var hullFill: MapColor
    public var hullStroke: MapColor

    /// River line colour (a clearer blue than the water fill, so thin lines read on land).
    public var river: MapColor { isDark ? MapColor(hex: 0x34465A) : MapColor(hex: 0xA9C1D3) }
    /// How much of a river's strength (opacity, and width above a hairline) is left: 1 within
    /// Natural Earth's scale, down to `pastScaleHint` past it (see `pastScale(zoom:)`).
    public var riverStrength = 1.0

    /// Natural Earth is true to about zoom 11; past that its shores would be confidently wrong.
    /// The palette for `zoom`: from `pastScaleStartZoom` to `pastScaleEndZoom` the water and lake
    /// fills turn into the land tone (a view all of water where the 1:10m shore is 300 m off
    /// would put the data in the river), and coasts, lake shores and rivers fade to a faint line
    /// hint, so no sharp coast and no bold river is ever drawn out of scale.
    public func pastScale(zoom: Double) -> MapPalette {
        let t = min(1, max(0, (zoom - MapPalette.pastScaleStartZoom) / (MapPalette.pastScaleEndZoom - MapPalette.pastScaleStartZoom)))
        guard t > 0 else { return self }
        let hint = 1 - t * (1 - MapPalette.pastScaleHint)
        var p = self
        p.water = land.mixed(with: water, 1 - t)
        p.lakeFill = land.mixed(with: lakeFill, 1 - t)
        p.lakeOutline = lakeOutline.withAlpha(lakeOutline.alpha * hint)
        p.coastline = coastline.withAlpha(coastline.alpha * hint)
        p.border = border.withAlpha(border.alpha * (0.5 + 0.5 * hint))
        p.riverStrength = riverStrength * hint
        return p
    }

    /// Zoom where the past-scale fade starts, and where it reaches `pastScaleHint`.
    public static let pastScaleStartZoom = 10.5
    public static let pastScaleEndZoom = 12.5
    /// How much of the water / coast contrast is left past Natural Earth's scale.
    public static let pastScaleHint = 0.22

    /// Bubble fill for a count, using the default steps (< 100, < 750, ≥ 750).
    public func bubbleColor(count: Int, steps: (Int, Int) = (100, 750)) -> MapColor {
        count < steps.0 ? bubbleRamp[0] : (count < steps.1 ? bubbleRamp[1] : bubbleRamp[2])
    }

    /// The light palette.
    public static let light = MapPalette(
        name: "light", isDark: false,
        water: MapColor(hex: 0xD3DDE2),
        land: MapColor(hex: 0xF3F1EC),
        lakeFill: MapColor(hex: 0xD3DDE2),
        lakeOutline: MapColor(hex: 0xB9C6CD),
        coastline: MapColor(hex: 0xA9B7BF),
        border: MapColor(hex: 0xC4BBB3),
        coastlineWidth: 0.8, borderWidth: 0.7, lakeOutlineWidth: 0.5,
        overlayText: MapColor(hex: 0x3C4043),
        overlayBacking: MapColor(hex: 0xFFFFFF, alpha: 0.72),
        scaleBarLine: MapColor(hex: 0x4A4F55),
        bubbleRamp: [MapColor(hex: 0x1C74C8), MapColor(hex: 0x5A48D0), MapColor(hex: 0xA3338F)],
        bubbleOutline: MapColor(hex: 0xFFFFFF),
        pin: MapColor(hex: 0x2F78C2),
        pinOutline: MapColor(hex: 0xFFFFFF),
        accent: MapColor(hex: 0xE8590C),
        labelFill: MapColor(hex: 0xFFFFFF),
        labelText: MapColor(hex: 0x1F2328),
        calloutFill: MapColor(hex: 0xFFFFFF),
        calloutText: MapColor(hex: 0x1F2328),
        calloutSecondaryText: MapColor(hex: 0x5F6670),
        hullFill: MapColor(hex: 0x2F78C2, alpha: 0.12),
        hullStroke: MapColor(hex: 0x2F78C2, alpha: 0.6))

    /// The dark palette.
    public static let dark = MapPalette(
        name: "dark", isDark: true,
        water: MapColor(hex: 0x1B222C),
        land: MapColor(hex: 0x2C3139),
        lakeFill: MapColor(hex: 0x1B222C),
        lakeOutline: MapColor(hex: 0x39414C),
        coastline: MapColor(hex: 0x46505C),
        border: MapColor(hex: 0x4A4F58),
        coastlineWidth: 0.8, borderWidth: 0.7, lakeOutlineWidth: 0.5,
        overlayText: MapColor(hex: 0xD7DADF),
        overlayBacking: MapColor(hex: 0x15191F, alpha: 0.70),
        scaleBarLine: MapColor(hex: 0xC9CDD3),
        bubbleRamp: [MapColor(hex: 0x2474CC), MapColor(hex: 0x6A55E0), MapColor(hex: 0xB0409C)],
        bubbleOutline: MapColor(hex: 0xFFFFFF),
        pin: MapColor(hex: 0x4A8FE0),
        pinOutline: MapColor(hex: 0xFFFFFF),
        accent: MapColor(hex: 0xFF7A33),
        // Lighter than the dark land (0x2C3139), so a price capsule reads as a capsule.
        labelFill: MapColor(hex: 0x3F4651),
        labelText: MapColor(hex: 0xE8EAED),
        calloutFill: MapColor(hex: 0x2A2F36),
        calloutText: MapColor(hex: 0xE8EAED),
        calloutSecondaryText: MapColor(hex: 0xA9B0B8),
        hullFill: MapColor(hex: 0x4A8FE0, alpha: 0.16),
        hullStroke: MapColor(hex: 0x4A8FE0, alpha: 0.7))
}

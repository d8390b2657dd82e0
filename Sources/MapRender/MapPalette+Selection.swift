extension MapPalette {
    /// The colour that says "selected" or "keyboard focus": ink (near black on the light map, near
    /// white on the dark one). A hue would be one of the categories' (the old orange accent was
    /// the "park" colour, so a selected museum looked like a park); ink is none of them, and a
    /// selected pin keeps its own colour inside the ring.
    public var selection: MapColor { isDark ? MapColor(hex: 0xF4F6F8) : MapColor(hex: 0x1F2328) }

    /// The halo under a selection or focus ring, so the ring reads on any fill and on the land.
    public var selectionHalo: MapColor { isDark ? MapColor(hex: 0x15191F, alpha: 0.9) : MapColor(hex: 0xFFFFFF, alpha: 0.95) }
}

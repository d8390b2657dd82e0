import MapModel

/// How each kind of base-map label looks: font, letter spacing, ink and halo, light or dark.
///
/// Quiet by design (grey-brown names on land, muted blue italics on water), so that the data's
/// bubbles and pins stay the loudest thing on the map.
struct MapLabelStyle: Equatable {
    var font: String
    /// Extra space between letters, logical pixels.
    var letterSpacing: Double
    var ink: MapColor
    var halo: MapColor
    var haloWidth: Double

    static func style(for kind: MapLabelKind, palette: MapPalette) -> MapLabelStyle {
        let dark = palette.isDark
        let waterInk = dark ? MapColor(hex: 0x7D90A3) : MapColor(hex: 0x6F8797)
        let waterHalo = palette.water.withAlpha(0.85)
        let landHalo = palette.land.withAlpha(0.88)
        switch kind {
        case .ocean:
            return MapLabelStyle(font: "DejaVu Sans Italic 10.5", letterSpacing: 2.5, ink: waterInk, halo: waterHalo, haloWidth: 2.5)
        case .sea:
            return MapLabelStyle(font: "DejaVu Sans Italic 8.5", letterSpacing: 0.6, ink: waterInk, halo: waterHalo, haloWidth: 2.5)
        case .lake, .river:
            return MapLabelStyle(font: "DejaVu Sans Italic 8", letterSpacing: 0.3, ink: waterInk,
                                 halo: palette.lakeFill.withAlpha(0.85), haloWidth: 2.5)
        case .country:
            return MapLabelStyle(font: "DejaVu Sans Bold 8.5", letterSpacing: 1.6,
                                 ink: dark ? MapColor(hex: 0x9A948C) : MapColor(hex: 0x8C8276), halo: landHalo, haloWidth: 3)
        case .capital:
            return MapLabelStyle(font: "DejaVu Sans Bold 9", letterSpacing: 0,
                                 ink: dark ? MapColor(hex: 0xDADDE1) : MapColor(hex: 0x33373C), halo: landHalo, haloWidth: 3)
        case .city:
            return MapLabelStyle(font: "DejaVu Sans 9", letterSpacing: 0,
                                 ink: dark ? MapColor(hex: 0xCDD1D6) : MapColor(hex: 0x3E4349), halo: landHalo, haloWidth: 3)
        case .majorCity:
            return MapLabelStyle(font: "DejaVu Sans Bold 10", letterSpacing: 0,
                                 ink: dark ? MapColor(hex: 0xDADDE1) : MapColor(hex: 0x33373C), halo: landHalo, haloWidth: 3)
        case .town:
            return MapLabelStyle(font: "DejaVu Sans 8.5", letterSpacing: 0,
                                 ink: dark ? MapColor(hex: 0xB5BAC0) : MapColor(hex: 0x50555B), halo: landHalo, haloWidth: 3)
        case .place:
            // The data's names: darker and bolder than the base map's, so they read as the data's.
            return MapLabelStyle(font: "DejaVu Sans Bold 8.5", letterSpacing: 0,
                                 ink: dark ? MapColor(hex: 0xF1F3F5) : MapColor(hex: 0x1F2328), halo: landHalo, haloWidth: 3)
        case .village:
            return MapLabelStyle(font: "DejaVu Sans 8", letterSpacing: 0,
                                 ink: dark ? MapColor(hex: 0xA6ABB2) : MapColor(hex: 0x5E646A), halo: landHalo, haloWidth: 2.5)
        case .district:
            return MapLabelStyle(font: "DejaVu Sans 7.5", letterSpacing: 1.2,
                                 ink: dark ? MapColor(hex: 0x948F88) : MapColor(hex: 0x857C72), halo: landHalo, haloWidth: 2.5)
        case .landmark:
            // Italic and warm, between a district's and a street's: a sight, not a settlement.
            return MapLabelStyle(font: "DejaVu Sans Oblique 7.5", letterSpacing: 0.2,
                                 ink: dark ? MapColor(hex: 0xB9AB98) : MapColor(hex: 0x75624D), halo: landHalo, haloWidth: 2.5)
        case .road:
            return MapLabelStyle(font: "DejaVu Sans 7", letterSpacing: 0,
                                 ink: dark ? MapColor(hex: 0xA9AEB4) : MapColor(hex: 0x5A5F65), halo: landHalo, haloWidth: 2.5)
        }
    }

    /// Dot of a point label: fill and ring.
    static func dotColors(for kind: MapLabelKind, palette: MapPalette) -> (fill: MapColor, ring: MapColor) {
        let ink = style(for: kind, palette: palette).ink
        return (ink, palette.land)
    }
}

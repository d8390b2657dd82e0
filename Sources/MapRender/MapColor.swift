import Foundation
import CCairo

/// An sRGB colour with alpha, components 0…1.
public struct MapColor: Hashable, Sendable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// A colour from `0xRRGGBB`.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(red: Double((hex >> 16) & 0xFF) / 255, green: Double((hex >> 8) & 0xFF) / 255,
                  blue: Double(hex & 0xFF) / 255, alpha: alpha)
    }

    /// The same colour with another alpha.
    public func withAlpha(_ a: Double) -> MapColor { MapColor(red: red, green: green, blue: blue, alpha: a) }

    /// The colour a fraction `t` of the way from this one to `other` (0 gives self, 1 gives other).
    public func mixed(with other: MapColor, _ t: Double) -> MapColor {
        MapColor(red: red + (other.red - red) * t, green: green + (other.green - green) * t,
                 blue: blue + (other.blue - blue) * t, alpha: alpha + (other.alpha - alpha) * t)
    }

    /// Relative luminance (WCAG), for choosing readable text on a fill.
    public var luminance: Double {
        func lin(_ c: Double) -> Double { c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        return 0.2126 * lin(red) + 0.7152 * lin(green) + 0.0722 * lin(blue)
    }

    /// Black or white, whichever has more contrast on this colour.
    public var readableTextColor: MapColor {
        let l = luminance
        return (l + 0.05) / 0.05 > 1.05 / (l + 0.05) ? MapColor(hex: 0x111111) : MapColor(hex: 0xFFFFFF)
    }

    /// Sets this colour as the cairo source.
    public func setSource(on cr: OpaquePointer) {
        if alpha >= 1 { cairo_set_source_rgb(cr, red, green, blue) } else { cairo_set_source_rgba(cr, red, green, blue, alpha) }
    }
}



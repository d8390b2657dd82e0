import Foundation

extension MapColor {
    /// CIE L*a*b* (D65) of the colour, ignoring alpha.
    public var lab: (l: Double, a: Double, b: Double) {
        func lin(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        let r = lin(red), g = lin(green), b = lin(blue)
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        let fx = f(x), fy = f(y), fz = f(z)
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// How different two colours look (CIE76 ΔE in L*a*b*): about 2 is barely seen side by side,
    /// 10 is plainly another shade, 25 and more another colour. Used to keep colours that mean
    /// different things (categories, bubbles, the selection) apart.
    public func difference(to other: MapColor) -> Double {
        let p = lab, q = other.lab
        return ((p.l - q.l) * (p.l - q.l) + (p.a - q.a) * (p.a - q.a) + (p.b - q.b) * (p.b - q.b)).squareRoot()
    }
}

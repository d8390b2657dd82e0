import Foundation

/// An image's pixel size read from its header, before any pixel is decoded.
///
/// Decoders allocate the whole picture from the header's size and then fill it: a 260 KB PNG
/// claiming 16384×16384 px cost 1.19 GB and 24 s, a 300-byte JPEG claiming 20000×20000 1.31 GB
/// and 16 s, before the old check after decoding refused them. The size is where each format puts
/// it: PNG's IHDR (the first chunk), JPEG's first SOF segment (markers walked by their lengths),
/// WebP's VP8 (lossy), VP8L (lossless) or VP8X (extended) chunk.
public enum RasterImageHeader {
    /// The pixel size the header declares, or nil if the bytes are too short or not one of the
    /// three formats.
    public static func size(of data: Data) -> (width: Int, height: Int)? {
        data.withUnsafeBytes { raw in
            let b = raw.bindMemory(to: UInt8.self)
            switch RasterTileDecoder.format(of: data) {
            case .png: return png(b)
            case .jpeg: return jpeg(b)
            case .webp: return webp(b)
            case nil: return nil
            }
        }
    }

    private static func be16(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
    private static func le16(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    private static func le24(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int { le16(b, i) | Int(b[i + 2]) << 16 }
    private static func be32(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int { be16(b, i) << 16 | be16(b, i + 2) }

    /// Signature (8), then the IHDR chunk: length (4), "IHDR", width and height (4 each, big-endian).
    private static func png(_ b: UnsafeBufferPointer<UInt8>) -> (width: Int, height: Int)? {
        guard b.count >= 24, b[12] == 0x49, b[13] == 0x48, b[14] == 0x44, b[15] == 0x52 else { return nil }
        return (be32(b, 16), be32(b, 20))
    }

    /// Markers from SOI on: each `FF xx` with a two-byte length (itself included), except the
    /// standalone ones; the first SOF (C0…CF but C4 DHT, C8 JPG, CC DAC) holds precision (1),
    /// height (2), width (2). Scan data (SOS) before any SOF means no size.
    private static func jpeg(_ b: UnsafeBufferPointer<UInt8>) -> (width: Int, height: Int)? {
        var i = 2
        while i + 1 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte
            i += 2
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }  // no length
            if marker == 0xD9 || marker == 0xDA { return nil }
            guard i + 1 < b.count else { return nil }
            let length = be16(b, i)
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                guard length >= 7, i + 6 < b.count else { return nil }
                return (be16(b, i + 5), be16(b, i + 3))
            }
            guard length >= 2 else { return nil }
            i += length
        }
        return nil
    }

    /// "RIFF" size "WEBP", then the first chunk's FourCC at 12 and its data at 20.
    private static func webp(_ b: UnsafeBufferPointer<UInt8>) -> (width: Int, height: Int)? {
        guard b.count >= 30 else { return nil }
        let fourCC = String(decoding: UnsafeBufferPointer(rebasing: b[12..<16]), as: UTF8.self)
        switch fourCC {
        case "VP8 ":
            // Frame tag (3), start code 9D 01 2A, then 14-bit width and height (2 scale bits each).
            guard b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A else { return nil }
            return (le16(b, 26) & 0x3FFF, le16(b, 28) & 0x3FFF)
        case "VP8L":
            // Signature 2F, then width − 1 and height − 1 in 14 bits each, least significant first.
            guard b[20] == 0x2F else { return nil }
            let bits = Int(b[21]) | Int(b[22]) << 8 | Int(b[23]) << 16 | Int(b[24]) << 24
            return ((bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1)
        case "VP8X":
            // Flags (4), then canvas width − 1 and height − 1 in 24 bits each.
            return (le24(b, 24) + 1, le24(b, 27) + 1)
        default:
            return nil
        }
    }
}

import CDeflate
import CZlib
import Foundation

/// gzip / zlib decompression through the system zlib, and libdeflate for a whole gzip member.
///
/// Used for the gzipped Natural Earth 1:10m layers and, by the tile sources, for gzipped vector
/// tiles and PMTiles directories. `decompress` accepts both gzip and zlib framing (zlib detects
/// which from the header).
public enum Gzip {
    /// Errors from zlib.
    public struct DecompressionError: Error, CustomStringConvertible {
        /// zlib's return code.
        public var code: Int32
        /// zlib's message, if it gave one.
        public var message: String
        public var description: String { "can't decompress: \(message) (zlib \(code))" }
    }

    /// Whether the bytes start with the gzip magic number (1f 8b).
    public static func isGzipped<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        var it = bytes.makeIterator()
        return it.next() == 0x1f && it.next() == 0x8b
    }

    /// Decompresses gzip- or zlib-framed bytes.
    ///
    /// - Parameter sizeLimit: stop with an error once the output would exceed this many bytes
    ///   (a guard against decompression bombs in untrusted input).
    public static func decompress(_ data: Data, sizeHint: Int = 0, sizeLimit: Int = Int.max) throws -> Data {
        try data.withUnsafeBytes { try decompress(UnsafeRawBufferPointer($0), sizeHint: sizeHint, sizeLimit: sizeLimit) }
    }

    /// Decompresses gzip- or zlib-framed bytes (see `decompress(_:sizeHint:sizeLimit:)`).
    public static func decompress(_ input: UnsafeRawBufferPointer, sizeHint: Int = 0,
                                  sizeLimit: Int = Int.max) throws -> Data {
        if let whole = wholeGzipMember(input, sizeLimit: sizeLimit) { return whole }
        var stream = z_stream()
        // 15 window bits + 32: detect gzip or zlib headers automatically.
        var rc = inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard rc == Z_OK else { throw DecompressionError(code: rc, message: "init failed") }
        defer { inflateEnd(&stream) }
        var output = Data(count: min(sizeLimit, max(sizeHint, input.count * 4, 1024)))
        var produced = 0
        stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
        stream.avail_in = uInt(input.count)
        repeat {
            if produced == output.count {
                guard output.count < sizeLimit else {
                    throw DecompressionError(code: Z_BUF_ERROR, message: "more than \(sizeLimit) bytes")
                }
                output.count = min(sizeLimit, output.count * 2)
            }
            let capacity = output.count - produced
            rc = output.withUnsafeMutableBytes { out -> Int32 in
                stream.next_out = out.bindMemory(to: Bytef.self).baseAddress! + produced
                stream.avail_out = uInt(capacity)
                return inflate(&stream, Z_NO_FLUSH)
            }
            produced += capacity - Int(stream.avail_out)
            if rc == Z_BUF_ERROR && stream.avail_in == 0 && stream.avail_out > 0 {
                throw DecompressionError(code: rc, message: "truncated input")
            }
            guard rc == Z_OK || rc == Z_STREAM_END || rc == Z_BUF_ERROR else {
                let message = stream.msg.map { String(cString: $0) } ?? "corrupt data"
                throw DecompressionError(code: rc, message: message)
            }
        } while rc != Z_STREAM_END
        output.count = produced
        return output
    }

    /// One gzip member filling the input, whose trailer gives its size, inflated in one call by
    /// libdeflate into a buffer of exactly that size (a dense street tile: 2 ms with zlib).
    /// Nil when that doesn't apply — zlib framing, several members, a size past the limit or
    /// past what deflate can expand to, bad data — and zlib then decides, with its own errors.
    private static func wholeGzipMember(_ input: UnsafeRawBufferPointer, sizeLimit: Int) -> Data? {
        let n = input.count
        // 10-byte header + 8-byte trailer; deflate expands at most ~1032:1.
        guard n >= 18, input[0] == 0x1f, input[1] == 0x8b else { return nil }
        let size = Int(input[n - 4]) | Int(input[n - 3]) << 8 | Int(input[n - 2]) << 16 | Int(input[n - 1]) << 24
        guard size > 0, size <= sizeLimit, size <= 1032 * n, size <= 1 << 28,
              let decompressor = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(decompressor) }
        var output = Data(count: size)
        var consumed = 0, produced = 0
        let result = output.withUnsafeMutableBytes { out in
            libdeflate_gzip_decompress_ex(decompressor, input.baseAddress, n, out.baseAddress, size, &consumed, &produced)
        }
        guard result == LIBDEFLATE_SUCCESS, consumed == n, produced == size else { return nil }
        return output
    }
}

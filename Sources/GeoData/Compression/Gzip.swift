import CZlib
import Foundation

/// gzip / zlib decompression through the system zlib.
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
}

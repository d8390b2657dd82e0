import CDeflate

/// Whole-buffer gzip compression (libdeflate) for tiles and PMTiles directories; what the
/// readers (ours, MapLibre's, the PMTiles libraries) decompress.
public enum GzipCompressor {
    /// The bytes gzip-compressed at `level` (1 fast … 12 smallest; 6 is zlib's default).
    public static func compress(_ input: [UInt8], level: Int32 = 6) -> [UInt8] {
        guard let compressor = libdeflate_alloc_compressor(level) else {
            preconditionFailure("libdeflate could not allocate a compressor (out of memory)")
        }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_gzip_compress_bound(compressor, input.count)
        var output = [UInt8](repeating: 0, count: bound)
        let written = input.withUnsafeBytes { src in
            output.withUnsafeMutableBytes { dst in
                libdeflate_gzip_compress(compressor, src.baseAddress, src.count, dst.baseAddress, dst.count)
            }
        }
        // The bound is always enough, so 0 ("did not fit") can't happen.
        precondition(written > 0, "gzip output exceeded libdeflate's own bound")
        output.removeSubrange(written...)
        return output
    }
}

// Rejecting a hopeless file from its first megabyte (issue 15 item 7): a 2 GB file of random
// bytes named .geojson used to be read whole (2.3 GB resident) just to say "expected '{' at byte 0".
extension PointSetLoader {
    /// Errors this close to where the first chunk was cut may be caused by the cut itself
    /// (a number, literal or string running past it), so they are left to the full parse.
    static let checkMargin = 64 * 1024

    /// Parses the bytes read so far as if they were the whole file and throws the error if it is
    /// one the whole file must have too (the input goes on past them).
    static func checkStart(_ soFar: FileBuffer, path: String, name: String, options: LoadOptions,
                           isCancelled: @escaping @Sendable () -> Bool) throws {
        guard soFar.count > checkMargin else { return }
        let format = format(for: path, buffer: soFar, options: options)
        do {
            _ = try load(buffer: soFar, name: name, format: format, options: options, progress: nil, isCancelled: isCancelled)
        } catch let e as GeoDataError where soFar.withBytes({ isFatal(e, in: UnsafeBufferPointer(start: $0, count: soFar.count)) }) {
            throw e
        } catch {
            // Caused by the cut, cancelled, or not knowable yet: the full parse decides.
        }
    }

    /// Whether an error found in the first `prefix.count` bytes is certain for the whole file.
    static func isFatal(_ e: GeoDataError, in prefix: UnsafeBufferPointer<UInt8>) -> Bool {
        let cut = prefix.count
        if let offset = e.byteOffset {
            return e.kind != .empty && offset + checkMargin < cut
                && !e.message.contains("ends here") && !e.message.contains("truncated")
        }
        // A CSV header without coordinate columns is final once the header line has ended (and
        // it holds no quotes, which could continue it onto later lines).
        guard e.kind == .noCoordinateColumns else { return false }
        guard let newline = prefix.firstIndex(of: 10), newline + checkMargin < cut else { return false }
        return !prefix[..<newline].contains(UInt8(ascii: "\""))
    }
}

/// Whether the first bytes of a stream can begin a point file at all (issue 34): a pipe, FIFO,
/// device or standard input has no size, so `clusters /dev/zero` read 4.2 GB and 3 GB of blank
/// space on standard input took 3 GB before the parse said no. The first megabyte tells: a
/// GeoJSON or CSV file starts (after an optional UTF-8 byte-order mark and blank space) with a
/// printable character or GeoJSON-seq's record separator, never with a control byte or the
/// bytes 0xFE/0xFF (which no UTF-8 text has; a UTF-16 byte-order mark is made of them).
enum StreamStart {
    /// Why these first bytes can't start a file, or nil if they can (or nothing has come yet).
    static func problem(in bytes: UnsafeBufferPointer<UInt8>, fileName: String) -> GeoDataError? {
        var i = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        while i < bytes.count, bytes[i] == 32 || bytes[i] == 10 || bytes[i] == 13 || bytes[i] == 9 { i += 1 }
        guard i < bytes.count else {
            guard bytes.count >= InputReader.checkBytes else { return nil }
            return GeoDataError(kind: .empty, fileName: fileName,
                                message: "nothing but blank space in its first \(bytes.count >> 20) MB; not a GeoJSON or CSV file")
        }
        let b = bytes[i]
        guard (b < 0x20 && b != 0x1E) || b == 0x7F || b >= 0xFE else { return nil }
        let hex = String(b, radix: 16, uppercase: true)
        return GeoDataError.at(i, in: bytes.baseAddress!, count: bytes.count, fileName: fileName, featureIndex: nil,
                               message: "starts with the byte 0x\(hex.count == 1 ? "0" + hex : hex), "
                                   + "which no GeoJSON or CSV file starts with")
    }
}

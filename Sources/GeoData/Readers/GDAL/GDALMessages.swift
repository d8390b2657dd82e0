import CGDAL

/// GDAL's own messages while a file is read, captured through its (per-thread) error handler
/// stack instead of being printed raw on stderr (issue 30 item 8). They are only ever shown as
/// part of our own message about the file, made one safe line (`MessageText`).
final class GDALMessages {
    /// Failures in the order GDAL reported them (the last is usually the most specific).
    private(set) var failures: [String] = []
    /// How many warnings GDAL gave.
    private(set) var warningCount = 0
    /// The first few warnings.
    private(set) var warnings: [String] = []

    /// Runs `body` with GDAL's messages on this thread going to a new collector.
    static func capturing<R>(_ body: (GDALMessages) throws -> R) rethrows -> R {
        let messages = GDALMessages()
        let handler: @convention(c) (CPLErr, CPLErrorNum, UnsafePointer<CChar>?) -> Void = { level, _, text in
            guard let data = gdal.CPLGetErrorHandlerUserData!() else { return }
            let me = Unmanaged<GDALMessages>.fromOpaque(data).takeUnretainedValue()
            me.record(level, text.map { String(cString: $0) } ?? "")
        }
        let box = Unmanaged.passRetained(messages)
        gdal.CPLPushErrorHandlerEx!(handler, box.toOpaque())
        defer {
            gdal.CPLPopErrorHandler!()
            box.release()
        }
        return try body(messages)
    }

    private func record(_ level: CPLErr, _ text: String) {
        // One bounded line, control characters escaped: GDAL quotes file content in messages.
        let line = MessageText.line(text, limit: 200)
        if level == CE_Failure || level == CE_Fatal {
            if failures.count < 8 { failures.append(line) }
        } else if level == CE_Warning {
            warningCount += 1
            if warnings.count < 3 { warnings.append(line) }
        }
    }

    /// The last failure GDAL reported, or nil.
    var lastFailure: String? { failures.last }
}

import AppSupport
import Foundation
import GeoData

/// Writes messages to stderr the one safe way (issue 15): each message one line, control
/// characters escaped and bounded (`MessageText`), so a file can't retitle or clear the terminal.
nonisolated enum ErrorOutput {
    /// Writes `prefix: message`, one line per line of `message`.
    static func write(_ prefix: String, _ message: String) {
        var text = ""
        for line in message.split(whereSeparator: \.isNewline) where !line.isEmpty {
            text += "\(prefix): \(MessageText.line(line))\n"
        }
        if text.isEmpty { text = "\(prefix): \(MessageText.line(message))\n" }
        FileHandle.standardError.write(Data(SecretRedaction.redacted(text).utf8))  // key=*** in URLs
    }
}

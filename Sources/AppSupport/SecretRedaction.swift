import Foundation

/// Hides secrets that URLs carry before they reach a log line or an event (issue 34): the value of
/// a query parameter named like a key (`?key=abc` → `?key=***`, also `api_key`, `apikey`,
/// `access_token`, `token`, …) and the password of a URL's user part (`https://me:pw@host` →
/// `https://me:***@host`). A MapTiler template carries its owner's API key; the event log and
/// stderr are shared in bug reports, so they show `key=***`.
public enum SecretRedaction {
    /// Parameter names whose values are secret (compared without case).
    public static let secretNames: Set<String> = [
        "key", "apikey", "api_key", "api-key", "access_token", "accesstoken", "token", "auth", "secret",
        "client_secret", "password", "sig", "signature",
    ]

    /// `text` with every secret parameter value and URL password replaced by `***`.
    public static func redacted(_ text: String) -> String {
        // Most strings (names, counts) hold no parameter and no URL: nothing to copy.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "@") }) else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            out.append(b)
            i += 1
            if b == UInt8(ascii: "?") || b == UInt8(ascii: "&") || b == UInt8(ascii: ";") {
                // A parameter name up to "=": if secret, its value up to the next delimiter goes.
                var j = i
                while j < bytes.count, isNameByte(bytes[j]) { j += 1 }
                if j < bytes.count, bytes[j] == UInt8(ascii: "="), j > i,
                   secretNames.contains(String(decoding: bytes[i..<j], as: UTF8.self).lowercased()) {
                    out.append(contentsOf: bytes[i...j])
                    out.append(contentsOf: Array("***".utf8))
                    i = j + 1
                    while i < bytes.count, !endsValue(bytes[i]) { i += 1 }
                }
            } else if b == UInt8(ascii: "/"), i >= 3, bytes[i - 2] == UInt8(ascii: "/"), bytes[i - 3] == UInt8(ascii: ":") {
                // "scheme://user:password@host": the password goes.
                var j = i, colon: Int?
                while j < bytes.count, !endsValue(bytes[j]), bytes[j] != UInt8(ascii: "/"), bytes[j] != UInt8(ascii: "@") {
                    if bytes[j] == UInt8(ascii: ":"), colon == nil { colon = j }
                    j += 1
                }
                if j < bytes.count, bytes[j] == UInt8(ascii: "@"), let colon {
                    out.append(contentsOf: bytes[i...colon])
                    out.append(contentsOf: Array("***".utf8))
                    i = j
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b)
            || b == UInt8(ascii: "_") || b == UInt8(ascii: "-")
    }

    private static func endsValue(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "&") || b == UInt8(ascii: "#") || b == UInt8(ascii: ";") || b == UInt8(ascii: "\"")
            || b == UInt8(ascii: "'") || b == UInt8(ascii: ")") || b <= 0x20
    }
}

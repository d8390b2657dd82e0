import Foundation

/// Keeps the HTTP cache the user's alone: the folder 0700, its files 0600.
///
/// libsoup writes each tile's URL into its index (`soup.cache2`) and its entries' headers, and a
/// URL may carry an API key (`…?key=…` for MapTiler). The cache key is the URL, so the key can't be
/// left out of the index; what protects it is that nobody else can read the folder (libsoup's
/// index was 0644 in a 0755 folder).
enum CachePrivacy {
    /// Sets `folder` to 0700 and every regular file directly in it to 0600 (the cache is flat).
    static func restrict(folder: String) {
        chmod(folder, 0o700)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names {
            let path = folder + "/" + name
            var st = stat()
            guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_mode & 0o077 != 0 else { continue }
            chmod(path, 0o600)
        }
    }
}

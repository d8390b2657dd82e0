#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the app's `data` folder (the one holding `points/` and `basemap/`) at run time.
public enum DataDirectory {
    /// Environment variable that overrides the search.
    public static let environmentVariable = "CLUSTERMAP_DATA_DIR"

    /// The data directory: `$CLUSTERMAP_DATA_DIR`, else `<executable dir>/../share/clustermap/data`
    /// (installed), else the first `data` folder holding `points/` found walking up from the
    /// executable (a development checkout, where the binary is in `.build/debug`). Nil if none.
    public static func locate(environment: [String: String]? = nil, executablePath: String? = nil) -> String? {
        let env = environment ?? currentEnvironment()
        if let dir = env[environmentVariable], !dir.isEmpty { return dir }
        guard let exe = executablePath ?? currentExecutablePath() else { return nil }
        let exeDir = parent(of: exe)
        let installed = parent(of: exeDir) + "/share/clustermap/data"
        if isDirectory(installed + "/points") { return installed }
        var dir = exeDir
        while true {
            if isDirectory(dir + "/data/points") { return dir + "/data" }
            let up = parent(of: dir)
            if up == dir { return nil }
            dir = up
        }
    }

    static func parent(of path: String) -> String {
        var p = path
        while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
        guard let slash = p.lastIndex(of: "/") else { return "." }
        if slash == p.startIndex { return "/" }
        return String(p[..<slash])
    }

    static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    static func currentExecutablePath() -> String? {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        if n > 0 {
            return buf.withUnsafeBufferPointer { b in
                String(decoding: UnsafeRawBufferPointer(start: b.baseAddress, count: n).bindMemory(to: UInt8.self), as: UTF8.self)
            }
        }
        return CommandLine.arguments.first
    }

    static func currentEnvironment() -> [String: String] {
        guard let value = getenv(environmentVariable) else { return [:] }
        return [environmentVariable: String(cString: value)]
    }
}

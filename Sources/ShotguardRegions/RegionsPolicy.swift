// The system-wide policy: regions files in $XDG_CONFIG_DIRS that apply to every user, and `lock`.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A system policy file's `lock` line: its rules are managed by the system. The user's own
/// file and `--regions` can add rules, but a user's `allow` cannot uncover a locked rule, and
/// commands that would stop guarding (`watch --no-guard`, `pause`) are refused.
public struct PolicyLock: Hashable, Sendable {
    /// The system policy file that says `lock`.
    public var path: String
    /// The 1-based line of its `lock`.
    public var line: Int

    public init(path: String, line: Int) {
        self.path = path
        self.line = line
    }

    /// The one line that refuses `action` (`watch --no-guard`, `pause`) under this lock:
    /// `watch --no-guard is refused: the system policy /etc/xdg/shotguard/regions is locked
    /// (line 1: lock), so screenshots stay guarded`.
    public func refusal(of action: String) -> String {
        "\(action) is refused: the system policy \(path) is locked (line \(line): lock), so screenshots stay guarded"
    }
}

/// Where the system policy files are, and loading them before the user's file.
///
/// Every directory of `$XDG_CONFIG_DIRS` (default `/etc/xdg`) may hold `shotguard/regions`.
/// Rules only ever add covers, so all of them apply, not only the most important directory's
/// (the XDG specification's precedence decides between values, and covers are not values that
/// replace each other): the files are read in the variable's order, most important first,
/// then the user's own file.
public enum RegionsPolicy {
    /// The system policy files for a value of `XDG_CONFIG_DIRS`: each absolute directory, in
    /// order, without repeats, with `/shotguard/regions` after it; `/etc/xdg/shotguard/regions`
    /// when the value is unset, empty or names no absolute directory (relative ones are
    /// ignored, as the XDG specification asks).
    public static func systemPaths(xdgConfigDirs: String?) -> [String] {
        var paths: [String] = []
        for directory in (xdgConfigDirs ?? "").split(separator: ":") where directory.hasPrefix("/") {
            var trimmed = String(directory)
            while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
            let path = (trimmed == "/" ? "" : trimmed) + "/shotguard/regions"
            if !paths.contains(path) { paths.append(path) }
        }
        return paths.isEmpty ? ["/etc/xdg/shotguard/regions"] : paths
    }

    /// The system policy files for this process's `XDG_CONFIG_DIRS`.
    public static var systemPaths: [String] {
        systemPaths(xdgConfigDirs: getenv("XDG_CONFIG_DIRS").map { String(cString: $0) })
    }

    /// The system policy files that exist, then the user's file, as one `RegionsFile` with the
    /// system's rules first. `userPath` is the file `--regions` names, which must exist; nil
    /// means the default file (`defaultUserPath`), which may be missing. Nil when no file
    /// exists at all. A system file that exists but cannot be read or parsed is an error
    /// naming that file, as is a user's file with `lock` in it.
    public static func load(userPath: String?, defaultUserPath: String = RegionsFile.defaultPath,
                            systemPaths: [String] = systemPaths) throws(RegionsError) -> RegionsFile? {
        var system: [RegionsFile] = []
        for path in systemPaths where !isAbsent(path) {
            system.append(try RegionsFile.load(path: path, system: true))
        }
        let path = userPath ?? defaultUserPath
        let user: RegionsFile? = userPath == nil && isAbsent(path) ? nil : try RegionsFile.load(path: path)
        if system.isEmpty { return user }
        return RegionsFile(path: path, rules: system.flatMap(\.rules) + (user?.rules ?? []),
                           lock: system.lazy.compactMap(\.lock).first, systemPaths: system.map(\.path),
                           hasUserFile: user != nil, trusts: system.flatMap(\.trusts) + (user?.trusts ?? []))
    }

    /// The first system policy file with a `lock` line, and that line; nil when none has one.
    /// Every system file that exists is read (and must parse).
    public static func lock(systemPaths: [String] = systemPaths) throws(RegionsError) -> PolicyLock? {
        for path in systemPaths where !isAbsent(path) {
            if let lock = try RegionsFile.load(path: path, system: true).lock { return lock }
        }
        return nil
    }

    /// Only a path with nothing at all behind it is absent: a dangling link or a folder in the
    /// way is read, and fails, so a broken setup never silently drops rules.
    static func isAbsent(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) != 0 && errno == ENOENT
    }
}

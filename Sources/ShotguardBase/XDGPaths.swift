// The XDG Base Directory folders and the home folder, read from the environment in one place.
import Glibc

/// The base directories of the XDG Base Directory Specification. A variable that is unset,
/// empty or relative is ignored, as the specification asks, and its default is used.
public enum XDGPaths {
    /// `$HOME` when it is an absolute path, else the home in the password database (as under
    /// some service managers), else nil.
    public static func home() -> String? {
        if let home = absolute("HOME") { return home }
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    public static func configHome() -> String { absolute("XDG_CONFIG_HOME") ?? (home() ?? "") + "/.config" }

    /// `$XDG_STATE_HOME`, else `~/.local/state`.
    public static func stateHome() -> String { absolute("XDG_STATE_HOME") ?? (home() ?? "") + "/.local/state" }

    /// `$XDG_CACHE_HOME`, else `~/.cache`.
    public static func cacheHome() -> String { absolute("XDG_CACHE_HOME") ?? (home() ?? "") + "/.cache" }

    /// `$XDG_RUNTIME_DIR`; nil when it is not set to an absolute path (it has no default).
    public static func runtimeDirectory() -> String? { absolute("XDG_RUNTIME_DIR") }

    /// The variable's value when it is an absolute path.
    public static func absolute(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }.flatMap { $0.hasPrefix("/") ? $0 : nil }
    }
}

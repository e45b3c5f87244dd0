// The processes of this user started lately with a given X display in their environment: the programs that may be a client the server could not tell the process of.
import Glibc

/// Where an X display name points: its host ("" for this machine's socket, which `unix` names
/// too) and its number. `:0`, `:0.0` and `unix:0` are one display; `localhost:10` (ssh -X) another.
public struct DisplayAddress: Equatable, Sendable {
    public let host: String
    public let number: Int

    /// Nil when `name` is no display name (no colon, or no number after it).
    public init?(_ name: String) {
        guard let colon = name.lastIndex(of: ":") else { return nil }
        let host = String(name[..<colon])
        let rest = name[name.index(after: colon)...]
        guard let number = Int(rest.prefix { $0 != "." }), number >= 0 else { return nil }
        self.host = host == "unix" ? "" : host
        self.number = number
    }
}

public enum DisplayClients {
    /// The most bytes of one process's environment looked at.
    public static let environmentLimit = 128 * 1024

    /// The processes of this user, but `except` and the caller's children, whose environment
    /// names `display` and that started between `from` and `to` (seconds since boot), at most
    /// `limit`: those that map Xlib or xcb first (they can be X clients; a shell or an
    /// interpreter may be one too), the latest started first within each kind.
    public static func started(on display: DisplayAddress, from: Double, to: Double, except: Set<Int32>,
                               limit: Int) -> [Int32] {
        let user = getuid(), agent = getpid()
        var found: [(pid: Int32, start: Double, linksX: Bool)] = []
        for pid in ProcessList.all() where !except.contains(pid) {
            guard let stat = ProcessStat.of(pid: pid), stat.parent != agent else { continue }
            let start = ProcessTree.startSeconds(stat)
            guard start >= from, start <= to, owner(of: pid) == user,
                  environment("DISPLAY", of: pid).flatMap(DisplayAddress.init) == display else { continue }
            found.append((pid, start, ProcessList.maps(of: pid, contain: "libxcb.so")))
        }
        found.sort { ($0.linksX ? 1 : 0, $0.start) > ($1.linksX ? 1 : 0, $1.start) }
        return found.prefix(limit).map(\.pid)
    }

    /// The value of `name` in the environment process `pid` was started with
    /// (`/proc/PID/environ`); nil when it has none, or is gone or another user's.
    public static func environment(_ name: String, of pid: Int32) -> String? {
        guard pid > 0, let bytes = ProcFile.read("/proc/\(pid)/environ", limit: environmentLimit) else { return nil }
        let prefix = Array((name + "=").utf8)
        guard let entry = bytes.split(separator: 0).first(where: { $0.starts(with: prefix) }) else { return nil }
        return String(decoding: entry.dropFirst(prefix.count), as: UTF8.self)
    }

    private static func owner(of pid: Int32) -> uid_t? {
        var info = stat()
        return stat("/proc/\(pid)", &info) == 0 ? info.st_uid : nil
    }
}

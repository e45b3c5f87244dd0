// Clipboard history programs among this user's processes: they keep what was copied, out of guard's reach.
import Glibc

/// Clipboard managers that keep a history without owning CLIPBOARD_MANAGER (so the agent's
/// look at that selection misses them): they read every copy as it is made, some images too,
/// before guard has taken the clipboard over, and keep it. Found once at start by their
/// process names (`/proc/PID/comm`) among this user's processes, a bounded walk of /proc.
enum ClipboardHistories {
    /// What a history program keeps.
    enum Keeps: Equatable, Sendable {
        /// Text only: no screenshot in its history, but it puts its last text back when the
        /// clipboard's owner goes (after the agent stops, a paste gives that text).
        case text
        /// Images too (by default, or with a setting): originals copied before guard took over.
        case images
    }

    /// One history program found running.
    struct Found: Equatable, Sendable {
        var program: String
        var pid: Int32
        var keeps: Keeps
    }

    /// The programs, by `/proc/PID/comm` (at most 15 characters): what each keeps.
    static let programs: [String: Keeps] = [
        "parcellite": .text, "clipit": .text, "clipmenud": .text, "clipster": .text,
        "copyq": .images, "gpaste-daemon": .images, "greenclip": .images, "diodon": .images,
        "xfce4-clipman": .images, "klipper": .images, "qlipper": .images,
    ]

    /// How many /proc entries are looked at, at most.
    static let maximumEntries = 32_768

    /// The history programs running as `uid` on `display`, by `/proc/PID/comm` under `procRoot`;
    /// Xfce's panel runs its clipman plugin in a `wrapper-2.0` process, told apart by its command
    /// line. One whose environment names another display is left out; one whose environment
    /// cannot be read counts.
    static func running(on display: String, procRoot: String = "/proc", uid: uid_t = getuid()) -> [Found] {
        guard let folder = opendir(procRoot) else { return [] }
        defer { closedir(folder) }
        var found: [Found] = []
        var seen = 0
        while seen < maximumEntries, let entry = readdir(folder) {
            seen += 1
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = Int32(name), pid > 0 else { continue }
            var status = stat()
            guard stat("\(procRoot)/\(name)", &status) == 0, status.st_uid == uid,
                  let program = text("\(procRoot)/\(name)/comm", limit: 64) else { continue }
            var history: Found?
            if let keeps = programs[program] {
                history = Found(program: program, pid: pid, keeps: keeps)
            } else if program == "wrapper-2.0", let command = text("\(procRoot)/\(name)/cmdline", limit: 4096),
                      command.contains("clipman") {
                history = Found(program: "xfce4-clipman", pid: pid, keeps: .images)
            }
            guard let history else { continue }
            if let other = environmentDisplay("\(procRoot)/\(name)/environ"), !sameDisplay(other, display) { continue }
            found.append(history)
        }
        return found.sorted { $0.pid < $1.pid }
    }

    /// The DISPLAY in a process's environment (the start of it, bounded).
    private static func environmentDisplay(_ path: String) -> String? {
        guard let environment = text(path, limit: 65_536, separator: 0x0A) else { return nil }
        return environment.split(separator: "\n").first { $0.hasPrefix("DISPLAY=") }.map { String($0.dropFirst(8)) }
    }

    /// Whether two DISPLAY values name the same server: the host (none, `unix` and `unix/` are
    /// this machine's socket) and the display number; the screen does not matter.
    static func sameDisplay(_ one: String, _ other: String) -> Bool {
        func key(_ name: String) -> (host: String, number: Int)? {
            guard let colon = name.lastIndex(of: ":") else { return nil }
            let host = String(name[..<colon])
            guard let number = Int(name[name.index(after: colon)...].prefix { $0 != "." }) else { return nil }
            return (["", "unix", "unix/"].contains(host) ? "" : host, number)
        }
        guard let first = key(one), let second = key(other) else { return one == other }
        return first == second
    }

    /// The warning the agent gives once at start, or nil when no history program runs.
    static func warning(_ found: [Found]) -> String? {
        guard !found.isEmpty else { return nil }
        let names = found.map { "\($0.program) (pid \($0.pid))" }.joined(separator: ", ")
        let what = found.contains { $0.keeps == .images }
            ? "its history may keep original screenshots it read before guard took the clipboard over (turn its image history off)"
            : "it keeps text only, and puts its last text back when the clipboard's owner goes: after the agent stops, "
                + "a paste gives that text, not the redacted image"
        return "a clipboard history runs: \(names): \(what)"
    }

    /// The start of a small /proc file (at most `limit` bytes, one read), NUL separators as
    /// `separator` (a space), without the final newline; nil when it cannot be read (the
    /// process ended, or another user's environment).
    private static func text(_ path: String, limit: Int, separator: UInt8 = 0x20) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: limit)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { $0 == 0 ? separator : $0 }, as: UTF8.self).trimmingCharacters(in: "\n ")
    }
}

// One agent per display: a second `shotguard watch` (autostart and the systemd unit both
// enabled) would report every screenshot twice.
import Glibc
import ShotguardBase

/// An exclusive `flock` on `$XDG_RUNTIME_DIR/shotguard/watch-DISPLAY.lock`, held for the
/// agent's life and released by the kernel when the process ends, however it ends. Without
/// `XDG_RUNTIME_DIR` the lock goes to the private state folder, never to a shared `/tmp` path
/// that another user could create first.
public final class InstanceLock {
    private let fd: Int32

    init(display: String) throws(AgentError) {
        let folder: String
        do throws(PrivateFolderError) {
            folder = try UserFolders.preparePrivateFolder(Self.folder())
        } catch {
            throw AgentError(message: "cannot prepare the agent's lock: \(error)", isUsage: false)
        }
        let path = "\(folder)/watch-\(Self.fileName(for: display)).lock"
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw AgentError(message: "cannot open the agent's lock \(path): \(String(cString: strerror(errno)))", isUsage: false)
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            // Exit 2, like a configuration error: a service manager must not restart into it.
            throw AgentError(message: "another shotguard watch is already running on display \(display) (lock \(path))",
                             isUsage: true)
        }
    }

    deinit { close(fd) }

    /// Whether an agent holds the lock of `display` now (autostart then leaves it running).
    public static func isHeld(display: String) -> Bool {
        let fd = open("\(folder())/watch-\(fileName(for: display)).lock", O_RDWR | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return errno == EWOULDBLOCK }
        flock(fd, LOCK_UN)
        return false
    }

    /// `$XDG_RUNTIME_DIR/shotguard` (an absolute one only), else the private state folder.
    static func folder() -> String {
        XDGPaths.runtimeDirectory().map { $0 + "/shotguard" } ?? UserFolders.stateFolder()
    }

    /// The display's key as a file name.
    static func fileName(for display: String) -> String {
        key(for: display).map { $0 == "/" ? "_" : $0 }.reduce(into: "") { $0.append($1) }
    }

    /// One name per display: `:0`, `:0.1`, `unix:0`, `unix/:0`, `:00` and `localhost/unix:0`
    /// are the same server (a local one, display 0); a TCP display keeps its host.
    static func key(for display: String) -> String {
        guard let colon = display.lastIndex(of: ":") else { return display }
        var host = String(display[..<colon])
        var number = String(display[display.index(after: colon)...])
        if let dot = number.firstIndex(of: ".") { number = String(number[..<dot]) }
        if let value = Int(number), value >= 0 { number = String(value) }
        // The forms of this machine's display N: a local socket, or TCP to this host.
        if ["", "unix", "unix/", "localhost", "127.0.0.1", "::1", "localhost/unix", "/unix", "tcp/localhost"].contains(host)
            || host.hasSuffix("/unix") { host = "" }
        return host + ":" + number
    }
}

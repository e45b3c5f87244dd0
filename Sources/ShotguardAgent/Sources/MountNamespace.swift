// Which mount namespace a process sees files in, and how the agent reaches a path of another.
import Glibc

/// A mount namespace, named by its `/proc/PID/ns/mnt` file's device and inode (two processes
/// see the same files exactly when theirs are equal).
struct MountNamespace: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64

    static func of(pid: Int32) -> MountNamespace? { of(path: "/proc/\(pid)/ns/mnt") }

    /// The agent's own (a process's mount namespace is set once it runs threads).
    static let own = of(path: "/proc/self/ns/mnt")

    private static func of(path: String) -> MountNamespace? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return MountNamespace(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// `path` as the agent reaches it in `namespace`, through a living process of it: `path`
    /// itself when that is the agent's own; else under `/proc/PID/root` of `through` while that
    /// process still sees `namespace` (a program in a namespace of its own that exited names
    /// its files in it, where the shell that started it still lives); nil when none does.
    static func reach(_ path: BytePath, in namespace: MountNamespace, through pid: Int32?) -> BytePath? {
        if namespace == own { return path }
        guard let pid, pid > 1, of(pid: pid) == namespace else { return nil }
        return BytePath(bytes: Array("/proc/\(pid)/root".utf8) + path.bytes)
    }
}

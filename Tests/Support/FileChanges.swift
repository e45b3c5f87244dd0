// Wakes a test when another process writes to a file, so it waits on the write, not on a timer.
import Foundation
import Glibc

/// inotify `IN_MODIFY` on some files: `wait` checks its condition at once and again after each
/// write to one of them, until it holds or a bounded time passes.
public final class FileChanges {
    private let fd: Int32

    public init(_ paths: [String]) throws {
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { throw FixtureError("inotify_init1: \(String(cString: strerror(errno)))") }
        for path in paths where inotify_add_watch(fd, path, UInt32(IN_MODIFY)) < 0 {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw FixtureError("inotify_add_watch \(path): \(reason)")
        }
    }

    deinit { close(fd) }

    /// True as soon as `condition` holds, checked at once and after each write; false when
    /// `seconds` pass without it.
    public func wait(seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !condition() {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return false }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32((remaining * 1000).rounded(.up)))
            _ = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        }
        return true
    }
}

// Follows one file by watching its folder: created, written, replaced by a rename, removed.
import Glibc
import ShotguardBase

/// Watches the folder of one file (or its nearest existing parent, until the folder exists)
/// and says when something happened to the file. Editors save in several ways — writing in
/// place, writing a new file and renaming it over the old, removing then creating — so the
/// folder is watched, not the file's inode. A file that is a symbolic link (a dotfile manager's,
/// into another folder) is followed where it points too, link by link.
final class FileFollower {
    private let inotify: Inotify
    private let path: BytePath
    /// The path and every link target on its way (bounded), each watched through its folder.
    private var paths: [BytePath] = []
    private let log: Log
    static let maximumLinks = 8

    init?(path: BytePath, log: Log) {
        do throws(SystemError) {
            inotify = try Inotify()
        } catch {
            log.warning("cannot follow \(path) (\(error)): send SIGHUP after editing it")
            return nil
        }
        self.path = path
        self.log = log
        watch()
    }

    var fileDescriptor: Int32 { inotify.fileDescriptor }

    /// Watches the folder of the file and of each link target on its way.
    private func watch() {
        paths = [path]
        var current = path
        for _ in 0..<Self.maximumLinks {
            guard let target = Self.linkTarget(of: current) else { break }
            paths.append(target)
            current = target
        }
        for path in paths { watchFolder(of: path) }
    }

    /// Where the link at `path` points (made absolute from its folder); nil when it is no link.
    private static func linkTarget(of path: BytePath) -> BytePath? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = path.withCString { readlink($0, &buffer, buffer.count) }
        guard count > 0, count < buffer.count else { return nil }
        let target = BytePath(bytes: buffer.prefix(count).map { UInt8(bitPattern: $0) })
        if target.bytes.first == UInt8(ascii: "/") { return target }
        return (path.parent ?? "/").appending(target)
    }

    /// Watches `path`'s folder, or the nearest parent that exists (to see the folder made).
    private func watchFolder(of path: BytePath) {
        var folder = path.parent
        while let current = folder {
            var status = stat()
            if current.withCString({ lstat($0, &status) }) == 0, status.st_mode & S_IFMT == S_IFDIR {
                do throws(SystemError) {
                    try inotify.watch(current, mask: IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM
                        | IN_DELETE_SELF | IN_MOVE_SELF | IN_ATTRIB)
                } catch {
                    log.warning("cannot follow \(path) (\(error)): send SIGHUP after editing it")
                }
                return
            }
            folder = current.parent
        }
    }

    /// Reads the queued events; true when one concerns the file (or the folders on its way).
    func readChanged() -> Bool {
        var changed = false
        for event in inotify.read() {
            guard let folder = inotify.folder(of: event.watch) else {
                changed = true
                continue
            }
            let named = folder.appending(event.name)
            for path in paths {
                if named == path { changed = true }
                if path.isInside(named), named != path { changed = true }  // a folder on the way was made or moved
            }
            if event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF) || event.has(IN_IGNORED) || event.has(IN_Q_OVERFLOW) {
                changed = true
            }
        }
        if changed {
            inotify.dropStale()
            watch()
        }
        return changed
    }
}

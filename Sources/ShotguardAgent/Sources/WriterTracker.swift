// Follows a program that read the screen to the image it writes, wherever it writes it.
import Glibc
import ShotguardBase

/// A screenshot saved to `/tmp`, `~/Desktop` or a project folder is no file in a watched
/// folder. When a process reads the screen, this follows it for a while: the image paths on its
/// command line (made absolute from its working folder), the image files it holds open for
/// writing (polled from /proc while it runs), and new images in its working folder. The folders
/// of those are watched with inotify until the following ends, so the file's close is seen
/// whatever the timing; a path that closed before its folder was watched is checked once more
/// when the following ends. Bounded: a few processes, a few folders, a few seconds each.
final class WriterTracker {
    /// One process followed after its read.
    private struct Followed {
        let read: ScreenReadRecord
        let workingFolder: BytePath?
        var paths: Set<BytePath>
        var folders: Set<BytePath>
        var emitted: Set<BytePath> = []
        var exitedAt: Double?
        var lastRead: Double
    }

    private var followed: [Int32: Followed] = [:]
    private let inotify: Inotify?
    private var watched: [BytePath: Int] = [:]
    private var nextPoll: Double?
    private let log: Log

    /// Processes and folders followed at once; how long; how often their files are polled.
    static let maximumProcesses = 16
    static let maximumFolders = 16
    static let followFor = 30.0
    static let afterExit = 2.0
    static let pollInterval = 0.02

    init(log: Log) {
        self.log = log
        do throws(SystemError) {
            inotify = try Inotify()
        } catch {
            log.warning("cannot follow screen readers to their files (\(error)): only watched folders are seen")
            inotify = nil
        }
    }

    var fileDescriptor: Int32? { followed.isEmpty ? nil : inotify?.fileDescriptor }

    var deadline: Double? {
        guard !followed.isEmpty else { return nil }
        return nextPoll
    }

    /// Starts (or renews) following the process behind a screenshot-sized read.
    func follow(_ read: ScreenReadRecord, at now: Double) {
        guard let pid = read.pid, CaptureTracker.isScreenshotSized(read.area) else { return }
        if var current = followed[pid] {
            current.lastRead = now
            followed[pid] = current
            return
        }
        guard followed.count < Self.maximumProcesses, let details = ProcessDetails.of(pid: pid) else { return }
        let folder = details.workingFolder.map { BytePath(bytes: $0) }
        var paths = Set<BytePath>()
        for argument in details.arguments.dropFirst() where ScreenshotFileClassifier.looksLikeImage(BytePath(argument).lastComponent) {
            paths.insert(Self.absolute(BytePath(argument), in: folder))
        }
        var entry = Followed(read: read, workingFolder: folder, paths: paths, folders: [], lastRead: now)
        for path in paths { if let parent = path.parent { watch(parent, for: &entry) } }
        if let folder { watch(folder, for: &entry) }
        followed[pid] = entry
        nextPoll = now
        log.verbose("following \(read.program) (pid \(pid)) to the image it writes"
            + (paths.isEmpty ? "" : ": \(paths.map(\.description).sorted().joined(separator: ", "))"))
    }

    /// Stops following a process found to be recording: its frames are the shield's business,
    /// and polling a recorder's open files 50 times a second would cost more than the rest.
    func stopFollowing(pid: Int32) {
        guard let entry = followed.removeValue(forKey: pid) else { return }
        for folder in entry.folders { unwatch(folder) }
        if followed.isEmpty { nextPoll = nil }
        log.verbose("stopped following \(entry.read.program) (pid \(pid)): it is recording")
    }

    /// The reader that wrote `path`, if a followed process names it, holds it, or wrote it in its
    /// working folder since its read.
    func writer(of path: BytePath, at now: Double) -> ScreenReadRecord? {
        for (_, entry) in followed where owns(path, entry, now: now) { return entry.read }
        return nil
    }

    /// Files closed in the followed folders that a followed process wrote, with its read.
    func readArrivals(at now: Double) -> [(path: BytePath, read: ScreenReadRecord)] {
        guard let inotify else { return [] }
        var found: [(path: BytePath, read: ScreenReadRecord)] = []
        for event in inotify.read() where event.has(IN_CLOSE_WRITE) || event.has(IN_MOVED_TO) {
            guard let folder = inotify.folder(of: event.watch) else { continue }
            let path = folder.appending(event.name)
            guard ScreenshotFileClassifier.looksLikeImage(event.name) else { continue }
            for (pid, entry) in followed where owns(path, entry, now: now) && !entry.emitted.contains(path) {
                followed[pid]?.emitted.insert(path)
                found.append((path, entry.read))
                break
            }
        }
        return found
    }

    /// Polls the followed processes' open files, notes those that exited, and ends the
    /// followings whose time is up. Returns paths that closed unseen (before their folder was
    /// watched), found at the end of a following.
    func poll(at now: Double) -> [(path: BytePath, read: ScreenReadRecord)] {
        guard let due = nextPoll, now >= due else { return [] }
        var found: [(path: BytePath, read: ScreenReadRecord)] = []
        for (pid, var entry) in followed {
            if entry.exitedAt == nil {
                if kill(pid, 0) != 0, errno == ESRCH {
                    entry.exitedAt = now
                } else {
                    for file in ProcessDetails.openFiles(of: pid, limit: 256) where file.access != .read {
                        let path = BytePath(bytes: file.path)
                        guard ScreenshotFileClassifier.looksLikeImage(path.lastComponent), !entry.paths.contains(path) else { continue }
                        entry.paths.insert(path)
                        if let parent = path.parent { watch(parent, for: &entry) }
                    }
                }
            }
            let ended = (entry.exitedAt.map { now - $0 >= Self.afterExit } ?? false) || now - entry.lastRead >= Self.followFor
            if ended {
                // A file that closed before its folder was watched: looked at once, here.
                for path in entry.paths.subtracting(entry.emitted) where Self.writtenSince(path, entry.read.time.wall) {
                    found.append((path, entry.read))
                }
                for folder in entry.folders { unwatch(folder) }
                followed[pid] = nil
                log.verbose("stopped following \(entry.read.program) (pid \(pid))")
            } else {
                followed[pid] = entry
            }
        }
        nextPoll = followed.isEmpty ? nil : now + Self.pollInterval
        return found
    }

    /// Whether a followed process wrote `path`: it named it or held it, or it is an image that
    /// appeared in its working folder after its read, while it ran or just after.
    private func owns(_ path: BytePath, _ entry: Followed, now: Double) -> Bool {
        if entry.paths.contains(path) { return true }
        guard let folder = entry.workingFolder, path.parent == folder else { return false }
        return Self.writtenSince(path, entry.read.time.wall - 1)
    }

    private static func writtenSince(_ path: BytePath, _ wall: Double) -> Bool {
        var status = stat()
        guard path.withCString({ lstat($0, &status) }) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
        return seconds(status.st_mtim) >= wall
    }

    private func watch(_ folder: BytePath, for entry: inout Followed) {
        guard let inotify, !entry.folders.contains(folder) else { return }
        if watched[folder] == nil {
            guard watched.count < Self.maximumFolders else { return }
            do throws(SystemError) {
                try inotify.watch(folder, mask: IN_CLOSE_WRITE | IN_MOVED_TO)
            } catch {
                return
            }
        }
        watched[folder, default: 0] += 1
        entry.folders.insert(folder)
    }

    private func unwatch(_ folder: BytePath) {
        guard let count = watched[folder] else { return }
        if count > 1 {
            watched[folder] = count - 1
        } else {
            watched[folder] = nil
            inotify?.unwatch(folder)
        }
    }

    private static func absolute(_ path: BytePath, in folder: BytePath?) -> BytePath {
        if path.bytes.first == UInt8(ascii: "/") { return path }
        if path.bytes.starts(with: Array("~/".utf8)), let home = UserFolders.home() {
            return BytePath(home).appending(BytePath(bytes: path.bytes.dropFirst(2)))
        }
        guard let folder else { return path }
        var relative = path.bytes
        while relative.starts(with: Array("./".utf8)) { relative.removeFirst(2) }
        return folder.appending(BytePath(bytes: relative))
    }
}

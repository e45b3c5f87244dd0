// Watches the screenshot folders with inotify, including folders that appear later or are replaced.
import Glibc
import ShotguardBase

/// Watches screenshot folders and reports image files that were just written or moved in.
/// A folder that does not exist yet is awaited through its nearest existing parent and watched
/// (and scanned, for files written before its watch) from the moment it is created. A watched
/// folder that is moved away, deleted or replaced by a new folder of the same name is noticed
/// (its watch follows the old inode) and the folder now at the path is watched instead.
final class FileSource {
    private let inotify: Inotify
    /// The folders to watch, whether or not they exist yet.
    private let folders: [BytePath]
    /// The folders to watch, as text for the log.
    var targets: [String] { folders.map(\.description) }
    private var log: Log

    static let fileMask = IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF
    /// A target's parent: only its subfolders matter, to see the target made, removed or replaced
    /// (a folder deleted while a process has its current folder in it gets no `IN_DELETE_SELF`).
    static let parentMask = IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF

    init(folders: [String], log: Log) throws(SystemError) {
        inotify = try Inotify()
        var seen = Set<BytePath>()
        // Absolute, from the current folder at start, like --spool: events and reports name
        // files by the folder they are in.
        self.folders = folders.map { BytePath(UserFolders.absolute($0)) }.filter { seen.insert($0).inserted }
        self.log = log
        refreshWatches()
    }

    var fileDescriptor: Int32 { inotify.fileDescriptor }

    /// Adds a watch on every target that exists and on its parent, and on the nearest existing
    /// parent of each one that does not. Returns the targets that became watched by this call.
    @discardableResult
    private func refreshWatches() -> [BytePath] {
        var added: [BytePath] = []
        for target in folders {
            if isDirectory(target) {
                if !inotify.watchedFolders.contains(target) {
                    do throws(SystemError) {
                        try inotify.watch(target, mask: Self.fileMask)
                        added.append(target)
                        log.verbose("watching \(target)")
                    } catch {
                        log.warning("cannot watch \(target): \(error)")
                    }
                }
                if let parent = target.parent, !folders.contains(parent), isDirectory(parent) { watchParent(parent) }
            } else if let parent = nearestExistingParent(of: target) {
                // A target parent gets its full mask when its own turn in this loop comes.
                if !folders.contains(parent) { watchParent(parent) }
            }
        }
        return added
    }

    private func watchParent(_ parent: BytePath) {
        guard !inotify.watchedFolders.contains(parent) else { return }
        do throws(SystemError) {
            try inotify.watch(parent, mask: Self.parentMask)
        } catch {
            // Only the notice of a new or replaced target is lost, not a target's own files.
            log.verbose("cannot watch \(parent) for screenshot folders made in it: \(error)")
        }
    }

    /// Paths of files that were just completed in a watched target folder, in event order. A
    /// folder created, moved or replaced on the way is (re)watched and scanned for files
    /// written before its watch.
    func readEvents() -> [BytePath] { readArrivals().filter { !$0.created }.map(\.path) }

    /// A file that arrived in a watched folder, and how.
    struct Arrival: Equatable {
        let path: BytePath
        /// Only created (`IN_CREATE`): a new name for a file written elsewhere (`link`, an
        /// `O_TMPFILE` given a name by `linkat`) — or a file about to be written, which its
        /// `IN_CLOSE_WRITE` brings again.
        let created: Bool
    }

    /// Like `readEvents`, with how each file arrived.
    func readArrivals() -> [Arrival] {
        var paths: [Arrival] = []
        for event in inotify.read() {
            if event.has(IN_Q_OVERFLOW) {
                log.warning("inotify queue overflowed; rescanning the screenshot folders")
                inotify.dropStale()
                refreshWatches()
                paths += folders.flatMap { recentFiles(in: $0) }.map { Arrival(path: $0, created: false) }
                continue
            }
            if event.has(IN_IGNORED) {
                inotify.forget(event.watch)
                paths += rewatch().map { Arrival(path: $0, created: false) }
                continue
            }
            // The folder is looked up as each event comes: after a move, events of the old
            // inode must not be read as files of the path.
            guard let folder = inotify.folder(of: event.watch) else { continue }
            if event.has(IN_ISDIR) || event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF) {
                paths += rewatch().map { Arrival(path: $0, created: false) }
                continue
            }
            guard folders.contains(folder), event.has(IN_CLOSE_WRITE) || event.has(IN_MOVED_TO) || event.has(IN_CREATE) else { continue }
            guard ScreenshotFileClassifier.looksLikeImage(event.name) else { continue }
            paths.append(Arrival(path: folder.appending(event.name), created: event.has(IN_CREATE)))
        }
        return paths
    }

    /// Drops the watches whose path now names another folder or none, watches what the paths
    /// name now, and returns the recent files of the folders watched anew.
    private func rewatch() -> [BytePath] {
        for dropped in inotify.dropStale() { log.verbose("\(dropped) was moved, removed or replaced") }
        return refreshWatches().flatMap { recentFiles(in: $0) }
    }

    /// Image files in `folder` written in the last few seconds (not following links).
    func recentFiles(in folder: BytePath, since: Double? = nil) -> [BytePath] {
        guard let directory = folder.withCString({ opendir($0) }) else { return [] }
        defer { closedir(directory) }
        let cutoff = since ?? (now() - ScreenshotFileClassifier.maximumAge)
        var found: [(BytePath, Double)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { BytePath(bytes: $0.prefix { $0 != 0 }) }
            guard ScreenshotFileClassifier.looksLikeImage(name) else { continue }
            var status = stat()
            let path = folder.appending(name)
            guard path.withCString({ lstat($0, &status) }) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            let modified = seconds(status.st_mtim)
            if modified >= cutoff { found.append((path, modified)) }
        }
        return found.sorted { $0.1 < $1.1 }.map(\.0)
    }

    /// The newest strongly named screenshot in the target folders written since `since`.
    func newestScreenshot(since: Double) -> BytePath? {
        let candidates = folders.flatMap { recentFiles(in: $0, since: since) }.filter(ScreenshotFileClassifier.isStronglyNamed)
        return candidates.max { modifiedTime($0) < modifiedTime($1) }
    }

    private func modifiedTime(_ path: BytePath) -> Double {
        var status = stat()
        guard path.withCString({ lstat($0, &status) }) == 0 else { return 0 }
        return seconds(status.st_mtim)
    }

    private func isDirectory(_ path: BytePath) -> Bool {
        var status = stat()
        return path.withCString { lstat($0, &status) } == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    private func nearestExistingParent(of path: BytePath) -> BytePath? {
        var current = path
        while let parent = current.parent {
            if isDirectory(parent) { return parent }
            current = parent
        }
        return nil
    }
}

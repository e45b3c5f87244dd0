// Watches the screenshot folders with inotify, including folders that appear later.
import Glibc

/// Watches screenshot folders and reports image files that were just written or moved in.
/// A folder that does not exist yet is awaited through its nearest existing parent and watched
/// (and scanned, for files written before its watch) from the moment it is created.
final class FileSource {
    private let inotify: Inotify
    /// The folders to watch, whether or not they exist yet.
    let targets: [String]
    private var log: Log

    static let fileMask = IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE_SELF | IN_MOVE_SELF
    static let parentMask = IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF

    init(folders: [String], log: Log) throws(SystemError) {
        inotify = try Inotify()
        var seen = Set<String>()
        targets = folders.map(FileSource.normalized).filter { seen.insert($0).inserted }
        self.log = log
        refreshWatches()
    }

    var fileDescriptor: Int32 { inotify.fileDescriptor }

    /// Adds a watch on every target that exists and on the nearest existing parent of each one
    /// that does not. Returns the targets that became watched by this call.
    @discardableResult
    private func refreshWatches() -> [String] {
        var added: [String] = []
        for target in targets {
            if isDirectory(target) {
                guard !inotify.watchedFolders.contains(target) else { continue }
                do throws(SystemError) {
                    try inotify.watch(target, mask: Self.fileMask)
                    added.append(target)
                    log.verbose("watching \(target)")
                } catch {
                    log.warning("cannot watch \(target): \(error)")
                }
            } else if let parent = nearestExistingParent(of: target), !inotify.watchedFolders.contains(parent) {
                // A target parent gets its full mask when its own turn in this loop comes.
                try? inotify.watch(parent, mask: targets.contains(parent) ? Self.fileMask : Self.parentMask)
            }
        }
        return added
    }

    /// Paths of files that were just completed in a watched target folder, in event order. A
    /// folder created on the way is watched and scanned for files written before its watch.
    func readEvents() -> [String] {
        var paths: [String] = []
        for event in inotify.read() {
            if event.has(IN_Q_OVERFLOW) {
                log.warning("inotify queue overflowed; rescanning the screenshot folders")
                refreshWatches()
                paths += targets.flatMap { recentFiles(in: $0) }
                continue
            }
            if event.has(IN_ISDIR) || event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF) {
                for folder in refreshWatches() { paths += recentFiles(in: folder) }
                continue
            }
            guard targets.contains(event.folder), event.has(IN_CLOSE_WRITE) || event.has(IN_MOVED_TO) else { continue }
            guard ScreenshotFileClassifier.looksLikeImage(event.name) else { continue }
            paths.append(event.path)
        }
        return paths
    }

    /// Image files in `folder` written in the last few seconds (not following links).
    func recentFiles(in folder: String, since: Double? = nil) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        let cutoff = since ?? (now() - ScreenshotFileClassifier.maximumAge)
        var found: [(String, Double)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard ScreenshotFileClassifier.looksLikeImage(name) else { continue }
            var status = stat()
            let path = folder + "/" + name
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            let modified = seconds(status.st_mtim)
            if modified >= cutoff { found.append((path, modified)) }
        }
        return found.sorted { $0.1 < $1.1 }.map(\.0)
    }

    /// The newest strongly named screenshot in the target folders written since `since`.
    func newestScreenshot(since: Double) -> String? {
        let candidates = targets.flatMap { folder in recentFiles(in: folder, since: since).map { ($0, folder) } }
            .filter { ScreenshotFileClassifier.isStronglyNamed($0.0) }
        return candidates.max { modifiedTime($0.0) < modifiedTime($1.0) }?.0
    }

    private func modifiedTime(_ path: String) -> Double {
        var status = stat()
        guard lstat(path, &status) == 0 else { return 0 }
        return seconds(status.st_mtim)
    }

    private func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    private func nearestExistingParent(of path: String) -> String? {
        var current = path
        while let slash = current.lastIndex(of: "/") {
            current = slash == current.startIndex ? "/" : String(current[..<slash])
            if isDirectory(current) { return current }
            if current == "/" { return nil }
        }
        return nil
    }

    static func normalized(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
}

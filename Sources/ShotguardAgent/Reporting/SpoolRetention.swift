// Keeps the spool bounded: the newest N report folders stay, the oldest go first.
import Glibc
import ShotguardBase
import ShotguardImaging

/// `--keep N` and `--keep-for DURATION`. Report folders are named by time
/// (`20261129-140703-120`), so name order is age order; anything else in the spool (hidden
/// partial folders, a user's own files) is left alone.
public struct SpoolRetention {
    public let folder: String
    public let keep: Int
    /// Reports older than this many seconds go (by their folder's modification time); nil keeps
    /// them whatever their age.
    public let keepFor: Double?

    public init(folder: String, keep: Int, keepFor: Double? = nil) {
        self.folder = folder
        self.keep = keep
        self.keepFor = keepFor
    }

    /// Removes the report folders older than `keepFor` (at `now`, wall seconds), then the oldest
    /// beyond `keep`. Returns the names removed; a folder that cannot be removed is left as it
    /// is (the next write tries again).
    @discardableResult
    public func prune(now: Double = ShotguardBase.now()) -> [String] {
        var reports = reportNames()
        var removed: [String] = []
        if let keepFor {
            for name in reports where age(of: name, now: now).map({ $0 > keepFor }) ?? false && removeReport(name) {
                removed.append(name)
            }
            reports.removeAll { removed.contains($0) }
        }
        guard reports.count > keep else { return removed }
        for name in reports.prefix(reports.count - keep) where removeReport(name) { removed.append(name) }
        return removed
    }

    /// How old a report folder is, by its modification time.
    public func age(of name: String, now: Double) -> Double? {
        var status = stat()
        guard lstat(folder + "/" + name, &status) == 0 else { return nil }
        return now - seconds(status.st_mtim)
    }

    /// Removes one report folder by name; false when it is not a report or cannot be removed.
    @discardableResult
    public func remove(_ name: String) -> Bool { Self.isReportID(name) && removeReport(name) }

    /// The report folders in the spool, oldest first.
    public func reportNames() -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard Self.isReportID(name) else { continue }
            if entry.pointee.d_type == UInt8(DT_DIR) || entry.pointee.d_type == UInt8(DT_UNKNOWN) && isFolder(name) {
                names.append(name)
            }
        }
        return names.sorted()
    }

    /// For file systems whose `readdir` does not give the entry's type.
    private func isFolder(_ name: String) -> Bool {
        var status = stat()
        return lstat(folder + "/" + name, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// `YYYYMMDD-HHMMSS-mmm`, optionally followed by a suffix that keeps IDs unique.
    public static func isReportID(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count >= 19, bytes[8] == UInt8(ascii: "-"), bytes[15] == UInt8(ascii: "-") else { return false }
        return (Array(0..<8) + Array(9..<15) + Array(16..<19)).allSatisfy { (0x30...0x39).contains(bytes[$0]) }
    }

    /// Removes the files directly in one report folder, then the folder, through descriptors
    /// opened without following links, so a link placed in the spool cannot aim the removal
    /// elsewhere. A folder holding subfolders stays.
    private func removeReport(_ name: String) -> Bool {
        let parent = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard parent >= 0 else { return false }
        defer { close(parent) }
        let child = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard child >= 0, let directory = fdopendir(child) else { return false }
        // Names as bytes: a file name need not be UTF-8.
        var files: [[CChar]] = []
        while let entry = readdir(directory) {
            let file = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) + [0] }
                .map { CChar(bitPattern: $0) }
            if file != [0x2E, 0], file != [0x2E, 0x2E, 0] { files.append(file) }
        }
        for file in files { unlinkat(child, file, 0) }
        closedir(directory)
        return unlinkat(parent, name, AT_REMOVEDIR) == 0
    }
}

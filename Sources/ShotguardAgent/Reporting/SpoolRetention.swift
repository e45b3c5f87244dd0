// Keeps the spool bounded: the newest N report folders stay, the oldest go first.
import Glibc
import ShotguardImaging

/// `--keep N`. Report folders are named by time (`20261129-140703-120`), so name order is age
/// order; anything else in the spool (hidden partial folders, a user's own files) is left alone.
struct SpoolRetention {
    let folder: String
    let keep: Int

    /// Removes the oldest report folders beyond `keep`. Returns the names removed; a folder
    /// that cannot be removed is left as it is (the next write tries again).
    @discardableResult
    func prune() -> [String] {
        let reports = reportNames()
        guard reports.count > keep else { return [] }
        var removed: [String] = []
        for name in reports.prefix(reports.count - keep) where removeReport(name) { removed.append(name) }
        return removed
    }

    /// The report folders in the spool, oldest first.
    func reportNames() -> [String] {
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
    static func isReportID(_ name: String) -> Bool {
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

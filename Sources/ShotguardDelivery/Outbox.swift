// The queue of reports on disk: one private folder per report (report.json, image.png, entry.json),
// written whole before any attempt, so nothing queued is lost to a crash, a restart or a reboot.
import Glibc
import ShotguardBase

/// `FOLDER/SEQUENCE-REPORTID/`: 0700 folders, 0600 files. A report is written into a hidden
/// `.partial-…` folder and renamed into place, so a crash leaves either the whole entry or a
/// partial folder that the next load removes. The state (`entry.json`) is rewritten atomically
/// after each attempt. The caller prepares `folder` as a private folder.
public final class Outbox {
    public let folder: String
    /// The lock file's descriptor while this process delivers the queue.
    private var lockDescriptor: Int32 = -1

    /// A report.json or entry.json larger than this was not written by the agent.
    static let documentLimit = 4 << 20
    /// A queued image larger than this was not either (guard decodes at most 64 MiB images).
    static let imageLimit = 256 << 20

    public init(folder: String) {
        self.folder = folder
    }

    deinit { if lockDescriptor >= 0 { close(lockDescriptor) } }

    public func path(of entry: OutboxEntry) -> String { folder + "/" + entry.name }
    public func reportPath(of entry: OutboxEntry) -> String { path(of: entry) + "/report.json" }
    public func imagePath(of entry: OutboxEntry) -> String { path(of: entry) + "/image.png" }

    /// Takes the queue's lock (`flock` on `FOLDER/lock`): only its holder sends, so two
    /// processes never deliver the same report at once. False when another process holds it.
    public func lock() throws(FileError) -> Bool {
        if lockDescriptor >= 0 { return true }
        let path = folder + "/lock"
        let fd = try retryingInterrupts(path, "open") { open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(fd)
            if code == EWOULDBLOCK { return false }
            throw FileError(.io, path: path, "cannot lock: \(errnoText(code))")
        }
        lockDescriptor = fd
        return true
    }

    /// The folder's modification time: it changes when an entry is added or removed.
    public var stamp: Double? {
        var status = stat()
        guard stat(folder, &status) == 0 else { return nil }
        return seconds(status.st_mtim)
    }

    /// Every entry, in queue order, and the folders that are not readable entries (with why).
    /// Partial folders left by a crash are removed.
    public func load() -> (entries: [OutboxEntry], unreadable: [(name: String, why: String)]) {
        var entries: [OutboxEntry] = []
        var unreadable: [(name: String, why: String)] = []
        for name in names() {
            if name.hasPrefix(".partial-") {
                removeFolder(name)
                continue
            }
            guard OutboxEntry.sequence(of: name) != nil else { continue }
            switch read(name) {
            case .success(let entry): entries.append(entry)
            case .failure(let error): unreadable.append((name, error.message))
            }
        }
        return (entries.sorted { $0.sequence < $1.sequence }, unreadable)
    }

    /// One entry read back from its folder.
    public func read(_ name: String) -> Result<OutboxEntry, FileError> {
        let base = folder + "/" + name
        do throws(FileError) {
            let bytes = try readPrivate(base + "/entry.json", limit: Self.documentLimit)
            let size = fileSize(base + "/report.json") + fileSize(base + "/image.png")
            guard let entry = OutboxEntry(name: name, json: bytes, bytes: size) else {
                return .failure(FileError(.io, path: base + "/entry.json", "not a queue entry shotguard wrote"))
            }
            return .success(entry)
        } catch {
            return .failure(error)
        }
    }

    /// Queues a report: its files first, then its state, then the folder renamed into place and
    /// the rename made durable. Returns the entry as written.
    public func add(sequence: Int, reportID: String, eventID: String, created: Double, held: Bool, destinations: [Destination],
                    report: [UInt8], image: [UInt8]?) throws(FileError) -> OutboxEntry {
        let name = OutboxEntry.name(sequence: sequence, reportID: reportID)
        let partial = folder + "/.partial-" + name
        guard mkdir(partial, 0o700) == 0 else {
            throw FileError(.io, path: partial, "cannot create the queue entry: \(errnoText())")
        }
        let entry = OutboxEntry(name: name, sequence: sequence, reportID: reportID, eventID: eventID, created: created, held: held,
                                deliveries: destinations.map { Delivery(to: $0.spec, headerFile: $0.headerFile) },
                                bytes: report.count + (image?.count ?? 0), hasImage: image != nil)
        do throws(FileError) {
            try FileIO.writeAtomically(report, to: partial + "/report.json", mode: 0o600)
            if let image { try FileIO.writeAtomically(image, to: partial + "/image.png", mode: 0o600) }
            try FileIO.writeAtomically(Array(entry.json.text.utf8), to: partial + "/entry.json", mode: 0o600)
            guard rename(partial, folder + "/" + name) == 0 else {
                throw FileError(.io, path: folder + "/" + name, "cannot move the queue entry into place: \(errnoText())")
            }
        } catch {
            removeFolder(".partial-" + name)
            throw error
        }
        syncFolder()
        return entry
    }

    /// Writes `entry`'s state: atomically (a new file renamed over the old), not synced. A state
    /// lost to a power cut is an older one, and at worst a report is sent again; syncing after
    /// each attempt cost a disk flush per report in a backlog.
    public func save(_ entry: OutboxEntry) throws(FileError) {
        let path = path(of: entry) + "/entry.json"
        let temporary = path + ".new"
        let file = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode: 0o600)
        do throws(FileError) {
            try file.writeAll(Array(entry.json.text.utf8))
            try file.close()
        } catch {
            try? file.close()  // the write failed: its error is the one to report
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let reason = errnoText()
            unlink(temporary)
            throw FileError(.io, path: path, "rename into place: \(reason)")
        }
    }

    /// The report.json of `entry`.
    public func report(of entry: OutboxEntry) throws(FileError) -> [UInt8] {
        try readPrivate(reportPath(of: entry), limit: Self.documentLimit)
    }

    /// The image of `entry`, when it has one.
    public func image(of entry: OutboxEntry) throws(FileError) -> [UInt8]? {
        entry.hasImage ? try readPrivate(imagePath(of: entry), limit: Self.imageLimit) : nil
    }

    /// Replaces the report.json of `entry` (a description the user added).
    public func replaceReport(of entry: OutboxEntry, with json: [UInt8]) throws(FileError) {
        try FileIO.writeAtomically(json, to: reportPath(of: entry), mode: 0o600)
    }

    /// Deletes the image of a report every destination has (it is the screen; the spool keeps its own copy).
    public func dropImage(of entry: inout OutboxEntry) {
        guard entry.hasImage else { return }
        let size = fileSize(imagePath(of: entry))
        unlink(imagePath(of: entry))
        entry.hasImage = false
        entry.bytes = max(0, entry.bytes - size)
    }

    /// Removes an entry's folder; false when it could not be removed.
    @discardableResult
    public func remove(_ name: String) -> Bool { removeFolder(name) }

    /// A file of the queue: a regular file (a link is not followed), within `limit`.
    private func readPrivate(_ path: String, limit: Int) throws(FileError) -> [UInt8] {
        let file = try FileDescriptor.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        defer { try? file.close() }  // read-only: nothing a close could still lose
        var status = stat()
        guard fstat(file.rawValue, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw FileError(.io, path: path, "not a regular file")
        }
        return try file.readAll(limit: limit)
    }

    private func fileSize(_ path: String) -> Int {
        var status = stat()
        return lstat(path, &status) == 0 ? Int(status.st_size) : 0
    }

    /// The names in the folder (entries, partial folders, the lock).
    private func names() -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// A rename is durable once its folder is synced: a report queued before a power cut is there after it.
    private func syncFolder() {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Removes the files directly in `name`, then the folder, through descriptors opened
    /// without following links: a link placed in the queue cannot aim the removal elsewhere.
    @discardableResult
    private func removeFolder(_ name: String) -> Bool {
        let parent = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard parent >= 0 else { return false }
        defer { close(parent) }
        let child = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard child >= 0, let directory = fdopendir(child) else { return false }
        var files: [[CChar]] = []
        while let entry = readdir(directory) {
            let file = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) + [0] }.map { CChar(bitPattern: $0) }
            if file != [0x2E, 0], file != [0x2E, 0x2E, 0] { files.append(file) }
        }
        for file in files { unlinkat(child, file, 0) }
        closedir(directory)
        return unlinkat(parent, name, AT_REMOVEDIR) == 0
    }
}

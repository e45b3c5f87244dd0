// Replaces a user's screenshot file with its redacted version without ever losing either one.
import CShotguardSys
import Glibc
import ShotguardBase
import ShotguardImaging

/// What identifies the file that was read: if any of it changed, someone else wrote the path
/// since, and that file was not read, so it must not be replaced.
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: timespec
    let accessed: timespec
    let mode: UInt32
    let owner: UInt32
    let group: UInt32
    /// How many names the file has (hard links).
    let links: Int

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = status.st_mtim
        accessed = status.st_atim
        mode = status.st_mode
        owner = status.st_uid
        group = status.st_gid
        links = Int(status.st_nlink)
    }

    /// The identity of what `path` names now (the link itself, never its target).
    static func of(path: BytePath) -> FileIdentity? {
        var status = stat()
        return path.withCString { lstat($0, &status) } == 0 ? FileIdentity(status) : nil
    }

    static func of(fd: Int32) -> FileIdentity? {
        var status = stat()
        return fstat(fd, &status) == 0 ? FileIdentity(status) : nil
    }

    /// The identity as a stamp (device, inode, size, mtime), as the quarantine records files.
    var stamp: FileStamp {
        FileStamp(device: device, inode: inode, size: size, modifiedSeconds: Int64(modified.tv_sec),
                  modifiedNanoseconds: Int64(modified.tv_nsec))
    }

    /// Same file, same content as far as the file system tells: device, inode, size, mtime.
    func isSameFile(as other: FileIdentity) -> Bool {
        device == other.device && inode == other.inode && size == other.size
            && modified.tv_sec == other.modified.tv_sec && modified.tv_nsec == other.modified.tv_nsec
    }

    static func == (left: FileIdentity, right: FileIdentity) -> Bool { left.isSameFile(as: right) }
}

/// Why a rewrite did not happen.
struct RewriteError: Error, CustomStringConvertible {
    enum Kind { case io, changed }
    let kind: Kind
    let description: String
}

/// A rewrite in two steps, so that every crash point is safe and testable:
/// `prepare` writes the new bytes to a hidden temporary file beside the original (same mode,
/// owner and times, `fsync`ed); `commit` swaps it into place only if the path still names the
/// file that was read. A crash before the swap leaves the original and a temporary file that
/// `removeLeftovers` deletes at the next start; after it, the complete new file.
struct FileRewrite {
    static let temporaryPrefix = ".shotguard-rewrite-"
    static let temporarySuffix = ".tmp"

    let path: BytePath
    let original: FileIdentity
    private(set) var temporary: BytePath?

    init(path: BytePath, original: FileIdentity) {
        self.path = path
        self.original = original
    }

    var folder: BytePath { path.parent ?? "." }

    /// Writes `bytes` to a new temporary file in the original's folder.
    mutating func prepare(_ bytes: [UInt8]) throws(RewriteError) {
        let name = folder.appending(BytePath(Self.temporaryPrefix + randomHex() + Self.temporarySuffix))
        let fd = name.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw RewriteError(kind: .io, description: "cannot create a file beside \(path): \(errnoText())") }
        temporary = name
        do throws(RewriteError) {
            if RewriteCrashPoint.configured == .write {
                try writeAll(Array(bytes.prefix(bytes.count / 2)), to: fd)
                RewriteCrashPoint.reached(.write)
            }
            try writeAll(bytes, to: fd)
            // The group may differ in a setgid folder; the owner is this user (checked on read).
            if fchown(fd, original.owner, original.group) != 0, errno != EPERM {
                throw RewriteError(kind: .io, description: "cannot set the owner of \(name): \(errnoText())")
            }
            guard fchmod(fd, original.mode & 0o7777) == 0 else {
                throw RewriteError(kind: .io, description: "cannot set the mode of \(name): \(errnoText())")
            }
            // File managers sort screenshots by modification time: keep the original's.
            var times = [original.accessed, original.modified]
            guard futimens(fd, &times) == 0 else {
                throw RewriteError(kind: .io, description: "cannot set the times of \(name): \(errnoText())")
            }
            // A full disk can show only here: delayed allocation reports ENOSPC at fsync.
            guard fsync(fd) == 0 else { throw RewriteError(kind: .io, description: "cannot write \(name): \(errnoText())") }
        } catch {
            close(fd)
            abandon()
            throw error
        }
        guard close(fd) == 0 else {
            let reason = errnoText()
            abandon()
            throw RewriteError(kind: .io, description: "cannot write \(name): \(reason)")
        }
    }

    /// What a commit left: nothing, or the original under the temporary name because it has
    /// other names too (linked while it was being rewritten), for the caller to overwrite in
    /// its own inode and then remove (`finishOtherNames`).
    enum CommitOutcome: Equatable {
        case replaced
        case originalHasOtherNames(at: BytePath)
    }

    /// Puts the prepared file in place of the original, if the path still names the file that
    /// was read. With `RENAME_EXCHANGE` the check and the swap cannot be raced: what was swapped
    /// out is checked afterwards and swapped back when it is not the file that was read. An
    /// original that got another name meanwhile (a hard link made while guard worked) is left
    /// under the temporary name: that name of it must be redacted too.
    @discardableResult
    mutating func commit() throws(RewriteError) -> CommitOutcome {
        guard let temporary else { throw RewriteError(kind: .io, description: "nothing was prepared for \(path)") }
        guard let current = FileIdentity.of(path: path), current.isSameFile(as: original) else {
            abandon()
            throw RewriteError(kind: .changed, description: "\(path) changed after it was read")
        }
        RewriteCrashPoint.reached(.rename)
        if exchange(temporary, path) == 0 {
            RewriteCrashPoint.reached(.renamed)
            if let swappedOut = FileIdentity.of(path: temporary), swappedOut.isSameFile(as: original) {
                if swappedOut.links > 1 {
                    self.temporary = nil
                    syncFolder()
                    return .originalHasOtherNames(at: temporary)
                }
                temporary.withCString { _ = unlink($0) }
            } else {
                // Someone replaced the file between the check and the swap: put theirs back.
                _ = exchange(temporary, path)
                abandon()
                throw RewriteError(kind: .changed, description: "\(path) changed while it was being replaced")
            }
        } else if errno == EINVAL || errno == ENOSYS {
            // File systems without RENAME_EXCHANGE: the check above, then a plain rename.
            guard temporary.withCString({ from in path.withCString { rename(from, $0) } }) == 0 else {
                let reason = errnoText()
                abandon()
                throw RewriteError(kind: .io, description: "cannot replace \(path): \(reason)")
            }
            RewriteCrashPoint.reached(.renamed)
        } else {
            let reason = errnoText()
            abandon()
            throw RewriteError(kind: .io, description: "cannot replace \(path): \(reason)")
        }
        self.temporary = nil
        syncFolder()
        return .replaced
    }

    /// Writes `bytes` over the file's own inode, for a file with other names (hard links) that a
    /// rename would leave holding the original. Checked to be the file that was read, opened
    /// without following links; the caller keeps a copy of the original first.
    func overwriteInPlace(_ bytes: [UInt8]) throws(RewriteError) {
        let fd = path.withCString { open($0, O_WRONLY | O_NOFOLLOW | O_CLOEXEC) }
        guard fd >= 0 else { throw RewriteError(kind: .io, description: "cannot open \(path): \(errnoText())") }
        defer { close(fd) }
        try overwrite(fd: fd, with: bytes)
    }

    /// Writes `bytes` over the file open as `fd` (for writing), if it is still the file that was
    /// read: every name of it shows them. Its times are kept.
    func overwrite(fd: Int32, with bytes: [UInt8]) throws(RewriteError) {
        guard let current = FileIdentity.of(fd: fd), current.isSameFile(as: original) else {
            throw RewriteError(kind: .changed, description: "\(path) changed after it was read")
        }
        // Emptied first: on a full disk the old bytes' blocks are what the new ones need (the
        // caller kept the original elsewhere first).
        guard ftruncate(fd, 0) == 0 else { throw RewriteError(kind: .io, description: "cannot truncate \(path): \(errnoText())") }
        do throws(FileError) {
            try FileDescriptor(fd, name: path.description).writeAll(bytes, at: 0)
        } catch {
            throw RewriteError(kind: .io, description: "cannot write \(path): \(error.code.map { errnoText($0) } ?? error.message)")
        }
        guard ftruncate(fd, off_t(bytes.count)) == 0 else {
            throw RewriteError(kind: .io, description: "cannot truncate \(path): \(errnoText())")
        }
        var times = [original.accessed, original.modified]
        _ = futimens(fd, &times)
        guard fsync(fd) == 0 else { throw RewriteError(kind: .io, description: "cannot write \(path): \(errnoText())") }
    }

    /// Deletes the temporary file, if one was made.
    mutating func abandon() {
        if let temporary { temporary.withCString { _ = unlink($0) } }
        temporary = nil
    }

    private func exchange(_ from: BytePath, _ to: BytePath) -> Int32 {
        from.withCString { source in to.withCString { sg_rename_exchange(source, $0) } }
    }

    /// The rename is durable only once the folder is synced.
    private func syncFolder() {
        let fd = folder.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    private func writeAll(_ bytes: [UInt8], to fd: Int32) throws(RewriteError) {
        do throws(FileError) {
            try FileDescriptor(fd, name: path.description).writeAll(bytes)
        } catch {
            throw RewriteError(kind: .io, description: "cannot write beside \(path): \(error.code.map { errnoText($0) } ?? error.message)")
        }
    }

    /// Deletes temporary files of this naming pattern that a crash left in `folder` (this
    /// user's regular files only). Returns their paths.
    static func removeLeftovers(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var removed: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard isTemporaryName(name) else { continue }
            let path = folder + "/" + name
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == getuid() else { continue }
            if unlink(path) == 0 { removed.append(path) }
        }
        return removed
    }

    static func isTemporaryName(_ name: String) -> Bool {
        guard name.hasPrefix(temporaryPrefix), name.hasSuffix(temporarySuffix) else { return false }
        let middle = name.dropFirst(temporaryPrefix.count).dropLast(temporarySuffix.count)
        return middle.count == 16 && middle.allSatisfy { $0.isHexDigit }
    }
}

/// 16 random hex digits from the kernel, for names nobody can guess in advance.
func randomHex() -> String {
    var value: UInt64 = 0
    if withUnsafeMutableBytes(of: &value, { getrandom($0.baseAddress, 8, 0) }) != 8 {
        value = UInt64(truncatingIfNeeded: monotonicNow().bitPattern) ^ UInt64(getpid())
    }
    return String(value, radix: 16).leftPadded(to: 16)
}

/// Where a rewrite kills its own process, for the end-to-end tests of the crash points: the
/// environment's `SHOTGUARD_CRASH_AT` names one (`write`: half the new bytes written, none
/// synced; `rename`: the new file complete, before the swap; `renamed`: after the swap, before
/// the original that was swapped out is deleted). Debug builds only (the tests'): a release
/// build ignores the variable, so a stray one in a session cannot switch guard off.
enum RewriteCrashPoint: String, Sendable {
    case write, rename, renamed

    #if DEBUG
    static let configured: RewriteCrashPoint? = getenv("SHOTGUARD_CRASH_AT").flatMap { RewriteCrashPoint(rawValue: String(cString: $0)) }
    #else
    static let configured: RewriteCrashPoint? = nil
    #endif

    /// SIGKILL, as a power cut or the OOM killer would: no handler, no clean-up runs.
    static func reached(_ point: RewriteCrashPoint) {
        if configured == point { raise(SIGKILL) }
    }
}

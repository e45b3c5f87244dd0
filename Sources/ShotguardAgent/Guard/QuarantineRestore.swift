// `quarantine restore`: the stored bytes back at the exact path, never over a file written since.
import Glibc
import ShotguardBase

extension QuarantineStore {
    /// Writes `entry`'s original to `target`, or to the exact bytes of the path it was taken
    /// from (a name that is not UTF-8 included), atomically, with the original's mode where the
    /// entry knows it (0600 otherwise), and records the file in the restored list first, so the
    /// agent never guards it again. Refuses a target that is not a regular file, and, without
    /// `force`, a file there that guard did not leave: one that differs from what the entry
    /// recorded, or, where it recorded nothing, one modified after the entry was made.
    /// Returns the path written.
    public func restore(_ entry: QuarantineEntry, to target: BytePath? = nil, force: Bool = false,
                        now: Double = ShotguardBase.now()) throws(QuarantineError) -> BytePath {
        let path = target ?? BytePath(bytes: entry.originalPathBytes)
        guard !path.bytes.isEmpty else { throw QuarantineError("\(entry.id) records no path to restore to; give -o PATH") }
        try checkTarget(path, entry: entry, force: force)
        let bytes = try originalBytes(of: entry)
        let folder = path.parent ?? "."
        let temporary = folder.appending(BytePath(FileRewrite.temporaryPrefix + randomHex() + FileRewrite.temporarySuffix))
        let fd = temporary.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw QuarantineError("cannot create a file beside \(path): \(errnoText())") }
        let file = FileDescriptor(fd, name: path.description)
        do throws(QuarantineError) {
            do throws(FileError) {
                try file.writeAll(bytes)
                if let mode = entry.mode { try retryingInterrupts(path.description, "fchmod") { fchmod(fd, mode_t(mode)) } }
                try retryingInterrupts(path.description, "fsync") { fsync(fd) }
            } catch {
                throw QuarantineError("cannot write \(path): \(error.message)")
            }
            // The name moves, the inode, size and mtime stay: the list names the file renamed into place.
            guard let stamp = FileStamp.of(fd: fd) else { throw QuarantineError("cannot stat the restored file: \(errnoText())") }
            try RestoredFiles(store: self).add(stamp, now: now)
            do throws(FileError) {
                try file.close()
            } catch {
                throw QuarantineError("cannot write \(path): \(error.message)")
            }
            guard temporary.withCString({ from in path.withCString { rename(from, $0) } }) == 0 else {
                throw QuarantineError("cannot put the original in place at \(path): \(errnoText())")
            }
        } catch {
            // The descriptor may be closed already (then EBADF); the original is still in its
            // entry whatever happened, and the temporary file goes.
            try? file.close()
            temporary.withCString { _ = unlink($0) }
            throw error
        }
        syncFolder(folder)
        return path
    }

    /// The refusals, before anything is read or written.
    private func checkTarget(_ path: BytePath, entry: QuarantineEntry, force: Bool) throws(QuarantineError) {
        var status = stat()
        guard path.withCString({ lstat($0, &status) }) == 0 else {
            if errno == ENOENT { return }  // a new name
            throw QuarantineError("cannot look at \(path): \(errnoText())")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw QuarantineError("\(path) is not a regular file (\(Self.kind(of: status.st_mode))): nothing was restored; "
                + "give -o PATH to write the original elsewhere", kind: .notARegularFile)
        }
        guard !force else { return }
        let current = FileStamp(status)
        if let left = entry.leftBehind {
            guard current != left else { return }
            throw QuarantineError("\(path) is not the file guard left there (it was changed or replaced since \(Log.iso8601(entry.time))): "
                + "nothing was restored; --force replaces it, -o PATH writes the original elsewhere", kind: .wouldOverwrite)
        }
        guard current.modified <= entry.time else {
            throw QuarantineError("\(path) was modified at \(Log.iso8601(current.modified)), after the original was set aside at "
                + "\(Log.iso8601(entry.time)): nothing was restored; --force replaces it, -o PATH writes the original elsewhere",
                kind: .wouldOverwrite)
        }
    }

    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        default: return "an unknown kind of file"
        }
    }

    /// The rename is durable only once the folder is synced.
    private func syncFolder(_ folder: BytePath) {
        let fd = folder.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}

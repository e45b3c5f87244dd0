// Reading inputs and writing outputs: bounded reads, atomic writes, `-` for stdin/stdout.
import CShotguardSys
import Glibc

public enum FileIO {
    /// Reads a whole file (or standard input for `-`), refusing more than `limit` bytes.
    public static func read(_ path: String, limit: Int) throws(FileError) -> [UInt8] {
        if path == "-" { return try FileDescriptor(STDIN_FILENO, name: path).readAll(limit: limit) }
        let file = try FileDescriptor.open(path, O_RDONLY)
        defer { try? file.close() }  // read-only: nothing a close could still lose
        return try file.readAll(limit: limit)
    }

    /// Reads an open descriptor to its end, refusing more than `limit` bytes.
    public static func read(fd: Int32, name path: String, limit: Int) throws(FileError) -> [UInt8] {
        try FileDescriptor(fd, name: path).readAll(limit: limit)
    }

    /// When a write waits for its bytes to reach the disk (`fsync`) before the rename.
    public enum Durability: Sendable {
        /// Always: after a crash the name holds the old bytes or the new ones.
        case always
        /// Only when something is there under the name, whose bytes a crash must not take. A new
        /// name is taken without waiting (`RENAME_NOREPLACE`, so nothing that appeared under it
        /// meanwhile is replaced unsynced): a crash in the next seconds may leave that new file
        /// empty or absent, and an error the disk reports only on write-back goes unseen, but
        /// nothing that was there before is lost. For what a command makes at its user's asking
        /// (a capture, a redacted copy); the agent's own files are always synced. `fsync` took
        /// 4-5 ms of a 1080p capture's 39 on ext4.
        case whenReplacing
    }

    /// Writes `bytes` to `path` atomically: a temporary file in the same folder, `fsync` (as
    /// `durability` asks), then `rename`, so a failure never leaves a partial file under the final
    /// name. `-` writes to standard output. The file gets `mode` masked by the process's umask,
    /// as `open` would.
    public static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644,
                                       durability: Durability = .always) throws(FileError) {
        try writeAtomically(to: path, mode: mode, durability: durability, failure: { $0 }) { (fd) throws(FileError) in
            try FileDescriptor(fd, name: path).writeAll(bytes)
        }
    }

    /// Like `writeAtomically(_:to:mode:durability:)`, with `body` writing the bytes to the
    /// descriptor it is given (an encoder that writes as it goes); when `body` throws, no file is
    /// left. The caller's error type `E` carries this function's own failures too, made by `failure`.
    public static func writeAtomically<E: Error>(
        to path: String, mode: mode_t = 0o644, durability: Durability = .always, failure: (FileError) -> E,
        _ body: (Int32) throws(E) -> Void
    ) throws(E) {
        if path == "-" {
            try body(STDOUT_FILENO)
            return
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let fd: Int32, temporary: String
        do throws(FileError) {
            (fd, temporary) = try createTemporary(beside: folder + "." + base, mode: mode, for: path)
        } catch {
            throw failure(error)
        }
        do throws(E) {
            try body(fd)
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        do throws(FileError) {
            try place(fd, temporary: temporary, at: path, durability: durability)
        } catch {
            throw failure(error)
        }
    }

    /// Closes the written temporary file and renames it to `path`, synced first unless
    /// `durability` lets a new name go unsynced (`placedUnsynced`). On a failure the temporary
    /// file is removed and `path` is as it was.
    private static func place(_ fd: Int32, temporary: String, at path: String,
                              durability: Durability) throws(FileError) {
        if durability == .always {
            do throws(FileError) {
                // A full disk can show only here where delayed allocation reports ENOSPC at fsync.
                try retryingInterrupts(path, "fsync") { fsync(fd) }
            } catch {
                close(fd)
                unlink(temporary)
                throw error
            }
        }
        do throws(FileError) {
            // Unsynced, a full disk shows at the write on file systems that reserve blocks then
            // (ext4, XFS, btrfs, tmpfs); NFS says a failed write-back at the close.
            try FileDescriptor(fd, name: path).close()
            if durability == .whenReplacing {
                if placedUnsynced(temporary, at: path) { return }
                // Something is there to replace: synced through a descriptor of its own.
                let file = try FileDescriptor.open(temporary, O_RDONLY | O_CLOEXEC)
                defer { try? file.close() }  // read-only: its close loses nothing
                try retryingInterrupts(path, "fsync") { fsync(file.rawValue) }
            }
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let reason = errnoText()
            unlink(temporary)
            throw FileError(.io, path: path, "rename into place: \(reason)")
        }
    }

    /// Whether `temporary` took the name `path` because nothing held it (no file, no link, not
    /// even a dangling one). False, with nothing moved, when something is there or the file
    /// system cannot rename without replacing: the caller syncs and replaces.
    public static func placedUnsynced(_ temporary: String, at path: String) -> Bool {
        sg_rename_noreplace(temporary, path) == 0
    }

    /// A new file named `prefix` and six random letters, created exclusively with `mode`,
    /// which the kernel masks with the umask as for any new file (mkstemp makes 0600, and
    /// widening that needs the umask, which only /proc tells without changing it).
    private static func createTemporary(beside prefix: String, mode: mode_t,
                                        for path: String) throws(FileError) -> (Int32, String) {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
        for _ in 0..<100 {
            let name = prefix + "." + String(decoding: (0..<6).map { _ in letters.randomElement()! }, as: UTF8.self)
            let fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            if fd >= 0 { return (fd, name) }
            // The reason read at once, before anything else can set errno.
            if errno != EEXIST { throw FileError(.io, path: path, "cannot create a file in its folder: \(errnoText())") }
        }
        throw FileError(.io, path: path, "cannot create a file in its folder: 100 names taken")
    }
}

/// The text of the current `errno`, e.g. "No such file or directory".
public func errnoText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}

// Setting a screenshot aside by moving it into quarantine: atomic, it needs no free space, and a move that cannot finish leaves the file where it was.
import CShotguardSys
import Glibc
import ShotguardBase

extension QuarantineStore {
    /// Moves the file at `path` (which must still be `expected`) into a new entry whose ID is
    /// unique (`id`, else `id-2`…). The entry is complete, under its ID, before the file is
    /// moved into it; then the file goes in by one rename, which on the same file system needs
    /// no space. On another file system it is copied in, and removed from its place only once
    /// the copy is complete. Whatever fails, the file is where it was (or, past the rename, in
    /// its complete entry): never in a folder `list` does not show.
    func move(_ path: BytePath, expected: FileIdentity, id: String, reason: String, time: Double) throws(QuarantineError) -> QuarantineEntry {
        let reservation = try reserve(id)
        let fileName = "original." + (path.pathExtension.isEmpty ? "bin" : path.pathExtension)
        let entry = QuarantineEntry(id: reservation.id, time: time, originalPath: path.description, originalPathBytes: path.bytes,
                                    reason: reason, size: Int(expected.size), folder: reservation.final,
                                    file: reservation.final + "/" + fileName, mode: expected.mode & 0o7777, leftBehind: nil)
        do throws(FileError) {
            try FileIO.writeAtomically(Array((Self.json(entry).text + "\n").utf8), to: reservation.partial + "/entry.json", mode: 0o600)
        } catch {
            removeFolder(reservation.partial)
            throw QuarantineError("cannot write the quarantine entry: \(error.description)")
        }
        guard let current = FileIdentity.of(path: path), current.isSameFile(as: expected) else {
            removeFolder(reservation.partial)
            throw QuarantineError("\(path) changed before it could be set aside")
        }
        do throws(QuarantineError) {
            try complete(reservation)
        } catch {
            removeFolder(reservation.partial)
            throw error
        }
        // From here the entry is listed; until the file is in it, undoing means removing it.
        if path.withCString({ rename($0, entry.file) }) != 0 {
            guard errno == EXDEV else {
                let why = errnoText()
                removeFolder(reservation.final)
                throw QuarantineError("cannot move \(path) into quarantine: \(why)")
            }
            try copyAcross(path, expected: expected, into: entry)
        }
        chmod(entry.file, 0o600)
        return entry
    }

    /// Another file system: the file copied into its entry, then removed from its place if it
    /// is still the file that was copied. On a failure the entry goes and the file stays.
    private func copyAcross(_ path: BytePath, expected: FileIdentity, into entry: QuarantineEntry) throws(QuarantineError) {
        // Read by the path's exact bytes: its shown form escapes a name that is not UTF-8.
        let fd = path.withCString { open($0, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) }
        guard fd >= 0 else {
            let why = errnoText()
            removeFolder(entry.folder)
            throw QuarantineError("cannot open \(path) to copy it into quarantine: \(why)")
        }
        defer { close(fd) }
        do throws(FileError) {
            let bytes = try FileIO.read(fd: fd, name: path.description, limit: 1 << 30)
            try FileIO.writeAtomically(bytes, to: entry.file, mode: 0o600)
        } catch {
            removeFolder(entry.folder)
            throw QuarantineError("cannot copy \(path) into quarantine: \(error.description)")
        }
        guard let current = FileIdentity.of(path: path), current.isSameFile(as: expected) else {
            removeFolder(entry.folder)
            throw QuarantineError("\(path) changed while it was copied into quarantine")
        }
        guard path.withCString({ unlink($0) }) == 0 else {
            let why = errnoText()
            removeFolder(entry.folder)
            throw QuarantineError("copied \(path) into quarantine, but cannot remove it from its place: \(why)")
        }
    }
}

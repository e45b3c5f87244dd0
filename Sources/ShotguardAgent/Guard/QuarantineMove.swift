// Setting a screenshot aside by moving it into quarantine: atomic, and it needs no free space.
import Glibc
import ShotguardBase

extension QuarantineStore {
    /// Moves the file at `path` (which must still be `expected`) into a new entry `id`. On the
    /// same file system this is a rename: nothing is copied, so a full disk cannot stop it. On
    /// another it is copied, then removed from its place. The entry is complete before the
    /// path is touched... except for the rename itself, which is the move.
    func move(_ path: BytePath, expected: FileIdentity, id: String, reason: String, time: Double) throws(QuarantineError) -> QuarantineEntry {
        let (partial, final) = try newEntryFolder(id: id)
        let fileName = "original." + (path.pathExtension.isEmpty ? "bin" : path.pathExtension)
        let entry = QuarantineEntry(id: id, time: time, originalPath: path.description, originalPathBytes: path.bytes, reason: reason,
                                    size: Int(expected.size), folder: final, file: final + "/" + fileName,
                                    mode: expected.mode & 0o7777, leftBehind: nil)
        func abandon() {
            unlink(partial + "/entry.json")
            rmdir(partial)
        }
        do throws(FileError) {
            try FileIO.writeAtomically(Array((Self.json(entry).text + "\n").utf8), to: partial + "/entry.json", mode: 0o600)
        } catch {
            abandon()
            throw QuarantineError("cannot write the quarantine entry: \(error.description)")
        }
        guard let current = FileIdentity.of(path: path), current.isSameFile(as: expected) else {
            abandon()
            throw QuarantineError("\(path) changed before it could be set aside")
        }
        let target = partial + "/" + fileName
        if path.withCString({ rename($0, target) }) != 0 {
            guard errno == EXDEV else {
                let reason = errnoText()
                abandon()
                throw QuarantineError("cannot move \(path) into quarantine: \(reason)")
            }
            // Another file system: copy, then remove the original.
            do throws(FileError) {
                let bytes = try FileIO.read(path.description, limit: 1 << 30)
                try FileIO.writeAtomically(bytes, to: target, mode: 0o600)
            } catch {
                abandon()
                throw QuarantineError("cannot copy \(path) into quarantine: \(error.description)")
            }
            path.withCString { _ = unlink($0) }
        }
        chmod(target, 0o600)
        guard rename(partial, final) == 0 else {
            // The original is in the partial folder: still safe, and listed nowhere; say where.
            throw QuarantineError("\(path) was moved to \(target), but the entry could not be completed: \(errnoText())")
        }
        return entry
    }
}

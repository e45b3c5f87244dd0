// The files the holders of protected pixels write, each held open by the agent from the moment it saw it.

/// A file by device and inode: what stays the same when it is moved, renamed or linked.
struct FileKey: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64
}

/// Files a holder holds open for writing, each opened by the agent too (`HeldFile`) at first
/// sight and handed on when its writer closed it (its event, or its descriptor gone from the
/// writer's list), or when its writer exited. A file its writer opens for writing again is
/// held again: a new write (the same file handed on twice unchanged is one screenshot to the
/// tracker, which knows it by its identity). Nothing is remembered by inode once handed on:
/// the file system gives a freed inode's number to the next new file (a rewrite frees the
/// original's). Bounded: a holder that opens thousands of files (a converter run over a folder)
/// holds at most `capacity` at once.
struct HeldFiles {
    struct Entry {
        let file: HeldFile
        let writer: Int32
        /// The path its writer had it open as, when the agent first saw it.
        let firstPath: BytePath
        let heldAt: Double
    }

    private var entries: [FileKey: Entry] = [:]

    static let capacity = 128

    /// Holds `file`, which `writer` has open for writing as `path`. Returns whether it is new.
    mutating func hold(_ file: HeldFile, writer: Int32, path: BytePath, at now: Double) -> Bool {
        let key = FileKey(device: file.device, inode: file.inode)
        guard entries[key] == nil, entries.count < Self.capacity else { return false }
        entries[key] = Entry(file: file, writer: writer, firstPath: path, heldAt: now)
        return true
    }

    func entry(device: UInt64, inode: UInt64) -> Entry? { entries[FileKey(device: device, inode: inode)] }

    /// The file closed by its writer: handed on (once).
    mutating func complete(device: UInt64, inode: UInt64) -> Entry? {
        let key = FileKey(device: device, inode: inode)
        return entries.removeValue(forKey: key)
    }

    /// Every file `writer` held and no longer holds open for writing (none of `except`).
    mutating func completeAll(writtenBy writer: Int32, except: Set<FileKey> = []) -> [Entry] {
        let done = entries.filter { $0.value.writer == writer && !except.contains($0.key) }
        for key in done.keys { entries[key] = nil }
        return done.values.sorted { $0.heldAt < $1.heldAt }
    }

    /// Drops what `writer` held (it is forgotten), without handing anything on; returns them.
    @discardableResult
    mutating func forget(writtenBy writer: Int32) -> [HeldFile] {
        let dropped = entries.values.filter { $0.writer == writer }.map(\.file)
        entries = entries.filter { $0.value.writer != writer }
        return dropped
    }
}

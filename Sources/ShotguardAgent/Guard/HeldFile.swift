// A screenshot file held open from the moment the agent first saw it: read and rewritten through that descriptor wherever the file went.
import Glibc
import ShotguardBase
import Synchronization

/// A descriptor on a file that may hold protected pixels, opened when the agent first saw the
/// file (its event in a watched folder, or a reading program holding it open for writing) and
/// owned until the last copy of it goes. A name is not the file: the file may be moved,
/// renamed, linked under another name or live in another mount namespace before the agent
/// gets to it, and it is still read, and redacted, through this descriptor.
final class HeldFile: Sendable {
    let fd: Int32
    let device: UInt64
    let inode: UInt64
    private let heldForOpeners = Mutex(false)

    /// Whether the hold helper holds other programs' opens of this file (`OpenersHold`): it is
    /// then rewritten in its own inode, never renamed over.
    var isHeldForOpeners: Bool {
        get { heldForOpeners.withLock { $0 } }
        set { heldForOpeners.withLock { $0 = newValue } }
    }

    private init(fd: Int32, status: stat) {
        self.fd = fd
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    deinit { close(fd) }

    /// Opens `path` (never through a symbolic link, never blocking on a FIFO); nil unless it is
    /// a regular file, and — with `expecting` — the same file (device and inode).
    static func open(_ path: BytePath, expecting: FileIdentity? = nil) -> HeldFile? {
        adopt(path.withCString { Glibc.open($0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }, expecting: expecting)
    }

    /// Opens the file another process has open as its descriptor `descriptor`
    /// (`/proc/PID/fd/N`): the file itself, even when its name is gone or lies in another
    /// mount namespace. Needs the right to look into that process (a process of this user).
    static func open(descriptor: Int32, of pid: Int32) -> HeldFile? {
        adopt(Glibc.open("/proc/\(pid)/fd/\(descriptor)", O_RDONLY | O_NONBLOCK | O_CLOEXEC), expecting: nil)
    }

    private static func adopt(_ fd: Int32, expecting: FileIdentity?) -> HeldFile? {
        guard fd >= 0 else { return nil }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
              expecting.map({ UInt64(status.st_dev) == $0.device && UInt64(status.st_ino) == $0.inode }) ?? true else {
            close(fd)
            return nil
        }
        return HeldFile(fd: fd, status: status)
    }

    /// What the file is now (size and times change as it is written).
    var identity: FileIdentity? { FileIdentity.of(fd: fd) }

    /// Whether `identity` is this file (its device and inode, whatever its size and times).
    func isFile(_ identity: FileIdentity) -> Bool { identity.device == device && identity.inode == inode }

    /// The kernel's name for the descriptor, whatever it is (` (deleted)` at the end for a
    /// file with no name left).
    var kernelName: BytePath? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBytes {
            readlink("/proc/self/fd/\(fd)", $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count)
        }
        guard count > 0, count < buffer.count else { return nil }
        return BytePath(bytes: buffer[0..<count])
    }

    /// Whether the file now lies in the agent's own folders (set aside into quarantine): it is
    /// never guarded again.
    func lies(in own: OwnFolders) -> Bool { kernelName.map(own.contains) ?? false }

    /// Where the file is now, as this process sees it: the kernel's name for the descriptor,
    /// when that name opens this very file. Nil when the file has no name left (unlinked, an
    /// O_TMPFILE not linked yet) or its name lies in another mount namespace.
    var currentPath: BytePath? {
        guard let path = kernelName, path.bytes.first == UInt8(ascii: "/") else { return nil }
        guard let named = FileIdentity.of(path: path), isFile(named), named.mode & S_IFMT == S_IFREG else { return nil }
        // Moved into the agent's own folders (its quarantine): no longer the user's file.
        guard !OwnFolders().contains(path) else { return nil }
        return path
    }

    /// The whole file from its first byte, up to `limit` bytes, however the descriptor was used.
    func readAll(name: String, limit: Int) throws(FileError) -> [UInt8] {
        var data = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let offset = data.count
            let count = try chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(FileError) in
                    try retryingInterrupts(name, "pread") { pread(fd, buffer.baseAddress, buffer.count, off_t(offset)) }
                }
            }.get()
            if count == 0 { return data }
            guard data.count + count <= limit else { throw FileError(.tooLarge, path: name, "input is over the limit of \(limit) bytes") }
            data.append(contentsOf: chunk[0..<count])
        }
    }

    /// The file's first `count` bytes (fewer when it is shorter).
    func head(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, 0) }
        return read > 0 ? Array(bytes[0..<read]) : []
    }

    /// A new descriptor on the same file, open for writing (through `/proc/self/fd`: the file's
    /// own permissions decide, whatever its name now). The caller closes it.
    func openForWriting() -> Int32? {
        let writable = Glibc.open("/proc/self/fd/\(fd)", O_WRONLY | O_CLOEXEC)
        return writable >= 0 ? writable : nil
    }
}

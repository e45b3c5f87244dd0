// A thin inotify wrapper: watches by folder, each remembered with the inode it was made on.
import Glibc
import ShotguardBase

/// One inotify event: the watch it came from and the name it concerns, as bytes.
struct InotifyEvent {
    let watch: Int32
    let name: BytePath
    let mask: UInt32

    func has(_ flag: Int32) -> Bool { mask & UInt32(bitPattern: flag) != 0 }
}

/// A watched folder: the path it was watched by and the inode the watch sits on. A watch
/// follows its inode, not its path: after `mv` the path may name another folder, or none.
struct WatchedFolder {
    let path: BytePath
    let device: UInt64
    let inode: UInt64
}

final class Inotify {
    let fileDescriptor: Int32
    private var watches: [Int32: WatchedFolder] = [:]

    init() throws(SystemError) {
        fileDescriptor = try retrying("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
    }

    deinit { close(fileDescriptor) }

    /// Watches `folder` (not following a symlink) for `mask`; adding it again updates the mask.
    /// The folder's inode is read after the watch is in place, so a replacement made in between
    /// shows as a mismatch at the next `stale()` check rather than going unnoticed.
    func watch(_ folder: BytePath, mask: Int32) throws(SystemError) {
        let descriptor = try retrying("inotify_add_watch \(folder)") {
            folder.withCString { inotify_add_watch(fileDescriptor, $0, UInt32(bitPattern: mask | IN_ONLYDIR | IN_DONT_FOLLOW)) }
        }
        var status = stat()
        let found = folder.withCString { lstat($0, &status) } == 0
        watches[descriptor] = WatchedFolder(path: folder, device: found ? UInt64(status.st_dev) : 0,
                                            inode: found ? UInt64(status.st_ino) : 0)
    }

    /// The folder a watch was made on, while it is still in place.
    func folder(of watch: Int32) -> BytePath? { watches[watch]?.path }

    var watchedFolders: Set<BytePath> { Set(watches.values.map(\.path)) }

    /// Drops watches whose path no longer names the folder they sit on (moved away, deleted,
    /// or replaced by a new folder of the same name). Returns the paths dropped.
    @discardableResult
    func dropStale() -> [BytePath] {
        var dropped: [BytePath] = []
        for (descriptor, folder) in watches {
            var status = stat()
            let same = folder.path.withCString { lstat($0, &status) } == 0 && status.st_mode & S_IFMT == S_IFDIR
                && UInt64(status.st_dev) == folder.device && UInt64(status.st_ino) == folder.inode
            guard !same else { continue }
            inotify_rm_watch(fileDescriptor, descriptor)
            watches[descriptor] = nil
            dropped.append(folder.path)
        }
        return dropped
    }

    /// Stops watching `folder`.
    func unwatch(_ folder: BytePath) {
        for (descriptor, watched) in watches where watched.path == folder {
            inotify_rm_watch(fileDescriptor, descriptor)
            watches[descriptor] = nil
        }
    }

    /// Forgets a watch the kernel removed (`IN_IGNORED`).
    func forget(_ watch: Int32) { watches[watch] = nil }

    /// The events queued now (the descriptor is non-blocking), in order.
    func read() -> [InotifyEvent] {
        var events: [InotifyEvent] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let read = buffer.withUnsafeMutableBytes { bytes in uninterrupted { Glibc.read(fileDescriptor, bytes.baseAddress, bytes.count) } }
            guard case .success(let count) = read, count > 0 else { return events }
            var offset = 0
            buffer.withUnsafeBytes { bytes in
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    let nameEnd = min(count, nameStart + Int(event.len))
                    let name = BytePath(bytes: bytes[nameStart..<nameEnd].prefix { $0 != 0 })
                    events.append(InotifyEvent(watch: event.wd, name: name, mask: event.mask))
                    offset = nameStart + Int(event.len)
                }
            }
        }
    }
}

// A thin inotify wrapper: watches by folder path, events with the file name they concern.
import Glibc

/// One inotify event, with the folder it happened in.
struct InotifyEvent {
    let folder: String
    let name: String
    let mask: UInt32

    var path: String { name.isEmpty ? folder : folder == "/" ? "/" + name : folder + "/" + name }
    func has(_ flag: Int32) -> Bool { mask & UInt32(bitPattern: flag) != 0 }
}

final class Inotify {
    let fileDescriptor: Int32
    private var folders: [Int32: String] = [:]

    init() throws(SystemError) {
        fileDescriptor = try retrying("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
    }

    deinit { close(fileDescriptor) }

    /// Watches `folder` (not following a symlink) for `mask`; adding it again updates the mask.
    func watch(_ folder: String, mask: Int32) throws(SystemError) {
        let descriptor = try retrying("inotify_add_watch \(folder)") {
            inotify_add_watch(fileDescriptor, folder, UInt32(bitPattern: mask | IN_ONLYDIR | IN_DONT_FOLLOW))
        }
        folders[descriptor] = folder
    }

    var watchedFolders: Set<String> { Set(folders.values) }

    /// The events queued now (the descriptor is non-blocking).
    func read() -> [InotifyEvent] {
        var events: [InotifyEvent] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return events }
            var offset = 0
            buffer.withUnsafeBytes { bytes in
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    let nameBytes = bytes[nameStart..<(nameStart + Int(event.len))].prefix { $0 != 0 }
                    if event.mask & UInt32(IN_IGNORED) != 0 {
                        folders[event.wd] = nil
                    } else if let folder = folders[event.wd] ?? (event.mask & UInt32(IN_Q_OVERFLOW) != 0 ? "" : nil) {
                        events.append(InotifyEvent(folder: folder, name: String(decoding: nameBytes, as: UTF8.self),
                                                   mask: event.mask))
                    }
                    offset = nameStart + Int(event.len)
                }
            }
        }
    }
}

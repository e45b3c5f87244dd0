// The regular files a process holds open, and a descriptor that tells when a process exits.
import CShotguardSys
import Glibc

/// A regular file a process holds open: where a screenshot program is writing its image.
public struct OpenFile: Sendable, Equatable {
    public enum Access: String, Sendable {
        case read, write, readWrite
    }

    public let descriptor: Int32
    /// The path as the kernel shows it (`/proc/PID/fd/N`), as bytes; it ends in ` (deleted)`
    /// for a file removed while open, and names no folder for a memory file (`/memfd:…`).
    public let path: [UInt8]
    /// The mode it was opened in (`flags` of `/proc/PID/fdinfo/N`).
    public let access: Access

    public init(descriptor: Int32, path: [UInt8], access: Access) {
        self.descriptor = descriptor
        self.path = path
        self.access = access
    }
}

extension ProcessDetails {
    /// The most descriptors `openFiles` looks at: a process may hold thousands (sockets, pipes).
    public static let maximumDescriptorsExamined = 4096

    /// The regular files process `pid` holds open now, by descriptor, at most `limit` of them
    /// among its first `maximumDescriptorsExamined` descriptors. Empty when the process is
    /// gone or not the user's. Sockets, pipes and devices are left out.
    public static func openFiles(of pid: Int32, limit: Int = 256) -> [OpenFile] {
        guard pid > 0, limit > 0, let folder = opendir("/proc/\(pid)/fd") else { return [] }
        defer { closedir(folder) }
        var descriptors: [Int32] = []
        while descriptors.count < maximumDescriptorsExamined, let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let descriptor = Int32(name), descriptor >= 0 { descriptors.append(descriptor) }
        }
        var files: [OpenFile] = []
        for descriptor in descriptors.sorted() where files.count < limit {
            if let found = openFile(of: pid, descriptor: descriptor) { files.append(found.file) }
        }
        return files
    }

    /// Descriptor `descriptor` of process `pid`, when it is a regular file: how it was opened,
    /// and the file's device and inode.
    public static func openFile(of pid: Int32, descriptor: Int32) -> (file: OpenFile, device: UInt64, inode: UInt64)? {
        let link = "/proc/\(pid)/fd/\(descriptor)"
        var status = stat()
        // stat follows the descriptor's link to the open file itself, even a deleted one.
        guard pid > 0, stat(link, &status) == 0, status.st_mode & S_IFMT == S_IFREG, let path = ProcFile.link(link),
              let info = ProcFile.read("/proc/\(pid)/fdinfo/\(descriptor)", limit: 4096),
              let mode = access(fromInfo: info) else { return nil }
        return (OpenFile(descriptor: descriptor, path: path, access: mode), UInt64(status.st_dev), UInt64(status.st_ino))
    }

    /// The access mode in a `/proc/PID/fdinfo/N` text: its `flags:` line, in octal.
    public static func access(fromInfo text: [UInt8]) -> OpenFile.Access? {
        for line in text.split(separator: UInt8(ascii: "\n")) {
            let prefix = Array("flags:".utf8)
            guard line.starts(with: prefix) else { continue }
            let digits = String(decoding: line.dropFirst(prefix.count), as: UTF8.self).trimmingSpaces
            guard let flags = Int32(digits, radix: 8) else { return nil }
            switch flags & O_ACCMODE {
            case O_RDONLY: return .read
            case O_WRONLY: return .write
            case O_RDWR: return .readWrite
            default: return nil
            }
        }
        return nil
    }
}

/// A descriptor for process `pid` that becomes readable (in `poll`) when the process exits,
/// from `pidfd_open` (Linux 5.3); close-on-exec, the caller closes it. Opened before the
/// process is looked at in /proc, it also tells whether the pid still names the same process.
/// Nil on an older kernel, or when there is no such process.
public func pidfdOpen(_ pid: Int32) -> Int32? {
    guard pid > 0 else { return nil }
    let descriptor = sg_pidfd_open(pid)
    return descriptor >= 0 ? descriptor : nil
}

extension String {
    /// The string without spaces and tabs at either end.
    fileprivate var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}

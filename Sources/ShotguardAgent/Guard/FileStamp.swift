// What tells one file from another cheaply: device, inode, size and modification time.
import CShotguardSys
import Glibc
import ShotguardBase

/// A file as `stat` sees it, enough to tell whether a path still names the same file with the
/// same content: the file guard left in a quarantined original's place, a file a restore
/// wrote. Kept as text in JSON, since an inode need not fit a double.
public struct FileStamp: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64
    public let size: Int64
    public let modifiedSeconds: Int64
    public let modifiedNanoseconds: Int64

    public init(device: UInt64, inode: UInt64, size: Int64, modifiedSeconds: Int64, modifiedNanoseconds: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
    }

    public init(_ status: stat) {
        self.init(device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
                  modifiedSeconds: Int64(status.st_mtim.tv_sec), modifiedNanoseconds: Int64(status.st_mtim.tv_nsec))
    }

    /// What `path` names now (a link itself, never its target); nil when nothing is there.
    public static func of(path: BytePath) -> FileStamp? {
        var status = stat()
        return path.withCString { lstat($0, &status) } == 0 ? FileStamp(status) : nil
    }

    public static func of(fd: Int32) -> FileStamp? {
        var status = stat()
        return fstat(fd, &status) == 0 ? FileStamp(status) : nil
    }

    /// The modification time in seconds since the epoch.
    public var modified: Double { Double(modifiedSeconds) + Double(modifiedNanoseconds) / 1e9 }

    /// The stamp as five members named `prefix` + Device, Inode, Size, Modified (`sec.nsec`).
    func jsonMembers(prefix: String) -> [(String, JSON)] {
        [(prefix + "Device", .string(String(device))), (prefix + "Inode", .string(String(inode))),
         (prefix + "Size", .string(String(size))),
         (prefix + "Modified", .string("\(modifiedSeconds).\(String(modifiedNanoseconds).leftPadded(to: 9))"))]
    }

    /// The stamp `jsonMembers` wrote, or nil when any part is missing or malformed.
    init?(fields: [String: JSONValue], prefix: String) {
        guard let device = fields[prefix + "Device"]?.string.flatMap({ UInt64($0) }),
              let inode = fields[prefix + "Inode"]?.string.flatMap({ UInt64($0) }),
              let size = fields[prefix + "Size"]?.string.flatMap({ Int64($0) }),
              let modified = fields[prefix + "Modified"]?.string.flatMap(Self.parseTime) else { return nil }
        self.init(device: device, inode: inode, size: size, modifiedSeconds: modified.0, modifiedNanoseconds: modified.1)
    }

    /// `sec.nsec` as written above, or `sec nsec` as a line of the restored list.
    static func parseTime(_ text: String) -> (Int64, Int64)? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let seconds = Int64(parts[0]), let nanoseconds = Int64(parts[1]),
              (0..<1_000_000_000).contains(nanoseconds) else { return nil }
        return (seconds, nanoseconds)
    }
}

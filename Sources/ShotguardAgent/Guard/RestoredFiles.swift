// The files `quarantine restore` wrote: the agent leaves them alone instead of guarding them again.
import Glibc
import ShotguardBase

/// `.restored` in the quarantine folder: one line per restored file, `DEVICE INODE SIZE
/// SEC.NSEC RESTORED-AT`. Bounded (the newest `limit` lines) and pruned (lines older than
/// `maximumAge` go at each restore): a restored file that is still the same file is what the
/// agent must skip, and one changed since is an ordinary file again.
public struct RestoredFiles: Sendable {
    public static let limit = 1000
    public static let maximumAge = 30.0 * 86_400

    public let path: String

    public init(store: QuarantineStore) { path = store.folder + "/.restored" }

    /// The files in the list: none when there is no list yet. A list that exists but cannot be
    /// read is an error, never an empty list: read as empty, the next restore would rewrite it
    /// and forget every earlier one (and the agent would guard those files again).
    public func load() throws(QuarantineError) -> Set<FileStamp> { Set(try lines().map(\.stamp)) }

    /// Whether `stamp` is a file a restore wrote and nobody changed since.
    public func contains(_ stamp: FileStamp) throws(QuarantineError) -> Bool { try load().contains(stamp) }

    /// Adds `stamp`, dropping lines older than `maximumAge` and all but the newest `limit`.
    func add(_ stamp: FileStamp, now: Double) throws(QuarantineError) { try add([stamp], now: now) }

    /// Adds `stamps` in order, as one write; refused when the list there cannot be read.
    func add(_ stamps: [FileStamp], now: Double) throws(QuarantineError) {
        let added = Set(stamps)
        var kept = try lines().filter { now - $0.restoredAt < Self.maximumAge && !added.contains($0.stamp) }
        kept += stamps.map { ($0, now) }
        let text = kept.suffix(Self.limit).map { line in
            let modified = "\(line.stamp.modifiedSeconds).\(String(line.stamp.modifiedNanoseconds).leftPadded(to: 9))"
            return "\(line.stamp.device) \(line.stamp.inode) \(line.stamp.size) \(modified) \(Int64(line.restoredAt))\n"
        }.joined()
        do throws(FileError) {
            try FileIO.writeAtomically(Array(text.utf8), to: path, mode: 0o600)
        } catch {
            throw QuarantineError("cannot record the restored file in \(path): \(error.description)")
        }
    }

    private func lines() throws(QuarantineError) -> [(stamp: FileStamp, restoredAt: Double)] {
        var status = stat()
        if lstat(path, &status) != 0, errno == ENOENT { return [] }  // none yet: nothing restored
        let bytes: [UInt8]
        do throws(FileError) {
            bytes = try FileIO.read(path, limit: 1 << 20)
        } catch {
            throw QuarantineError("cannot read the list of restored files \(error.description)")
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 5, let device = UInt64(fields[0]), let inode = UInt64(fields[1]), let size = Int64(fields[2]),
                  let modified = FileStamp.parseTime(String(fields[3])), let restoredAt = Double(fields[4]) else { return nil }
            return (FileStamp(device: device, inode: inode, size: size, modifiedSeconds: modified.0, modifiedNanoseconds: modified.1),
                    restoredAt)
        }
    }
}

/// The restored list as the agent checks it for every candidate file: read again only when
/// the list file itself changed (one `lstat` a check otherwise). A list that cannot be read
/// keeps the files read last, and the failure is told once (`takeProblem`).
public final class RestoredFilesWatch {
    private let list: RestoredFiles
    private var seen: FileStamp?
    private var files: Set<FileStamp> = []
    private var problem: String?

    public init(store: QuarantineStore = QuarantineStore()) { list = RestoredFiles(store: store) }

    /// Whether `stamp` is a file `quarantine restore` wrote and nobody changed since.
    public func contains(_ stamp: FileStamp) -> Bool {
        let now = FileStamp.of(path: BytePath(list.path))
        if now != seen {
            seen = now
            do throws(QuarantineError) {
                files = now == nil ? [] : try list.load()
            } catch {
                problem = "\(error.description); the files restored before stay left alone"
            }
        }
        return files.contains(stamp)
    }

    /// Why the list could not be read, once.
    public func takeProblem() -> String? {
        defer { problem = nil }
        return problem
    }
}

extension QuarantineStore {
    /// Whether `stamp` is a file `quarantine restore` wrote and nobody changed since: the agent
    /// must not guard it again. Reads the list; `RestoredFilesWatch` keeps it between checks.
    public func isRestored(_ stamp: FileStamp) throws(QuarantineError) -> Bool { try RestoredFiles(store: self).contains(stamp) }
}

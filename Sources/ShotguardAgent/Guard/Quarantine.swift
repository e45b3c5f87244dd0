// Where guard keeps the originals of screenshots it could not place: private, listable, restorable.
import Glibc
import ShotguardBase
import ShotguardImaging

/// One set-aside original: `ID/original.EXT` and `ID/entry.json` in the quarantine folder.
public struct QuarantineEntry: Sendable {
    public let id: String
    /// When it was set aside (seconds since the epoch).
    public let time: Double
    /// The path it was taken from, as text (escaped where the name is not UTF-8).
    public let originalPath: String
    /// The exact bytes of that path, to restore it by the same name.
    public let originalPathBytes: [UInt8]
    public let reason: String
    public let size: Int
    public let folder: String
    public let file: String
}

/// Why a quarantine operation failed, as a sentence naming the entry or path.
public struct QuarantineError: Error, CustomStringConvertible, Sendable {
    public let description: String
    /// True when the user named an entry that does not exist (exit 1, with the list of ids).
    public let isUnknownEntry: Bool

    init(_ description: String, isUnknownEntry: Bool = false) {
        self.description = description
        self.isUnknownEntry = isUnknownEntry
    }
}

/// `$XDG_STATE_HOME/shotguard/quarantine` (else `~/.local/state/shotguard/quarantine`); 0700
/// folders, 0600 files, since the originals show exactly what the rules were meant to hide.
public struct QuarantineStore: Sendable {
    public let folder: String

    public init(folder: String? = nil) {
        if let folder {
            self.folder = folder
        } else {
            self.folder = UserFolders.stateFolder() + "/quarantine"
        }
    }

    /// Stores `bytes` (the original as read) under `id`, durably, before its path is touched.
    func store(_ bytes: [UInt8], id: String, originalPath: [UInt8], pathExtension: String, reason: String,
               time: Double) throws(QuarantineError) -> QuarantineEntry {
        do throws(PrivateFolderError) {
            _ = try UserFolders.preparePrivateFolder(folder)
        } catch {
            throw QuarantineError("cannot prepare the quarantine folder: \(error)")
        }
        let partial = folder + "/." + id + ".partial"
        let final = folder + "/" + id
        guard mkdir(partial, 0o700) == 0 else {
            throw QuarantineError("cannot create \(partial): \(errnoText())")
        }
        let fileName = "original." + (pathExtension.isEmpty ? "bin" : pathExtension)
        let entry = QuarantineEntry(id: id, time: time, originalPath: BytePath(bytes: originalPath).description, originalPathBytes: originalPath,
                                    reason: reason, size: bytes.count, folder: final, file: final + "/" + fileName)
        do throws(FileError) {
            try FileIO.writeAtomically(bytes, to: partial + "/" + fileName, mode: 0o600)
            try FileIO.writeAtomically(Array((Self.json(entry).text + "\n").utf8), to: partial + "/entry.json", mode: 0o600)
        } catch {
            removeFolder(partial)
            throw QuarantineError("cannot write the quarantined original: \(error.description)")
        }
        guard rename(partial, final) == 0 else {
            let reason = errnoText()
            removeFolder(partial)
            throw QuarantineError("cannot move \(partial) into place: \(reason)")
        }
        return entry
    }

    /// Every entry, oldest first. Folders that are not entries (a crash's `.partial`) are skipped.
    public func list() -> [QuarantineEntry] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var entries: [QuarantineEntry] = []
        while let item = readdir(directory) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !name.hasPrefix("."), let entry = load(id: name) else { continue }
            entries.append(entry)
        }
        return entries.sorted { ($0.time, $0.id) < ($1.time, $1.id) }
    }

    /// The entry `id`, or an error that lists the ids there are.
    public func entry(_ id: String) throws(QuarantineError) -> QuarantineEntry {
        guard !id.contains("/"), !id.hasPrefix("."), let entry = load(id: id) else {
            let ids = list().map(\.id)
            throw QuarantineError("no quarantined screenshot '\(id)' in \(folder) (there are: \(ids.isEmpty ? "none" : ids.joined(separator: ", ")))",
                                  isUnknownEntry: true)
        }
        return entry
    }

    /// The original bytes of `entry`.
    public func originalBytes(of entry: QuarantineEntry) throws(QuarantineError) -> [UInt8] {
        do throws(FileError) {
            return try FileIO.read(entry.file, limit: 1 << 30)
        } catch {
            throw QuarantineError("cannot read \(entry.file): \(error.description)")
        }
    }

    /// Deletes `entry` and its folder.
    public func remove(_ entry: QuarantineEntry) {
        removeFolder(entry.folder)
    }

    private func load(id: String) -> QuarantineEntry? {
        let entryFolder = folder + "/" + id
        var status = stat()
        guard lstat(entryFolder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return nil }
        guard let text = try? FileIO.read(entryFolder + "/entry.json", limit: 1 << 20),
              let fields = JSONValue.parseObject(text) else { return nil }
        guard let file = fields["file"]?.string, !file.contains("/"),
              let time = fields["time"]?.number, let size = fields["size"]?.number else { return nil }
        let pathBytes = fields["pathHex"]?.string.flatMap(bytesFromHex) ?? Array((fields["path"]?.string ?? "").utf8)
        return QuarantineEntry(id: id, time: time, originalPath: fields["path"]?.string ?? "", originalPathBytes: pathBytes,
                               reason: fields["reason"]?.string ?? "", size: Int(size), folder: entryFolder,
                               file: entryFolder + "/" + file)
    }

    /// The entry as the JSON object of `entry.json` and `quarantine list --json`.
    public static func json(_ entry: QuarantineEntry) -> JSON {
        .object([
            ("id", .string(entry.id)),
            ("time", .number(Int(entry.time))),
            ("iso8601", .string(Log.iso8601(entry.time))),
            ("path", .string(entry.originalPath)),
            ("pathHex", .string(entry.originalPathBytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined())),
            ("reason", .string(entry.reason)),
            ("size", .number(entry.size)),
            ("file", .string(String(entry.file.split(separator: "/").last ?? ""))),
        ])
    }

    private func removeFolder(_ path: String) {
        if let directory = opendir(path) {
            while let item = readdir(directory) {
                let name = withUnsafeBytes(of: item.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != ".", name != ".." { unlink(path + "/" + name) }
            }
            closedir(directory)
        }
        rmdir(path)
    }
}

private func bytesFromHex(_ text: String) -> [UInt8]? {
    let digits = Array(text.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    for index in stride(from: 0, to: digits.count, by: 2) {
        guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else { return nil }
        bytes.append(byte)
    }
    return bytes
}

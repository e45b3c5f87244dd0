// Where guard keeps the originals of screenshots it could not place: private, listable, restorable.
import CShotguardSys
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
    /// The original's permission bits, when the agent recorded them.
    public let mode: UInt32?
    /// The file guard left at the path in the original's place, once recorded.
    public let leftBehind: FileStamp?
}

/// An entry folder whose `entry.json` cannot be read: its original may still be in it.
public struct UnreadableEntry: Sendable {
    public let id: String
    public let folder: String
    public let reason: String
}

/// Why a quarantine operation failed, as a sentence naming the entry or path.
public struct QuarantineError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable {
        case failure
        /// The user named an entry that does not exist (the message lists the ids).
        case unknownEntry
        /// The place to restore to is not a regular file (a folder, a FIFO, a device...).
        case notARegularFile
        /// A file there is newer than the entry, or not the one guard left: `--force` replaces it.
        case wouldOverwrite
    }

    public let description: String
    public let kind: Kind

    init(_ description: String, kind: Kind = .failure) {
        self.description = description
        self.kind = kind
    }
}

/// `$XDG_STATE_HOME/shotguard/quarantine` (else `~/.local/state/shotguard/quarantine`); 0700
/// folders, 0600 files, since the originals show exactly what the rules were meant to hide.
public struct QuarantineStore: Sendable {
    public let folder: String

    public init(folder: String? = nil) {
        self.folder = folder ?? UserFolders.stateFolder() + "/quarantine"
    }

    /// An entry's ID, unique in the folder, reserved by its partial folder: the entry is made
    /// there and appears under its ID, complete, in one rename.
    struct Reservation {
        let id: String
        let partial: String
        let final: String
    }

    /// How many entries one ID may have (`ID`, `ID-2`, … `ID-999`): the files set aside in one
    /// event share the event's ID.
    static let entriesPerID = 999

    /// The private quarantine folder prepared and a unique ID reserved in it from `base`: the
    /// first of `base`, `base-2`, `base-3`… that neither names an entry nor is reserved by
    /// another (an agent of another display shares the folder). The partial folder is made
    /// with mkdir, which only one can win; the entry's name is checked again once it is won,
    /// since an entry may have completed under that ID in between.
    func reserve(_ base: String) throws(QuarantineError) -> Reservation {
        do throws(PrivateFolderError) {
            _ = try UserFolders.preparePrivateFolder(folder)
        } catch {
            throw QuarantineError("cannot prepare the quarantine folder: \(error)")
        }
        for number in 1...Self.entriesPerID {
            let id = number == 1 ? base : "\(base)-\(number)"
            let reservation = Reservation(id: id, partial: folder + "/." + id + ".partial", final: folder + "/" + id)
            if exists(reservation.final) { continue }
            guard mkdir(reservation.partial, 0o700) == 0 else {
                if errno == EEXIST { continue }
                throw QuarantineError("cannot create \(reservation.partial): \(errnoText())")
            }
            if exists(reservation.final) {
                rmdir(reservation.partial)
                continue
            }
            return reservation
        }
        throw QuarantineError("cannot set aside another file under \(base) in \(folder): "
            + "\(Self.entriesPerID) entries have that ID already")
    }

    /// Makes the reserved entry appear, complete, under its ID; never over an entry there.
    func complete(_ reservation: Reservation) throws(QuarantineError) {
        guard sg_rename_noreplace(reservation.partial, reservation.final) == 0 else {
            throw QuarantineError("cannot complete the entry \(reservation.final): \(errnoText())")
        }
    }

    /// Stores `bytes` (the original as read) under a unique ID made from `id`, durably, before
    /// its path is touched. `mode` is the original's mode, which a restore gives back.
    func store(_ bytes: [UInt8], id: String, originalPath: [UInt8], pathExtension: String, reason: String,
               time: Double, mode: UInt32? = nil) throws(QuarantineError) -> QuarantineEntry {
        let reservation = try reserve(id)
        let fileName = "original." + (pathExtension.isEmpty ? "bin" : pathExtension)
        let entry = QuarantineEntry(id: reservation.id, time: time, originalPath: BytePath(bytes: originalPath).description,
                                    originalPathBytes: originalPath, reason: reason, size: bytes.count, folder: reservation.final,
                                    file: reservation.final + "/" + fileName, mode: mode.map { $0 & 0o7777 }, leftBehind: nil)
        do throws(FileError) {
            try FileIO.writeAtomically(bytes, to: reservation.partial + "/" + fileName, mode: 0o600)
            try FileIO.writeAtomically(Array((Self.json(entry).text + "\n").utf8), to: reservation.partial + "/entry.json", mode: 0o600)
        } catch {
            removeFolder(reservation.partial)
            throw QuarantineError("cannot write the quarantined original: \(error.description)")
        }
        do throws(QuarantineError) {
            try complete(reservation)
        } catch {
            // A copy: the original is still at its path, untouched.
            removeFolder(reservation.partial)
            throw error
        }
        return entry
    }

    /// Records the file guard put at the entry's path in the original's place, so that a
    /// restore replaces it without `--force` but not a file someone wrote there since.
    public func recordReplacement(of entry: QuarantineEntry, by stamp: FileStamp) throws(QuarantineError) {
        let updated = QuarantineEntry(id: entry.id, time: entry.time, originalPath: entry.originalPath,
                                      originalPathBytes: entry.originalPathBytes, reason: entry.reason, size: entry.size,
                                      folder: entry.folder, file: entry.file, mode: entry.mode, leftBehind: stamp)
        do throws(FileError) {
            try FileIO.writeAtomically(Array((Self.json(updated).text + "\n").utf8), to: entry.folder + "/entry.json", mode: 0o600)
        } catch {
            throw QuarantineError("cannot record what replaced \(entry.originalPath): \(error.description)")
        }
    }

    /// Every entry, oldest first. Folders that are not entries (a crash's `.partial`) are skipped.
    public func list() -> [QuarantineEntry] { scan().entries }

    /// Every entry, oldest first, and the entry folders whose `entry.json` cannot be read, with
    /// why: their originals are still there, and must not be hidden from the user.
    public func scan() -> (entries: [QuarantineEntry], unreadable: [UnreadableEntry]) {
        guard let directory = opendir(folder) else { return ([], []) }
        defer { closedir(directory) }
        var entries: [QuarantineEntry] = []
        var unreadable: [UnreadableEntry] = []
        while let item = readdir(directory) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard isFolder(folder + "/" + name), name != ".", name != ".." else { continue }
            if name.hasPrefix(".") {
                // An entry never completed (a crash while it was made) that holds an original:
                // shown, never hidden.
                if name.hasSuffix(".partial"), let original = originalFile(in: folder + "/" + name) {
                    unreadable.append(UnreadableEntry(id: name, folder: folder + "/" + name,
                                                      reason: "an entry that was never completed; its original is \(original)"))
                }
                continue
            }
            switch load(id: name) {
            case .success(let entry): entries.append(entry)
            case .failure(let error): unreadable.append(UnreadableEntry(id: name, folder: folder + "/" + name, reason: error.description))
            }
        }
        return (entries.sorted { ($0.time, $0.id) < ($1.time, $1.id) }, unreadable.sorted { $0.id < $1.id })
    }

    /// The entry `id`, or an error that lists the ids there are.
    public func entry(_ id: String) throws(QuarantineError) -> QuarantineEntry {
        guard !id.contains("/"), !id.hasPrefix("."), isFolder(folder + "/" + id) else {
            let ids = list().map(\.id)
            throw QuarantineError("no quarantined screenshot '\(id)' in \(folder) (there are: \(ids.isEmpty ? "none" : ids.joined(separator: ", ")))",
                                  kind: .unknownEntry)
        }
        switch load(id: id) {
        case .success(let entry): return entry
        case .failure(let error): throw QuarantineError("quarantined screenshot '\(id)' (\(folder)/\(id)): \(error.description)")
        }
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

    /// Deletes an entry folder whose entry.json could not be read, original and all.
    public func remove(_ entry: UnreadableEntry) {
        removeFolder(entry.folder)
    }

    /// The path of the `original.*` file in `folder`, if there is one.
    private func originalFile(in folder: String) -> String? {
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        while let item = readdir(directory) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("original.") { return folder + "/" + name }
        }
        return nil
    }

    func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    private func isFolder(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    private func load(id: String) -> Result<QuarantineEntry, QuarantineError> {
        let entryFolder = folder + "/" + id
        let text: [UInt8]
        do throws(FileError) {
            text = try FileIO.read(entryFolder + "/entry.json", limit: 1 << 20)
        } catch {
            return .failure(QuarantineError("cannot read its entry.json: \(error.message)"))
        }
        guard let fields = JSONValue.parseObject(text) else {
            return .failure(QuarantineError("its entry.json is not a JSON object"))
        }
        guard let file = fields["file"]?.string, !file.contains("/"), !file.isEmpty else {
            return .failure(QuarantineError("its entry.json names no original file"))
        }
        // `time` is ISO 8601 (an epoch number in entries written before).
        guard let time = fields["time"]?.number ?? fields["time"]?.string.flatMap(Self.seconds(iso8601:)),
              let size = fields["size"]?.number, size >= 0, size < 1e18 else {
            return .failure(QuarantineError("its entry.json has no valid time or size"))
        }
        guard exists(entryFolder + "/" + file) else {
            return .failure(QuarantineError("its original \(entryFolder)/\(file) is missing"))
        }
        let pathBytes = fields["pathHex"]?.string.flatMap(bytesFromHex) ?? Array((fields["path"]?.string ?? "").utf8)
        let mode = fields["mode"]?.string.flatMap { UInt32($0, radix: 8) }.map { $0 & 0o7777 }
        return .success(QuarantineEntry(id: id, time: time, originalPath: fields["path"]?.string ?? "",
                                        originalPathBytes: pathBytes, reason: fields["reason"]?.string ?? "",
                                        size: Int(size), folder: entryFolder, file: entryFolder + "/" + file, mode: mode,
                                        leftBehind: FileStamp(fields: fields, prefix: "left")))
    }

    /// The entry as the JSON object of `entry.json` and `quarantine list --json`.
    public static func json(_ entry: QuarantineEntry) -> JSON {
        var members: [(String, JSON)] = [
            ("id", .string(entry.id)),
            ("time", .string(Log.iso8601(entry.time))),
            ("path", .string(entry.originalPath)),
            ("pathHex", .string(entry.originalPathBytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined())),
            ("reason", .string(entry.reason)),
            ("size", .number(entry.size)),
            ("file", .string(String(entry.file.split(separator: "/").last ?? ""))),
        ]
        if let mode = entry.mode { members.append(("mode", .string(String(mode, radix: 8).leftPadded(to: 4)))) }
        if let left = entry.leftBehind { members += left.jsonMembers(prefix: "left") }
        return .object(members)
    }

    /// An unreadable entry as `quarantine list --json` shows it.
    public static func json(_ entry: UnreadableEntry) -> JSON {
        .object([("id", .string(entry.id)), ("folder", .string(entry.folder)), ("error", .string(entry.reason))])
    }

    /// Seconds since the epoch of `2026-11-29T14:07:03.120Z`, as `Log.iso8601` writes it.
    static func seconds(iso8601 text: String) -> Double? {
        let parts = text.split(whereSeparator: { "-T:Z".contains($0) }).map(String.init)
        guard parts.count == 6, text.hasSuffix("Z"), let year = Int32(parts[0]), let month = Int32(parts[1]),
              let day = Int32(parts[2]), let hour = Int32(parts[3]), let minute = Int32(parts[4]),
              let second = Double(parts[5]), (1...12).contains(month), (1...31).contains(day) else { return nil }
        var fields = tm()
        fields.tm_year = year - 1900
        fields.tm_mon = month - 1
        fields.tm_mday = day
        fields.tm_hour = hour
        fields.tm_min = minute
        fields.tm_sec = 0
        return Double(timegm(&fields)) + second
    }

    func removeFolder(_ path: String) {
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

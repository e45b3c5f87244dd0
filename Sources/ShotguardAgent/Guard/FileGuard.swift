// File guard: a screenshot file rewritten redacted in place, or set aside behind a placeholder, never losing either.
import CShotguardSys
import Glibc
import ShotguardBase
import ShotguardImaging

/// A file as it was read for examination: its bytes and what identifies it, and the file
/// itself when the agent holds it open.
struct FileRead: Sendable {
    let bytes: [UInt8]
    let identity: FileIdentity
    var held: HeldFile?
}

/// What file guard did, and the keys of what it wrote (its own output is never a new screenshot).
enum FileGuardResult: Sendable, Equatable {
    /// Rewritten redacted: its own bytes and file, to be ignored when they come back; the
    /// quarantine entry that keeps the original of a file rewritten in its own inode; what went
    /// wrong on the side (the redacted file is in place either way).
    /// `at` is the name it was written at (it may have moved since it was read); nil when it was
    /// written in its own inode, which has no name here.
    case rewritten(ownKeys: [String], milliseconds: Int, thumbnails: Int, entry: String? = nil, warning: String? = nil,
                   at: BytePath? = nil)
    /// Set aside into quarantine (`entry`), behind a placeholder at its path (or none, when
    /// even that could not be written: `warning` says why).
    case setAside(entry: String, placeholder: Bool, ownKeys: [String], reason: String, warning: String? = nil)
    /// The file changed since it was read: it must be read again.
    case changed
    /// Nothing could be written, and the file could not be moved aside either: its mode was
    /// set to 0 so that nothing reads it until the user decides.
    case madeUnreadable(reason: String)
    /// Guard did not touch it: why.
    case untouched(reason: String)
    /// It failed, and the file is as it was: why.
    case failed(reason: String)
}

/// Why the original could not be kept in quarantine, as a sentence.
struct QuarantineFailure: Error, CustomStringConvertible {
    let description: String
}

/// What guard does to files, behind a narrow interface (the agent's tests can count calls).
protocol FileGuarding: AnyObject {
    /// Replaces `path` with `image`, encoded like the original, if it is still the file read.
    func redact(_ path: BytePath, read: FileRead, with image: PixelBuffer, id: String) -> FileGuardResult
    /// Sets a screenshot that cannot be redacted aside: the original into quarantine, a
    /// placeholder (no screen content) of its size and format in its place. `read` is nil when
    /// the file could not be read whole (too large): it is then moved as it is.
    func setAside(_ path: BytePath, read: FileRead?, held: HeldFile?, size: (width: Int, height: Int)?, reason: String,
                  id: String) -> FileGuardResult
    /// Whether guard may touch a file at all (this user's, written since the agent started,
    /// not restored from quarantine).
    func mayTouch(_ identity: FileIdentity) -> Bool
    /// What went wrong beside an action since last asked (the restored list unreadable), once.
    func takeProblems() -> [String]
}

/// File guard on the real file system.
final class DiskFileGuard: FileGuarding {
    private let quarantine: QuarantineStore
    private let restored: RestoredFilesWatch
    private let thumbnails = Thumbnails()
    private let agentStart: Double
    private let own: OwnFolders

    init(quarantine: QuarantineStore, agentStart: Double, own: OwnFolders = OwnFolders()) {
        self.quarantine = quarantine
        restored = RestoredFilesWatch(store: quarantine)
        self.agentStart = agentStart
        self.own = own
    }

    func mayTouch(_ identity: FileIdentity) -> Bool {
        // A file with no name left (deleted, or set aside into quarantine already) is nobody's.
        guard identity.links > 0 else { return false }
        return GuardPolicy.mayRewrite(modified: seconds(identity.modified), agentStart: agentStart, ownedByUser: identity.owner == getuid(),
                               isRestored: restored.contains(identity.stamp))
    }

    func takeProblems() -> [String] { restored.takeProblem().map { [$0] } ?? [] }

    /// Whether the file is in the agent's own folders (its reports, its quarantine): never touched.
    private func isAgentsOwn(_ path: BytePath, held: HeldFile?) -> Bool {
        held?.lies(in: own) ?? own.contains(path)
    }

    func redact(_ path: BytePath, read: FileRead, with image: PixelBuffer, id: String) -> FileGuardResult {
        guard !isAgentsOwn(path, held: read.held) else { return .untouched(reason: "it is in the agent's own folder") }
        guard mayTouch(read.identity) else {
            return .untouched(reason: "written before the agent started, restored from quarantine, or not this user's")
        }
        let started = monotonicNow()
        let bytes: [UInt8]
        do throws(ImagingError) {
            bytes = try encodeLike(path, original: read.bytes, image)
        } catch {
            return .failed(reason: "cannot encode the redacted image: \(error.description)")
        }
        // Where the file is now: its name (moved meanwhile, when the agent holds it), or only
        // its inode (no name left in this mount namespace).
        let target: RewriteTarget
        switch read.held {
        case let held?: target = held.currentPath.map { .name($0) } ?? .inode(held)
        case nil: target = .name(path)
        }
        do throws(RewriteError) {
            var kept: QuarantineEntry?
            var warning: String?
            let written: BytePath
            switch target {
            case .inode(let held):
                // Rewritten in its own inode, through the descriptor held: only once its original
                // is safe in quarantine, since the inode is then its only copy.
                written = path
                guard let fd = held.openForWriting() else {
                    throw RewriteError(kind: .io, description: "cannot open \(path) for writing where it is now: \(errnoText())")
                }
                defer { close(fd) }
                switch keepOriginal(read, of: path, id: id, why: "rewritten in its own inode, which has no name here") {
                case .failure(let why): return makeUnreadable(held: held, path: path, reason: why)
                case .success(let entry): kept = entry
                }
                try FileRewrite(path: path, original: read.identity).overwrite(fd: fd, with: bytes)
            case .name(let name):
                written = name
                var rewrite = FileRewrite(path: name, original: read.identity)
                if read.identity.links > 1 {
                    // Other names of this file (a hard link elsewhere) would keep the original
                    // after a rename: the inode itself is overwritten, its original kept first.
                    switch keepOriginal(read, of: name, id: id, why: "a file with \(read.identity.links) names, rewritten in its own inode") {
                    case .failure(let why): return makeUnreadable(name, reason: why)
                    case .success(let entry): kept = entry
                    }
                    try rewrite.overwriteInPlace(bytes)
                } else if read.held?.isHeldForOpeners ?? false {
                    // Held by the hold helper: a program waiting to open it found this inode by
                    // its name already, so the inode itself is rewritten (a rename would hand it
                    // the original). The original is kept in quarantine only while it is.
                    switch keepOriginal(read, of: name, id: id, why: "rewritten in its own inode while other programs waited for it") {
                    case .failure(let why): return makeUnreadable(name, reason: why)
                    case .success(let entry):
                        try rewrite.overwriteInPlace(bytes)
                        quarantine.remove(entry)
                    }
                } else {
                    try rewrite.prepare(bytes)
                    if case .originalHasOtherNames(let other) = try rewrite.commit() {
                        // Linked while guard worked: the other name still shows the original.
                        warning = finishOtherNames(of: read, at: other, with: bytes, path: name, id: id, kept: &kept)
                    }
                }
                if let kept, let stamp = FileStamp.of(path: name) {
                    do throws(QuarantineError) {
                        try quarantine.recordReplacement(of: kept, by: stamp)
                    } catch {
                        warning = "\(error.description); restoring \(kept.id) will need --force"
                    }
                }
            }
            let removed = thumbnails.remove(forPath: written.bytes)
            var keys = ownKeys(written, bytes: bytes)
            var at: BytePath? = written
            if case .inode(let held) = target {
                at = nil
                if let identity = held.identity { keys.append(FileKeys.key(identity)) }
            }
            return .rewritten(ownKeys: keys, milliseconds: Int((monotonicNow() - started) * 1000),
                              thumbnails: removed, entry: kept?.id, warning: warning, at: at)
        } catch {
            switch error.kind {
            case .changed: return .changed
            case .io:
                // Fail closed: what cannot be redacted is set aside (a full disk needs no space
                // for a rename into the quarantine folder).
                let aside = setAside(path, read: read, held: read.held, size: (image.width, image.height),
                                     reason: "could not be rewritten (\(error.description))", id: id)
                return aside
            }
        }
    }

    /// Where a rewrite goes: a name that opens the file read, or its inode alone.
    private enum RewriteTarget {
        case name(BytePath)
        case inode(HeldFile)
    }

    /// The original as read, into quarantine, before its inode is overwritten.
    private func keepOriginal(_ read: FileRead, of path: BytePath, id: String, why: String) -> Result<QuarantineEntry, QuarantineFailure> {
        do throws(QuarantineError) {
            return .success(try quarantine.store(read.bytes, id: id, originalPath: path.bytes, pathExtension: path.pathExtension,
                                                 reason: why, time: now(), mode: read.identity.mode))
        } catch {
            return .failure(QuarantineFailure(description: "\(why), and its original could not be kept first: \(error.description)"))
        }
    }

    /// The original, renamed aside by the rewrite but linked elsewhere meanwhile: kept in
    /// quarantine, overwritten in its own inode (so the other name shows the redacted image),
    /// then its temporary name removed. Returns what went wrong, if anything.
    private func finishOtherNames(of read: FileRead, at other: BytePath, with bytes: [UInt8], path: BytePath, id: String,
                                  kept: inout QuarantineEntry?) -> String? {
        defer { other.withCString { _ = unlink($0) } }
        switch keepOriginal(read, of: path, id: id, why: "linked under another name while it was rewritten") {
        case .failure(let why):
            // Its other name must not show the original: unreadable until the user decides.
            other.withCString { _ = chmod($0, 0) }
            return "\(why.description): its other name was made unreadable"
        case .success(let entry):
            kept = entry
        }
        do throws(RewriteError) {
            try FileRewrite(path: other, original: read.identity).overwriteInPlace(bytes)
            return nil
        } catch {
            other.withCString { _ = chmod($0, 0) }
            return "its other name could not be redacted (\(error.description)): it was made unreadable"
        }
    }


    func setAside(_ given: BytePath, read: FileRead?, held: HeldFile?, size: (width: Int, height: Int)?, reason: String,
                  id: String) -> FileGuardResult {
        guard !isAgentsOwn(given, held: held) else { return .untouched(reason: "it is in the agent's own folder") }
        // Where the file is now: the name that opens the file held (moved meanwhile), or none.
        let name: BytePath? = held.map { $0.currentPath } ?? given
        guard let path = name else {
            guard let held, let current = held.identity else { return .untouched(reason: "it is gone") }
            if let read, !current.isSameFile(as: read.identity) { return .changed }
            guard mayTouch(current) else {
                return .untouched(reason: "written before the agent started, restored from quarantine, or not this user's")
            }
            return setAsideInInode(held.openForWriting(), path: given, current: current, read: read, held: held, size: size,
                                   reason: reason, id: id)
        }
        guard let current = FileIdentity.of(path: path), current.mode & S_IFMT == S_IFREG else {
            return .untouched(reason: "it is gone")
        }
        if let read, !current.isSameFile(as: read.identity) { return .changed }
        guard mayTouch(current) else {
            return .untouched(reason: "written before the agent started, restored from quarantine, or not this user's")
        }
        if current.links > 1 || !quarantine.isOnFileSystem(of: current) {
            // Moving one name aside would leave the original under the others; and across file
            // systems the copy and a new placeholder would need room the original's blocks take
            // (kept by the descriptor held): set aside in its own inode instead.
            let writable = path.withCString { open($0, O_WRONLY | O_NOFOLLOW | O_CLOEXEC) }
            return setAsideInInode(writable >= 0 ? writable : nil, path: path, current: current, read: read, held: held, size: size,
                                   reason: reason, id: id)
        }
        let entry: QuarantineEntry
        do throws(QuarantineError) {
            entry = try quarantine.move(path, expected: current, id: id, reason: reason, time: now())
        } catch {
            // Neither copied nor moved: make it unreadable rather than leave it to be opened or synced.
            return makeUnreadable(path, reason: error.description)
        }
        let placeholder = Placeholder.image(width: size?.width, height: size?.height, quarantineID: entry.id)
        var keys: [String] = []
        var written = false
        var warning: String?
        // The placeholder is written by the path's exact text: a name that is not UTF-8 has none
        // (its shown form escapes bytes, and would name another file), so its path stays empty.
        if let exact = path.exactText {
            do throws(ImagingError) {
                let bytes = try encodeLike(path, original: read?.bytes ?? [], placeholder)
                try ImagingError.file { () throws(FileError) in
                    try FileIO.writeAtomically(bytes, to: exact, mode: current.mode & 0o777)
                }
                keys = ownKeys(path, bytes: bytes)
                written = true
            } catch {
                // The original is safe in quarantine; the path stays empty.
                warning = "no placeholder could be written at \(path): \(error.description)"
            }
            // A restore replaces what guard left here without --force, but not a file written since.
            if written, let stamp = FileStamp.of(path: path) {
                do throws(QuarantineError) {
                    try quarantine.recordReplacement(of: entry, by: stamp)
                } catch {
                    warning = "\(error.description); restoring \(entry.id) will need --force"
                }
            }
        }
        thumbnails.remove(forPath: path.bytes)
        return .setAside(entry: entry.id, placeholder: written, ownKeys: keys, reason: reason, warning: warning)
    }

    /// Sets aside a file that has no name here, or more than one: its original copied into
    /// quarantine, then the placeholder written over its own inode (through `writable`, which
    /// this closes), so that no name of it shows the original. What cannot be done leaves it
    /// unreadable.
    private func setAsideInInode(_ writable: Int32?, path: BytePath, current: FileIdentity, read: FileRead?, held: HeldFile?,
                                 size: (width: Int, height: Int)?, reason: String, id: String) -> FileGuardResult {
        defer { if let writable { close(writable) } }
        let original: [UInt8]
        if let read {
            original = read.bytes
        } else {
            do throws(FileError) {
                guard let held else { throw FileError(.io, path: path.description, "it is not held open") }
                original = try held.readAll(name: path.description, limit: 1 << 30)
            } catch {
                return makeUnreadable(fd: writable ?? held?.fd, path: path, reason: "it could not be copied into quarantine: \(error.description)")
            }
        }
        let entry: QuarantineEntry
        do throws(QuarantineError) {
            entry = try quarantine.store(original, id: id, originalPath: path.bytes, pathExtension: path.pathExtension, reason: reason,
                                         time: now(), mode: current.mode)
        } catch {
            return makeUnreadable(fd: writable ?? held?.fd, path: path, reason: error.description)
        }
        let placeholder = Placeholder.image(width: size?.width, height: size?.height, quarantineID: entry.id)
        do throws(RewriteError) {
            guard let writable else { throw RewriteError(kind: .io, description: "cannot open \(path) for writing: \(errnoText())") }
            let bytes: [UInt8]
            do throws(ImagingError) {
                bytes = try encodeLike(path, original: original, placeholder)
            } catch {
                throw RewriteError(kind: .io, description: "cannot encode the placeholder: \(error.description)")
            }
            try FileRewrite(path: path, original: current).overwrite(fd: writable, with: bytes)
            thumbnails.remove(forPath: path.bytes)
            var keys = ["bytes:" + fnv1a(bytes)]
            if let written = FileIdentity.of(fd: writable) { keys.append(FileKeys.key(written)) }
            return .setAside(entry: entry.id, placeholder: true, ownKeys: keys, reason: reason)
        } catch {
            // The original is safe in quarantine; no name of it may show it meanwhile.
            _ = makeUnreadable(fd: writable ?? held?.fd, path: path, reason: error.description)
            return .setAside(entry: entry.id, placeholder: false, ownKeys: [], reason: reason,
                             warning: "no placeholder could be written over it (\(error.description)): it was made unreadable")
        }
    }

    private func makeUnreadable(fd: Int32?, path: BytePath, reason: String) -> FileGuardResult {
        guard let fd, fchmod(fd, 0) == 0 else { return makeUnreadable(path, reason: reason) }
        return .madeUnreadable(reason: reason)
    }

    /// The last resort: the file's mode set to 0, so that nothing reads it (every name of it)
    /// until the user decides.
    private func makeUnreadable(_ path: BytePath, reason: String) -> FileGuardResult {
        guard path.withCString({ chmod($0, 0) }) == 0 else {
            return .failed(reason: "\(reason); and its mode could not be changed (\(errnoText()))")
        }
        return .madeUnreadable(reason: reason)
    }

    private func makeUnreadable(held: HeldFile, path: BytePath, reason: QuarantineFailure) -> FileGuardResult {
        guard fchmod(held.fd, 0) == 0 else {
            return .failed(reason: "\(reason.description); and its mode could not be changed (\(errnoText()))")
        }
        return .madeUnreadable(reason: reason.description)
    }

    private func makeUnreadable(_ path: BytePath, reason: QuarantineFailure) -> FileGuardResult {
        makeUnreadable(path, reason: reason.description)
    }

    /// The image encoded in the format of the original (its bytes, else its name); PNG where
    /// neither tells.
    private func encodeLike(_ path: BytePath, original: [UInt8], _ image: PixelBuffer) throws(ImagingError) -> [UInt8] {
        let encoding = ImageEncoding.matching(original: original)
            ?? ImageFormat(path: path.lastComponent.lossyText).map { ImageEncoding.standard($0) } ?? .png(.fast)
        return try ImageCodec.encode(image, as: encoding, destination: path.description)
    }

    /// Guard's own output, recognised by content and by identity when its events come back.
    private func ownKeys(_ path: BytePath, bytes: [UInt8]) -> [String] {
        var keys = ["bytes:" + fnv1a(bytes)]
        if let written = FileIdentity.of(path: path) { keys.append(FileKeys.key(written)) }
        return keys
    }
}

/// The keys that recognise a file and an image when they are signalled again.
enum FileKeys {
    /// A file's identity as a key: the same file signalled twice is one screenshot.
    static func key(_ identity: FileIdentity) -> String {
        "file:\(identity.device):\(identity.inode):\(identity.size):\(identity.modified.tv_sec).\(identity.modified.tv_nsec)"
    }
}

/// FNV-1a 64: a quick fingerprint to recognise the same image offered again.
func fnv1a(_ bytes: [UInt8]) -> String {
    var value: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes {
        value ^= UInt64(byte)
        value = value &* 0x100_0000_01B3
    }
    return String(value, radix: 16)
}

/// A fingerprint of an image's pixels (its content, whatever the file format or encoder).
func pixelFingerprint(_ image: PixelBuffer) -> String {
    var value: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(image.width) << 32 ^ UInt64(image.height)
    image.pixels.withUnsafeBufferPointer { pixels in
        for pixel in pixels {
            value = (value ^ UInt64(pixel | 0xFF00_0000)) &* 0x100_0000_01B3
        }
    }
    return String(value, radix: 16)
}

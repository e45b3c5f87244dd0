// File guard: a screenshot file rewritten redacted in place, or set aside behind a placeholder, never losing either.
import CShotguardSys
import Glibc
import ShotguardBase
import ShotguardImaging

/// A file as it was read for examination: its bytes and what identifies it.
struct FileRead: Sendable {
    let bytes: [UInt8]
    let identity: FileIdentity
}

/// What file guard did, and the keys of what it wrote (its own output is never a new screenshot).
enum FileGuardResult: Sendable, Equatable {
    /// Rewritten redacted: its own bytes and file, to be ignored when they come back; the
    /// quarantine entry that keeps the original of a file rewritten in its own inode; what went
    /// wrong on the side (the redacted file is in place either way).
    case rewritten(ownKeys: [String], milliseconds: Int, thumbnails: Int, entry: String? = nil, warning: String? = nil)
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

/// What guard does to files, behind a narrow interface (the agent's tests can count calls).
protocol FileGuarding: AnyObject {
    /// Replaces `path` with `image`, encoded like the original, if it is still the file read.
    func redact(_ path: BytePath, read: FileRead, with image: PixelBuffer, id: String) -> FileGuardResult
    /// Sets a screenshot that cannot be redacted aside: the original into quarantine, a
    /// placeholder (no screen content) of its size and format in its place. `read` is nil when
    /// the file could not be read whole (too large): it is then moved as it is.
    func setAside(_ path: BytePath, read: FileRead?, size: (width: Int, height: Int)?, reason: String, id: String) -> FileGuardResult
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

    init(quarantine: QuarantineStore, agentStart: Double) {
        self.quarantine = quarantine
        restored = RestoredFilesWatch(store: quarantine)
        self.agentStart = agentStart
    }

    func mayTouch(_ identity: FileIdentity) -> Bool {
        GuardPolicy.mayRewrite(modified: seconds(identity.modified), agentStart: agentStart, ownedByUser: identity.owner == getuid(),
                               isRestored: restored.contains(identity.stamp))
    }

    func takeProblems() -> [String] { restored.takeProblem().map { [$0] } ?? [] }

    func redact(_ path: BytePath, read: FileRead, with image: PixelBuffer, id: String) -> FileGuardResult {
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
        do throws(RewriteError) {
            var rewrite = FileRewrite(path: path, original: read.identity)
            var kept: QuarantineEntry?
            var warning: String?
            if read.identity.links > 1 {
                // Other names of this file (a hard link elsewhere) would keep the original after
                // a rename: the inode itself is overwritten, and only once its original is safe
                // in quarantine, since the inode is its only copy.
                do throws(QuarantineError) {
                    kept = try quarantine.store(read.bytes, id: id, originalPath: path.bytes, pathExtension: path.pathExtension,
                                                reason: "a file with \(read.identity.links) names, rewritten in its own inode",
                                                time: now(), mode: read.identity.mode)
                } catch {
                    return makeUnreadable(path, reason: "it has \(read.identity.links) names, so it is rewritten in its own inode, "
                        + "and its original could not be kept first: \(error.description)")
                }
                try rewrite.overwriteInPlace(bytes)
                if let kept, let stamp = FileStamp.of(path: path) {
                    do throws(QuarantineError) {
                        try quarantine.recordReplacement(of: kept, by: stamp)
                    } catch {
                        warning = "\(error.description); restoring \(kept.id) will need --force"
                    }
                }
            } else {
                try rewrite.prepare(bytes)
                try rewrite.commit()
            }
            let removed = thumbnails.remove(forPath: path.bytes)
            return .rewritten(ownKeys: ownKeys(path, bytes: bytes), milliseconds: Int((monotonicNow() - started) * 1000),
                              thumbnails: removed, entry: kept?.id, warning: warning)
        } catch {
            switch error.kind {
            case .changed: return .changed
            case .io:
                // Fail closed: what cannot be redacted is set aside (a full disk needs no space
                // for a rename into the quarantine folder).
                let aside = setAside(path, read: read, size: (image.width, image.height),
                                     reason: "could not be rewritten (\(error.description))", id: id)
                return aside
            }
        }
    }

    func setAside(_ path: BytePath, read: FileRead?, size: (width: Int, height: Int)?, reason: String, id: String) -> FileGuardResult {
        guard let current = FileIdentity.of(path: path), current.mode & S_IFMT == S_IFREG else {
            return .untouched(reason: "it is gone")
        }
        if let read, !current.isSameFile(as: read.identity) { return .changed }
        guard mayTouch(current) else {
            return .untouched(reason: "written before the agent started, restored from quarantine, or not this user's")
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

    /// The last resort: the file's mode set to 0, so that nothing reads it (every name of it)
    /// until the user decides.
    private func makeUnreadable(_ path: BytePath, reason: String) -> FileGuardResult {
        guard path.withCString({ chmod($0, 0) }) == 0 else {
            return .failed(reason: "\(reason); and its mode could not be changed (\(errnoText()))")
        }
        return .madeUnreadable(reason: reason)
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

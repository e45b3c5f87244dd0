// The agent's side of the optional hold helper: screenshots held from other programs' opens until guard has redacted them.
import CShotguardSys
import Glibc
import ShotguardBase

/// Asks `shotguard-hold` (a system service, root) to hold a screenshot file while guard works
/// on it: every other program that opens it (a `cp` run the moment scrot exits, an upload, a
/// thumbnailer) waits until guard releases it — at most 5 s — and then reads the redacted file.
/// Without the helper nothing is held, and the file is readable as it was written until guard
/// rewrites it (a tenth of a second or so). The agent never waits on the helper: messages are
/// sent without an answer, and a helper that is gone is looked for again a while later.
///
/// A held file is rewritten in its own inode (`HeldFile.isHeldForOpeners`): an open that waited
/// has already found that inode by its name, and a rename would hand it the original.
public final class OpenersHold {
    private let path: String
    private var socket: Int32 = -1
    private var lastAttempt = -Double.infinity
    /// The files held now, by device and inode, with the descriptor held and since when.
    private var held: [FileKey: (file: HeldFile, since: Double)] = [:]
    private let log: Log
    private var said = false
    /// The writers with names held for them.
    private var namedFor: Set<Int32> = []

    /// A helper that is not there is looked for again after this long.
    static let retryInterval = 10.0
    /// `SHOTGUARD_HOLD_SOCKET` (a test's own helper), else the system helper's socket.
    public static var defaultPath: String {
        getenv("SHOTGUARD_HOLD_SOCKET").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/run/shotguard/hold.sock"
    }

    init(path: String = OpenersHold.defaultPath, log: Log) {
        self.path = path
        self.log = log
    }

    deinit { if socket >= 0 { close(socket) } }

    /// Holds `file`, letting `writer` (the process writing it, when known) open it too.
    func hold(_ file: HeldFile, writer: Int32?, at now: Double) {
        let key = FileKey(device: file.device, inode: file.inode)
        guard held[key] == nil, connect(at: now) else { return }
        let message = Array("hold \(writer ?? 0)".utf8)
        guard message.withUnsafeBytes({ sg_send_with_fd(socket, $0.baseAddress, $0.count, file.fd) }) == message.count else {
            disconnect("sending to it failed: \(errnoText())")
            return
        }
        held[key] = (file, now)
        file.isHeldForOpeners = true
        log.verbose("held \(file.kernelName?.description ?? "a file") from other programs' opens until guard is done with it")
    }

    /// Holds the name `path` before its file exists: `writer` named it on its command line, and
    /// may write it and be done before the agent sees it open (`scrot -o a.png && cp a.png b`).
    /// Opens of that name by others wait until the agent holds and releases the file, or lets
    /// `writer`'s names go (`releaseNames`).
    func holdName(_ path: BytePath, writer: Int32, at now: Double) {
        guard let folder = path.parent, !path.lastComponent.bytes.isEmpty, connect(at: now) else { return }
        let fd = folder.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { return }  // no such folder: nothing can be written there
        defer { close(fd) }
        let message = Array("name \(writer) ".utf8) + path.lastComponent.bytes
        guard message.withUnsafeBytes({ sg_send_with_fd(socket, $0.baseAddress, $0.count, fd) }) == message.count else {
            disconnect("sending to it failed: \(errnoText())")
            return
        }
        namedFor.insert(writer)
        log.verbose("held the name \(path) from other programs' opens until \(writer)'s file is seen")
    }

    /// The names held for `writer` go (it is gone, and what it wrote was seen and held).
    func releaseNames(writer: Int32) {
        guard socket >= 0, namedFor.remove(writer) != nil else { return }
        let message = Array("release-names \(writer)".utf8)
        if message.withUnsafeBytes({ sg_send_with_fd(socket, $0.baseAddress, $0.count, -1) }) != message.count {
            disconnect("sending to it failed: \(errnoText())")
        }
    }

    /// Releases `file`: whatever waited to open it goes on.
    func release(_ file: HeldFile?) {
        guard let file, file.isHeldForOpeners else { return }
        let key = FileKey(device: file.device, inode: file.inode)
        held[key] = nil
        file.isHeldForOpeners = false
        guard socket >= 0 else { return }
        log.verbose("released \(file.kernelName?.description ?? "a file"): other programs may open it")
        let message = Array("release \(file.device) \(file.inode)".utf8)
        if message.withUnsafeBytes({ sg_send_with_fd(socket, $0.baseAddress, $0.count, -1) }) != message.count {
            disconnect("sending to it failed: \(errnoText())")
        }
    }

    /// Releases what was held since before `cutoff` (a candidate dropped, a file forgotten): the
    /// helper lets openers go after 5 s anyway.
    func releaseHeld(before cutoff: Double) {
        for entry in held.values where entry.since < cutoff { release(entry.file) }
    }

    /// When the oldest hold is due to be let go by `releaseHeld(before:)` with `limit`.
    func deadline(limit: Double) -> Double? { held.values.map(\.since).min().map { $0 + limit } }

    private func connect(at now: Double) -> Bool {
        if socket >= 0 { return true }
        guard now - lastAttempt >= Self.retryInterval else { return false }
        lastAttempt = now
        let fd: Int32
        switch Self.connected(to: path) {
        case .success(let descriptor): fd = descriptor
        case .failure(let error):
            if !said { log.verbose("no hold helper at \(path) (\(error.reason)): screenshots are readable until guard rewrites them") }
            said = true
            return false
        }
        socket = fd
        said = false
        log.info("hold helper at \(path): other programs wait for a screenshot until guard has redacted it")
        return true
    }

    /// Why the helper at `path` cannot be reached now, or nil when it can (`shotguard doctor`).
    public static func unreachable(at path: String = defaultPath) -> String? {
        switch connected(to: path) {
        case .success(let fd):
            close(fd)
            return nil
        case .failure(let error):
            return error.reason
        }
    }

    struct ConnectError: Error { let reason: String }

    /// A non-blocking connection to the helper's socket at `path`.
    private static func connected(to path: String) -> Result<Int32, ConnectError> {
        guard access(path, F_OK) == 0 else { return .failure(ConnectError(reason: "no socket at \(path)")) }
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return .failure(ConnectError(reason: "socket: \(errnoText())")) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            return .failure(ConnectError(reason: "the socket's path is too long"))
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let reason = errnoText()
            close(fd)
            return .failure(ConnectError(reason: reason))
        }
        return .success(fd)
    }

    private func disconnect(_ why: String) {
        log.warning("lost the hold helper at \(path) (\(why)): screenshots are readable until guard rewrites them")
        close(socket)
        socket = -1
        for entry in held.values { entry.file.isHeldForOpeners = false }
        held = [:]
        namedFor = []
    }
}

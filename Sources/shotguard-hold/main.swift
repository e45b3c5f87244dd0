// shotguard-hold: the optional system helper (root) that holds other programs' opens of a screenshot until the agent has redacted it.
import CShotguardSys
import Glibc
import ShotguardBase

/// Messages, one a datagram on a SOCK_SEQPACKET socket, from an agent:
///   `hold WRITER` with the file's descriptor attached: hold it, letting process WRITER through;
///   `release DEVICE INODE`: the agent is done with that file;
///   `name WRITER NAME` with a folder's descriptor attached: hold the name NAME (its bytes, to the
///     end of the message) in that folder before its file exists, letting WRITER and its children
///     through;
///   `release-names WRITER`: the names held for WRITER go.
/// Nothing is answered: an agent never waits on the helper. What is refused is logged.
let usage = """
    usage: shotguard-hold [--socket PATH] [--verbose]

    Holds screenshot files for shotguard agents: while the agent redacts a screenshot, every
    other program that opens it (a copy, an upload, a thumbnailer) waits, at most 5 s, and then
    reads the redacted file. Needs root (fanotify permission events). Listens on PATH
    (default /run/shotguard/hold.sock), which every user's agent may reach; an agent holds only
    its own user's files. Runs until SIGTERM.

    """

var socketPath = "/run/shotguard/hold.sock"
var verbose = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--socket":
        guard let value = arguments.popFirst() else { fail(usage: "--socket needs a PATH") }
        socketPath = value
    case "--verbose":
        verbose = true
    case "--help", "-h":
        print(usage, terminator: "")
        exit(0)
    default:
        fail(usage: "unknown argument '\(argument)'")
    }
}

func say(_ line: String) {
    _ = try? FileDescriptor.standardError.writeAll("shotguard-hold: \(line)\n")  // nothing to do if stderr is gone
}

func fail(usage reason: String) -> Never {
    say(reason)
    _ = try? FileDescriptor.standardError.writeAll(usage)  // the reason is said already
    exit(2)
}

func fail(_ reason: String) -> Never {
    say(reason)
    exit(1)
}

let fanotify = sg_fanotify_open()
guard fanotify >= 0 else {
    fail("cannot start: fanotify_init: \(errnoText()) (it needs root: CAP_SYS_ADMIN)")
}

// The socket: made fresh, reachable by every user (each agent holds only its user's files).
let folder = socketPath.split(separator: "/").dropLast().joined(separator: "/")
if !folder.isEmpty { mkdir("/" + folder, 0o755) }
unlink(socketPath)
let listener = socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
guard listener >= 0 else { fail("cannot start: socket: \(errnoText())") }
var address = sockaddr_un()
address.sun_family = sa_family_t(AF_UNIX)
let pathBytes = Array(socketPath.utf8)
guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else { fail("socket path too long: \(socketPath)") }
withUnsafeMutableBytes(of: &address.sun_path) { raw in
    raw.copyBytes(from: pathBytes)
    raw[pathBytes.count] = 0
}
let bound = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
}
guard bound == 0 else { fail("cannot listen on \(socketPath): bind: \(errnoText())") }
chmod(socketPath, 0o666)
guard listen(listener, 16) == 0 else { fail("cannot listen on \(socketPath): \(errnoText())") }

var blocked = sigset_t()
sigemptyset(&blocked)
sigaddset(&blocked, SIGTERM)
sigaddset(&blocked, SIGINT)
sigprocmask(SIG_BLOCK, &blocked, nil)
let signals = sg_signalfd(-1, &blocked, Int32(SFD_CLOEXEC))

let server = HoldServer(fanotify: fanotify) { say($0) }
/// Each agent connected: its process and user.
var clients: [Int32: (pid: pid_t, uid: uid_t)] = [:]
say("holding screenshots for the agents on \(socketPath)")

@MainActor func handle(client: Int32, at now: Double) {
    var buffer = [UInt8](repeating: 0, count: 4400)  // `name WRITER ` and a name of up to 255 bytes
    var passed: Int32 = -1
    let count = buffer.withUnsafeMutableBytes { sg_receive_with_fd(client, $0.baseAddress, $0.count, &passed) }
    guard count > 0, let peer = clients[client] else {
        if passed >= 0 { close(passed) }
        if count < 0, errno == EAGAIN { return }
        server.releaseAll(of: client)
        clients[client] = nil
        close(client)
        return
    }
    let bytes = Array(buffer[0..<count])
    // A name's bytes are the file's own: taken as they are, never decoded.
    if bytes.starts(with: Array("name ".utf8)), passed >= 0 {
        let rest = bytes.dropFirst(5)
        if let space = rest.firstIndex(of: UInt8(ascii: " ")), let writer = pid_t(String(decoding: rest[..<space], as: UTF8.self)) {
            let name = Array(rest[(space + 1)...])
            if let refused = server.holdName(name, in: passed, writer: writer, client: client, agent: peer.pid, uid: peer.uid, at: now) {
                say("refused to hold a name for process \(peer.pid): \(refused)")
            } else if verbose {
                say("holding a name for process \(peer.pid)")
            }
            return
        }
    }
    let words = String(decoding: bytes, as: UTF8.self).split(separator: " ").map(String.init)
    switch (words.first, passed >= 0) {
    case ("hold", true) where words.count == 2 && pid_t(words[1]) != nil:
        if let refused = server.hold(passed, writer: pid_t(words[1])!, client: client, agent: peer.pid, uid: peer.uid, at: now) {
            say("refused to hold a file for process \(peer.pid): \(refused)")
        } else if verbose {
            say("holding a file for process \(peer.pid)")
        }
    case ("release-names", false) where words.count == 2 && pid_t(words[1]) != nil:
        server.releaseNames(writer: pid_t(words[1])!, client: client)
    case ("release", false) where words.count == 3:
        guard let device = UInt64(words[1]), let inode = UInt64(words[2]) else { fallthrough }
        server.release(device: device, inode: inode, client: client)
    default:
        if passed >= 0 { close(passed) }
        say("ignored a message of process \(peer.pid) that is not 'hold WRITER' with a file, 'release DEVICE INODE', "
            + "'name WRITER NAME' with a folder, nor 'release-names WRITER'")
    }
}

var next: Double?
while true {
    var descriptors = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: fanotify, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: signals, events: Int16(POLLIN), revents: 0)]
        + clients.keys.sorted().map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    let timeout = next.map { Int32(max(0, min(($0 - monotonicNow()) * 1000, 60_000)).rounded(.up)) } ?? -1
    guard poll(&descriptors, nfds_t(descriptors.count), timeout) >= 0 || errno == EINTR else { fail("poll: \(errnoText())") }
    let now = monotonicNow()
    if descriptors[2].revents != 0 { break }
    if descriptors[1].revents != 0 {
        var events = [sg_fan_event](repeating: sg_fan_event(), count: 64)
        let count = sg_fanotify_read(fanotify, &events, Int32(events.count))
        if count < 0 { fail("reading fanotify: \(errnoText())") }
        server.opened(Array(events[0..<Int(count)]), at: now)
    }
    if descriptors[0].revents != 0 {
        let client = accept(listener, nil, nil)
        var pid: pid_t = 0, uid: uid_t = 0
        if client >= 0, fcntl(client, F_SETFD, FD_CLOEXEC) == 0, sg_peer_credentials(client, &pid, &uid) == 0 {
            clients[client] = (pid, uid)
        } else if client >= 0 {
            close(client)
        }
    }
    for descriptor in descriptors.dropFirst(3) where descriptor.revents != 0 { handle(client: descriptor.fd, at: now) }
    next = server.expire(at: now)
}
for client in clients.keys { server.releaseAll(of: client) }
unlink(socketPath)
say("stopped")

// The hold helper's state: which files are held for which agent, and the opens waiting on them.
import CShotguardSys
import Glibc
import ShotguardBase

/// Holds screenshot files for the agents that ask: while a file is held, every program that
/// opens it but the agent and the file's writer waits (fanotify's FAN_OPEN_PERM) until the agent
/// has redacted it and releases it, or until `openLimit` passed. It never denies an open: the
/// worst it does is make one wait a few seconds. An agent may hold only files its user owns.
final class HoldServer {
    /// A file held: the descriptor it is marked through, who asked, the writer let through.
    struct Hold {
        let markFD: Int32
        let client: Int32
        let agent: pid_t
        let writer: pid_t
        let since: Double
    }

    struct FileKey: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    /// An open waiting for its file's release.
    struct Waiting {
        let eventFD: Int32
        let pid: pid_t
        let since: Double
    }

    /// No open waits longer than this, whatever the agent does.
    static let openLimit = 5.0
    /// No file stays held longer than this: an agent that never releases holds nothing for long.
    static let holdLimit = 30.0
    /// The most files one agent holds at once.
    static let holdsPerClient = 256

    let fanotify: Int32
    private(set) var holds: [FileKey: Hold] = [:]
    private(set) var waiting: [FileKey: [Waiting]] = [:]
    private let log: (String) -> Void

    init(fanotify: Int32, log: @escaping (String) -> Void) {
        self.fanotify = fanotify
        self.log = log
    }

    /// `client` (agent `agent`, user `uid`) asks to hold the file `fd` is open on, letting
    /// `writer` through. Takes `fd`. Returns why it refused, or nil.
    func hold(_ fd: Int32, writer: pid_t, client: Int32, agent: pid_t, uid: uid_t, at now: Double) -> String? {
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return "not a regular file"
        }
        guard uid == 0 || status.st_uid == uid else {
            close(fd)
            return "the file is not the user's"
        }
        guard holds.values.filter({ $0.client == client }).count < Self.holdsPerClient else {
            close(fd)
            return "too many files held"
        }
        let key = FileKey(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        if let old = holds[key] {
            // Held again (its writer writes it again): the newest hold counts.
            close(old.markFD)
        } else if sg_fanotify_mark_file(fanotify, fd, 1) != 0 {
            let reason = "fanotify_mark: \(errnoText())"
            close(fd)
            return reason
        }
        holds[key] = Hold(markFD: fd, client: client, agent: agent, writer: writer, since: now)
        return nil
    }

    /// The agent is done with the file (redacted, set aside, or no screenshot): every open
    /// waiting on it goes on, and the file is no longer marked.
    func release(device: UInt64, inode: UInt64, client: Int32) {
        let key = FileKey(device: device, inode: inode)
        guard let hold = holds[key], hold.client == client else { return }
        drop(key)
    }

    /// Everything `client` held (it went away).
    func releaseAll(of client: Int32) {
        for (key, hold) in holds where hold.client == client { drop(key) }
    }

    /// Opens of marked files: the agent's and the writer's go on at once; others wait while the
    /// file is held.
    func opened(_ events: [sg_fan_event], at now: Double) {
        for event in events where event.fd >= 0 {
            var status = stat()
            guard event.permission != 0, fstat(event.fd, &status) == 0 else {
                allow(event.fd)
                continue
            }
            let key = FileKey(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
            guard let hold = holds[key], event.pid != hold.agent, event.pid != hold.writer else {
                allow(event.fd)
                continue
            }
            waiting[key, default: []].append(Waiting(eventFD: event.fd, pid: event.pid, since: now))
        }
    }

    /// Lets go what waited or was held too long. Returns when next to look.
    func expire(at now: Double) -> Double? {
        for (key, list) in waiting {
            let late = list.filter { now - $0.since >= Self.openLimit }
            guard !late.isEmpty else { continue }
            for open in late {
                log("let process \(open.pid) open a held file after \(Int(Self.openLimit)) s")
                allow(open.eventFD)
            }
            waiting[key] = list.filter { now - $0.since < Self.openLimit }
            if waiting[key]?.isEmpty ?? false { waiting[key] = nil }
        }
        for (key, hold) in holds where now - hold.since >= Self.holdLimit { drop(key) }
        let next = (waiting.values.flatMap { $0.map { $0.since + Self.openLimit } } + holds.values.map { $0.since + Self.holdLimit }).min()
        return next
    }

    private func drop(_ key: FileKey) {
        guard let hold = holds.removeValue(forKey: key) else { return }
        _ = sg_fanotify_mark_file(fanotify, hold.markFD, 0)
        close(hold.markFD)
        for open in waiting.removeValue(forKey: key) ?? [] { allow(open.eventFD) }
    }

    private func allow(_ fd: Int32) {
        if sg_fanotify_allow(fanotify, fd) != 0 { log("cannot answer an open: \(errnoText())") }
        close(fd)
    }
}

// The hold helper's state: which files are held for which agent, and the opens waiting on them.
import CShotguardSys
import Glibc
import ShotguardBase

/// Holds screenshot files for the agents that ask: while a file is held, every program that
/// opens it but the agent and the file's writer waits (fanotify's FAN_OPEN_PERM) until the agent
/// has redacted it and releases it, or until `openLimit` passed. It never denies an open: the
/// worst it does is make one wait a few seconds. An agent may hold only files its user owns.
///
/// A name can be held before its file exists: a screenshot program names the file it will write
/// on its command line (`scrot -o a.png && cp a.png b.png`), and the agent, which follows the
/// program from its read of the screen, may not see the file open before the program is done
/// with it and the next program reads it. The folder is marked for its files' opens; an open of
/// that name, by any program but the agent and the writer (and the writer's children), waits
/// like an open of a held file, until the agent holds and releases the file, or lets the writer's
/// names go (it exited, and its files were seen), or `openLimit` passed.
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

    /// An open waiting for its file's release; `name` when it waits on a held name.
    struct Waiting {
        let eventFD: Int32
        let pid: pid_t
        let since: Double
        var name: NameKey? = nil
    }

    /// A name held in a folder, for `writer`, by `client` (agent `agent`, user `uid`).
    struct NameHold {
        let client: Int32
        let agent: pid_t
        let writer: pid_t
        let uid: uid_t
        let since: Double
    }

    /// A folder marked for the names held in it, found again by its path (`/proc/self/fd` of an
    /// open's descriptor names the file opened).
    struct HeldFolder {
        let markFD: Int32
        let path: [UInt8]
        var names: [[UInt8]: NameHold]
    }

    struct NameKey: Hashable {
        let folder: FileKey
        let name: [UInt8]
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
    private(set) var folders: [FileKey: HeldFolder] = [:]
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
        for (key, folder) in folders {
            let kept = folder.names.filter { $0.value.client != client }
            if kept.count != folder.names.count { update(key, folder, names: kept) }
        }
        releaseUnheldNames()
    }

    /// Opens of marked files: the agent's and the writer's go on at once; others wait while the
    /// file, or its name, is held.
    func opened(_ events: [sg_fan_event], at now: Double) {
        for event in events where event.fd >= 0 {
            var status = stat()
            guard event.permission != 0, fstat(event.fd, &status) == 0 else {
                allow(event.fd)
                continue
            }
            let key = FileKey(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
            if let hold = holds[key] {
                guard event.pid != hold.agent, event.pid != hold.writer else {
                    allow(event.fd)
                    continue
                }
                waiting[key, default: []].append(Waiting(eventFD: event.fd, pid: event.pid, since: now))
            } else if let (name, hold) = heldName(of: event.fd, status: status), event.pid != hold.agent,
                      !Self.isProcess(event.pid, orChildOf: hold.writer) {
                waiting[key, default: []].append(Waiting(eventFD: event.fd, pid: event.pid, since: now, name: name))
            } else {
                allow(event.fd)
            }
        }
    }

    /// `client` holds `name` in the folder `fd` is open on, for `writer`. Takes `fd`. Returns
    /// why it refused, or nil. The folder must be the user's, or shared and sticky (`/tmp`): a
    /// file there of another user is never held.
    func holdName(_ name: [UInt8], in fd: Int32, writer: pid_t, client: Int32, agent: pid_t, uid: uid_t,
                  at now: Double) -> String? {
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            close(fd)
            return "not a folder"
        }
        guard uid == 0 || status.st_uid == uid || status.st_mode & S_ISVTX != 0 else {
            close(fd)
            return "the folder is not the user's"
        }
        guard !name.isEmpty, !name.contains(UInt8(ascii: "/")), name != Array(".".utf8), name != Array("..".utf8) else {
            close(fd)
            return "not a file's name"
        }
        let count = holds.values.filter { $0.client == client }.count
            + folders.values.reduce(0) { $0 + $1.names.values.filter { $0.client == client }.count }
        guard count < Self.holdsPerClient else {
            close(fd)
            return "too many files held"
        }
        let key = FileKey(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        let hold = NameHold(client: client, agent: agent, writer: writer, uid: uid, since: now)
        if var folder = folders[key] {
            close(fd)
            folder.names[name] = hold
            folders[key] = folder
            return nil
        }
        guard let path = Self.path(of: fd) else {
            close(fd)
            return "the folder's path cannot be read"
        }
        guard sg_fanotify_mark_folder(fanotify, fd, 1) == 0 else {
            let reason = "fanotify_mark: \(errnoText())"
            close(fd)
            return reason
        }
        folders[key] = HeldFolder(markFD: fd, path: path, names: [name: hold])
        return nil
    }

    /// `client` lets the names it held for `writer` go: what waited on them and is not held as a
    /// file goes on.
    func releaseNames(writer: pid_t, client: Int32) {
        for (key, folder) in folders {
            let kept = folder.names.filter { $0.value.client != client || $0.value.writer != writer }
            if kept.count != folder.names.count { update(key, folder, names: kept) }
        }
        releaseUnheldNames()
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
        for (key, folder) in folders {
            let kept = folder.names.filter { now - $0.value.since < Self.holdLimit }
            if kept.count != folder.names.count { update(key, folder, names: kept) }
        }
        releaseUnheldNames()
        let names = folders.values.flatMap { $0.names.values.map { $0.since + Self.holdLimit } }
        return (waiting.values.flatMap { $0.map { $0.since + Self.openLimit } } + holds.values.map { $0.since + Self.holdLimit } + names).min()
    }

    private func drop(_ key: FileKey) {
        guard let hold = holds.removeValue(forKey: key) else { return }
        _ = sg_fanotify_mark_file(fanotify, hold.markFD, 0)
        close(hold.markFD)
        for open in waiting.removeValue(forKey: key) ?? [] { allow(open.eventFD) }
    }

    /// The name held for the file `fd` is open on (found by its path), when its owner is the
    /// holding agent's user.
    private func heldName(of fd: Int32, status: stat) -> (NameKey, NameHold)? {
        guard !folders.isEmpty, status.st_mode & S_IFMT == S_IFREG, let path = Self.path(of: fd),
              let slash = path.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        let folderPath = slash == 0 ? [UInt8(ascii: "/")] : Array(path[..<slash])
        let name = Array(path[(slash + 1)...])
        for (key, folder) in folders where folder.path == folderPath {
            guard let hold = folder.names[name], hold.uid == 0 || status.st_uid == hold.uid else { return nil }
            return (NameKey(folder: key, name: name), hold)
        }
        return nil
    }

    /// The folder's names now `names`: unmarked when none is left.
    private func update(_ key: FileKey, _ folder: HeldFolder, names: [[UInt8]: NameHold]) {
        guard names.isEmpty else {
            folders[key] = HeldFolder(markFD: folder.markFD, path: folder.path, names: names)
            return
        }
        _ = sg_fanotify_mark_folder(fanotify, folder.markFD, 0)
        close(folder.markFD)
        folders[key] = nil
    }

    /// Opens that waited on a name no longer held, of a file not held either, go on.
    private func releaseUnheldNames() {
        for (key, list) in waiting where holds[key] == nil {
            let free = list.filter { open in open.name.map { folders[$0.folder]?.names[$0.name] == nil } ?? true }
            guard !free.isEmpty else { continue }
            for open in free { allow(open.eventFD) }
            let left = list.filter { open in open.name.map { folders[$0.folder]?.names[$0.name] != nil } ?? false }
            waiting[key] = left.isEmpty ? nil : left
        }
    }

    /// The path a descriptor is open on, as the kernel names it.
    static func path(of fd: Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBufferPointer { pointer in
            pointer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: pointer.count) {
                readlink("/proc/self/fd/\(fd)", $0, pointer.count)
            }
        }
        guard count > 0, count < buffer.count, buffer[0] == UInt8(ascii: "/") else { return nil }
        return Array(buffer[0..<count])
    }

    /// Whether `pid` is `ancestor` or was started by it (a writer's helper process writes its file
    /// too), by the parents /proc gives, at most a few levels up.
    static func isProcess(_ pid: pid_t, orChildOf ancestor: pid_t) -> Bool {
        var current = pid
        for _ in 0..<8 {
            if current == ancestor { return true }
            guard current > 1, let parent = ProcessStat.of(pid: current)?.parent, parent != current else { return false }
            current = parent
        }
        return false
    }

    private func allow(_ fd: Int32) {
        if sg_fanotify_allow(fanotify, fd) != 0 { log("cannot answer an open: \(errnoText())") }
        close(fd)
    }
}

// The user's home, and private folders the agent creates or trusts (spool, lock, quarantine).
import Glibc
import ShotguardBase
import ShotguardImaging

/// Why a folder cannot hold the agent's private files, as one line a user can act on.
public struct PrivateFolderError: Error, CustomStringConvertible, Sendable {
    /// The folder that was asked for.
    public let path: String
    /// What is wrong, naming the component at fault and what was expected of it.
    public let reason: String

    public var description: String { "cannot use \(path) as a private folder: \(reason)" }
}

public enum UserFolders {
    /// `$HOME` when it is an absolute path, else the home in the password database (as under
    /// some service managers), else nil.
    public static func home() -> String? { XDGPaths.home() }

    /// `$XDG_STATE_HOME/shotguard` (an absolute `XDG_STATE_HOME` only), else
    /// `~/.local/state/shotguard`: the agent's private state (reports, lock, quarantine).
    public static func stateFolder() -> String {
        normalized(XDGPaths.stateHome()) + "/shotguard"
    }

    /// `path` made absolute against the current folder, without trailing or doubled slashes.
    public static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return normalized(path) }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let cwd = getcwd(&buffer, buffer.count).map { String(cString: $0) } ?? "/"
        return normalized(cwd + "/" + path)
    }

    static func normalized(_ path: String) -> String {
        let parts = path.split(separator: "/").filter { $0 != "." }
        return "/" + parts.joined(separator: "/")
    }

    /// Prepares a folder only this user can use: makes `path` absolute (against the current
    /// folder), checks every existing component from `/` down, following symbolic links, creates
    /// what is missing with mode 0700, and checks the folder itself. Returns the absolute path.
    ///
    /// A component (or a link's target) must be a folder owned by this user or root that nobody
    /// else can write to, unless it is root's sticky folder (like `/tmp`), where others cannot
    /// replace what is ours. The folder itself must be a real folder (not a link), owned by this
    /// user, with no access for group or others. Reports, locks and quarantined originals show
    /// screens: they must not live where another user can read, replace or pre-create them.
    @discardableResult
    public static func preparePrivateFolder(_ path: String) throws(PrivateFolderError) -> String {
        let absolute = absolute(path)
        do throws(PrivateFolderRefusal) {
            try PrivateFolderWalk(target: absolute).run()
        } catch {
            throw PrivateFolderError(path: absolute, reason: error.reason)
        }
        return absolute
    }
}

/// Why one component of a private folder's path was refused (made a `PrivateFolderError`).
struct PrivateFolderRefusal: Error {
    let reason: String
}

/// The walk `preparePrivateFolder` makes: one component at a time, links expanded in place.
private struct PrivateFolderWalk {
    let target: String
    private let me = getuid()
    /// As many links as the kernel follows in one path (`ELOOP` beyond).
    private static let linkLimit = 40

    init(target: String) { self.target = target }

    func run() throws(PrivateFolderRefusal) {
        var pending = target.split(separator: "/").map(String.init)
        var resolved = ""
        var links = 0
        try checkShared("/")
        while !pending.isEmpty {
            let part = pending.removeFirst()
            if part == "." { continue }
            if part == ".." {
                resolved = resolved.lastIndex(of: "/").map { String(resolved[..<$0]) } ?? ""
                continue
            }
            let current = resolved + "/" + part
            let isLast = pending.isEmpty
            var status = stat()
            if lstat(current, &status) != 0 {
                guard errno == ENOENT else { throw refusal(current, "lstat failed: \(errnoText())") }
                guard mkdir(current, 0o700) == 0 || errno == EEXIST else {
                    throw refusal(current, "cannot create it: \(errnoText())")
                }
                guard lstat(current, &status) == 0 else { throw refusal(current, "lstat failed: \(errnoText())") }
            }
            if status.st_mode & S_IFMT == S_IFLNK {
                guard !isLast else { throw refusal(current, "it is a symbolic link (expected a real folder)") }
                guard status.st_uid == me || status.st_uid == 0 else {
                    throw refusal(current, "it is a symbolic link owned by uid \(status.st_uid) (expected one of yours or root's)")
                }
                links += 1
                guard links <= Self.linkLimit else { throw refusal(current, "too many symbolic links") }
                let link = try readLink(current)
                if link.hasPrefix("/") { resolved = "" }
                pending = link.split(separator: "/").map(String.init) + pending
                continue
            }
            guard status.st_mode & S_IFMT == S_IFDIR else { throw refusal(current, "it is not a folder") }
            resolved = current
            if isLast {
                guard status.st_uid == me else {
                    throw refusal(current, "it is owned by uid \(status.st_uid) (expected yours, uid \(me))")
                }
                guard status.st_mode & 0o077 == 0 else {
                    throw refusal(current, "its mode is \(octal(status.st_mode & 0o7777)) (expected 0700: no access for others)")
                }
            } else {
                try checkShared(current, status)
            }
        }
    }

    /// A parent folder: owned by this user or root, and writable by nobody else unless it is
    /// root's sticky folder.
    private func checkShared(_ path: String, _ known: stat? = nil) throws(PrivateFolderRefusal) {
        var status = known ?? stat()
        if known == nil, lstat(path, &status) != 0 { throw refusal(path, "lstat failed: \(errnoText())") }
        guard status.st_uid == me || status.st_uid == 0 else {
            throw refusal(path, "it is owned by uid \(status.st_uid) (expected yours or root's)")
        }
        // Group write is harmless in a user-private group (the user's own, with no other
        // members), as homes made with umask 002 have.
        let groupWrite = status.st_mode & 0o020 != 0 && !(status.st_uid == me && isPrivateGroup(status.st_gid))
        let othersWrite = groupWrite || status.st_mode & 0o002 != 0
        let rootSticky = status.st_uid == 0 && status.st_mode & S_ISVTX != 0
        guard !othersWrite || rootSticky else {
            throw refusal(path, "other users can write to it (mode \(octal(status.st_mode & 0o7777)); expected 0755 or stricter)")
        }
    }

    /// Whether `group` is this user's primary group and lists no other member.
    private func isPrivateGroup(_ group: gid_t) -> Bool {
        guard group == getgid(), let entry = getgrgid(group), let user = getpwuid(me)?.pointee.pw_name else { return false }
        var index = 0
        while let member = entry.pointee.gr_mem?[index] {
            if strcmp(member, user) != 0 { return false }
            index += 1
        }
        return true
    }

    private func readLink(_ path: String) throws(PrivateFolderRefusal) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { throw refusal(path, "readlink failed: \(errnoText())") }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func refusal(_ component: String, _ reason: String) -> PrivateFolderRefusal {
        PrivateFolderRefusal(reason: component == target ? reason : "\(component): \(reason)")
    }

    private func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

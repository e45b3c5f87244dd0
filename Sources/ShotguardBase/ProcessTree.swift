// The processes around one process, as /proc shows them: its identity over time, its children, the pipes it shares.
import Glibc

/// The fields of `/proc/PID/stat` that tell one process from another that later got its pid,
/// and place it among the others: parent, process group, session, start time.
public struct ProcessStat: Sendable, Equatable {
    public let pid: Int32
    public let parent: Int32
    public let group: Int32
    public let session: Int32
    /// Clock ticks after boot when it started: with the pid, names one process for good.
    public let startTime: UInt64

    /// Process `pid`'s stat, or nil when it is gone or unreadable.
    public static func of(pid: Int32) -> ProcessStat? {
        guard pid > 0, let bytes = ProcFile.read("/proc/\(pid)/stat", limit: 4096) else { return nil }
        return parse(bytes, pid: pid)
    }

    /// `pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime
    /// stime cutime cstime priority nice threads itrealvalue starttime …`: read after the last
    /// `)`, since the name is the process's own and may hold spaces and parentheses.
    public static func parse(_ bytes: [UInt8], pid: Int32) -> ProcessStat? {
        guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "), maxSplits: 21, omittingEmptySubsequences: true)
            .map { String(decoding: $0, as: UTF8.self) }
        guard fields.count >= 20, let parent = Int32(fields[1]), let group = Int32(fields[2]), let session = Int32(fields[3]),
              let start = UInt64(fields[19]), parent >= 0 else { return nil }
        return ProcessStat(pid: pid, parent: parent, group: group, session: session, startTime: start)
    }
}

/// A pipe or socket a process holds: its kernel inode, shared by every process at either end.
public struct Channel: Hashable, Sendable {
    public enum Kind: String, Sendable { case pipe, socket }
    public let kind: Kind
    public let inode: UInt64
}

public enum ProcessTree {
    /// The most processes one scan looks at.
    public static let maximumProcesses = 8192

    /// Seconds since boot (`CLOCK_BOOTTIME`, counting suspend): the clock of a process's start time.
    public static func secondsSinceBoot() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// When the process of `stat` started, in seconds since boot.
    public static func startSeconds(_ stat: ProcessStat) -> Double { startSeconds(ticks: stat.startTime) }

    /// A start time in clock ticks since boot (`ProcessStat.startTime`), in seconds.
    public static func startSeconds(ticks: UInt64) -> Double {
        Double(ticks) / Double(max(1, sysconf(Int32(_SC_CLK_TCK))))
    }

    /// The pipe a process has as descriptor `descriptor` (0: its standard input, 1: its
    /// standard output), if that is a pipe.
    public static func pipe(of pid: Int32, descriptor: Int32) -> Channel? {
        guard pid > 0, let link = ProcFile.link("/proc/\(pid)/fd/\(descriptor)"), let channel = channel(link),
              channel.kind == .pipe else { return nil }
        return channel
    }

    /// The regular file a process has open for writing as descriptor `descriptor` (1: its
    /// standard output, `xwd -root > f`), with the file's identity as it is now.
    public static func outputFile(of pid: Int32, descriptor: Int32) -> OutputFile? {
        guard let found = ProcessDetails.openFile(of: pid, descriptor: descriptor), found.file.access != .read else { return nil }
        return OutputFile(path: found.file.path, device: found.device, inode: found.inode)
    }

    /// Every process of the user (any session), but `except`, whose descriptor `descriptor` is
    /// `pipe`: the next program of a shell pipeline, which reads what the one before it wrote.
    public static func processes(reading pipe: Channel, onDescriptor descriptor: Int32 = 0, except: Set<Int32> = []) -> [Int32] {
        guard let proc = opendir("/proc") else { return [] }
        defer { closedir(proc) }
        var found: [Int32] = []
        var examined = 0
        while examined < maximumProcesses, let entry = readdir(proc) {
            guard let pid = Int32(entryName(entry)), !except.contains(pid) else { continue }
            examined += 1
            if self.pipe(of: pid, descriptor: descriptor) == pipe { found.append(pid) }
        }
        return found
    }

    /// The children of `pid` (every thread's), from `/proc/PID/task/TID/children`.
    public static func children(of pid: Int32) -> [Int32] {
        guard pid > 0, let tasks = opendir("/proc/\(pid)/task") else { return [] }
        defer { closedir(tasks) }
        var found: [Int32] = []
        while let entry = readdir(tasks) {
            let name = entryName(entry)
            guard Int32(name) != nil, let bytes = ProcFile.read("/proc/\(pid)/task/\(name)/children", limit: 65_536) else { continue }
            found += bytes.split(separator: UInt8(ascii: " ")).compactMap { Int32(String(decoding: $0, as: UTF8.self)) }
        }
        return found
    }

    /// `pipe:[1234]` or `socket:[1234]` as a channel; nil for anything else.
    public static func channel(_ link: [UInt8]) -> Channel? {
        let text = String(decoding: link, as: UTF8.self)
        for kind in [Channel.Kind.pipe, .socket] {
            let prefix = kind.rawValue + ":["
            guard text.hasPrefix(prefix), text.hasSuffix("]"),
                  let inode = UInt64(text.dropFirst(prefix.count).dropLast()) else { continue }
            return Channel(kind: kind, inode: inode)
        }
        return nil
    }

    private static func entryName(_ entry: UnsafeMutablePointer<dirent>) -> String {
        withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

/// A regular file a process held open for writing: the path the kernel showed (in the
/// process's mount namespace; it ends in ` (deleted)` for a file removed) and the file's
/// identity then, for the path may name another file later.
public struct OutputFile: Sendable, Equatable {
    public let path: [UInt8]
    public let device: UInt64
    public let inode: UInt64
}

/// A process as /proc showed it when it read the screen.
public struct ProcessSnapshot: Sendable, Equatable {
    public let details: ProcessDetails
    public let stat: ProcessStat?
    /// Its standard output, when that is a pipe (its next program reads what it wrote).
    public let output: Channel?
    /// Its standard output, when that is a file it writes (`xwd -root > f`, `maim > f`): a
    /// program this fast may have written it and gone before the agent first looks.
    public let outputFile: OutputFile?

    public static func of(pid: Int32) -> ProcessSnapshot? {
        guard let details = ProcessDetails.of(pid: pid) else { return nil }
        let output = ProcessTree.pipe(of: pid, descriptor: 1)
        return ProcessSnapshot(details: details, stat: ProcessStat.of(pid: pid), output: output,
                               outputFile: output == nil ? ProcessTree.outputFile(of: pid, descriptor: 1) : nil)
    }
}

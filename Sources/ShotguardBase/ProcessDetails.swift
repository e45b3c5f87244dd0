// A process as /proc shows it: program, executable, working folder, arguments, parent, group.
import Glibc

/// What /proc tells of a process: who read the screen, where it runs, what it was asked to do.
/// Read for the user's own processes (another user's `exe` and `cwd` are refused, and given as
/// nil). Every field comes from the process itself or its command line, so it is bounded and
/// taken as bytes or repaired UTF-8, never trusted. The pid may be reused once the process has
/// gone: hold a `pidfdOpen` descriptor from before the read to tell.
public struct ProcessDetails: Sendable, Equatable {
    public let pid: Int32
    /// The kernel's name for the program (`/proc/PID/comm`): the executable's base name, cut
    /// to 15 bytes, or what the process set (`import` from ImageMagick 6 is `import-im6.q16`).
    public let program: String
    /// The executable (`/proc/PID/exe`), as the bytes of its path; it ends in ` (deleted)` when
    /// the file was removed after it started.
    public let executable: [UInt8]?
    /// The working folder (`/proc/PID/cwd`): where a relative output path lands.
    public let workingFolder: [UInt8]?
    /// The command line, one string per argument (repaired UTF-8), at most `maximumArguments`
    /// of them from the first `maximumCommandLineBytes` bytes.
    public let arguments: [String]
    public let parentPID: Int32
    public let processGroup: Int32

    public static let maximumArguments = 64
    public static let maximumCommandLineBytes = 8192

    public init(pid: Int32, program: String, executable: [UInt8]?, workingFolder: [UInt8]?, arguments: [String],
                parentPID: Int32, processGroup: Int32) {
        self.pid = pid
        self.program = program
        self.executable = executable
        self.workingFolder = workingFolder
        self.arguments = arguments
        self.parentPID = parentPID
        self.processGroup = processGroup
    }

    /// The details of process `pid`, or nil when it does not exist (any more) or its
    /// `comm` or `stat` cannot be read. A process that has exited but was not yet reaped by its
    /// parent still has its name, parent and group, and no executable, folder or arguments.
    public static func of(pid: Int32) -> ProcessDetails? {
        guard pid > 0 else { return nil }
        let folder = "/proc/\(pid)"
        guard let comm = ProcFile.read(folder + "/comm", limit: 64),
              let stat = ProcFile.read(folder + "/stat", limit: 4096),
              let (parent, group) = parseStat(stat) else { return nil }
        let name = comm.last == UInt8(ascii: "\n") ? comm.dropLast() : comm[...]
        let commandLine = ProcFile.read(folder + "/cmdline", limit: maximumCommandLineBytes) ?? []
        return ProcessDetails(pid: pid, program: String(decoding: name, as: UTF8.self),
                              executable: ProcFile.link(folder + "/exe"), workingFolder: ProcFile.link(folder + "/cwd"),
                              arguments: splitArguments(commandLine), parentPID: parent, processGroup: group)
    }

    /// The parent pid and process group from `/proc/PID/stat`: `pid (comm) state ppid pgrp …`.
    /// The name in parentheses is the process's own and may hold spaces and `)`, so the fields
    /// are read after the last `)`.
    public static func parseStat(_ bytes: [UInt8]) -> (parent: Int32, group: Int32)? {
        guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "), maxSplits: 4, omittingEmptySubsequences: true)
        guard fields.count >= 3, let parent = Int32(String(decoding: fields[1], as: UTF8.self)),
              let group = Int32(String(decoding: fields[2], as: UTF8.self)), parent >= 0, group >= 0 else { return nil }
        return (parent, group)
    }

    /// `/proc/PID/cmdline`: arguments ended by NUL bytes (a process may rewrite it, with or
    /// without the last NUL), at most `maximumArguments`.
    public static func splitArguments(_ bytes: [UInt8]) -> [String] {
        guard !bytes.isEmpty else { return [] }
        var parts = bytes.split(separator: 0, maxSplits: maximumArguments, omittingEmptySubsequences: false)
        // The last NUL ends the last argument; past `maximumArguments`, the rest is dropped anyway.
        if bytes.last == 0 { parts.removeLast() }
        return parts.prefix(maximumArguments).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// Bounded reads of /proc's small files and links.
enum ProcFile {
    /// Up to `limit` bytes of the file at `path`; nil when it cannot be opened or read.
    static func read(_ path: String, limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: limit)
        var filled = 0
        while filled < limit {
            let read = bytes.withUnsafeMutableBytes { buffer in uninterrupted { Glibc.read(fd, buffer.baseAddress! + filled, limit - filled) } }
            guard case .success(let count) = read else { return nil }
            if count == 0 { break }
            filled += count
        }
        return Array(bytes[0..<filled])
    }

    /// The target of the link at `path` as bytes; nil when it cannot be read or is longer than
    /// a path can be.
    static func link(_ path: String) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBytes { readlink(path, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) }
        guard count > 0, count < buffer.count else { return nil }
        return Array(buffer[0..<count])
    }
}

// A program named by the user (`trust program=obs`), matched against a process as /proc shows it.

/// A program, as a rule names it: a bare name (`obs`) is the executable's file name, or the
/// kernel's name for the process (`/proc/PID/comm`, cut to 15 bytes); a name with a `/`
/// (`/usr/bin/obs`) is the executable's exact path. A name says what a program calls itself:
/// any program can be copied under another's name, a path cannot be taken without writing there.
public struct ProgramName: Sendable, Hashable, CustomStringConvertible {
    public let value: String

    public init(_ value: String) {
        self.value = value
    }

    public var isPath: Bool { value.contains("/") }

    public var description: String { value }

    /// Whether `process` is this program. An executable deleted since it started (its link
    /// ends in ` (deleted)`) is no longer the file the path names, and does not match a path.
    public func matches(_ process: ProcessDetails) -> Bool {
        let executable = process.executable.map { String(decoding: $0, as: UTF8.self) }
        if isPath { return executable == value }
        if let executable, !executable.hasSuffix(" (deleted)"), executable.split(separator: "/").last.map(String.init) == value {
            return true
        }
        // comm holds at most 15 bytes of the name.
        let comm = process.program
        return comm == value || (comm.utf8.count == 15 && value.utf8.starts(with: comm.utf8))
    }
}

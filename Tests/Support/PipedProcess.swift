// A program run with its output on pipes that the test's own poll loop reads, so the test can
// serve the bus while busctl, gdbus or shotguard talk to it.
import Glibc
import XCTest

/// A child process whose standard output and error are pipes read without blocking.
public final class PipedProcess {
    public let pid: pid_t
    public let label: String
    public private(set) var stdout: [UInt8] = []
    public private(set) var stderr: [UInt8] = []
    private var pipes: [Int32]
    public private(set) var exitStatus: Int32?

    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }

    /// Starts `program` (searched in PATH) with exactly `environment`. Signals are reset in the
    /// child: the test runner may block some, and a child would inherit that.
    public init(_ program: String, _ arguments: [String], environment: [String: String]) throws {
        var out: [Int32] = [0, 0]
        var err: [Int32] = [0, 0]
        guard pipe(&out) == 0, pipe(&err) == 0 else { throw POSIXError(.EMFILE) }
        for fd in out + err { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
        close(out[1])
        close(err[1])
        guard status == 0 else {
            close(out[0])
            close(err[0])
            throw POSIXError(POSIXErrorCode(rawValue: status) ?? .ENOENT)
        }
        self.pid = pid
        label = ([program] + arguments).joined(separator: " ")
        pipes = [out[0], err[0]]
        for fd in pipes { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            _ = wait()
        }
        for fd in pipes where fd >= 0 { close(fd) }
    }

    /// The pipes still open, for poll.
    public var openDescriptors: [Int32] { pipes.filter { $0 >= 0 } }

    /// Reads what the pipes hold now; a pipe at its end is closed.
    public func drain() {
        for index in pipes.indices where pipes[index] >= 0 {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(pipes[index], &buffer, buffer.count)
                if count > 0 {
                    if index == 0 { stdout += buffer[0..<count] } else { stderr += buffer[0..<count] }
                    continue
                }
                if count == 0 {
                    close(pipes[index])
                    pipes[index] = -1
                }
                break
            }
        }
    }

    /// Whether both pipes reached their end (the program exited, or closed them).
    public var isFinished: Bool { openDescriptors.isEmpty }

    /// Waits for the exit status (after the pipes ended); 128 + N when killed by signal N.
    @discardableResult
    public func wait() -> Int32 {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let signal = status & 0x7F
        let code = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        exitStatus = code
        return code
    }

    /// Stops a program that runs until stopped (a monitor).
    public func terminate() {
        guard exitStatus == nil else { return }
        kill(pid, SIGTERM)
        drainToEnd()
        wait()
    }

    /// Reads until both pipes end, blocking.
    public func drainToEnd() {
        while !isFinished {
            var fds = openDescriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), 1000)
            drain()
        }
    }
}

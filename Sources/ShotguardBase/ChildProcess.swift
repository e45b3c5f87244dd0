// Starts helper programs (Xvfb, openbox) with a clean signal state, and stops them by pid.
import CShotguardSys
import Glibc

/// A program this process started. Spawned with `posix_spawn`, resetting the signal mask and
/// dispositions: a child of a process that blocked signals (for `signalfd`, or a test runner)
/// would otherwise ignore `SIGTERM`.
public final class ChildProcess {
    public let pid: pid_t
    public let program: String
    /// Whether the child leads its own session (and process group), so stopping it reaches
    /// whatever it started too.
    public let ownsSession: Bool
    private var exited = false
    /// The wait status, once the child was reaped (by `hasExited` or `waitForExit`).
    private var waitStatus: Int32 = 0

    /// Where the child's standard output and error go.
    public enum Output: Sendable { case discard, inherit, standardError }

    /// Starts `program` (searched in PATH) with `arguments` and `environment` added to this
    /// process's. `keepDescriptors` stay open in the child; every other descriptor this process
    /// marked close-on-exec does not leak. With `newSession` the child starts its own session
    /// (`setsid`): a user's command is then out of this process's group and terminal, so a
    /// signal to the agent's group does not reach it, nor one it sends to its own group the agent.
    /// Standard input is /dev/null unless `inheritInput` (a command run on the user's behalf).
    public init(_ program: String, _ arguments: [String], environment: [String: String] = [:],
                keepDescriptors: [Int32] = [], output: Output = .discard, newSession: Bool = false,
                inheritInput: Bool = false) throws(SystemError) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch output {
        case .discard:
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        case .standardError:
            posix_spawn_file_actions_adddup2(&actions, 2, 1)
        case .inherit:
            break
        }
        if !inheritInput { posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) }
        for fd in keepDescriptors {
            // dup2 onto itself clears close-on-exec in the child only.
            posix_spawn_file_actions_adddup2(&actions, fd, fd)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        let flags = Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | (newSession ? sg_posix_spawn_setsid : 0)
        posix_spawnattr_setflags(&attributes, flags)

        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var inherited: [String] = []
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
            if environment[name] == nil { inherited.append(text) }
            index += 1
        }
        let envp = (inherited + environment.map { "\($0.key)=\($0.value)" }).map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
        guard status == 0 else {
            throw SystemError(call: "cannot start \(program)\(Self.failedPath(program, output: output, inheritInput: inheritInput))",
                              code: status)
        }
        self.pid = pid
        self.program = program
        ownsSession = newSession
    }

    /// Which path a failed spawn could not use, as `: PATH` for the error: posix_spawn gives one
    /// errno for the program and for each file it opens for the child (an ENOENT may be
    /// /dev/null's). Empty when none can be named.
    private static func failedPath(_ program: String, output: Output, inheritInput: Bool) -> String {
        if output == .discard || !inheritInput, access("/dev/null", R_OK | W_OK) != 0 { return ": /dev/null" }
        if program.contains("/") { return access(program, X_OK) != 0 ? ": \(program)" : "" }
        return programExists(program) ? "" : " (not found in PATH)"
    }

    /// Whether the child has exited (reaps it if so).
    public var hasExited: Bool {
        if exited { return true }
        if waitpid(pid, &waitStatus, WNOHANG) == pid { exited = true }
        return exited
    }

    /// Waits for the child to exit and returns its exit status (128 + N when killed by signal N).
    public func waitForExit() -> Int32 {
        while !exited {
            if waitpid(pid, &waitStatus, 0) == pid { exited = true } else if errno != EINTR { return -1 }
        }
        let signal = waitStatus & 0x7F
        return signal == 0 ? (waitStatus >> 8) & 0xFF : 128 + signal
    }

    /// Sends SIGTERM to this child (to its whole process group when it leads its own session)
    /// and waits for it (SIGKILL after about 2 s).
    public func stop() {
        guard !hasExited else { return }
        let target = ownsSession ? -pid : pid
        kill(target, SIGTERM)
        for _ in 0..<200 {
            if hasExited { return }
            usleep(10_000)
        }
        kill(target, SIGKILL)
        waitpid(pid, &waitStatus, 0)
        exited = true
    }

    deinit { stop() }
}

/// Whether `program` is found in PATH.
public func programExists(_ program: String) -> Bool {
    guard let path = getenv("PATH").map({ String(cString: $0) }) else { return false }
    return path.split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
}

// Signals as readable events: blocked for the process and read from a signalfd in the loop.
import CShotguardSys
import Glibc
import ShotguardBase

/// SIGINT, SIGTERM, SIGHUP and SIGCHLD delivered through a file descriptor, so that the event
/// loop handles them between events instead of in a handler.
final class SignalReader {
    let fileDescriptor: Int32
    static let handled = [SIGINT, SIGTERM, SIGHUP, SIGCHLD]

    init() throws(SystemError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in Self.handled { sigaddset(&mask, signal) }
        // Children get an empty mask and default dispositions back (see ChildProcess).
        try retrying("sigprocmask") { sigprocmask(SIG_BLOCK, &mask, nil) }
        fileDescriptor = try retrying("signalfd") { sg_signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) }
    }

    deinit { close(fileDescriptor) }

    /// The signals that arrived since the last call.
    func read() -> [Int32] {
        var signals: [Int32] = []
        var info = signalfd_siginfo()
        while Glibc.read(fileDescriptor, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            signals.append(Int32(info.ssi_signo))
        }
        return signals
    }
}

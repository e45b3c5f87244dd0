// The loop that owns the descriptors: one poll() over all of them, a timeout from the next deadline.
import Glibc
import ShotguardBase

/// One descriptor to poll and what to do when it is ready.
struct LoopDescriptor {
    let fd: Int32
    let events: Int16
    /// Called with the returned events when any are set.
    let ready: (Int16) -> Void
}

/// One turn of the agent's loop: waits until a descriptor is ready or the deadline passes,
/// then calls the ready ones in the order given. Signal handlers only make a descriptor
/// readable (signalfd), so all work happens here, on one thread.
enum AgentLoop {
    /// Polls `descriptors` until one is ready or `deadline` (monotonic seconds; nil waits for a
    /// descriptor) passes. Returns false when poll failed for a reason other than a signal.
    static func turn(_ descriptors: [LoopDescriptor], deadline: Double?, now: Double) -> Bool {
        var fds = descriptors.map { pollfd(fd: $0.fd, events: $0.events, revents: 0) }
        let timeout: Int32 = deadline.map { Int32(max(0, min(60_000, (($0 - now) * 1000).rounded(.up)))) } ?? -1
        let ready = poll(&fds, nfds_t(fds.count), timeout)
        guard ready >= 0 || errno == EINTR else { return false }
        guard ready > 0 else { return true }
        for (index, descriptor) in descriptors.enumerated() where fds[index].revents != 0 {
            descriptor.ready(fds[index].revents)
        }
        return true
    }
}

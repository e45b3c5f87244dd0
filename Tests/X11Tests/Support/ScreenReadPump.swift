// Drives a ScreenReadSource as the agent's poll loop will, collecting what it hands over.
import Glibc
import ShotguardBase
import ShotguardTestSupport
import ShotguardX11

/// poll() on the source's descriptor, `read()` when it is readable; every event is kept.
final class ScreenReadPump {
    let source: ScreenReadSource
    private(set) var events: [ScreenReadEvent] = []
    /// How many times the descriptor woke the loop.
    private(set) var wakeups = 0

    init(_ source: ScreenReadSource) {
        self.source = source
    }

    var reads: [ScreenRead] {
        events.compactMap { if case .read(let read) = $0 { read } else { nil } }
    }

    /// The reads of one client, in order.
    func reads(of client: UInt32) -> [ScreenRead] { reads.filter { $0.client == client } }

    func hasEnded(_ client: UInt32) -> Bool { events.contains(.clientEnded(client)) }

    /// Waits until the server has let `client` go and its end has been handed over. The server
    /// sends what RECORD gathered only with its next output to any client, and a client's end
    /// makes none, so the end of the last client to speak can wait for the next activity; the
    /// round trips that ask X-Resource whether the client is still there are such output.
    func runUntilEnded(_ client: UInt32, asking display: Display, seconds: Double) -> Bool {
        let end = monotonicNow() + seconds
        while display.processID(ofClient: client) != nil {
            guard monotonicNow() < end else { return false }
        }
        return run(seconds: max(0, end - monotonicNow())) { hasEnded(client) }
    }

    /// Turns the loop until `done` holds or `seconds` pass (a bound for a broken server, not a
    /// measure); false on timeout. `output`, when given, is drained as it becomes readable.
    @discardableResult
    func run(seconds: Double, output: PipedCommand? = nil, until done: () -> Bool) -> Bool {
        let end = monotonicNow() + seconds
        while !done() {
            let remaining = end - monotonicNow()
            guard remaining > 0, !source.isLost else { return false }
            let sources = source.fileDescriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            var fds = sources
            if let output, !output.ended { fds.append(pollfd(fd: output.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
            // The source's deadline too: clients leave its copy context then.
            let wait = min(remaining, source.deadline.map { max(0, $0 - monotonicNow()) } ?? remaining)
            _ = poll(&fds, nfds_t(fds.count), Int32((wait * 1000).rounded(.up)))
            if fds.prefix(sources.count).contains(where: { $0.revents != 0 }) {
                wakeups += 1
                events += source.read()
            } else if let deadline = source.deadline, monotonicNow() >= deadline {
                events += source.read()
            }
            if fds.count > sources.count, fds[sources.count].revents != 0 { output?.readAvailable() }
        }
        return true
    }
}

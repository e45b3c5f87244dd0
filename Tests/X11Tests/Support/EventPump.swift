// Drives DesktopEvents as the agent's poll loop does, while other programs use the clipboard.
import Glibc
import ShotguardBase
import ShotguardTestSupport
import ShotguardX11
import XCTest

/// The agent's loop in small: poll() on the X connection (and on a child's output pipe),
/// `process` when X speaks, `expire` at `deadline`. Collects what comes out.
final class EventPump {
    let desktop: DesktopEvents
    let display: Display
    private(set) var signals: [DesktopSignal] = []
    private(set) var serverEvents: [ClipboardServerEvent] = []

    init(display: Display, watchClipboard: Bool) throws {
        self.display = display
        desktop = try DesktopEvents(display: display, clipboard: watchClipboard, tools: false, extraToolClasses: [])
    }

    var server: ClipboardServer { desktop.clipboardServer }

    /// Turns the loop until `done` holds or `seconds` pass; false on timeout. `output`, when
    /// given, is read as it becomes readable.
    @discardableResult
    func run(seconds: Double, output: PipedCommand? = nil, until done: () -> Bool) -> Bool {
        let end = monotonicNow() + seconds
        while true {
            collect()
            if done() { return true }
            let wake = min(end, desktop.deadline ?? end)
            let remaining = wake - monotonicNow()
            guard end > monotonicNow() else { return false }
            var fds = [pollfd(fd: display.fileDescriptor, events: Int16(POLLIN), revents: 0)]
            if let output, !output.ended { fds.append(pollfd(fd: output.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
            _ = poll(&fds, nfds_t(fds.count), Int32(max(0, remaining * 1000).rounded(.up)))
            if fds.count > 1, fds[1].revents != 0 { output?.readAvailable() }
            signals += desktop.expire(now: monotonicNow())
        }
    }

    private func collect() {
        signals += desktop.process(now: monotonicNow())
        serverEvents += server.takeEvents()
    }

    /// The images delivered so far.
    var images: [[UInt8]] {
        reads.map(\.image)
    }

    /// Everything the clipboard reads delivered so far.
    var reads: [ClipboardRead] {
        signals.compactMap { if case .clipboardImage(let read) = $0 { return read } else { return nil } }
    }

    /// The failures reported so far.
    var failures: [String] {
        signals.compactMap { if case .clipboardFailed(let reason) = $0 { return reason } else { return nil } }
    }
}

/// A shell command whose standard output comes back through a pipe, read without blocking
/// (xclip -o and its like). Standard error goes to the test's.
final class PipedCommand {
    let child: ChildProcess
    let fileDescriptor: Int32
    private(set) var output: [UInt8] = []
    private(set) var ended = false

    /// Starts `command`; `capacity` shrinks the pipe first (to one page at least), so that a
    /// command writing more stays blocked, alive and connected, until the pipe is read.
    init(_ command: String, display: String, capacity: Int32? = nil) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw FixtureError("pipe: \(String(cString: strerror(errno)))") }
        // F_SETPIPE_SZ (1031), a Linux extension the Glibc module leaves out.
        if let capacity, fcntl(fds[0], 1031, capacity) < 0 {
            close(fds[0])
            close(fds[1])
            throw FixtureError("cannot shrink a pipe to \(capacity) bytes: \(String(cString: strerror(errno)))")
        }
        // Close-on-exec: only the child named by keepDescriptors gets the write end.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        defer { close(fds[1]) }
        do {
            child = try ChildProcess("/bin/sh", ["-c", "exec \(command) >/dev/fd/\(fds[1])"], environment: ["DISPLAY": display],
                                     keepDescriptors: [fds[1]], output: .inherit)
        } catch {
            close(fds[0])
            throw error
        }
        fileDescriptor = fds[0]
        _ = fcntl(fileDescriptor, F_SETFL, O_NONBLOCK)
    }

    deinit { close(fileDescriptor) }

    /// Reads what the pipe holds now; `ended` once the command closed its output.
    func readAvailable() {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while !ended {
            let count = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                output += buffer[0..<count]
            } else if count == 0 {
                ended = true
            } else {
                return  // EAGAIN: nothing more now
            }
        }
    }

    /// The exit status, once the output has ended.
    func status() -> Int32 { child.waitForExit() }
}

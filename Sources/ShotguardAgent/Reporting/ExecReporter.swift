// Runs the user's command for each report, one at a time, with a short queue and no stacking.
import ShotguardBase
import ShotguardX11

/// `--exec CMD`: `/bin/sh -c CMD` in a session of its own, with `SHOTGUARD_IMAGE` and
/// `SHOTGUARD_REPORT` set. At most one runs; later reports wait in a short queue, and beyond it
/// they are dropped with a log line.
final class ExecReporter {
    let command: String
    private var running: ChildProcess?
    private var queue: [(image: String?, report: String)] = []
    private let log: Log
    static let queueLimit = 4

    init(command: String, log: Log) {
        self.command = command
        self.log = log
    }

    var isIdle: Bool { running == nil && queue.isEmpty }

    func submit(image: String?, report: String) {
        guard queue.count < Self.queueLimit else {
            log.warning("--exec command still busy and \(Self.queueLimit) reports waiting: dropped \(report)")
            return
        }
        queue.append((image, report))
        startNext()
    }

    /// Reaps a finished command (on SIGCHLD) and starts the next queued one.
    func childExited() {
        if let running, running.hasExited {
            log.verbose("--exec command finished (pid \(running.pid))")
            self.running = nil
        }
        startNext()
    }

    private func startNext() {
        guard running == nil, !queue.isEmpty else { return }
        let next = queue.removeFirst()
        var environment = ["SHOTGUARD_REPORT": next.report]
        environment["SHOTGUARD_IMAGE"] = next.image ?? ""
        do throws(SystemError) {
            // Its own session: the user's command and what it starts stay out of the agent's
            // process group (a terminal's ^C or a group signal), and stopping it reaches them all.
            running = try ChildProcess("/bin/sh", ["-c", command], environment: environment, output: .standardError,
                                       newSession: true)
        } catch {
            log.error("--exec: \(error.description)")
            startNext()
        }
    }

    /// Stops waiting: the queue is dropped (drain then stops the running command).
    func abandon() {
        queue.removeAll()
        running?.stop()
        running = nil
    }

    /// Waits for the running command and the queue to finish (for --once and shutdown), for
    /// at most `seconds`; then stops the command and drops what waits, saying so.
    func drain(seconds: Double, wait: () -> Void) {
        let deadline = monotonicNow() + seconds
        while !isIdle, monotonicNow() < deadline {
            wait()
            childExited()
        }
        guard !isIdle else { return }
        log.warning("--exec command still running after \(Int(seconds)) s: stopped it"
            + (queue.isEmpty ? "" : "; \(queue.count) waiting reports not handed on"))
        queue.removeAll()
        running?.stop()
        running = nil
    }
}

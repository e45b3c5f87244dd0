// `exec:CMD` deliveries: the user's command run for a queued report, its exit status the outcome.
import Glibc
import ShotguardBase

/// Runs `/bin/sh -c CMD` in a session of its own (its output to the agent's standard error),
/// with SHOTGUARD_IMAGE and SHOTGUARD_REPORT naming the queued report's files. Exit 0 is
/// delivered; a command still running after `limit` seconds is stopped and tried again later.
final class CommandRunner {
    private var running: [Int: (child: ChildProcess, started: Double)] = [:]
    private var done: [(id: Int, result: AttemptResult)] = []
    let limit: Double

    init(limit: Double = 600) {
        self.limit = limit
    }

    var isBusy: Bool { !running.isEmpty }

    /// When the oldest command runs out of time (monotonic seconds).
    var deadline: Double? { running.values.map { $0.started + limit }.min() }

    /// Starts the command as delivery `id`; nil, or why it could not start.
    func start(_ command: String, environment: [String: String], id: Int) -> String? {
        do throws(SystemError) {
            let child = try ChildProcess("/bin/sh", ["-c", command], environment: environment, output: .standardError, newSession: true)
            running[id] = (child, monotonicNow())
            return nil
        } catch {
            return error.description
        }
    }

    /// Reaps the commands that ended (on SIGCHLD, or each turn) and stops those over the limit.
    func poll(now: Double) {
        for (id, run) in running {
            if run.child.hasExited {
                running[id] = nil
                done.append((id, .exited(run.child.waitForExit())))
            } else if now - run.started > limit {
                running[id] = nil
                run.child.stop()
                done.append((id, .notMade("the command ran longer than \(Int(limit)) s: stopped")))
            }
        }
    }

    func finished() -> [(id: Int, result: AttemptResult)] {
        defer { done.removeAll() }
        return done
    }

    /// Stops every command (the agent is stopping; their reports stay queued).
    func stopAll() {
        for run in running.values { run.child.stop() }
        running.removeAll()
    }
}

// The small dialog of "Report this screenshot…": one line the user may type, read back when it closes.
import Glibc
import ShotguardBase

/// Runs `zenity --entry` for a report the user asked to send, without waiting: the agent's
/// loop reaps it on SIGCHLD. Its answer goes to a private file (0600) in the queue's folder.
/// Without zenity the report goes without a description (said once in the log).
final class DescriptionDialog {
    /// The dialog's answer, once it closed: sent (with the line typed, maybe empty) or cancelled.
    enum Answer: Equatable {
        case send(description: String?)
        case cancelled
    }

    private var running: [(reportID: String, child: ChildProcess, answer: String)] = []
    private let folder: String
    private let log: Log
    static let program = "zenity"

    init(folder: String, log: Log) {
        self.folder = folder
        self.log = log
    }

    var isRunning: Bool { !running.isEmpty }

    /// Asks for a description of `reportID`; returns the answer at once when no dialog can run.
    func ask(for reportID: String) -> Answer? {
        guard !running.contains(where: { $0.reportID == reportID }) else { return nil }
        guard programExists(Self.program) else {
            log.warning("no \(Self.program) to ask for a description: report \(reportID) goes without one")
            return .send(description: nil)
        }
        let answer = folder + "/.description-" + reportID
        let fd = open(answer, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            log.warning("cannot ask for a description (\(answer): \(errnoText())): report \(reportID) goes without one")
            return .send(description: nil)
        }
        close(fd)
        do throws(SystemError) {
            let child = try ChildProcess("/bin/sh", ["-c", "exec \"$0\" --entry --title='Report this screenshot' "
                + "--text='What went wrong? (optional; Cancel keeps the report here)' --width=480 >> \"$1\"",
                Self.program, answer], newSession: true)
            running.append((reportID, child, answer))
            return nil
        } catch {
            unlink(answer)
            log.warning("cannot start \(Self.program) (\(error.description)): report \(reportID) goes without a description")
            return .send(description: nil)
        }
    }

    /// The dialogs that closed since the last call, with their answers.
    func finished() -> [(reportID: String, answer: Answer)] {
        var done: [(reportID: String, answer: Answer)] = []
        running.removeAll { dialog in
            guard dialog.child.hasExited else { return false }
            let status = dialog.child.waitForExit()
            defer { unlink(dialog.answer) }
            guard status == 0 else {
                done.append((dialog.reportID, .cancelled))
                return true
            }
            // One line of the user's own words, bounded; what zenity printed is all there is.
            let bytes = (try? FileIO.read(dialog.answer, limit: 4096)) ?? []  // unreadable: the report goes without words
            let line = String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
            let text = String(line.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(500).map(Character.init))
            done.append((dialog.reportID, .send(description: text.isEmpty ? nil : text)))
            return true
        }
        return done
    }

    /// Closes every dialog (the agent stops; their reports stay held).
    func closeAll() {
        for dialog in running {
            dialog.child.stop()
            unlink(dialog.answer)
        }
        running.removeAll()
    }
}

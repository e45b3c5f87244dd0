// What a reporter is: something that takes a written report (its image and JSON) and hands it on.
import ShotguardBase
import ShotguardImaging

/// A report once the spool has written it: where its files are, and its JSON text.
struct WrittenReport {
    let id: String
    let imagePath: String?
    let reportPath: String
    let json: String
}

/// Hands reports on: `--json` prints them, `--exec` runs a command for each. The spool writes
/// the files every reporter points to, so it comes first and is not one of them.
protocol Reporter: AnyObject {
    /// Hands one report on; throws when the reporter can no longer take any (its output closed).
    func deliver(_ report: WrittenReport) throws(ReporterError)
    /// Hands on a line of another kind (a recording started or stopped): `--json` prints it.
    func announce(_ line: String) throws(ReporterError)
    /// A child process may have exited (SIGCHLD).
    func childExited()
    /// Finishes what is in hand at shutdown, for at most `seconds`, calling `wait` between checks.
    func drain(seconds: Double, wait: () -> Void)
    /// Gives up on what is in hand (a second SIGTERM).
    func abandon()
}

/// A reporter that cannot go on, with why.
struct ReporterError: Error, CustomStringConvertible {
    let description: String
}

extension Reporter {
    func announce(_ line: String) throws(ReporterError) {}
    func childExited() {}
    func drain(seconds: Double, wait: () -> Void) {}
    func abandon() {}
}

/// `--json`: one JSON line per report on standard output.
final class JSONLineReporter: Reporter {
    func deliver(_ report: WrittenReport) throws(ReporterError) { try announce(report.json) }

    func announce(_ line: String) throws(ReporterError) {
        do throws(FileError) {
            try FileDescriptor.standardOutput.writeAll(line + "\n")
        } catch {
            // EPIPE once the reader went away (SIGPIPE is ignored): nobody reads reports now.
            throw ReporterError(description: "standard output is closed (\(error.message)): cannot print reports")
        }
    }
}

extension ExecReporter: Reporter {
    func deliver(_ report: WrittenReport) throws(ReporterError) {
        submit(image: report.imagePath, report: report.reportPath)
    }
}

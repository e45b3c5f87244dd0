// The report sink: each report written into the spool, then handed to every reporter.
import ShotguardBase
import ShotguardImaging

/// Where reports go: the spool first (every reporter points to its files), then `--json`,
/// `--exec` and whatever listens for reports (the bus, notifications). Owns them all.
final class ReportSink {
    let spool: SpoolReporter
    private let reporters: [any Reporter]
    private let log: Log
    private let host: String
    private let version: String
    /// Keep the image of a screenshot no rule touched (`--keep-unredacted`, or `--exec`).
    private let keepUnredacted: Bool
    private(set) var delivered = 0
    /// The last report written: its id, time and guard outcome (for the status).
    private(set) var last: (id: String, time: Double, outcome: String)?
    /// Called with each report written (the bus and notifications listen here).
    var onReport: (Report) -> Void = { _ in }

    init(spool: SpoolReporter, reporters: [any Reporter], keepUnredacted: Bool, host: String, version: String, log: Log) {
        self.spool = spool
        self.reporters = reporters
        self.keepUnredacted = keepUnredacted
        self.host = host
        self.version = version
        self.log = log
    }

    /// Writes the report's folder and hands it on. Returns false when a reporter can no longer
    /// take reports (standard output closed): the agent then stops.
    func deliver(_ report: Report) -> Bool {
        let paths = spool.paths(for: report.id)
        // A screenshot no rule touched is the unredacted screen: its image is not kept unless asked.
        let keepsImage = report.image != nil && (!report.redactions.isEmpty || keepUnredacted)
        let png: [UInt8]?
        do throws(ImagingError) {
            let options = EncodeOptions(compressionLevel: spool.compressionLevel, filter: EncodeOptions.fast.filter)
            png = try keepsImage ? report.image.map { image throws(ImagingError) in
                try PNGEncoder.encode(image, options: options, destination: paths.image)
            } : nil
        } catch {
            log.error("report \(report.id) not written: \(error.description)")
            return true
        }
        let json = report.json(imagePath: png == nil ? nil : paths.image, host: host, version: version).text
        let written: (image: String?, report: String)
        do throws(ImagingError) {
            written = try spool.write(png, json: json, id: report.id)
        } catch {
            log.error("report \(report.id) not written: \(error.description)")
            return true
        }
        delivered += 1
        last = (report.id, report.time, report.guardOutcome.summary)
        log.info("report \(report.id): \(report.source.rawValue) image, \(report.redactions.count) rectangle\(report.redactions.count == 1 ? "" : "s") redacted"
            + (report.notes.isEmpty ? "" : " (\(report.notes.joined(separator: "; ")))") + " -> \(paths.folder)")
        let handed = WrittenReport(id: report.id, imagePath: written.image, reportPath: written.report, json: json)
        var open = true
        for reporter in reporters {
            do throws(ReporterError) {
                try reporter.deliver(handed)
            } catch {
                log.error("\(error.description); stopping")
                open = false
            }
        }
        onReport(report)
        return open
    }

    /// A line of another kind for `--json` (a recording that started or stopped).
    func announce(_ line: JSON) -> Bool {
        var open = true
        for reporter in reporters {
            do throws(ReporterError) {
                try reporter.announce(line.text)
            } catch {
                log.error("\(error.description); stopping")
                open = false
            }
        }
        return open
    }

    func childExited() { for reporter in reporters { reporter.childExited() } }
    func abandon() { for reporter in reporters { reporter.abandon() } }

    /// Finishes what the reporters hold, for at most `seconds` each, calling `wait` between checks.
    func drain(seconds: Double, wait: () -> Void) { for reporter in reporters { reporter.drain(seconds: seconds, wait: wait) } }
}

extension GuardOutcome {
    /// `file rewritten, clipboard replaced` — for the status and notifications; `reported` when
    /// guard touched neither (an image no rule hit, the agent's own capture, `--no-guard`).
    var summary: String {
        let parts = [file.map { "file \($0)" }, clipboard.map { "clipboard \($0)" }].compactMap { $0 }
        return parts.isEmpty ? "reported" : parts.joined(separator: ", ")
    }
}

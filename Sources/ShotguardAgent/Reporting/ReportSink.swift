// The report sink: each report written into the spool, then handed to every reporter.
import ShotguardBase
import ShotguardImaging
import ShotguardScreen

/// Where reports go: the spool first (every reporter points to its files), then the delivery
/// queue (`--report-to`), `--json`, `--exec` and whatever listens for reports (the bus,
/// notifications). Owns them all.
final class ReportSink {
    let spool: SpoolReporter
    let delivery: ReportDelivery
    private let reporters: [any Reporter]
    private let log: Log
    private let host: String
    private let version: String
    /// Keep the image of a screenshot no rule touched (`--keep-unredacted`, or `--exec`).
    private let keepUnredacted: Bool
    private(set) var delivered = 0
    /// The last report written: its id, time and guard outcome (for the status).
    private(set) var last: (id: String, time: Double, outcome: String)?
    /// Called with each report written and its JSON (the bus and notifications listen here).
    var onReport: (Report, String) -> Void = { _, _ in }

    init(spool: SpoolReporter, delivery: ReportDelivery, reporters: [any Reporter], keepUnredacted: Bool, host: String, version: String,
         log: Log) {
        self.spool = spool
        self.delivery = delivery
        self.reporters = reporters
        self.keepUnredacted = keepUnredacted
        self.host = host
        self.version = version
        self.log = log
    }

    /// The application of the active window, as desktop entries name it.
    private let entries = DesktopEntries()

    /// Writes the report's folder and hands it on. Returns false when a reporter can no longer
    /// take reports (standard output closed): the agent then stops.
    func deliver(_ report: Report) -> Bool {
        var report = report
        if let window = report.activeWindow {
            report.application = entries.application(className: window.className, instance: window.instance)
        }
        let paths = spool.paths(for: report.id)
        // A screenshot no rule touched is the unredacted screen: its image is not kept unless asked.
        // The delivery queue takes it all the same: the report's image is what rules left of the
        // screen (redacted, or the redacted fallback), never an original guard set aside.
        let keepsImage = report.image != nil && (!report.redactions.isEmpty || keepUnredacted)
        let encoded: [UInt8]?
        do throws(ImagingError) {
            let options = EncodeOptions(compressionLevel: spool.compressionLevel, filter: EncodeOptions.fast.filter)
            encoded = try keepsImage || delivery.wantsImage && report.rulesApplied ? report.image.map { image throws(ImagingError) in
                try PNGEncoder.encode(image, options: options, destination: paths.image)
            } : nil
        } catch {
            log.error("report \(report.id) not written: \(error.description)")
            return true
        }
        let png = keepsImage ? encoded : nil
        let document = report.json(imagePath: png == nil ? nil : paths.image, host: host, version: version)
        let json = document.text
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
        // Fail closed: an image no rules were applied to (protection paused) is the raw screen, and
        // stays on this machine; the report goes without it.
        if report.image != nil, !report.rulesApplied, delivery.wantsImage {
            log.info("report \(report.id) goes to its destinations without its image: no rules were in force (protection paused)")
        }
        delivery.queue(id: report.id, json: document, png: report.rulesApplied ? encoded : nil)
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
        onReport(report, json)
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

    func childExited() {
        for reporter in reporters { reporter.childExited() }
        delivery.childExited()
    }

    func abandon() { for reporter in reporters { reporter.abandon() } }

    /// Finishes what the reporters hold, for at most `seconds` each, calling `wait` between
    /// checks; uploads under way get the same time, and what is left stays queued.
    func drain(seconds: Double, wait: () -> Void) {
        for reporter in reporters { reporter.drain(seconds: seconds, wait: wait) }
        delivery.drain(seconds: seconds)
    }
}

extension GuardOutcome {
    /// `file rewritten, clipboard replaced` — for the status and notifications; `reported` when
    /// guard touched neither (an image no rule hit, the agent's own capture, `--no-guard`).
    var summary: String {
        let parts = [file.map { "file \($0)" }, clipboard.map { "clipboard \($0)" }].compactMap { $0 }
        return parts.isEmpty ? "reported" : parts.joined(separator: ", ")
    }
}

// Settling a capture event: the bounded look for a file, quarantine, the report and its delivery.
import Glibc
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

extension Agent {
    /// Called when the event's quiet period is over and its candidates were examined (or at
    /// shutdown, `final`).
    func settle(final: Bool = false) {
        guard let event else { return }
        if !final, event.hasCountedSignal, !event.hasRealImage, lookForFile(event) { return }
        self.event = nil
        settleUnplaced(event)
        var report = Report(id: event.id, time: event.wallStart)
        report.signals = event.signals
        report.screen = (event.eventTime.context.width, event.eventTime.context.height)
        report.monitors = event.eventTime.context.monitors
        report.activeWindow = event.eventTime.context.windows.first { $0.id == event.eventTime.context.activeWindowID }
        report.guardOutcome = event.guardOutcome
        report.shield = event.shield
        report.notes = event.notes
        guard event.hasCountedSignal || event.placed != nil else {
            log.verbose("capture event \(event.id) had no screenshot: no report")
            return
        }
        if event.placed == nil, event.unplaced.isEmpty, event.repeats > 0 {
            log.verbose("capture event \(event.id) showed a screenshot already reported: no second report")
            return
        }
        let eventHits = regions?.hits(against: event.eventTime.context) ?? []
        var windowHits = Set(eventHits.compactMap(\.windowID))
        if let placed = event.placed {
            report.image = placed.image
            report.source = placed.candidate.source
            report.original = placed.candidate.path?.description
            report.alignment = placed.alignment
            report.redactions = placed.redactions
            report.notes += placed.notes
            windowHits.formUnion(placed.redactions.compactMap(\.windowID))
        } else {
            report.image = redactedFallback(of: event)
            report.source = .fallback
            report.alignment = Alignment(method: .fallback, rect: event.fallbackRect,
                                         windowID: event.eventTime.context.activeWindowID)
            report.redactions = eventHits.translated(toImageAt: event.fallbackRect)
        }
        report.activeWindowRedacted = event.eventTime.context.activeWindowID.map(windowHits.contains) ?? false
        // Two signals of one screenshot can bring the same note: each is said once.
        var said = Set<String>()
        report.notes = report.notes.filter { said.insert($0).inserted }
        deliver(report)
    }

    /// Strong candidates that could not be placed: noted in the report, and quarantined when a
    /// rule hit the event-time screen (unless they came in a burst: a bulk copy of old images).
    private func settleUnplaced(_ event: CaptureEvent) {
        let rulesHit = !(regions?.hits(against: event.eventTime.context).isEmpty ?? true)
        var handled = Set<[UInt8]>()
        for (index, item) in event.unplaced.enumerated() {
            // A file read twice (it changed under guard) is noted and quarantined once.
            if let path = item.candidate.path, !handled.insert(path.bytes).inserted { continue }
            let name = item.candidate.path?.description ?? "the clipboard image"
            let action = GuardPolicy.action(for: .unplaced(reason: item.reason), hitsInImage: 0, isWeak: false,
                                            rulesHitAtEvent: rulesHit, isBurst: event.isBurst)
            if !event.isBurst { event.notes.append("\(name) \(item.reason); reported the fallback instead") }
            if action == .quarantine, options.guarding, item.candidate.source == .file {
                quarantineFile(item.candidate, reason: item.reason, in: event, index: index + 1)
            }
        }
        if event.isBurst, !event.unplaced.isEmpty {
            log.warning("\(event.unplaced.count) of \(event.fileCount) images written at once were not found on the screen: "
                + "taken for a copy of older images, left as they are")
        }
    }

    /// The bounded look for a file when the signals brought no image: the newest
    /// screenshot-like file since 5 s before the event, now and once more 750 ms later.
    /// Returns true while the event should stay open (a file to examine, or the second look).
    private func lookForFile(_ event: CaptureEvent) -> Bool {
        guard let files, event.looks < 2 else { return false }
        event.looks += 1
        event.retryAt = nil
        if let path = files.newestScreenshot(since: event.wallStart - ScreenshotFileClassifier.maximumAge),
           case .success(let file) = ScreenshotFileClassifier.classify(path, now: now(), keepingBytes: false) {
            let key = Self.fileKey(file.identity)
            if ownRewrites[key] == nil, !seen.contains(key, now: monotonicNow()) {
                seen.insert(key, now: monotonicNow())
                log.verbose("found \(path) for capture event \(event.id)")
                event.add(SignalRecord(kind: .file, time: now(), detail: path.description), counted: false,
                          candidate: Candidate(source: .file, path: path, bytes: nil, isWeak: false, key: key), now: monotonicNow())
                return true
            }
        }
        guard event.looks < 2 else { return false }
        event.retryAt = monotonicNow() + CaptureEvent.retryDelay
        return true
    }

    /// Encodes the image, writes the report folder, hands it to the reporters.
    private func deliver(_ report: Report) {
        let paths = spool.paths(for: report.id)
        let png: [UInt8]?
        do throws(ImagingError) {
            let options = EncodeOptions(compressionLevel: spool.compressionLevel, filter: EncodeOptions.fast.filter)
            png = try report.image.map { image throws(ImagingError) in try PNGEncoder.encode(image, options: options, destination: paths.image) }
        } catch {
            log.error("report \(report.id) not written: \(error.description)")
            return
        }
        let json = report.json(imagePath: png == nil ? nil : paths.image, host: host, version: options.version).text
        let written: (image: String?, report: String)
        do throws(ImagingError) {
            written = try spool.write(png, json: json, id: report.id)
        } catch {
            log.error("report \(report.id) not written: \(error.description)")
            return
        }
        reported += 1
        log.info("report \(report.id): \(report.source.rawValue) image, \(report.redactions.count) rectangles redacted"
            + (report.notes.isEmpty ? "" : " (\(report.notes.joined(separator: "; ")))") + " -> \(paths.folder)")
        let handed = WrittenReport(id: report.id, imagePath: written.image, reportPath: written.report, json: json)
        for reporter in reporters {
            do throws(ReporterError) {
                try reporter.deliver(handed)
            } catch {
                log.error("\(error.description); stopping")
                stopping = true
            }
        }
    }
}

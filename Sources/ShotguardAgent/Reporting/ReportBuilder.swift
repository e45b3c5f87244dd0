// The report builder: a settled capture event in, the report (or none) out. Pure.
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

/// Why a settled capture event has no report.
enum NoReport: String, Sendable {
    /// No screenshot happened: only weak images, none of them the screen's.
    case noScreenshot = "no-screenshot"
    /// It showed a screenshot already reported.
    case alreadyReported = "already-reported"

    /// The log's words: "capture event ID had no screenshot: no report".
    var text: String {
        switch self {
        case .noScreenshot: return "had no screenshot"
        case .alreadyReported: return "showed a screenshot already reported"
        }
    }
}

enum ReportBuilder {
    /// The report of `event`, or nil with why there is none.
    static func build(_ event: CaptureEvent, rules: RegionsFile?) -> (report: Report?, why: NoReport?) {
        guard event.hasCountedSignal || event.placed != nil else { return (nil, .noScreenshot) }
        if event.placed == nil, event.unplaced.isEmpty, event.repeats > 0 {
            return (nil, .alreadyReported)
        }
        let context = event.eventTime.context
        var report = Report(id: event.id, time: event.start.wall)
        report.signals = event.signals
        report.capturedBy = capturedBy(event.signals)
        report.rulesApplied = rules != nil
        report.screen = (context.width, context.height)
        report.monitors = context.monitors
        report.activeWindow = context.windows.first { $0.id == context.activeWindowID }
        report.guardOutcome = event.guardOutcome
        report.shield = event.shield
        report.notes = event.notes + event.unplaced.map { "\($0.name) \($0.reason); reported the fallback instead" }
        if event.weakDropped > 0 {
            report.notes.append("\(event.weakDropped) more images written at once were not examined (a bulk copy)")
        }
        let eventHits = rules?.hits(against: context) ?? []
        var windowHits = Set(eventHits.compactMap(\.windowID))
        if let placed = event.placed {
            report.image = placed.image
            report.source = placed.candidate.source == .file ? .file : .clipboard
            report.original = placed.candidate.path?.description
            report.alignment = placed.alignment
            report.redactions = placed.redactions
            report.notes += placed.notes
            report.evidence = placed.evidence
            report.textCovers = placed.textCovers
            windowHits.formUnion(placed.redactions.compactMap(\.windowID))
        } else {
            report.image = redactedFallback(of: event, rules: rules)
            report.source = .fallback
            report.alignment = Alignment(method: .fallback, rect: event.fallbackRect, windowID: context.activeWindowID)
            report.redactions = eventHits.translated(toImageAt: event.fallbackRect)
        }
        report.activeWindowRedacted = context.activeWindowID.map(windowHits.contains) ?? false
        // Two signals of one screenshot can bring the same note: each is said once.
        var said = Set<String>()
        report.notes = report.notes.filter { said.insert($0).inserted }
        return (report, nil)
    }

    /// The program that took the screenshot: the first reader of the screen that is named, else
    /// the first screenshot tool whose window was seen. Nil when no signal names one (a file
    /// that appeared, a clipboard owner unknown).
    static func capturedBy(_ signals: [SignalRecord]) -> (program: String, pid: Int32?)? {
        if let read = signals.first(where: { $0.kind == .screenRead && !($0.read?.program.isEmpty ?? true) })?.read {
            return (read.program, read.pid)
        }
        if let tool = signals.first(where: { $0.kind == .toolWindow && !$0.detail.isEmpty }) { return (tool.detail, nil) }
        return nil
    }

    /// The event-time grab of the fallback rectangle, with the event-time rules applied. It goes
    /// to the report only: guard never writes screen pixels where something else was.
    static func redactedFallback(of event: CaptureEvent, rules: RegionsFile?) -> PixelBuffer {
        var image = event.eventTime.root.cropped(to: event.fallbackRect)
        image.hasAlpha = false
        if let rules { image.redact(rules.hits(against: event.eventTime.context), origin: event.fallbackRect) }
        return image
    }
}

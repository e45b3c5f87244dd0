// The agent on the desktop: its service on the session bus (status, pause, resume, reload,
// signals), its notifications, its tray icon and the mark shown while the screen is recorded.
import Glibc
import ShotguardBase
import ShotguardBus
import ShotguardImaging

/// Where the tray menu's entries lead: the reports, the regions file, the quarantine.
struct DesktopFolders {
    var reports: String
    var regions: String
    var quarantine: String
}

/// The session bus, the agent's service on it, notifications, and the presence (tray icon and
/// recording mark). Without a session bus (a bare X session) the agent runs without the
/// service and notifications; a lost bus is said once and dropped. The presence follows the
/// agent's status each turn (a pause ending, rules reloaded) and every recording's start and stop.
final class DesktopIntegration {
    private var bus: SessionBus?
    private var service: AgentBusService?
    private var notifier: Notifier?
    /// What answers the service's calls (the service itself holds it weakly).
    private var control: AgentControl?
    private let log: Log
    /// The report the notification on screen offers to send (`--report-ask`), if it still does.
    private var offered: String?
    /// Called with a report's id when the user chooses "Report this screenshot…".
    var sendAsked: (String) -> Void = { _ in }
    private let presence: DesktopPresence
    private let opener: DesktopOpener
    private let folders: DesktopFolders
    /// The programs recording the screen now, with their pids, oldest first.
    private var recordings: [(program: String, pid: Int32?)] = []

    init(notify: Bool, tray: Bool = false, indicator: Bool = false, folders: DesktopFolders? = nil, log: Log) {
        self.log = log
        presence = DesktopPresence(tray: tray, indicator: indicator, log: log)
        opener = DesktopOpener(log: log)
        self.folders = folders ?? DesktopFolders(reports: "", regions: "", quarantine: "")
        do throws(BusError) {
            let bus = try SessionBus.user()
            self.bus = bus
            if notify {
                let notifier = Notifier(bus: bus)
                self.notifier = notifier
                notifier.actionInvoked = { [weak self] key in
                    guard let self, key == Self.sendAction, let id = self.offered else { return }
                    self.offered = nil
                    self.sendAsked(id)
                }
            }
        } catch {
            log.info("no session bus (\(error)): no 'shotguard status', pause or notifications")
        }
    }

    /// Takes the agent's name on the bus, answering calls with `control`; shows the presence.
    func start(control: AgentControl) {
        self.control = control
        refreshPresence()
        if let bus { presence.attach(to: bus) { [weak self] in self?.perform($0) } }
        guard let bus else { return }
        do throws(BusError) {
            service = try AgentBusService(bus: bus, control: control)
            log.verbose("on the session bus as \(AgentInterface.busName)")
        } catch {
            log.warning("cannot take \(AgentInterface.busName) on the session bus (\(error)): 'shotguard status' and pause "
                + "reach another agent or none")
        }
    }

    /// The bus's descriptor for the loop (its events change with queued writes: read each
    /// turn), and the presence's X connection.
    var descriptors: [LoopDescriptor] {
        var list: [LoopDescriptor] = []
        if let bus, bus.fileDescriptor >= 0 { list.append(LoopDescriptor(fd: bus.fileDescriptor, events: bus.pollEvents) { _ in }) }
        if let windows = presence.descriptor { list.append(windows) }
        return list
    }

    var deadline: Double? { bus?.deadline }

    /// Runs what the bus has for the agent (method calls, replies) and what the presence's
    /// windows say (the menu's choices); shows the agent's status now. Every turn.
    func process() {
        for action in presence.process(now: monotonicNow()) { perform(action) }
        opener.reap()
        defer { refreshPresence() }
        guard let bus else { return }
        do throws(BusError) {
            try bus.process()
        } catch {
            log.warning("lost the session bus (\(error)): no more status, pause or notifications")
            presence.detach()
            service = nil
            notifier = nil
            self.bus = nil
        }
    }

    /// Shows the agent's status and the recordings running (nothing changes when they did not).
    private func refreshPresence() {
        guard let control else { return }
        presence.show(PresenceState(control.status(), recordings: recordings.map(\.program)))
    }

    /// Carries out a choice of the tray's menu.
    private func perform(_ action: TrayAction) {
        guard let control else { return }
        log.info("tray: \(action.label.lowercased())")
        if let seconds = action.pauseSeconds {
            if case .refused(let why) = control.pause(seconds: seconds) {
                log.warning("tray: pause refused: \(why)")
                notifier?.notify(summary: "Screenshot protection not paused", body: why)
            }
        } else {
            switch action {
            case .resume: _ = control.resume()
            case .openReports: opener.open(folders.reports)
            case .editRules: opener.edit(folders.regions)
            case .openQuarantine: opener.open(folders.quarantine)
            default: break
            }
        }
        refreshPresence()
    }

    /// The action key of "Report this screenshot…".
    static let sendAction = "report"

    /// A screenshot was reported: signals always (`json` is its report), a notification when
    /// guard did something, or, when the user is to be asked (`--report-ask`), one that offers to
    /// send it.
    func reported(_ report: Report, json: String, askToSend: Bool) {
        let outcome = report.guardOutcome.summary
        service?.screenshotReported(id: report.id, outcome: outcome)
        service?.reported(id: report.id, report: json)
        if let entry = report.guardOutcome.quarantine, let path = report.original {
            service?.fileQuarantined(id: entry, path: path)
        }
        guard let notifier else { return }
        offered = nil
        if askToSend {
            let areas = report.redactions.count + report.textCovers.count
            offered = report.id
            notifier.notify(summary: "Screenshot ready to report",
                            body: "\(areas) area\(areas == 1 ? "" : "s") covered. It stays here unless you send it.",
                            actions: [NotificationAction(key: Self.sendAction, label: "Report this screenshot…")])
            return
        }
        let place = report.original.map { ($0.split(separator: "/").last.map(String.init) ?? $0) } ?? "the clipboard image"
        switch (report.guardOutcome.file, report.guardOutcome.clipboard) {
        case ("quarantined", _):
            notifier.notify(summary: "Screenshot set aside",
                            body: "\(place) could not be redacted. Restore it with: shotguard quarantine restore "
                                + (report.guardOutcome.quarantine ?? ""))
        case ("unreadable", _):
            notifier.notify(summary: "Screenshot locked", body: "\(place) could not be redacted nor set aside: it is unreadable until you chmod it")
        case (_, "withheld"):
            notifier.notify(summary: "Clipboard screenshot withheld", body: "It could not be redacted: pasting gives a placeholder")
        case ("rewritten", _), (_, "replaced"):
            notifier.notify(summary: "Screenshot redacted", body: Self.redactedBody(report, place: place))
        default:
            break
        }
    }

    /// `3 areas covered in shot.png (1 card among them)`: every area covered, the rules'
    /// rectangles and what the text rules found.
    static func redactedBody(_ report: Report, place: String) -> String {
        let areas = report.redactions.count + report.textCovers.count
        let found = Dictionary(grouping: report.textCovers, by: \.kind).sorted { $0.key < $1.key }
            .map { kind, covers in "\(covers.count) \(kind)\(covers.count == 1 ? "" : "s")" }
        let text = found.isEmpty ? "" : " (" + found.joined(separator: ", ") + " among them)"
        return "\(areas) area\(areas == 1 ? "" : "s") covered in \(place)\(text)"
    }

    /// A recording of the screen started or stopped: the mark, the bus's signal, and for a
    /// start while rules are in force, a notification naming the program and what was covered.
    func recording(started: Bool, info: RecordingInfo, rulesInForce: Bool, shielded: Bool) {
        if started {
            recordings.append((info.program, info.pid))
        } else if let index = recordings.firstIndex(where: { $0.program == info.program && $0.pid == info.pid }) {
            recordings.remove(at: index)
        }
        // The mark first: it shows within the turn that heard of the recording.
        refreshPresence()
        service?.recording(started: started, program: info.program, pid: info.pid ?? 0, geometry: info.area?.description)
        guard started, let notifier, let text = RecordingText.notification(info, rulesInForce: rulesInForce, shielded: shielded) else {
            return
        }
        offered = nil
        notifier.notify(summary: text.summary, body: text.body)
    }

    /// A program read protected pixels off the screen, and its image could not be found.
    func imageLost(program: String) {
        notifier?.notify(summary: "Screenshot not protected",
                         body: "\(program) read the screen, and its image could not be found: it was not redacted")
    }

    func paused(until: Double?) {
        offered = nil
        refreshPresence()
        service?.paused(until: until)
        notifier?.notify(summary: "Screenshot protection paused",
                         body: until.map { "Until \(Self.clock($0)); 'shotguard resume' ends it sooner" } ?? "Until 'shotguard resume'")
    }

    func resumed() {
        offered = nil
        refreshPresence()
        service?.resumed()
        notifier?.notify(summary: "Screenshot protection resumed", body: "Screenshots are redacted again")
    }

    /// `14:05`, local time.
    private static func clock(_ wall: Double) -> String {
        let time = CalendarTime(wall)
        return "\(CalendarTime.pad(time.hour)):\(CalendarTime.pad(time.minute))"
    }
}

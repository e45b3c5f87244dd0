// What the tray icon and the recording mark show, as values: the state, and what each part of
// the desktop says of it (headline, tooltip, menu, the mark's text). No X, no bus.
import ShotguardBase
import ShotguardBus

/// The agent as the desktop shows it: whether it protects, and who records the screen.
struct PresenceState: Equatable, Sendable {
    enum Protection: Equatable, Sendable {
        case protecting(rules: Int)
        /// Until a time (seconds since the epoch), or until resumed when nil.
        case paused(until: Double?)
        case off(why: String)
    }

    var protection: Protection
    /// The programs recording or sharing the screen now, one entry per recording, oldest first.
    var recordings: [String] = []

    init(protection: Protection, recordings: [String] = []) {
        self.protection = protection
        self.recordings = recordings
    }

    /// The state of `status` (the bus's answer), with `recordings`.
    init(_ status: AgentStatus, recordings: [String]) {
        switch status.protection {
        case .protecting: protection = .protecting(rules: status.ruleCount)
        case .paused(let until): protection = .paused(until: until)
        case .off(let why): protection = .off(why: why)
        }
        self.recordings = recordings
    }
}

/// The menu's choices; the raw value is the tag and the dbusmenu id.
enum TrayAction: Int, CaseIterable, Sendable {
    case pauseTenMinutes = 1, pauseOneHour, pauseUntilResumed, resume, openReports, editRules, openQuarantine

    var label: String {
        switch self {
        case .pauseTenMinutes: return "Pause 10 minutes"
        case .pauseOneHour: return "Pause 1 hour"
        case .pauseUntilResumed: return "Pause until resumed"
        case .resume: return "Resume"
        case .openReports: return "Open reports folder"
        case .editRules: return "Edit rules"
        case .openQuarantine: return "Open quarantine"
        }
    }

    /// The pause it asks for, in seconds (0: until resumed); nil for other actions.
    var pauseSeconds: Double? {
        switch self {
        case .pauseTenMinutes: return 600
        case .pauseOneHour: return 3600
        case .pauseUntilResumed: return 0
        default: return nil
        }
    }
}

/// The four looks of the icon.
enum PresenceIcon: String, Equatable, Sendable {
    case protecting, paused, recording, off
}

/// One line of the menu: a state line, a separator or an action.
struct PresenceMenuLine: Equatable, Sendable {
    enum Kind: Equatable, Sendable { case state, separator, action(TrayAction) }
    var kind: Kind
    var label: String
    var enabled: Bool
}

/// What each part of the desktop shows for a state; `clock` writes a time (seconds since the
/// epoch) as the user reads it (local `14:05`).
struct PresenceLook: Equatable, Sendable {
    /// The state in a few words: the menu's first line, the tooltip's text.
    let headline: String
    /// `Active`, or `NeedsAttention` while paused or recording (StatusNotifierItem's status).
    let status: String
    let menu: [PresenceMenuLine]
    /// The recording mark's text; nil when no one records.
    let indicator: String?

    init(_ state: PresenceState, clock: (Double) -> String) {
        var lines: [String] = []
        let base: PresenceIcon
        switch state.protection {
        case .protecting(let rules):
            base = .protecting
            lines.append("Protecting with \(rules) rule\(rules == 1 ? "" : "s")")
        case .paused(let until):
            base = .paused
            lines.append(until.map { "Paused until \(clock($0))" } ?? "Paused until resumed")
        case .off(let why):
            base = .off
            lines.append("Not protecting: \(why)")
        }
        let programs = Self.distinct(state.recordings)
        if !programs.isEmpty {
            lines.append("Recording: " + programs.joined(separator: ", "))
            indicator = "RECORDING: " + Self.shortened(programs.joined(separator: ", "), to: 40)
        } else {
            indicator = nil
        }
        let finalIcon: PresenceIcon = programs.isEmpty ? base : .recording
        headline = lines.joined(separator: "; ")
        status = finalIcon == .recording || finalIcon == .paused ? "NeedsAttention" : "Active"
        let paused: Bool
        if case .paused = state.protection { paused = true } else { paused = false }
        var menu = lines.map { PresenceMenuLine(kind: .state, label: Self.shortened($0, to: 60), enabled: false) }
        menu.append(PresenceMenuLine(kind: .separator, label: "", enabled: false))
        for action in [TrayAction.pauseTenMinutes, .pauseOneHour, .pauseUntilResumed] {
            menu.append(PresenceMenuLine(kind: .action(action), label: action.label, enabled: !paused))
        }
        menu.append(PresenceMenuLine(kind: .action(.resume), label: TrayAction.resume.label, enabled: paused))
        menu.append(PresenceMenuLine(kind: .separator, label: "", enabled: false))
        for action in [TrayAction.openReports, .editRules, .openQuarantine] {
            menu.append(PresenceMenuLine(kind: .action(action), label: action.label, enabled: true))
        }
        self.menu = menu
        iconKind = finalIcon
    }

    /// The icon shown: recording over every other look.
    let iconKind: PresenceIcon

    /// The freedesktop icon name of a look, for hosts whose theme has it.
    var iconName: String {
        switch iconKind {
        case .protecting: return "security-high"
        case .paused: return "security-medium"
        case .recording: return "media-record"
        case .off: return "security-low"
        }
    }

    /// The tray's menu for a StatusNotifierItem host: state lines get ids after the actions'.
    var busMenu: [TrayMenuItem] {
        var next = Int32(TrayAction.allCases.count + 1)
        return menu.map { line in
            switch line.kind {
            case .action(let action): return TrayMenuItem(id: Int32(action.rawValue), label: line.label, enabled: line.enabled)
            case .state:
                next += 1
                return TrayMenuItem(id: next, label: line.label, enabled: false, kind: .label)
            case .separator:
                next += 1
                return TrayMenuItem(id: next, label: "", enabled: false, kind: .separator)
            }
        }
    }

    /// Names in first-seen order, each once.
    private static func distinct(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }

    /// `text` cut to `limit` characters, with "..." where it was cut.
    static func shortened(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 3)) + "..."
    }
}

// The lines `regions check` prints for one rule: where it came from, and what it hits, hides or keeps.
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardX11
import ShotguardScreen

/// Describes resolved rules against the screen they were resolved on. Every name and title is
/// set by another program: escaped, it cannot drive the terminal.
struct RegionsCheckLines {
    let context: ScreenContext
    let resolutions: [RuleResolution]

    /// `line 2: window class=Vault`, `line 3 of /etc/xdg/shotguard/regions: screen (managed by
    /// the system)`, or the windows that ask for protection.
    func heading(_ rule: Rule) -> String {
        let source = rule.source.escapingControlCharacters()
        switch rule.origin {
        case .user: return "line \(rule.line): \(source)"
        case .system(let path, let locked):
            return "line \(rule.line) of \(path.escapingControlCharacters()): \(source)" + (locked ? " (managed by the system)" : "")
        case .windowProperty: return "\(Display.protectProperty): windows that ask for protection"
        }
    }

    /// The indented lines under a rule's heading.
    func body(_ resolution: RuleResolution) -> [String] {
        let rule = resolution.rule
        var lines: [String] = []
        if resolution.zones.isEmpty {
            lines.append((rule.isAllow ? "allows nothing" : "hits nothing") + whyNothing(rule))
        }
        for zone in resolution.zones {
            let pieces = (rule.isAllow ? resolution.allowed : resolution.hits)
                .filter { $0.zone == zone.zone && $0.windowID == zone.windowID && $0.field == zone.field }
            lines.append((rule.isAllow ? "allows " : "") + describe(zone, rule: rule, pieces: pieces))
        }
        if rule.isAllow, !resolution.zones.isEmpty { lines += keptLines(resolution) }
        for id in resolution.undecided {
            lines.append("window \(hexID(id)): its title~ could not be decided within the match budget; it is redacted as a match")
        }
        return lines
    }

    /// `window 0x… Vault/vault "Vault" at 100x80+40+30 -> 80x80+40+30 black (partly under 0x…)`.
    private func describe(_ zone: RegionHit, rule: Rule, pieces: [RegionHit]) -> String {
        let index = zone.windowID.flatMap { context.index(ofWindow: $0) }
        var subject: String
        if let field = zone.field {
            subject = describe(field, in: index.map { context.windows[$0] })
        } else if let index {
            let window = context.windows[index]
            // JSON quoting escapes C0 but leaves DEL and C1, which a terminal may obey.
            subject = "window \(hexID(window.id)) " + "\(window.className)/\(window.instance) \(JSON.quote(window.title))"
                .escapingControlCharacters() + " at \(window.frame)"
        } else if rule.target == .monitor, let monitor = context.monitor(holdingMostOf: zone.rect) {
            subject = "monitor \(monitor.name.escapingControlCharacters()) at \(monitor.frame)"
        } else {
            subject = "screen"
        }
        let shown = pieces.isEmpty ? "nothing" : pieces.map(\.rect.description).joined(separator: ", ")
        var reasons: [String] = []
        let hiders = index.map { context.windowsHiding(zone.rect, aboveWindowAt: $0).map { hexID($0.id) } } ?? []
        if !hiders.isEmpty { reasons.append("under " + list(hiders)) }
        if !rule.isAllow {
            let keepers = keptBy(rule, zone: zone)
            if !keepers.isEmpty { reasons.append("kept visible by " + list(keepers)) }
        }
        let note = reasons.isEmpty ? "" : " (" + (pieces.isEmpty ? "" : "partly ") + reasons.joined(separator: ", ") + ")"
        let fill = rule.isAllow ? "" : " \(zone.fill)"
        let on = zone.field == nil && rule.target != .monitor
            ? context.monitor(holdingMostOf: zone.rect).map { " on \($0.name.escapingControlCharacters())" } ?? "" : ""
        return "\(subject) -> \(shown)\(fill)\(note)\(on)"
    }

    /// The allow rules that kept part of `zone` of `rule` visible: `line 3`, ….
    private func keptBy(_ rule: Rule, zone: RegionHit) -> [String] {
        resolutions.filter { allow in
            allow.rule.isAllow && allow.kept.contains {
                $0.coverLine == rule.line && $0.coverOrigin == rule.origin && $0.windowID == zone.windowID
                    && $0.rect.intersection(zone.rect) == $0.rect
            }
        }.map { label($0.rule) }
    }

    /// What an allow rule kept visible, and the locked covers it could not lift.
    private func keptLines(_ resolution: RuleResolution) -> [String] {
        var lines: [String] = []
        if resolution.kept.isEmpty {
            lines.append("keeps nothing visible (no cover it may lift is there)")
        } else {
            lines.append("keeps visible " + resolution.kept.map { "\($0.rect) of \(label(line: $0.coverLine, origin: $0.coverOrigin))" }
                .joined(separator: ", "))
        }
        let allowed = resolution.allowed.map(\.rect)
        let locked = resolutions.filter { cover in
            !cover.rule.isAllow && !resolution.rule.origin.allowMayUncover(cover.rule.origin)
                && cover.hits.contains { hit in allowed.contains { !$0.intersection(hit.rect).isEmpty } }
        }
        for cover in locked {
            lines.append("cannot uncover \(label(cover.rule)): "
                + (cover.rule.origin.isLocked ? "managed by the system" : "a system allow lifts only system rules"))
        }
        return lines
    }

    /// Why a rule hits nothing: its monitor is not there, or no window has its class or
    /// instance (with the names on screen that look like it).
    private func whyNothing(_ rule: Rule) -> String {
        if rule.target == .monitor, rule.monitor.select(context.monitors).isEmpty {
            let present = context.monitors.isEmpty ? "none"
                : context.monitors.map { $0.name.escapingControlCharacters() }.joined(separator: ", ")
            return ": \(rule.monitor.description.escapingControlCharacters()) is not present (monitors: \(present))"
        }
        for match in rule.matches {
            let (kind, name, names): (String, String, [String])
            switch match {
            case .className(let value): (kind, name, names) = ("class", value, context.windows.map(\.className))
            case .instance(let value): (kind, name, names) = ("instance", value, context.windows.map(\.instance))
            default: continue
            }
            guard !names.contains(where: { $0.lowercased() == name.lowercased() }) else { continue }
            let close = CloseNames.close(to: name, among: names).map { $0.escapingControlCharacters() }
            return ": no window on screen has \(kind) '\(name.excerpt().escapingControlCharacters())'"
                + (close.isEmpty ? "" : " (on screen: \(close.joined(separator: ", ")))")
        }
        return ""
    }

    /// `field password "Password" of application "login" (pid 42) in window 0x… Class/instance at RECT`.
    private func describe(_ field: AccessibleField, in window: WindowInfo?) -> String {
        var text = "field \(field.role.rawValue) \(JSON.quote(field.name)) of application \(JSON.quote(field.application))"
        if field.processID > 0 { text += " (pid \(field.processID))" }
        if let window { text += " in window \(hexID(window.id)) \(window.className)/\(window.instance)" }
        return (text + " at \(field.rect)").escapingControlCharacters()
    }

    private func label(_ rule: Rule) -> String { label(line: rule.line, origin: rule.origin) }

    /// `line 2`, `line 2 of /etc/xdg/shotguard/regions`, or the window property.
    private func label(line: Int, origin: RuleOrigin) -> String {
        switch origin {
        case .user: return "line \(line)"
        case .system(let path, _): return "line \(line) of \(path.escapingControlCharacters())"
        case .windowProperty: return Display.protectProperty
        }
    }

    /// At most three names, then how many more.
    private func list(_ names: [String]) -> String {
        var unique: [String] = []
        for name in names where !unique.contains(name) { unique.append(name) }
        return unique.prefix(3).joined(separator: ", ") + (unique.count > 3 ? " and \(unique.count - 3) more" : "")
    }
}

// `shotguard regions check`: parses the regions file and shows what each rule hits right now.
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardAgent
import ShotguardX11
import ShotguardScreen

enum RegionsCheckCommand: Subcommand {
    static let spec = CommandSpec(
        name: "regions check", summary: "check the regions file against the windows on screen",
        arguments: "",
        options: [.regions, .help],
        details: "Prints the monitors, then each rule with the windows, monitors and rectangles (absolute, on\n"
            + "the root) it hits, and the rules that hit nothing; last, how many of those rectangles\n"
            + "`watch --shield` covers on its key (all of them; pixelate rules in black).\n"
            + "Exit status 2 when the file does not parse.")

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .usage("regions check: takes no arguments") }
        let regions = try RegionsLoader.require(explicitPath: arguments.value("regions"))
        let display = try LiveDisplay.open()
        var context = display.screenContext()
        LiveFields.attach(to: &context, regions: regions, quiet: true)
        let windows = Dictionary(context.windows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var lines = ["\(regions.path.escapingControlCharacters()): \(regions.rules.count) rules; screen \(context.width)x\(context.height), "
            + "\(context.windows.count) viewable windows, \(context.monitors.count) monitors"]
        for monitor in context.monitors {
            lines.append("monitor \(monitor.name.escapingControlCharacters()) \(monitor.frame)" + (monitor.isPrimary ? " primary" : ""))
        }
        if case .unavailable(let reason) = context.fields { lines.append(reason) }
        let resolutions = regions.resolve(against: context)
        for resolution in resolutions {
            lines.append("line \(resolution.rule.line): \(resolution.rule.source.escapingControlCharacters())")
            if resolution.rule.target == .text {
                lines.append("    checked in each image (text found there is covered)")
            } else if resolution.hits.isEmpty {
                lines.append("    hits nothing" + absentMonitor(resolution.rule, context: context))
            }
            for hit in resolution.hits {
                if let field = hit.field {
                    lines.append("    " + describe(field, in: hit.windowID.flatMap { windows[$0] }) + " -> \(hit.rect) \(hit.fill)")
                } else if let id = hit.windowID, let window = windows[id] {
                    // JSON quoting escapes C0 but leaves DEL and C1, which a terminal may obey.
                    let names = "\(window.className)/\(window.instance) \(JSON.quote(window.title))"
                    lines.append("    window \(hexID(id)) \(names.escapingControlCharacters()) "
                        + "at \(window.frame) -> \(hit.rect) \(hit.fill)" + on(hit.rect, context))
                } else if resolution.rule.target == .monitor, let monitor = context.monitor(holdingMostOf: hit.rect) {
                    lines.append("    monitor \(monitor.name.escapingControlCharacters()) at \(monitor.frame) -> \(hit.rect) \(hit.fill)")
                } else {
                    lines.append("    screen -> \(hit.rect) \(hit.fill)" + on(hit.rect, context))
                }
            }
            for id in resolution.undecided {
                lines.append("    window \(hexID(id)): its title~ could not be decided within the match budget; "
                    + "it is redacted as a match")
            }
        }
        lines.append(shieldSummary(resolutions.flatMap(\.hits)))
        Console.output(lines.joined(separator: "\n") + "\n")
    }

    /// What `watch --shield` would cover on its key now: every rectangle listed, in its fill's
    /// colour, pixelate rules in black (a mosaic needs pixels the tool has not read yet).
    private static func shieldSummary(_ hits: [RegionHit]) -> String {
        let pixelated = hits.filter { if case .pixelate = $0.fill { return true } else { return false } }.count
        return "shield: watch --shield covers \(hits.count == 1 ? "this rectangle" : "these \(hits.count) rectangles") on its key"
            + (pixelated > 0 ? " (\(pixelated) of pixelate rules in black)" : "")
    }

    /// ` on NAME`: the monitor that shows most of `rect`, when there is one.
    private static func on(_ rect: Rect, _ context: ScreenContext) -> String {
        context.monitor(holdingMostOf: rect).map { " on \($0.name.escapingControlCharacters())" } ?? ""
    }

    /// Why a monitor rule hit nothing: its monitor is not there (empty for other rules).
    private static func absentMonitor(_ rule: Rule, context: ScreenContext) -> String {
        guard rule.target == .monitor, rule.monitor.select(context.monitors).isEmpty else { return "" }
        let present = context.monitors.isEmpty ? "none" : context.monitors.map { $0.name.escapingControlCharacters() }.joined(separator: ", ")
        return ": \(rule.monitor.description.escapingControlCharacters()) is not present (monitors: \(present))"
    }

    /// `field password "Password" of application "login" (pid 42) in window 0x… Class/instance at RECT`.
    private static func describe(_ field: AccessibleField, in window: WindowInfo?) -> String {
        var text = "field \(field.role.rawValue) \(JSON.quote(field.name)) of application \(JSON.quote(field.application))"
        if field.processID > 0 { text += " (pid \(field.processID))" }
        if let window { text += " in window \(hexID(window.id)) \(window.className)/\(window.instance)" }
        return (text + " at \(field.rect)").escapingControlCharacters()
    }
}

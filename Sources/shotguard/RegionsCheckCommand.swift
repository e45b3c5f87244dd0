// `shotguard regions check`: parses the rules and shows what each one hits right now.
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardX11
import ShotguardScreen

enum RegionsCheckCommand: Subcommand {
    static let spec = CommandSpec(
        name: "regions check", summary: "check the regions file against the windows on screen",
        arguments: "",
        options: [.regions, .help],
        details: "Prints the system policy files and the monitors, then each rule (the system's\n"
            + "first) with the windows, monitors and rectangles it hits (absolute, on the root;\n"
            + "what windows above hide or allow rules keep visible is left out), then the\n"
            + "windows that ask for protection; last, how many rectangles `watch --shield`\n"
            + "covers on its key (pixelate rules in black).\n"
            + "Exit status 2 when a file does not parse.",
        examples: ["shotguard regions check --regions ~/.config/shotguard/regions"])

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .usage("regions check: takes no arguments") }
        let regions = try RegionsLoader.require(explicitPath: arguments.value("regions"))
        let display = try LiveDisplay.open()
        var context = display.screenContext()
        LiveFields.attach(to: &context, regions: regions, display: display, quiet: true)
        var lines = header(regions, context)
        if case .unavailable(let reason) = context.fields { lines.append(reason) }
        let resolutions = regions.resolve(against: context)
        let describer = RegionsCheckLines(context: context, resolutions: resolutions)
        for resolution in resolutions {
            lines.append(describer.heading(resolution.rule))
            if resolution.rule.target == .text {
                lines.append("    checked in each image (text found there is covered)")
            } else {
                lines += describer.body(resolution).map { "    " + $0 }
            }
        }
        lines.append(shieldSummary(resolutions.flatMap(\.hits)))
        Console.output(lines.joined(separator: "\n") + "\n")
    }

    /// The user's file, the system policy files and the monitors.
    private static func header(_ regions: RegionsFile, _ context: ScreenContext) -> [String] {
        let own = regions.rules.filter { $0.origin == .user }.count
        let file = regions.hasUserFile ? count(own, "rule") : "none (the system policy applies)"
        var lines = ["\(regions.path.escapingControlCharacters()): \(file); screen \(context.width)x\(context.height), "
            + "\(count(context.windows.count, "viewable window")), \(count(context.monitors.count, "monitor"))"]
        for path in regions.systemPaths {
            let rules = regions.rules.filter { $0.origin.systemPath == path }
            var line = "system policy \(path.escapingControlCharacters()): \(count(rules.count, "rule"))"
            if let lock = regions.lock, lock.path == path {
                line += ", locked at line \(lock.line): managed by the system"
            } else if rules.contains(where: \.origin.isLocked) {
                line += ", locked: managed by the system"
            }
            lines.append(line)
        }
        for monitor in context.monitors {
            lines.append("monitor \(monitor.name.escapingControlCharacters()) \(monitor.frame)" + (monitor.isPrimary ? " primary" : ""))
        }
        return lines
    }

    /// What `watch --shield` would cover on its key now: every rectangle listed, in its fill's
    /// colour, pixelate rules in black (a mosaic needs pixels the tool has not read yet).
    private static func shieldSummary(_ hits: [RegionHit]) -> String {
        let pixelated = hits.filter { if case .pixelate = $0.fill { return true } else { return false } }.count
        let what = hits.isEmpty ? "nothing" : hits.count == 1 ? "this rectangle" : "these \(hits.count) rectangles"
        return "shield: watch --shield covers \(what) on its key"
            + (pixelated > 0 ? " (\(pixelated) of pixelate rules in black)" : "")
    }

    /// `1 rule`, `2 rules`, `0 rules`.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)" + (number == 1 ? "" : "s")
    }
}

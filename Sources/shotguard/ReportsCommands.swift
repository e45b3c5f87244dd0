// `shotguard reports list|purge`: the reports the agent keeps in its spool, seen and deleted.
import Glibc
import ShotguardAgent
import ShotguardBase
import ShotguardImaging

/// `--spool DIR`, as `watch` takes it.
private let spoolOption = OptionSpec("spool", value: "DIR",
                                     help: "Use the reports in DIR (default $XDG_STATE_HOME/shotguard/reports).")

/// The spool a reports command works on: `--spool DIR` or the agent's default one. A spool
/// not made yet holds no reports; one that cannot be read is an error, not an empty list.
private func spool(_ arguments: ParsedArguments, command: String) throws(CLIError) -> SpoolRetention {
    let folder = arguments.value("spool") ?? SpoolReports.defaultFolder
    var status = stat()
    if stat(folder, &status) == 0 {
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw .failure("\(command): \(escaped(folder)) is not a folder (expected the agent's spool of reports)")
        }
        guard let directory = opendir(folder) else {
            throw .failure("\(command): cannot read the spool \(escaped(folder)): \(errnoText())")
        }
        closedir(directory)
    } else if errno != ENOENT {
        throw .failure("\(command): cannot reach the spool \(escaped(folder)): \(errnoText())")
    }
    // keep: every report; these commands never remove reports by number.
    return SpoolRetention(folder: folder, keep: .max)
}

enum ReportsListCommand: Subcommand {
    static let spec = CommandSpec(
        name: "reports list", summary: "list the reports the agent kept, newest first",
        arguments: "",
        options: [OptionSpec("json", help: "Print one JSON array of the reports."), spoolOption, .help],
        details: "Each line shows the ID, the time (UTC), where the image came from (file, clipboard or\n"
            + "fallback), how many rectangles were redacted, what guard did, whether image.png was kept,\n"
            + "and the screenshot's path. A screenshot no rule touched keeps only its report.json unless\n"
            + "the agent runs with --keep-unredacted. A report whose report.json cannot be read is listed\n"
            + "with the reason. A report queued for a destination (watch --report-to) ends with its delivery\n"
            + "state there: sent, waiting (with the last error and the next try), held for your word, or refused.",
        examples: ["shotguard reports list --json | jq -r '.[0].image'"])

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .usage("reports list: takes no arguments") }
        let retention = try spool(arguments, command: "reports list")
        let (reports, unreadable) = SpoolReports.scan(retention)
        let queue = QueuedDeliveries.load()
        if arguments.has("json") {
            let items = reports.map { report -> JSON in
                guard case .object(let members) = report.json else { return report.json }
                return .object(members + [("delivery", queue[report.id].map { .array($0.map(\.json)) } ?? .null)])
            }
            Console.output(JSON.array(items + unreadable.map(\.json)).text + "\n")
            return
        }
        guard !reports.isEmpty || !unreadable.isEmpty else {
            Console.output("no reports in \(escaped(retention.folder))\n")
            return
        }
        for report in reports {
            let count = "\(report.rectangles) rectangle\(report.rectangles == 1 ? "" : "s")"
            Console.output("\(report.id)  \(escaped(report.time))  \(escaped(report.source))  \(count)  "
                + "\(escaped(report.guardSummary))  \(report.imageKept ? "image kept" : "no image")"
                + (report.original.map { "  \(escaped($0))" } ?? "")
                + (queue[report.id].map { "  " + $0.map(\.summary).joined(separator: ", ") } ?? "") + "\n")
        }
        for report in unreadable {
            Console.output("\(report.id)  unreadable: \(escaped(report.reason)); look in \(escaped(report.folder))\n")
        }
    }
}

enum ReportsPurgeCommand: Subcommand {
    static let spec = CommandSpec(
        name: "reports purge", summary: "delete the reports the agent kept",
        arguments: "",
        options: [OptionSpec("older-than", value: "DURATION", help: "Delete only reports older than DURATION (30m, 12h, 7d)."),
                  spoolOption, .help],
        details: "Without --older-than every report is deleted. A report's age is that of its folder, as for\n"
            + "the agent's --keep-for. Only report folders go: anything else in the spool stays.",
        examples: ["shotguard reports purge --older-than 7d"])

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .usage("reports purge: takes no arguments") }
        var limit: Double?
        if let text = arguments.value("older-than") {
            guard let seconds = DurationText.seconds(text) else {
                throw .usage("reports purge: --older-than: '\(text.excerpt())' is not a duration (expected a number of days, "
                    + "hours, minutes or seconds such as 7d, 12h or 30m)")
            }
            limit = seconds
        }
        let retention = try spool(arguments, command: "reports purge")
        let now = ShotguardBase.now()
        var deleted = 0
        var failed: [(name: String, why: String)] = []
        for name in retention.reportNames() {
            if let limit, !(retention.age(of: name, now: now).map { $0 > limit } ?? false) { continue }
            if retention.remove(name) { deleted += 1 } else { failed.append((name, errnoText())) }
        }
        Console.error("deleted \(deleted) report\(deleted == 1 ? "" : "s") from \(escaped(retention.folder))\n")
        if let first = failed.first {
            throw .failure("reports purge: could not delete \(failed.count) report\(failed.count == 1 ? "" : "s") "
                + "(\(first.name): \(first.why))")
        }
    }
}

/// Text for a terminal, escaped as every other line shotguard prints.
private func escaped(_ text: String) -> String { text.escapingControlCharacters() }

// `shotguard reports send` and `reports follow`: the delivery queue retried now, and the running agent's reports as they come.
import Glibc
import ShotguardAgent
import ShotguardBase
import ShotguardBus
import ShotguardDelivery
import ShotguardImaging

enum ReportsSendCommand: Subcommand {
    static let spec = CommandSpec(
        name: "reports send", summary: "send queued reports now (all waiting ones, or those named)",
        arguments: "[ID]...",
        options: [OptionSpec("wait", value: "SECONDS", help: "Without an agent, wait at most SECONDS for the uploads (default 60)."),
                  .help],
        details: "Tries the reports of the delivery queue again now, without waiting for their backoff: every\n"
            + "waiting report, or the reports named by ID (a report held by --report-ask is sent, and one a\n"
            + "service refused is tried again). A running agent does it (over the session bus); without one\n"
            + "this command sends them itself and says what came of each. Exit status 1 when an ID is not in\n"
            + "the queue or a report could not be sent.",
        examples: ["shotguard reports send", "shotguard reports send 20261201-101010-001"])

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        let ids = arguments.positionals
        var seconds = 60.0
        if let text = arguments.value("wait") {
            guard let value = Double(text), value.isFinite, value > 0, value <= 86_400 else {
                throw .usage("reports send: --wait: '\(text.excerpt())' is not a number of seconds (expected 1 to 86400)")
            }
            seconds = value
        }
        if let answer = try askAgent(ids) {
            for id in answer.unknown { Console.error("reports send: \(id.escapingControlCharacters()) is not in the delivery queue\n") }
            Console.error("the agent is sending \(answer.scheduled.count) report\(answer.scheduled.count == 1 ? "" : "s")\n")
            if !answer.unknown.isEmpty { throw .quiet(.failure) }
            return
        }
        try sendHere(ids, seconds: seconds)
    }

    /// The running agent's answer, or nil when no agent runs (then this command sends).
    private static func askAgent(_ ids: [String]) throws(CLIError) -> (scheduled: [String], unknown: [String])? {
        let client: AgentClient
        do throws(BusError) {
            client = AgentClient(bus: try SessionBus.user())
        } catch {
            return nil
        }
        do throws(AgentClient.Failure) {
            return try client.sendReports(ids)
        } catch {
            if case .noAgent = error { return nil }
            throw .failure("reports send: \(error)")
        }
    }

    /// Sends from this process: it takes the queue's lock, so no agent may be delivering.
    private static func sendHere(_ ids: [String], seconds: Double) throws(CLIError) {
        let folder = DeliveryOptions.outboxFolder
        var status = stat()
        guard stat(folder, &status) == 0 else {
            if ids.isEmpty {
                Console.error("no reports are queued (no \(folder.escapingControlCharacters()))\n")
                return
            }
            throw .failure("reports send: no reports are queued (no \(folder.escapingControlCharacters()))")
        }
        do throws(PrivateFolderError) { try UserFolders.preparePrivateFolder(folder) } catch {
            throw .failure("reports send: \(error)")
        }
        Glibc.signal(SIGPIPE, SIG_IGN)
        let courier = Courier(outbox: Outbox(folder: folder), client: ("shotguard", Commands.version))
        guard courier.sending else {
            throw .failure("reports send: another shotguard is delivering the queue in \(folder.escapingControlCharacters()) "
                + "(an agent without a session bus?)")
        }
        var failures = 0
        courier.onEvent = { event in
            switch event {
            case .delivered(let report, let to, let code):
                Console.error("\(report): delivered to \(to)" + (code.map { " (HTTP \($0))" } ?? "") + "\n")
            case .retry(let report, let to, _, let why):
                failures += 1
                Console.error("\(report): not delivered to \(to): \(why.escapingControlCharacters())\n")
            case .refused(let report, let to, let why):
                failures += 1
                Console.error("\(report): refused by \(to): \(why.escapingControlCharacters())\n")
            default:
                break
            }
        }
        let answer = courier.sendNow(ids)
        for id in answer.unknown { Console.error("reports send: \(id.escapingControlCharacters()) is not in the delivery queue\n") }
        // Lanes carry one report at a time: go on while reports are delivered, stop at the first failure of each lane.
        let end = monotonicNow() + seconds
        var before = -1
        while monotonicNow() < end, courier.counts.waiting != before || !courier.isIdle {
            before = courier.counts.waiting
            courier.run(seconds: end - monotonicNow())
            if failures > 0 { break }
        }
        let left = courier.counts.waiting
        if left > 0 { Console.error("\(left) report\(left == 1 ? "" : "s") still waiting in the queue\n") }
        if failures > 0 || !answer.unknown.isEmpty { throw .quiet(.failure) }
    }
}

enum ReportsFollowCommand: Subcommand {
    static let spec = CommandSpec(
        name: "reports follow", summary: "print each report the running agent makes, as it makes it",
        arguments: "",
        options: [OptionSpec("json", help: "Print each report as one JSON line (its report.json)."), .help],
        details: "Listens to the running agent's Reported signal on the session bus and prints one line per report\n"
            + "until interrupted, so a script can take reports beside the agent (a second 'watch' on the same\n"
            + "display refuses to start). Without --json each line shows the ID, the time, where the image came\n"
            + "from, how many rectangles were redacted and the image's path. Exit status 1 when no agent runs.",
        examples: ["shotguard reports follow --json | jq -r .image.path"])

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .usage("reports follow: takes no arguments") }
        let bus: SessionBus
        do throws(BusError) { bus = try SessionBus.user() } catch { throw .failure("reports follow: no agent runs: \(error)") }
        let follower: ReportFollower
        do throws(AgentClient.Failure) { follower = try ReportFollower(bus: bus) } catch {
            throw .failure("reports follow: \(error)")
        }
        Glibc.signal(SIGPIPE, SIG_IGN)
        Console.error("following the reports of the agent (Ctrl-C ends)\n")
        let json = arguments.has("json")
        // Until SIGINT or SIGTERM end the process (nothing to clean up) or the reader goes away.
        while true {
            var fds = [pollfd(fd: bus.fileDescriptor, events: bus.pollEvents, revents: 0)]
            let timeout = bus.deadline.map { Int32(max(0, min(60_000, (($0 - monotonicNow()) * 1000).rounded(.up)))) } ?? -1
            guard poll(&fds, 1, timeout) >= 0 || errno == EINTR else { throw .failure("reports follow: poll: \(errnoText())") }
            do throws(BusError) { try bus.process() } catch { throw .failure("reports follow: lost the session bus (\(error))") }
            for (id, report) in follower.take() {
                let line = json ? compact(report) : summary(id: id, report: report)
                do throws(FileError) {
                    try FileDescriptor.standardOutput.writeAll(line + "\n")
                } catch {
                    return  // the reader went away (| head -1): following is over
                }
            }
        }
    }

    /// The report as one line: the agent writes it on one line already; a line break would split it.
    private static func compact(_ report: String) -> String {
        String(report.unicodeScalars.filter { $0 != "\n" && $0 != "\r" }.map(Character.init))
    }

    private static func summary(id: String, report: String) -> String {
        let fields = JSONValue.parseObject(Array(report.utf8)) ?? [:]
        let count = fields["redactions"]?.array?.count ?? 0
        return [id, fields["time"]?.string ?? "?", fields["image"]?["source"]?.string ?? "?",
                "\(count) rectangle\(count == 1 ? "" : "s")", fields["image"]?["path"]?.string ?? "no image"]
            .map { $0.escapingControlCharacters() }.joined(separator: "  ")
    }
}

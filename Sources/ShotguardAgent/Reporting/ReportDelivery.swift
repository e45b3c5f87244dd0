// The agent's side of report delivery: each settled report queued for the bug pipeline, the queue
// driven by the loop, the user's word asked for (--report-ask), and what happened said.
import Glibc
import ShotguardBase
import ShotguardBus
import ShotguardDelivery

/// Owns the courier (the queue on disk and its transfers) for the agent: the loop polls its
/// sockets and calls `process()` each turn; the sink hands it each report. Without `--report-to`
/// it still delivers what an earlier run left queued.
final class ReportDelivery {
    let destinations: [Destination]
    let ask: Bool
    private(set) var courier: Courier?
    private let dialog: DescriptionDialog?
    private let log: Log
    /// The JSON of held reports, newest last, to add the user's description to (bounded).
    private var held: [(id: String, json: JSON)] = []
    static let heldKept = 32

    init(options: DeliveryOptions, version: String, log: Log) throws(AgentError) {
        destinations = options.destinations
        ask = options.ask
        self.log = log
        let folder = DeliveryOptions.outboxFolder
        var exists = stat()
        guard !options.destinations.isEmpty || stat(folder, &exists) == 0 else {
            courier = nil
            dialog = nil
            return
        }
        do throws(PrivateFolderError) {
            try UserFolders.preparePrivateFolder(folder)
        } catch {
            throw AgentError(message: "cannot keep the report queue: \(error)", isUsage: false)
        }
        let courier = Courier(outbox: Outbox(folder: folder), bounds: options.bounds, client: ("shotguard", version))
        self.courier = courier
        dialog = options.ask ? DescriptionDialog(folder: folder, log: log) : nil
        courier.onEvent = { [log] event in Self.say(event, log: log) }
        if !courier.sending {
            log.warning("another shotguard delivers the report queue in \(folder): reports are queued for it")
        }
        let counts = courier.counts
        if counts.waiting + counts.held > 0 {
            log.events.say("delivery-queue", [("waiting", .number(counts.waiting)), ("held", .number(counts.held))])
            log.info("\(counts.waiting + counts.held) report\(counts.waiting + counts.held == 1 ? "" : "s") waiting in the queue "
                + "from an earlier run" + (counts.held > 0 ? " (\(counts.held) held for your word)" : ""))
        }
    }

    /// Whether reports need their image encoded for the queue.
    var wantsImage: Bool { !destinations.isEmpty }

    /// Queues a written report for every destination, held when the user is to be asked.
    /// `png` is the report's redacted image: the queue never sees any other.
    func queue(id: String, json: JSON, png: [UInt8]?) {
        guard let courier, !destinations.isEmpty else { return }
        do throws(FileError) {
            try courier.enqueue(reportID: id, report: Array((json.text + "\n").utf8), image: png, destinations: destinations, held: ask)
        } catch {
            log.error("report \(id) not queued for delivery: \(error.description)")
            return
        }
        if ask {
            held.append((id, json))
            if held.count > Self.heldKept { held.removeFirst(held.count - Self.heldKept) }
        }
    }

    /// The user asked to send `id` (the notification's action): the dialog first.
    func userAsked(toSend id: String) {
        guard let courier, let dialog else { return }
        guard courier.queue.contains(where: { $0.reportID == id && $0.held }) else {
            log.info("report \(id) is no longer held in the queue: nothing to send")
            return
        }
        log.info("asking for a description of report \(id) (\(DescriptionDialog.program))")
        if let answer = dialog.ask(for: id) { answered(id, answer) }
    }

    private func answered(_ id: String, _ answer: DescriptionDialog.Answer) {
        guard let courier else { return }
        log.verbose("the dialog for report \(id) closed: \(answer)")
        switch answer {
        case .cancelled:
            log.info("report \(id) kept in the queue, not sent ('shotguard reports send \(id)' sends it)")
            log.events.say("delivery", [("state", .string("cancelled")), ("report", .string(id))])
        case .send(let description):
            let json = held.last { $0.id == id }?.json
            let report = description.flatMap { text in json.map { Array(($0.replacing("description", with: .string(text)).text + "\n").utf8) } }
            courier.release(reportID: id, report: report)
            held.removeAll { $0.id == id }
        }
    }

    /// `shotguard reports send [ID…]` through the bus.
    func sendNow(_ ids: [String]) -> (scheduled: [String], unknown: [String]) {
        guard let courier else { return ([], ids) }
        held.removeAll { ids.contains($0.id) }
        return courier.sendNow(ids)
    }

    /// The queue as `shotguard status` shows it.
    var queueStatus: AgentStatus.Queue? {
        courier.map { AgentStatus.Queue(waiting: $0.counts.waiting, held: $0.counts.held, refused: $0.counts.refused,
                                        dropped: $0.counts.dropped) }
    }

    // MARK: the loop

    var descriptors: [LoopDescriptor] {
        guard let courier else { return [] }
        return courier.watches.map { watch in
            LoopDescriptor(fd: watch.fd, events: watch.events) { revents in courier.ready(fd: watch.fd, revents: revents) }
        }
    }

    var deadline: Double? {
        guard let courier else { return nil }
        return [courier.deadline, dialog?.isRunning == true ? monotonicNow() + 1 : nil].compactMap { $0 }.min()
    }

    /// Every turn: the queue's timers and ended transfers, dialogs that closed.
    func process() {
        courier?.pump()
        for (id, answer) in dialog?.finished() ?? [] { answered(id, answer) }
    }

    func childExited() { process() }

    /// At exit: what is under way may finish within `seconds`; the rest stays queued for the next run.
    func drain(seconds: Double) {
        dialog?.closeAll()
        guard let courier else { return }
        courier.run(seconds: seconds)
        courier.abandon()
    }

    /// Says what the courier did: the log, and the event stream for tests.
    private static func say(_ event: CourierEvent, log: Log) {
        switch event {
        case .queued(let report, let held):
            log.verbose("report \(report) queued for delivery" + (held ? ", held until you ask to send it" : ""))
            log.events.say("delivery", [("state", .string(held ? "held" : "queued")), ("report", .string(report))])
        case .attempt(let report, let to, let attempt):
            log.verbose("sending report \(report) to \(to) (attempt \(attempt))")
            log.events.say("delivery", [("state", .string("attempt")), ("report", .string(report)), ("to", .string(to)),
                                        ("attempt", .number(attempt))])
        case .delivered(let report, let to, let status):
            log.info("report \(report) delivered to \(to)" + (status.map { " (HTTP \($0))" } ?? ""))
            log.events.say("delivery", [("state", .string("delivered")), ("report", .string(report)), ("to", .string(to)),
                                        ("status", status.map { .number($0) } ?? .null)])
        case .retry(let report, let to, let after, let why):
            log.warning("report \(report) not delivered to \(to): \(why); trying again in \(Int(after.rounded(.up))) s")
            log.events.say("delivery", [("state", .string("retry")), ("report", .string(report)), ("to", .string(to)),
                                        ("after", .decimal(after, digits: 3)), ("why", .string(why))])
        case .refused(let report, let to, let why):
            log.error("report \(report) refused by \(to): \(why); kept in the queue ('shotguard reports send \(report)' tries again)")
            log.events.say("delivery", [("state", .string("refused")), ("report", .string(report)), ("to", .string(to)),
                                        ("why", .string(why))])
        case .dropped(let report, let reason):
            log.warning("dropped report \(report) from the delivery queue: \(reason.text)")
            log.events.say("delivery", [("state", .string("dropped")), ("report", .string(report))])
        case .released(let report):
            log.info("report \(report) released for delivery")
            log.events.say("delivery", [("state", .string("released")), ("report", .string(report))])
        case .unreadable(let name, let why):
            log.warning("report queue: \(name): \(why)")
        }
    }
}

extension JSON {
    /// This object with member `key` set to `value` (replaced where it is, else added last).
    func replacing(_ key: String, with value: JSON) -> JSON {
        guard case .object(var members) = self else { return self }
        if let index = members.firstIndex(where: { $0.0 == key }) { members[index].1 = value } else { members.append((key, value)) }
        return .object(members)
    }
}

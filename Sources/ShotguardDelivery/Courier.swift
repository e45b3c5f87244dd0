// Delivers the outbox: one lane per destination, in queue order, retried with backoff, driven by the caller's loop.
import Glibc
import ShotguardBase

/// The queue's engine. Each destination is a lane that carries one report at a time, oldest
/// first: a report is marked delivered only on a 2xx (or exit 0), and a failure makes the whole
/// lane wait (backoff, or the service's Retry-After) before the same report is tried again.
/// Only the holder of the outbox's lock sends; another process only queues (and takes the lock
/// over when it comes free). Single-threaded: the caller polls `watches` until `deadline`, then
/// calls `ready(fd:revents:)` and `pump()`.
public final class Courier {
    public let outbox: Outbox
    public var bounds: QueueBounds
    let policy: RetryPolicy
    let client: (name: String, version: String)
    private let clock: () -> (wall: Double, monotonic: Double)
    private(set) var entries: [OutboxEntry] = []
    private var lanes: [String: Lane] = [:]
    private var nextSequence = 1
    private var http: HTTPClient?
    private var httpUnavailable: String?
    private let commands = CommandRunner()
    private var inFlight: [Int: (entry: String, lane: String, to: String)] = [:]
    private var nextTransfer = 1
    /// Whether this process holds the lock and sends.
    public private(set) var sending = false
    private var lockRetry: Double = 0
    private var stamp: Double?
    /// The earliest wall time a lane waits for (its backoff, a report's next attempt).
    private var laneWake: Double?
    public private(set) var dropped = 0
    /// Called with each step (on the caller's thread).
    public var onEvent: (CourierEvent) -> Void = { _ in }

    struct Lane {
        var waitUntil: Double = 0
        var failures = 0
        var busy = false
    }

    /// The courier of `outbox`, which it loads when it can take the lock (reports left by an
    /// earlier run are sent again, from where they were).
    public init(outbox: Outbox, bounds: QueueBounds = .standard, policy: RetryPolicy = RetryPolicy(),
                client: (name: String, version: String), clock: @escaping () -> (wall: Double, monotonic: Double) = {
                    (ShotguardBase.now(), monotonicNow())
                }) {
        self.outbox = outbox
        self.bounds = bounds
        self.policy = policy
        self.client = client
        self.clock = clock
        takeLock()
        if !sending { reload() }
    }

    deinit { commands.stopAll() }

    // MARK: what the caller asks

    /// Queues a report for `destinations` (held: until `release`); written whole before this
    /// returns. The oldest waiting reports beyond the bounds are dropped.
    @discardableResult
    public func enqueue(reportID: String, report: [UInt8], image: [UInt8]?, destinations: [Destination],
                        held: Bool) throws(FileError) -> OutboxEntry {
        let now = clock()
        let entry = try outbox.add(sequence: nextSequence, reportID: reportID, eventID: Self.eventID(), created: now.wall, held: held,
                                   destinations: destinations, report: report, image: image)
        nextSequence += 1
        entries.append(entry)
        for delivery in entry.deliveries where lanes[delivery.lane] == nil { lanes[delivery.lane] = Lane() }
        stamp = outbox.stamp
        onEvent(.queued(report: reportID, held: held))
        enforceBounds(now: now.wall)
        pump()
        return entry
    }

    /// Lets a held report go (the user said so), with `report` as its new report.json when given
    /// (the user's description added). False when no held report has that id.
    @discardableResult
    public func release(reportID: String, report: [UInt8]? = nil) -> Bool {
        guard let index = entries.lastIndex(where: { $0.reportID == reportID && $0.held }) else { return false }
        if let report {
            do throws(FileError) {
                try outbox.replaceReport(of: entries[index], with: report)
            } catch {
                onEvent(.unreadable(name: entries[index].name, why: "cannot add the description: \(error.description)"))
            }
        }
        entries[index].held = false
        persist(index)
        onEvent(.released(report: reportID))
        pump()
        return true
    }

    /// Tries again now: the named reports (by report id; held ones are released and refused ones
    /// waiting again), or every waiting report when `reportIDs` is empty. Returns the ids of the
    /// reports that will be tried, and the ids that name no queued report.
    @discardableResult
    public func sendNow(_ reportIDs: [String]) -> (scheduled: [String], unknown: [String]) {
        let wanted = Set(reportIDs)
        let unknown = reportIDs.filter { id in !entries.contains { $0.reportID == id } }
        var scheduled: [String] = []
        for index in entries.indices {
            let named = wanted.contains(entries[index].reportID)
            guard named || wanted.isEmpty && !entries[index].held else { continue }
            var changed = false
            if named, entries[index].held {
                entries[index].held = false
                changed = true
            }
            for item in entries[index].deliveries.indices {
                let state = entries[index].deliveries[item].state
                guard state == .waiting || named && state == .refused else { continue }
                entries[index].deliveries[item].state = .waiting
                entries[index].deliveries[item].nextAttempt = nil
                lanes[entries[index].deliveries[item].lane, default: Lane()].waitUntil = 0
                changed = true
            }
            if changed {
                persist(index)
                scheduled.append(entries[index].reportID)
            }
        }
        pump()
        return (scheduled, unknown)
    }

    /// The reports in the queue, in order.
    public var queue: [OutboxEntry] { entries }

    public var counts: QueueCounts {
        var counts = QueueCounts()
        counts.dropped = dropped
        for entry in entries {
            if entry.held, entry.isPending { counts.held += 1 } else if entry.isPending { counts.waiting += 1 }
            if entry.deliveries.contains(where: { $0.state == .refused }) { counts.refused += 1 }
        }
        return counts
    }

    /// Whether nothing is under way (something due now would have started at the last pump).
    public var isIdle: Bool { inFlight.isEmpty }

    // MARK: the caller's loop

    /// The sockets of the transfers under way.
    public var watches: [(fd: Int32, events: Int16)] { http?.watches ?? [] }

    /// A socket of `watches` is ready.
    public func ready(fd: Int32, revents: Int16) {
        http?.ready(fd: fd, revents: revents)
        pump()
    }

    /// A child process may have exited (SIGCHLD): an `exec:` delivery may have ended.
    public func childExited() { pump() }

    /// When `pump()` must run even if no socket is ready (monotonic seconds).
    public var deadline: Double? {
        let now = clock()
        let wall = [laneWake, sending ? nil : lockRetry].compactMap { $0 }.min().map { now.monotonic + max(0, $0 - now.wall) }
        return [wall, http?.deadline, commands.deadline, commands.isBusy ? now.monotonic + 1 : nil].compactMap { $0 }.min()
    }

    /// Does what is due: libcurl's timers, ended transfers and commands, the lock, and the next
    /// report of every lane that may go.
    public func pump() {
        var now = clock()
        http?.expire(now: now.monotonic)
        commands.poll(now: now.monotonic)
        for (id, result) in (http?.finished() ?? []) + commands.finished() { complete(id, result) }
        if !sending, now.wall >= lockRetry {
            takeLock()
            lockRetry = now.wall + 30
        }
        guard sending else { return }
        if outbox.stamp != stamp { rescan() }
        now = clock()
        laneWake = nil
        for key in lanes.keys.sorted() {
            guard let lane = lanes[key], !lane.busy else { continue }
            if lane.waitUntil > now.wall {
                if entries.contains(where: { !$0.held && $0.deliveries.contains { $0.lane == key && $0.state == .waiting } }) {
                    laneWake = min(laneWake ?? .infinity, lane.waitUntil)
                }
                continue
            }
            guard let index = entries.firstIndex(where: { !$0.held && $0.deliveries.contains { $0.lane == key && $0.state == .waiting } }),
                  let item = entries[index].deliveries.firstIndex(where: { $0.lane == key && $0.state == .waiting }) else { continue }
            if let next = entries[index].deliveries[item].nextAttempt, next > now.wall {
                laneWake = min(laneWake ?? .infinity, next)
                continue
            }
            start(index, item, now: now.wall)
        }
    }

    /// Runs the queue on its own until nothing is under way or `seconds` pass (`reports send`
    /// without an agent, and the agent's last moments): polls the transfers' sockets itself.
    public func run(seconds: Double) {
        let end = clock().monotonic + seconds
        pump()
        while !inFlight.isEmpty {
            let now = clock().monotonic
            guard now < end else { return }
            let watched = watches
            var fds = watched.map { pollfd(fd: $0.fd, events: $0.events, revents: 0) }
            let until = [deadline, end].compactMap { $0 }.min() ?? end
            let timeout = Int32(max(0, min(1000, ((until - now) * 1000).rounded(.up))))
            let ready = poll(&fds, nfds_t(fds.count), commands.isBusy ? min(timeout, 50) : timeout)
            if ready > 0 {
                for (index, fd) in fds.enumerated() where fd.revents != 0 { http?.ready(fd: watched[index].fd, revents: fd.revents) }
            }
            pump()
        }
    }

    /// Stops what is under way (the process is stopping): those reports stay queued, as they were.
    public func abandon() {
        commands.stopAll()
        http = nil
        inFlight.removeAll()
    }

    // MARK: inside

    private func start(_ index: Int, _ item: Int, now: Double) {
        let entry = entries[index]
        let delivery = entry.deliveries[item]
        let id = nextTransfer
        nextTransfer += 1
        let label = (try? Destination.parse(delivery.to, headerFile: delivery.headerFile).label) ?? "destination"  // a spec that no longer parses fails in make below, with its reason
        lanes[delivery.lane, default: Lane()].busy = true
        inFlight[id] = (entry.name, delivery.lane, label)
        onEvent(.attempt(report: entry.reportID, to: label, attempt: delivery.attempts + 1))
        var failure: String?
        switch Attempt.make(delivery, of: entry, outbox: outbox, client: client, now: now) {
        case .failure(let why):
            failure = why.reason
        case .success(.command(let command, let environment)):
            failure = commands.start(command, environment: environment, id: id)
        case .success(.http(let request)):
            if http == nil, httpUnavailable == nil {
                do throws(HTTPUnavailable) {
                    http = try HTTPClient(userAgent: "\(client.name)/\(client.version)")
                } catch {
                    httpUnavailable = error.description
                }
            }
            if let http { failure = http.start(request, id: id) } else { failure = httpUnavailable }
        }
        if let failure { complete(id, .notMade(failure)) }
    }

    private func complete(_ id: Int, _ result: AttemptResult) {
        guard let flight = inFlight.removeValue(forKey: id) else { return }
        lanes[flight.lane, default: Lane()].busy = false
        guard let index = entries.firstIndex(where: { $0.name == flight.entry }),
              let item = entries[index].deliveries.firstIndex(where: { $0.lane == flight.lane && $0.state == .waiting }) else { return }
        let now = clock().wall
        var lane = lanes[flight.lane] ?? Lane()
        let report = entries[index].reportID
        entries[index].deliveries[item].attempts += 1
        switch policy.verdict(result, failures: lane.failures + 1, now: now) {
        case .delivered:
            entries[index].deliveries[item].state = .sent
            entries[index].deliveries[item].sentAt = now
            entries[index].deliveries[item].lastError = nil
            entries[index].deliveries[item].nextAttempt = nil
            lane.failures = 0
            lane.waitUntil = 0
            if case .answered(let status, _, _) = result {
                onEvent(.delivered(report: report, to: flight.to, status: status))
            } else {
                onEvent(.delivered(report: report, to: flight.to, status: nil))
            }
        case .retry(let after, let why):
            entries[index].deliveries[item].lastError = why
            entries[index].deliveries[item].nextAttempt = now + after
            lane.failures += 1
            lane.waitUntil = now + after
            onEvent(.retry(report: report, to: flight.to, after: after, why: why))
        case .refused(let why):
            entries[index].deliveries[item].state = .refused
            entries[index].deliveries[item].lastError = why
            lane.failures = 0
            lane.waitUntil = 0
            onEvent(.refused(report: report, to: flight.to, why: why))
        }
        lanes[flight.lane] = lane
        // Delivered everywhere it goes: the queue's copy of the screen is no longer needed.
        if !entries[index].isPending { outbox.dropImage(of: &entries[index]) }
        persist(index)
        if !entries[index].isPending { pruneFinished(now: now) }
    }

    private func persist(_ index: Int) {
        do throws(FileError) {
            try outbox.save(entries[index])
        } catch {
            // The state in memory goes on; after a restart the report is sent again (at least once).
            onEvent(.unreadable(name: entries[index].name, why: "cannot save its state: \(error.description)"))
        }
    }

    private func takeLock() {
        do throws(FileError) {
            guard try outbox.lock() else { return }
        } catch {
            onEvent(.unreadable(name: "lock", why: error.description))
            return
        }
        sending = true
        reload()
    }

    /// Reads the queue from disk (at start, and when the lock is taken over).
    private func reload() {
        let (loaded, unreadable) = outbox.load()
        for item in unreadable { onEvent(.unreadable(name: item.name, why: item.why)) }
        let flying = Set(inFlight.values.map(\.entry))
        entries = loaded.map { entry in entries.first { $0.name == entry.name && flying.contains($0.name) } ?? entry }
        stamp = outbox.stamp
        nextSequence = max(nextSequence, (entries.last?.sequence ?? 0) + 1)
        for entry in entries {
            for delivery in entry.deliveries where delivery.state == .waiting && lanes[delivery.lane] == nil {
                // The lane picks up its backoff where the last run left it.
                var lane = Lane()
                lane.failures = delivery.attempts
                lanes[delivery.lane] = lane
            }
        }
        enforceBounds(now: clock().wall)
    }

    /// Another process queued (or removed) reports: take in the entries this one does not know.
    private func rescan() {
        let known = Set(entries.map(\.name))
        let (loaded, _) = outbox.load()
        stamp = outbox.stamp
        let present = Set(loaded.map(\.name))
        let flying = Set(inFlight.values.map(\.entry))
        entries.removeAll { !present.contains($0.name) && !flying.contains($0.name) }
        for entry in loaded where !known.contains(entry.name) {
            entries.append(entry)
            for delivery in entry.deliveries where lanes[delivery.lane] == nil { lanes[delivery.lane] = Lane() }
        }
        entries.sort { $0.sequence < $1.sequence }
        nextSequence = max(nextSequence, (entries.last?.sequence ?? 0) + 1)
    }

    private func enforceBounds(now: Double) {
        let flying = Set(inFlight.values.map(\.entry))
        for (name, reason) in bounds.overflow(entries.filter { !flying.contains($0.name) }, now: now) {
            guard let index = entries.firstIndex(where: { $0.name == name }) else { continue }
            let report = entries[index].reportID
            outbox.remove(name)
            entries.remove(at: index)
            dropped += 1
            onEvent(.dropped(report: report, reason: reason))
        }
        stamp = outbox.stamp  // its own removals are no reason to read the folder again
    }

    private func pruneFinished(now: Double) {
        let names = Set(bounds.finishedToRemove(entries, now: now).filter { outbox.remove($0) })
        guard !names.isEmpty else { return }
        entries.removeAll { names.contains($0.name) }
        stamp = outbox.stamp
    }

    /// 32 random hex digits (Sentry's event_id form); the system generator reads getrandom(2).
    static func eventID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
    }
}

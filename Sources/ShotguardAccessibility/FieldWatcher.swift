// Keeps the showing fields current on a thread of its own, so reading them at event time is cheap.
import CAtspiLoader
import Glibc
import ShotguardBase
import ShotguardScreen
import Synchronization

/// The agent's view of the accessible fields: a thread owns the accessibility bus, asks every
/// application for its showing fields (one Collection query each) when AT-SPI2 events say
/// something changed (focus, showing, bounds, windows, children) and every `refreshInterval`
/// regardless, and publishes the result. `current` only reads the last result: no D-Bus call,
/// no tree walk, and a hung bus or application never blocks its caller.
public final class FieldWatcher: Sendable {
    /// How often the fields are asked again when no event came: an application may change
    /// without telling (or its events may be lost), and this bounds how stale the list gets.
    public static let refreshInterval = 2.0
    /// How often the thread wakes to see whether it should stop or refresh, in ms.
    static let tickMilliseconds: UInt32 = 200

    /// The latest list and what it cost.
    public struct Status: Sendable {
        /// The fields; `.notQueried` until the first query ends.
        public var fields: AccessibleFields = .notQueried
        /// How many queries have ended.
        public var queries = 0
        /// What the last query took, in milliseconds.
        public var lastQueryMilliseconds = 0.0
        /// When the last query ended (`monotonicNow`).
        public var updatedAt = 0.0
    }

    private struct Shared {
        var status = Status()
        var roles: Set<FieldRole>
        var rolesChanged = false
        var stopping = false
        /// Text requests (`textRuns`), numbered; the thread answers the latest.
        var textRequest: (number: Int, limits: AccessibleTextLimits)?
        var textRequests = 0
        var textAnswer: (number: Int, runs: AccessibleTextRuns?)?
    }

    private let shared: Mutex<Shared>

    /// Starts the thread; the first query begins at once.
    public init(roles: Set<FieldRole>) {
        shared = Mutex(Shared(roles: roles))
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        if pthread_create(&thread, nil, { context in
            let watcher = Unmanaged<FieldWatcher>.fromOpaque(context!).takeRetainedValue()
            watcher.run()
            return nil
        }, context) == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<FieldWatcher>.fromOpaque(context).release()
            shared.withLock { $0.status.fields = .unavailable(reason: "cannot start the accessibility thread: field rules hit nothing") }
        }
    }

    /// The last published status: a lock and a copy, nothing more.
    public var status: Status { shared.withLock { $0.status } }

    /// The last published fields.
    public var current: AccessibleFields { status.fields }

    /// Waits up to `seconds` for the first query to end, for a start-up that knows its fields.
    public func waitForFirstQuery(seconds: Double) -> Status {
        let deadline = monotonicNow() + seconds
        var status = self.status
        while status.queries == 0, status.fields == .notQueried, monotonicNow() < deadline {
            var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
            nanosleep(&pause, nil)
            status = self.status
        }
        return status
    }

    /// New roles to ask for (the regions file was reloaded); takes effect at the next query.
    public func update(roles: Set<FieldRole>) {
        shared.withLock {
            $0.roles = roles
            $0.rolesChanged = true
        }
    }

    /// The showing text of every application (`AccessibilityBus.textRuns`), read on the
    /// watcher's thread: libatspi is not thread-safe, and this thread owns the bus. Blocks the
    /// caller (never the agent's loop: call it from the thread that scans) until the answer
    /// comes or `timeout` seconds pass; nil then, or when there is no bus. The watcher's field
    /// queries wait while it reads.
    public func textRuns(limits: AccessibleTextLimits = .standard, timeout: Double) -> AccessibleTextRuns? {
        let number = shared.withLock { state in
            state.textRequests += 1
            state.textRequest = (state.textRequests, limits)
            return state.textRequests
        }
        sg_atspi_wake()
        let deadline = monotonicNow() + timeout
        while monotonicNow() < deadline {
            if let answer = shared.withLock({ state -> AccessibleTextRuns?? in
                guard let answer = state.textAnswer, answer.number == number else { return nil }
                return .some(answer.runs)
            }) {
                return answer
            }
            var pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
            nanosleep(&pause, nil)
        }
        return nil
    }

    /// Ends the thread within a tick (or after the D-Bus call in progress times out).
    public func stop() { shared.withLock { $0.stopping = true } }

    /// The thread: connect, then query whenever events or the refresh interval say so.
    private func run() {
        let bus: AccessibilityBus
        switch AccessibilityBus.connect() {
        case .failure(let unavailable):
            shared.withLock { $0.status.fields = .unavailable(reason: unavailable.reason) }
            answerTextRequests()
            return
        case .success(let connected):
            bus = connected
        }
        let pump = Pump()
        Pump.current = pump
        pump.listen()
        var lastQuery = -Double.infinity
        while true {
            let (stopping, rolesChanged, roles) = shared.withLock { state in
                defer { state.rolesChanged = false }
                return (state.stopping, state.rolesChanged, state.roles)
            }
            if stopping { return }
            if let request = shared.withLock({ $0.textRequest }) {
                let runs = bus.textRuns(limits: request.limits)
                shared.withLock {
                    $0.textAnswer = (request.number, runs)
                    if $0.textRequest?.number == request.number { $0.textRequest = nil }
                }
            }
            if pump.dirty || rolesChanged || monotonicNow() - lastQuery >= Self.refreshInterval {
                pump.dirty = false
                let started = monotonicNow()
                let fields = bus.fields(roles: roles)
                lastQuery = monotonicNow()
                shared.withLock {
                    $0.status.fields = .available(fields)
                    $0.status.queries += 1
                    $0.status.lastQueryMilliseconds = (lastQuery - started) * 1000
                    $0.status.updatedAt = lastQuery
                }
            }
            // Blocks until an event or the tick; then takes whatever else is already waiting.
            sg_g_main_context_iteration(nil, 1)
            while sg_g_main_context_iteration(nil, 0) != 0 {}
        }
    }
}

extension FieldWatcher {
    /// Without a bus, every text request (now and later) is answered with nil, until stopped.
    private func answerTextRequests() {
        while !shared.withLock({ $0.stopping }) {
            shared.withLock { state in
                if let request = state.textRequest {
                    state.textAnswer = (request.number, nil)
                    state.textRequest = nil
                }
            }
            var pause = timespec(tv_sec: 0, tv_nsec: 100_000_000)
            nanosleep(&pause, nil)
        }
    }
}

/// The thread's AT-SPI2 event listener: an event only marks the list dirty.
private final class Pump {
    /// The pump of the watcher thread; only that thread touches it (libatspi dispatches events
    /// on the thread that iterates the main context), and one watcher runs per process.
    nonisolated(unsafe) static var current: Pump?
    var dirty = false

    /// The events after which a field may have appeared, gone or moved.
    static let eventTypes = ["object:state-changed:showing", "object:state-changed:visible", "object:bounds-changed",
                             "object:children-changed", "window:", "focus:"]

    func listen() {
        let listener = sg_atspi_event_listener_new({ event, _ in
            Pump.current?.dirty = true
            if let event { sg_atspi_event_free(event) }
        }, nil, nil)
        for type in Self.eventTypes {
            var error: UnsafeMutablePointer<GError>?
            sg_atspi_event_listener_register(listener, type, &error)
            if let error { sg_g_error_free(error) }
        }
        // Wakes the blocking iteration each tick, so `stop` and the refresh interval are seen.
        sg_g_timeout_add(FieldWatcher.tickMilliseconds, { _ in 1 }, nil)
    }
}


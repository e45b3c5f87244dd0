// What the bus service asks of the agent: its status, a pause, a resume, a reload. The agent
// implements it; the service only carries the answers to the bus.

/// The agent, as the bus service sees it. Called on the agent's thread, from inside
/// `SessionBus.process()`; each call should return at once.
public protocol AgentControl: AnyObject {
    /// The agent's state now.
    func status() -> AgentStatus
    /// Pauses protection for `seconds` (0: until `resume()`), or refuses with a sentence.
    /// `seconds` is already checked: finite, 0 or positive, at most `AgentInterface.longestPause`.
    func pause(seconds: Double) -> PauseAnswer
    /// Ends a pause; false when protection was not paused.
    func resume() -> Bool
    /// Reads the regions file again (as SIGHUP does).
    func reload() -> ReloadAnswer
    /// Tries the named queued reports again now (every waiting one for an empty list).
    func sendReports(_ ids: [String]) -> (scheduled: [String], unknown: [String])
}

extension AgentControl {
    /// An agent without a report queue knows none of the ids.
    public func sendReports(_ ids: [String]) -> (scheduled: [String], unknown: [String]) { ([], ids) }
}

/// The answer to a pause.
public enum PauseAnswer: Sendable, Equatable {
    /// Paused until `until` (seconds since the epoch), or until resumed when nil.
    case paused(until: Double?)
    /// Not paused: the sentence says why (a policy that forbids it).
    case refused(String)
}

/// The answer to a reload.
public enum ReloadAnswer: Sendable, Equatable {
    /// The new rules are in force: a summary such as "3 rules: 2 window, 1 field".
    case reloaded(String)
    /// The old rules stay: the error, as a sentence.
    case failed(String)
}

/// The agent's state, as `Status` carries it and `shotguard status` prints it.
public struct AgentStatus: Sendable, Equatable {
    /// Whether screenshots are being protected now.
    public enum Protection: Sendable, Equatable {
        case protecting
        /// Paused until `until` (seconds since the epoch), or until resumed when nil.
        case paused(until: Double?)
        /// The agent runs but protects nothing: the sentence says why (no regions file, no rules).
        case off(why: String)
    }

    /// The last screenshot the agent reported.
    public struct Report: Sendable, Equatable {
        public var id: String
        /// Seconds since the epoch.
        public var time: Double
        /// What guard did, e.g. "redacted 2 areas" or "quarantined".
        public var outcome: String

        public init(id: String, time: Double, outcome: String) {
            self.id = id
            self.time = time
            self.outcome = outcome
        }
    }

    /// A program recording or sharing the screen now.
    public struct Recording: Sendable, Equatable {
        public var program: String
        public var pid: Int32?
        /// How it reads: the request (`ShmGetImage`, `CopyArea`, `DamageCreate`…) or the means
        /// past the X server (`NvFBC`).
        public var means: String
        /// What it reads (`WxH+X+Y` on the root), nil where that cannot be told.
        public var geometry: String?
        /// When it started (seconds since the epoch).
        public var since: Double
        /// How many protected areas the shield covered for it.
        public var covers: Int
        /// Whether a rule trusts it (nothing is covered for it).
        public var trusted: Bool

        public init(program: String, pid: Int32?, means: String, geometry: String?, since: Double, covers: Int, trusted: Bool) {
            self.program = program
            self.pid = pid
            self.means = means
            self.geometry = geometry
            self.since = since
            self.covers = covers
            self.trusted = trusted
        }
    }

    public var protection: Protection
    /// The recordings and shares running now, oldest first.
    public var recordings: [Recording] = []
    /// The rules in force by kind of target (`window`, `screen`, `monitor`, `field`).
    public var rules: [String: Int]
    /// The sources that are on (`files`, `clipboard`, `tool windows`, `screen reads`, `shield`).
    public var sources: [String]
    /// Whether the X server has RECORD, so screen reads are seen as they happen.
    public var recordAvailable: Bool
    public var lastReport: Report?
    /// The X display the agent watches.
    public var display: String
    /// shotguard's version.
    public var version: String
    /// The report queue (`--report-to`), when the agent has one.
    public var queue: Queue?

    /// How many reports wait in the delivery queue, by state, and how many it dropped.
    public struct Queue: Sendable, Equatable {
        public var waiting: Int
        public var held: Int
        public var refused: Int
        /// Dropped since the agent started (the queue's bounds).
        public var dropped: Int

        public init(waiting: Int, held: Int, refused: Int, dropped: Int) {
            self.waiting = waiting
            self.held = held
            self.refused = refused
            self.dropped = dropped
        }
    }

    public init(protection: Protection, rules: [String: Int] = [:], sources: [String] = [], recordAvailable: Bool = false,
                lastReport: Report? = nil, display: String = "", version: String = "") {
        self.protection = protection
        self.rules = rules
        self.sources = sources
        self.recordAvailable = recordAvailable
        self.lastReport = lastReport
        self.display = display
        self.version = version
    }

    /// The total of `rules`.
    public var ruleCount: Int { rules.values.reduce(0, +) }
}

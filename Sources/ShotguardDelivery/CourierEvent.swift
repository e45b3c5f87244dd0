// What the courier did, for the agent's log, its event stream and the bus.

/// One step of the queue's work. `report` is the report's id; `to` a destination's label (no secret).
public enum CourierEvent: Sendable, Equatable {
    case queued(report: String, held: Bool)
    case attempt(report: String, to: String, attempt: Int)
    case delivered(report: String, to: String, status: Int?)
    case retry(report: String, to: String, after: Double, why: String)
    case refused(report: String, to: String, why: String)
    case dropped(report: String, reason: QueueBounds.Reason)
    case released(report: String)
    /// An entry that cannot be read: left where it is, with why.
    case unreadable(name: String, why: String)
}

/// How many reports the queue holds, by state, and how many it dropped since it started.
public struct QueueCounts: Sendable, Equatable {
    public var waiting = 0
    public var held = 0
    public var refused = 0
    public var dropped = 0

    public init() {}
}

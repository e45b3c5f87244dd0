// The agent's clocks, injected: decisions take a moment as a value, so tests pass their own.
import ShotguardBase

/// One moment on both clocks: monotonic seconds for deadlines and intervals, wall seconds
/// (since the epoch) for reports and file times.
struct Moment: Sendable, Equatable {
    var monotonic: Double
    var wall: Double

    /// This moment moved by `seconds` on both clocks.
    func adding(_ seconds: Double) -> Moment { Moment(monotonic: monotonic + seconds, wall: wall + seconds) }
}

/// Where the parts that touch the world read the time; the pure parts are handed moments.
protocol AgentClock {
    func now() -> Moment
}

/// The system's clocks.
struct SystemClock: AgentClock {
    func now() -> Moment { Moment(monotonic: monotonicNow(), wall: ShotguardBase.now()) }
}

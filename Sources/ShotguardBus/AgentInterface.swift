// The agent's bus interface in one place: its name, object, methods, signals and errors, as the
// service registers them, the client calls them and shotguard(1) documents them.

/// One argument of a method or signal: its name (shown by introspection) and D-Bus type.
public struct BusArgument: Sendable, Equatable {
    public let name: String
    public let type: String

    public init(_ name: String, _ type: String) {
        self.name = name
        self.type = type
    }
}

/// A method or a signal of an interface.
public struct BusMember: Sendable {
    public let name: String
    public let input: [BusArgument]
    /// A method's reply, or a signal's arguments.
    public let output: [BusArgument]

    public init(_ name: String, input: [BusArgument] = [], output: [BusArgument] = []) {
        self.name = name
        self.input = input
        self.output = output
    }

    /// A method as shotguard(1) writes it: `Pause(d seconds) → (d until)`.
    public var signature: String {
        let arguments = "(" + input.map { "\($0.type) \($0.name)" }.joined(separator: ", ") + ")"
        return output.isEmpty ? name + arguments : name + arguments + " → (" + output.map { "\($0.type) \($0.name)" }
            .joined(separator: ", ") + ")"
    }

    /// A signal as shotguard(1) writes it: `Paused(d until)`.
    public var signalSignature: String { name + "(" + output.map { "\($0.type) \($0.name)" }.joined(separator: ", ") + ")" }
}

/// `org.shotguard.Agent1` on the session bus: what `shotguard watch` answers and emits.
public enum AgentInterface {
    /// The well-known name the agent owns.
    public static let busName = "org.shotguard.Agent1"
    public static let objectPath = "/org/shotguard/Agent1"
    public static let name = "org.shotguard.Agent1"

    /// The error a refused `Pause` answers with (a policy that forbids pausing).
    public static let refusedError = "org.shotguard.Agent1.Error.Refused"
    /// The error a failed `Reload` answers with (the regions file does not parse).
    public static let reloadFailedError = "org.shotguard.Agent1.Error.ReloadFailed"
    /// The error of a call while the agent's side is gone (it is stopping).
    public static let unavailableError = "org.shotguard.Agent1.Error.Unavailable"

    /// The longest pause, in seconds: a pause always ends by itself unless asked for with 0.
    public static let longestPause = 86_400.0

    public static let status = BusMember("Status", output: [BusArgument("status", "a{sv}")])
    public static let pause = BusMember("Pause", input: [BusArgument("seconds", "d")], output: [BusArgument("until", "d")])
    public static let resume = BusMember("Resume", output: [BusArgument("was_paused", "b")])
    public static let reload = BusMember("Reload", output: [BusArgument("summary", "s")])
    /// Tries queued reports again now (all waiting ones for an empty list); answers the ids that
    /// will be tried and those that name no queued report.
    public static let sendReports = BusMember("SendReports", input: [BusArgument("ids", "as")],
                                              output: [BusArgument("scheduled", "as"), BusArgument("unknown", "as")])

    public static let screenshotReported = BusMember("ScreenshotReported",
                                                     output: [BusArgument("id", "s"), BusArgument("outcome", "s")])
    /// A report was written: its id and its JSON (the report.json of shotguard(1)'s REPORT).
    public static let reported = BusMember("Reported", output: [BusArgument("id", "s"), BusArgument("report", "s")])
    public static let fileQuarantined = BusMember("FileQuarantined", output: [BusArgument("id", "s"), BusArgument("path", "s")])
    public static let recordingStarted = BusMember("RecordingStarted", output: [BusArgument("program", "s"),
                                                                                BusArgument("pid", "u"),
                                                                                BusArgument("geometry", "s")])
    public static let recordingStopped = BusMember("RecordingStopped", output: [BusArgument("program", "s"),
                                                                                BusArgument("pid", "u")])
    public static let paused = BusMember("Paused", output: [BusArgument("until", "d")])
    public static let resumed = BusMember("Resumed")

    public static let methods = [status, pause, resume, reload, sendReports]
    public static let signals = [screenshotReported, reported, fileQuarantined, recordingStarted, recordingStopped, paused, resumed]
}

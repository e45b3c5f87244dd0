// A typed stream of what the agent decided, one JSON object a line, for end-to-end tests to wait on.
import Glibc
import ShotguardBase

/// When `SHOTGUARD_EVENTS` names a file (debug builds only: the tests'), the agent appends one
/// JSON line to it for each decision: a candidate examined and what became of it, what guard
/// did, an event settled (with or without a report). Tests wait on these instead of on the
/// log's wording, and a negative check ("no second report") waits for the event that proves the
/// agent moved on rather than for a fixed time. A release build ignores the variable. Every
/// event, its name and its fields are listed in docs/agent.md ("The event stream").
struct EventStream: Sendable {
    private let descriptor: FileDescriptor?

    init() {
        #if DEBUG
        if let path = getenv("SHOTGUARD_EVENTS").map({ String(cString: $0) }), !path.isEmpty {
            let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            descriptor = fd >= 0 ? FileDescriptor(fd, name: path) : nil
            return
        }
        #endif
        descriptor = nil
    }

    var isOn: Bool { descriptor != nil }

    /// Appends `fields` as one JSON object, after the event's name and its wall-clock time (Unix
    /// seconds, to the millisecond: for the figures tests print, never for a threshold).
    func say(_ event: String, _ fields: [(String, JSON)] = []) {
        guard let descriptor else { return }
        let line = JSON.object([("event", .string(event)), ("time", .decimal(now(), digits: 3))] + fields).text + "\n"
        // The tests' stream only: a lost line shows there as an event waited for in vain.
        try? descriptor.writeAll(line)
    }
}

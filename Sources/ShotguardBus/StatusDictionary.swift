// AgentStatus as the a{sv} dictionary that Status returns, written by the service and read back,
// bounded and checked, by the client.

extension AgentStatus {
    /// Writes the status as `a{sv}`: `state` (s: protecting, paused or off), `pausedUntil` (d,
    /// while paused: seconds since the epoch, 0 until Resume), `whyOff` (s, while off), `rules`
    /// (a{su}), `sources` (as), `recordAvailable` (b), `display` (s), `version` (s), and
    /// `lastReportId` (s), `lastReportTime` (d), `lastReportOutcome` (s) once there is one, and
    /// `reportsWaiting`, `reportsHeld`, `reportsRefused`, `reportsDropped` (u) with a report queue,
    /// and `recordings` (a(susdsub): program, pid or 0, means, since, geometry or "", covers,
    /// trusted) while any runs.
    func write(to message: BusMessage) throws(BusError) {
        try message.open("a", "{sv}")
        switch protection {
        case .protecting:
            try entry(message, "state", "s") { () throws(BusError) in try message.append("protecting") }
        case .paused(let until):
            try entry(message, "state", "s") { () throws(BusError) in try message.append("paused") }
            try entry(message, "pausedUntil", "d") { () throws(BusError) in try message.append(until ?? 0) }
        case .off(let why):
            try entry(message, "state", "s") { () throws(BusError) in try message.append("off") }
            try entry(message, "whyOff", "s") { () throws(BusError) in try message.append(why) }
        }
        try entry(message, "rules", "a{su}") { () throws(BusError) in
            try message.open("a", "{su}")
            for (kind, count) in rules.sorted(by: { $0.key < $1.key }) {
                try message.open("e", "su")
                try message.append(kind)
                try message.append(UInt32(clamping: count))
                try message.close()
            }
            try message.close()
        }
        try entry(message, "sources", "as") { () throws(BusError) in try message.append(sources) }
        try entry(message, "recordAvailable", "b") { () throws(BusError) in try message.append(recordAvailable) }
        try entry(message, "display", "s") { () throws(BusError) in try message.append(display) }
        try entry(message, "version", "s") { () throws(BusError) in try message.append(version) }
        if let lastReport {
            try entry(message, "lastReportId", "s") { () throws(BusError) in try message.append(lastReport.id) }
            try entry(message, "lastReportTime", "d") { () throws(BusError) in try message.append(lastReport.time) }
            try entry(message, "lastReportOutcome", "s") { () throws(BusError) in try message.append(lastReport.outcome) }
        }
        if !recordings.isEmpty {
            try entry(message, "recordings", "a(susdsub)") { () throws(BusError) in
                try message.open("a", "(susdsub)")
                for recording in recordings.prefix(Self.recordingLimit) {
                    try message.open("r", "susdsub")
                    try message.append(recording.program)
                    try message.append(UInt32(clamping: Int(recording.pid ?? 0)))
                    try message.append(recording.means)
                    try message.append(recording.since)
                    try message.append(recording.geometry ?? "")
                    try message.append(UInt32(clamping: recording.covers))
                    try message.append(recording.trusted)
                    try message.close()
                }
                try message.close()
            }
        }
        if let queue {
            for (key, value) in [("reportsWaiting", queue.waiting), ("reportsHeld", queue.held), ("reportsRefused", queue.refused),
                                 ("reportsDropped", queue.dropped)] {
                try entry(message, key, "u") { () throws(BusError) in try message.append(UInt32(clamping: value)) }
            }
        }
        try message.close()
    }

    /// The most recordings a status carries.
    static let recordingLimit = 32

    private func entry(_ message: BusMessage, _ key: String, _ type: String,
                       _ value: () throws(BusError) -> Void) throws(BusError) {
        try message.open("e", "sv")
        try message.append(key)
        try message.open("v", type)
        try value()
        try message.close()
        try message.close()
    }

    /// Reads the dictionary a `Status` reply carries. The reply comes from whatever owns the
    /// agent's name: sizes are bounded, types checked, unknown keys skipped, a missing or
    /// unknown `state` refused.
    init(reading message: BusMessage) throws(BusError) {
        var fields = Fields()
        try message.enter("a", "{sv}")
        var count = 0
        while try message.enter("e", "sv") {
            count += 1
            guard count <= 64 else { throw .malformed("Status has more than 64 entries") }
            let key = try message.readString()
            guard let variant = try message.peek(), variant.type == "v" else { throw .malformed("Status entry \(key) is not a variant") }
            try message.enter("v", variant.contents)
            try fields.read(key: key, type: variant.contents, from: message)
            try message.exit()
            try message.exit()
        }
        try message.exit()
        self = try fields.status()
    }
}

/// The entries of a Status dictionary as they are read, before they make a status.
private struct Fields {
    var state: String?
    var pausedUntil: Double?
    var whyOff: String?
    var rules: [String: Int] = [:]
    var sources: [String] = []
    var recordAvailable = false
    var display = ""
    var version = ""
    var reportID: String?
    var reportTime: Double?
    var reportOutcome: String?
    var queue: [String: Int] = [:]
    var recordings: [AgentStatus.Recording] = []

    /// Longest text kept from the reply.
    static let textLimit = 4096

    mutating func read(key: String, type: String, from message: BusMessage) throws(BusError) {
        func text() throws(BusError) -> String {
            guard type == "s" else { throw .malformed("Status entry \(key) is of type \(type), not s") }
            return String(try message.readString().prefix(Self.textLimit))
        }
        func number() throws(BusError) -> Double {
            guard type == "d" else { throw .malformed("Status entry \(key) is of type \(type), not d") }
            let value = try message.readDouble()
            guard value.isFinite, value >= 0 else { throw .malformed("Status entry \(key) is not a time (\(value))") }
            return value
        }
        switch key {
        case "state": state = try text()
        case "pausedUntil": pausedUntil = try number()
        case "whyOff": whyOff = try text()
        case "display": display = try text()
        case "version": version = try text()
        case "lastReportId": reportID = try text()
        case "lastReportTime": reportTime = try number()
        case "lastReportOutcome": reportOutcome = try text()
        case "reportsWaiting", "reportsHeld", "reportsRefused", "reportsDropped":
            guard type == "u" else { throw .malformed("Status entry \(key) is of type \(type), not u") }
            queue[key] = Int(try message.readUInt32())
        case "recordAvailable":
            guard type == "b" else { throw .malformed("Status entry recordAvailable is of type \(type), not b") }
            recordAvailable = try message.readBool()
        case "sources":
            guard type == "as" else { throw .malformed("Status entry sources is of type \(type), not as") }
            sources = try message.readStrings(limit: 32).map { String($0.prefix(Self.textLimit)) }
        case "recordings":
            guard type == "a(susdsub)" else { throw .malformed("Status entry recordings is of type \(type), not a(susdsub)") }
            try message.enter("a", "(susdsub)")
            while try message.enter("r", "susdsub") {
                guard recordings.count < AgentStatus.recordingLimit else { throw .malformed("Status has more than 32 recordings") }
                let program = String(try message.readString().prefix(Self.textLimit))
                let pid = try message.readUInt32()
                let means = String(try message.readString().prefix(64))
                let since = try message.readDouble()
                let geometry = String(try message.readString().prefix(64))
                let covers = Int(try message.readUInt32())
                let trusted = try message.readBool()
                recordings.append(AgentStatus.Recording(program: program, pid: pid == 0 ? nil : Int32(clamping: pid), means: means,
                                                        geometry: geometry.isEmpty ? nil : geometry,
                                                        since: since.isFinite ? since : 0, covers: covers, trusted: trusted))
                try message.exit()
            }
            try message.exit()
        case "rules":
            guard type == "a{su}" else { throw .malformed("Status entry rules is of type \(type), not a{su}") }
            try message.enter("a", "{su}")
            while try message.enter("e", "su") {
                guard rules.count < 32 else { throw .malformed("Status has more than 32 kinds of rules") }
                let kind = String(try message.readString().prefix(64))
                rules[kind] = Int(try message.readUInt32())
                try message.exit()
            }
            try message.exit()
        default:
            try message.skip(type)
        }
    }

    func status() throws(BusError) -> AgentStatus {
        let protection: AgentStatus.Protection
        switch state {
        case "protecting": protection = .protecting
        case "paused": protection = .paused(until: pausedUntil.flatMap { $0 > 0 ? $0 : nil })
        case "off": protection = .off(why: whyOff ?? "")
        case nil: throw .malformed("Status has no state")
        case let other?: throw .malformed("Status has an unknown state '\(String(other.prefix(40)))'")
        }
        var report: AgentStatus.Report?
        if let reportID { report = AgentStatus.Report(id: reportID, time: reportTime ?? 0, outcome: reportOutcome ?? "") }
        var status = AgentStatus(protection: protection, rules: rules, sources: sources, recordAvailable: recordAvailable,
                                 lastReport: report, display: display, version: version)
        status.recordings = recordings
        if !queue.isEmpty {
            status.queue = AgentStatus.Queue(waiting: queue["reportsWaiting"] ?? 0, held: queue["reportsHeld"] ?? 0,
                                             refused: queue["reportsRefused"] ?? 0, dropped: queue["reportsDropped"] ?? 0)
        }
        return status
    }
}

// One queued report as the outbox keeps it: its files' folder, and each destination's delivery state.
import ShotguardBase

/// A destination's delivery of one report.
public struct Delivery: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Not delivered yet: tried at `nextAttempt` (nil: as soon as the destination is free).
        case waiting
        /// A 2xx came (or the command exited 0) at `sentAt`.
        case sent
        /// The service refused this report (a 4xx another try would not change).
        case refused
    }

    /// The destination's spec (`sentry:DSN`, a URL, `exec:CMD`), parsed again at each attempt.
    public let to: String
    /// The webhook's header file, read at each attempt.
    public let headerFile: String?
    public var state: State = .waiting
    public var attempts = 0
    /// Seconds since the epoch: a wall time survives a reboot, where a monotonic one would not.
    public var nextAttempt: Double?
    public var sentAt: Double?
    /// Why the last attempt failed.
    public var lastError: String?

    public init(to: String, headerFile: String?) {
        self.to = to
        self.headerFile = headerFile
    }

    /// The lane this delivery queues in: one per destination and header file.
    public var lane: String { to + "\n" + (headerFile ?? "") }
}

/// A report in the outbox.
public struct OutboxEntry: Sendable {
    /// Its folder's name: `SEQUENCE-REPORTID`, the sequence zero-padded so names sort in queue order.
    public let name: String
    public let sequence: Int
    public let reportID: String
    /// 32 hex digits, the same at every attempt (Sentry's event_id; the webhook's X-Shotguard-Delivery).
    public let eventID: String
    /// When it was queued, seconds since the epoch.
    public let created: Double
    /// Waits for the user's word (`--report-ask`) before anything is sent.
    public var held: Bool
    public var deliveries: [Delivery]
    /// Bytes on disk (image and report), for the queue's size bound.
    public var bytes: Int
    public var hasImage: Bool

    /// Whether some destination still waits for it.
    public var isPending: Bool { deliveries.contains { $0.state == .waiting } }

    public static func name(sequence: Int, reportID: String) -> String {
        String(sequence).leftPadded(to: 10) + "-" + reportID
    }

    /// `entry.json`: the state, written whole (atomically) after each change.
    var json: JSON {
        .object([("report", .string(reportID)), ("event", .string(eventID)), ("created", .decimal(created, digits: 3)),
                 ("held", .number(held ? 1 : 0)), ("image", .number(hasImage ? 1 : 0)),
                 ("deliveries", .array(deliveries.map { delivery in
                     .object([("to", .string(delivery.to)), ("headers", delivery.headerFile.map(JSON.string) ?? .null),
                              ("state", .string(delivery.state.rawValue)), ("attempts", .number(delivery.attempts)),
                              ("next", delivery.nextAttempt.map { .decimal($0, digits: 3) } ?? .null),
                              ("sent", delivery.sentAt.map { .decimal($0, digits: 3) } ?? .null),
                              ("error", delivery.lastError.map(JSON.string) ?? .null)])
                 }))])
    }

    /// Reads an entry.json back; nil when it is not one the outbox wrote (bounded: at most 64
    /// destinations). `name` is the folder's name.
    init?(name: String, json bytes: [UInt8], bytes size: Int) {
        guard let sequence = Self.sequence(of: name), let fields = JSONValue.parseObject(bytes),
              let reportID = fields["report"]?.string, let eventID = fields["event"]?.string,
              let created = fields["created"]?.number, let list = fields["deliveries"]?.array, list.count <= 64 else { return nil }
        var deliveries: [Delivery] = []
        for item in list {
            guard let to = item["to"]?.string, let state = item["state"]?.string.flatMap(Delivery.State.init(rawValue:)) else { return nil }
            var delivery = Delivery(to: to, headerFile: item["headers"]?.string)
            delivery.state = state
            delivery.attempts = Int(item["attempts"]?.number ?? 0)
            delivery.nextAttempt = item["next"]?.number
            delivery.sentAt = item["sent"]?.number
            delivery.lastError = item["error"]?.string
            deliveries.append(delivery)
        }
        self.init(name: name, sequence: sequence, reportID: reportID, eventID: eventID, created: created,
                  held: fields["held"]?.number == 1, deliveries: deliveries, bytes: size, hasImage: fields["image"]?.number == 1)
    }

    init(name: String, sequence: Int, reportID: String, eventID: String, created: Double, held: Bool, deliveries: [Delivery],
         bytes: Int, hasImage: Bool) {
        self.name = name
        self.sequence = sequence
        self.reportID = reportID
        self.eventID = eventID
        self.created = created
        self.held = held
        self.deliveries = deliveries
        self.bytes = bytes
        self.hasImage = hasImage
    }

    /// The sequence of a folder name `0000000042-…`, or nil for another name.
    static func sequence(of name: String) -> Int? {
        let bytes = Array(name.utf8)
        guard bytes.count > 11, bytes[10] == UInt8(ascii: "-"), bytes[..<10].allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(String(decoding: bytes[..<10], as: UTF8.self))
    }
}

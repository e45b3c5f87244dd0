// What the delivery queue says of each report, for `reports list`: sent, waiting, held or refused, and where.
import Glibc
import ShotguardAgent
import ShotguardBase
import ShotguardDelivery
import ShotguardImaging

/// One destination's delivery of a report, as the list shows it.
struct DeliveryLine {
    let to: String
    let state: String
    let attempts: Int
    let nextAttempt: Double?
    let error: String?

    var json: JSON {
        .object([("to", .string(to)), ("state", .string(state)), ("attempts", .number(attempts)),
                 ("nextAttempt", nextAttempt.map { .string(Log.iso8601($0)) } ?? .null), ("error", error.map(JSON.string) ?? .null)])
    }

    /// `webhook 127.0.0.1:8080 waiting (HTTP 503; next try 14:05)`.
    var summary: String {
        var detail: [String] = []
        if state == "waiting" || state == "refused", let error { detail.append(error.excerpt(limit: 60)) }
        if state == "waiting", let nextAttempt { detail.append("next try " + StatusReport.clock(nextAttempt)) }
        return "\(to) \(state)" + (detail.isEmpty ? "" : " (" + detail.joined(separator: "; ") + ")")
    }
}

enum QueuedDeliveries {
    /// The deliveries of every queued report, by report id; empty when there is no queue.
    static func load() -> [String: [DeliveryLine]] {
        let folder = DeliveryOptions.outboxFolder
        var status = stat()
        guard stat(folder, &status) == 0 else { return [:] }
        var lines: [String: [DeliveryLine]] = [:]
        for entry in Outbox(folder: folder).load().entries {
            lines[entry.reportID] = entry.deliveries.map { delivery in
                // A spec that no longer parses is named by its kind alone: it may hold a secret.
                let label = (try? Destination.parse(delivery.to, headerFile: delivery.headerFile).label) ?? "a destination"
                let state = delivery.state == .waiting && entry.held ? "held" : delivery.state.rawValue
                return DeliveryLine(to: label, state: state, attempts: delivery.attempts, nextAttempt: delivery.nextAttempt,
                                    error: delivery.lastError)
            }
        }
        return lines
    }
}

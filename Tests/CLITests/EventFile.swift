// A typed event stream (`SHOTGUARD_EVENTS`) read back: one JSON object a line, as the agent and the shield command write it.
import Foundation

enum EventFile {
    /// The events in the file at `url`, oldest first (none while it is missing or empty).
    static func read(_ url: URL) -> [[String: Any]] {
        ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// The events of `events` named `name` (and meeting `condition`).
    static func named(_ name: String, in events: [[String: Any]],
                      where condition: ([String: Any]) -> Bool = { _ in true }) -> [[String: Any]] {
        events.filter { $0["event"] as? String == name && condition($0) }
    }
}

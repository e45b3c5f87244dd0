// Each reading client's process as /proc showed it lately: a client that reads thousands of times a second is looked at once in a while.
import ShotguardBase

/// The process snapshot taken at each client's last read, reused for its reads within `reuse`
/// seconds. A recorder or a benchmark reads the screen hundreds or thousands of times a second,
/// and reading /proc for each read was most of what the sentinel spent on it; a process does
/// not become another within a fraction of a second (its pid is its client's for the client's
/// life), and a screenshot tool's one read is always looked at. Forgets a client at its end.
struct RecentSnapshots {
    static let reuse = 0.5
    /// Clients remembered at most; the oldest goes first.
    static let capacity = 256

    private var taken: [UInt32: (pid: Int32, at: Double, snapshot: ProcessSnapshot?)] = [:]

    /// `client`'s process `pid` as it is now, or as it was less than `reuse` seconds ago.
    mutating func snapshot(client: UInt32, pid: Int32, at now: Double) -> ProcessSnapshot? {
        if let last = taken[client], last.pid == pid, now - last.at < Self.reuse { return last.snapshot }
        let snapshot = ProcessSnapshot.of(pid: pid)
        if taken[client] == nil, taken.count >= Self.capacity, let oldest = taken.min(by: { $0.value.at < $1.value.at }) {
            taken[oldest.key] = nil
        }
        taken[client] = (pid, now, snapshot)
        return snapshot
    }

    mutating func forget(_ client: UInt32) { taken[client] = nil }
}

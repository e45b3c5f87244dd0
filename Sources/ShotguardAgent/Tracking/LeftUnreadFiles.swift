// Files examined with no read tied to them and left as they were: a read learnt a moment later has them examined again.

/// Files left as they were for want of a read, kept a few seconds. Under load the agent may
/// examine a screenshot before it hears of the read behind it: the follower finds that a
/// reader wrote the file only once the reader has exited, and the read of a reader the X server
/// could not name (`maim` gone before it was asked) may come after its file closed. A read
/// learnt then has the file examined again, at most `maximumJudgements` times in all, so that
/// what was wrong with it then (no read) is put right and nothing else changes: it is placed as
/// any file is, and judged by that read alone (`CandidateHandler`: not by the event it joins).
struct LeftUnreadFiles {
    private var entries: [(candidate: Candidate, left: Double)] = []

    /// How long a left file waits for its read: as long as the tracker takes a file signalled
    /// again for one it has seen (after that, a file signalled again is taken in afresh). A
    /// read heard later than this after the file was left is no longer looked for in it.
    static let lifetime = RecentKeys.lifetime(of: .handled)
    /// The most files kept (a folder of photos written at once keeps the newest).
    static let capacity = 32
    /// A file that arrived this long before a read was heard may hold its pixels: the read is
    /// heard a moment after it was made, and its file may have closed in between. One that
    /// arrived sooner is no file of that read's.
    static let readSlack = 3.0
    /// Examinations of one file in all: the first, and one for each of two reads learnt late
    /// (a reader's read heard, then the file it wrote found).
    static let maximumJudgements = 3

    /// Keeps `candidate`, just examined and left with no read tied to it.
    mutating func note(_ candidate: Candidate, at now: Double) {
        prune(at: now)
        guard candidate.source == .file, candidate.evidence.screenRead == nil, candidate.judgements < Self.maximumJudgements else {
            return
        }
        entries.removeAll { $0.candidate.key == candidate.key }
        entries.append((candidate, now))
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
    }

    /// The file left under `key`, no longer kept.
    mutating func take(key: String, at now: Double) -> Candidate? {
        prune(at: now)
        guard let index = entries.firstIndex(where: { $0.candidate.key == key }) else { return nil }
        return entries.remove(at: index).candidate
    }

    /// The files that may hold `read`'s pixels, no longer kept: those that arrived no sooner
    /// than `readSlack` before it; none for a read that held no protected pixel.
    mutating func take(after read: ScreenReadRecord, at now: Double) -> [Candidate] {
        prune(at: now)
        guard read.holdsProtectedPixels else { return [] }
        let mayHold = { (entry: (candidate: Candidate, left: Double)) in
            entry.candidate.arrived.monotonic >= read.time.monotonic - Self.readSlack
        }
        let taken = entries.filter(mayHold).map(\.candidate)
        entries.removeAll(where: mayHold)
        return taken
    }

    /// When the oldest kept file is due to be forgotten (and its descriptor closed).
    var deadline: Double? { entries.map(\.left).min().map { $0 + Self.lifetime } }

    /// Forgets the file under `key` (taken in afresh).
    mutating func forget(key: String) { entries.removeAll { $0.candidate.key == key } }

    /// Forgets the files left longer ago than `lifetime` (each holds its file open).
    mutating func prune(at now: Double) {
        entries.removeAll { now - $0.left >= Self.lifetime }
    }
}

// The processes holding protected pixels: a program that read them off the screen, and those it handed them to, until each exits.
import ShotguardBase
import ShotguardImaging
import ShotguardRegions

/// A process that holds pixels a rule protects: it read them off the screen itself, or it was
/// started by a holder, or it is at the other end of a holder's pipe or socket. Whatever it
/// writes while it lives may hold them, however long after the read (an editor saving an
/// annotated capture a minute later).
struct PixelHolder: Sendable {
    enum Origin: Sendable, Equatable {
        /// It read the screen itself.
        case read
        /// A holder started it (`scrot -e 'mv $f …'`, a tool's converter).
        case child(of: Int32)
        /// It shares a pipe or socket with a holder (`import png:- | cat > f`, `maim | tee f`).
        case channel(with: Int32)
    }

    let pid: Int32
    /// The process's start time: a pid the kernel gives to a new process later is not this one.
    let startTime: UInt64
    let session: Int32
    let program: String
    let origin: Origin
    /// The read that put the pixels in it (its own, or the one of the holder it got them from).
    var read: ScreenReadRecord
    /// Until when its children, pipes and open files are looked at often (monotonic).
    var watchedUntil: Double
    var exitedAt: Double?
    /// Whether it was found recording: what it writes may be a frame, or anything else.
    var isRecording = false

    /// Whether the server could not tell the read's process, and this one was taken for it (a
    /// program started on the display as the reader connected), or got the pixels from one that
    /// was: what it writes counts only where its pixels are the screen's.
    var isInferred: Bool { read.pid == nil }

    /// How it got the pixels, for the evidence's phrase.
    var link: ReadLink {
        if isRecording { return .recorder }
        if isInferred { return .inferred }
        switch origin {
        case .read: return .writer
        case .child: return .childOfReader
        case .channel: return .channelOfReader
        }
    }
}

/// Every holder, by pid; bounded, and each one forgotten a while after it exits. Which reads
/// were followed to an image is counted here too: a read whose pixels went nowhere the agent
/// could follow is said, never passed over.
struct PixelHolders: Sendable {
    private(set) var holders: [Int32: PixelHolder] = [:]
    /// The reads that put pixels in a holder, by their client and server time, and whether an
    /// image from them was guarded.
    private var followed: [ReadKey: Bool] = [:]
    /// Every read each holder made while followed (a recorder's first reads, a tool's read of
    /// each monitor): the holder carries them all, and one image guarded answers for them all.
    private var readsOf: [Int32: Set<ReadKey>] = [:]

    struct ReadKey: Hashable, Sendable {
        let client: UInt32
        let serverTime: UInt
        let time: Double

        init(_ read: ScreenReadRecord) {
            client = read.client
            serverTime = read.serverTime
            time = read.time.monotonic
        }
    }

    /// The screen as the agent grabbed it at a followed read, the newest few: an image saved
    /// long after its read (an editor's) is placed on the screen it was read from.
    private var screens: [ReadKey: Snapshot] = [:]
    /// A 1080p screen is 8 MB: a few are kept, the newest reads'.
    static let screensKept = 4

    /// The most holders at once: past it the ones that exited first, then the oldest, go.
    static let capacity = 64
    /// Children, pipes and open files are looked at often this long after a holder's read.
    static let watchFor = 10.0
    /// A holder is kept this long after it exits: its last file's events may come after.
    static let afterExit = 2.0

    /// Adds (or renews) a holder. Returns whether it is new, or was only taken for an unnamed
    /// reader and now holds a named read's pixels (it is followed anew, as that read's).
    @discardableResult
    mutating func add(_ holder: PixelHolder) -> Bool {
        let key = ReadKey(holder.read)
        if followed[key] == nil { followed[key] = false }
        lastReads[key] = holder.read
        if var known = holders[holder.pid], known.startTime == holder.startTime {
            readsOf[holder.pid, default: []].insert(key)
            if known.isInferred, !holder.isInferred {
                var named = holder
                named.watchedUntil = max(known.watchedUntil, holder.watchedUntil)
                named.isRecording = known.isRecording
                holders[holder.pid] = named
                return true
            }
            // A read whose process the server told is never traded for one it could not tell.
            if !holder.isInferred || known.isInferred { known.read = holder.read }
            known.watchedUntil = max(known.watchedUntil, holder.watchedUntil)
            holders[holder.pid] = known
            return false
        }
        if holders.count >= Self.capacity { evictOne() }
        holders[holder.pid] = holder
        readsOf[holder.pid] = [key]
        return true
    }

    func holder(_ pid: Int32) -> PixelHolder? { holders[pid] }

    /// Keeps `screen`, grabbed at `read`, while a holder of that read lives.
    mutating func keep(_ screen: Snapshot, for read: ScreenReadRecord) {
        let key = ReadKey(read)
        guard followed[key] != nil else { return }
        screens[key] = screen
        while screens.count > Self.screensKept, let oldest = screens.keys.min(by: { $0.time < $1.time }) {
            screens[oldest] = nil
        }
    }

    /// The screen kept for `read`, if any.
    func screen(of read: ScreenReadRecord) -> Snapshot? { screens[ReadKey(read)] }

    /// The holder that is `pid` or, up its `ancestry` (parent first), the nearest holder.
    func holder(of pid: Int32, ancestry: [Int32]) -> PixelHolder? {
        if let own = holders[pid] { return own }
        return ancestry.lazy.compactMap { holders[$0] }.first
    }

    mutating func exited(_ pid: Int32, at now: Double) { holders[pid]?.exitedAt = now }

    /// Forgets a holder at once, and counts its read as followed (a recording: the shield's).
    mutating func remove(_ pid: Int32) {
        guard let holder = holders.removeValue(forKey: pid) else { return }
        for key in readsOf.removeValue(forKey: pid) ?? [ReadKey(holder.read)] where followed[key] != nil { followed[key] = true }
    }

    /// A holder found to be recording stays one, but its reads count as followed: its frames
    /// are the shield's, and a video it writes is no image to guard.
    mutating func recording(_ pid: Int32) {
        guard let holder = holders[pid] else { return }
        holders[pid]?.isRecording = true
        for key in readsOf[pid] ?? [ReadKey(holder.read)] where followed[key] != nil { followed[key] = true }
    }

    /// An image from `read`'s pixels was guarded (or found to hold nothing to guard).
    mutating func guarded(_ read: ScreenReadRecord) {
        if followed[ReadKey(read)] != nil { followed[ReadKey(read)] = true }
    }

    /// Forgets the holders gone for `afterExit`; returns the reads whose every holder is gone
    /// without an image of theirs having been guarded.
    mutating func prune(at now: Double) -> [ScreenReadRecord] {
        var lost: [ScreenReadRecord] = []
        for (pid, holder) in holders where holder.exitedAt.map({ now - $0 >= Self.afterExit }) ?? false {
            holders[pid] = nil
            settle(readsOf.removeValue(forKey: pid) ?? [], of: holder)
        }
        let live = Set(holders.keys.flatMap { readsOf[$0] ?? [] } + holders.values.map { ReadKey($0.read) })
        for (key, wasGuarded) in followed where !live.contains(key) {
            followed[key] = nil
            screens[key] = nil
            if !wasGuarded, let read = lastReads[key] { lost.append(read) }
            lastReads[key] = nil
        }
        return lost
    }

    /// The read behind each followed key, for saying which was lost.
    private var lastReads: [ReadKey: ScreenReadRecord] = [:]

    private mutating func evictOne() {
        let victim = holders.values.min { ($0.exitedAt ?? .infinity, $0.watchedUntil) < ($1.exitedAt ?? .infinity, $1.watchedUntil) }
        if let victim {
            holders[victim.pid] = nil
            settle(readsOf.removeValue(forKey: victim.pid) ?? [], of: victim)
        }
    }

    /// A holder's reads, as it goes: one image of its guarded answers for all of them; none
    /// guarded, its last read alone is the one said lost.
    private mutating func settle(_ keys: Set<ReadKey>, of holder: PixelHolder) {
        let last = ReadKey(holder.read)
        let guarded = keys.contains { followed[$0] == true }
        for key in keys where key != last && followed[key] != nil {
            if guarded {
                followed[key] = true
            } else {
                followed[key] = nil
                lastReads[key] = nil
            }
        }
        if guarded, followed[last] != nil { followed[last] = true }
    }

    var isEmpty: Bool { holders.isEmpty }
}

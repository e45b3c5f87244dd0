// The shield controller: decides when the covers the sentinel put up come down — after a key's screenshot, after a reader's last read — and keeps them over what the rules hit.
import ShotguardAccessibility
import ShotguardBase
import ShotguardImaging
import ShotguardScreen
import ShotguardX11

/// The sentinel puts the covers up itself, the moment a shield key is pressed or a program
/// reads the screen (over what it reads); which covers are up is the sentinel's alone. This
/// controller decides, from what the agent learns, when they come down: a key's covers once
/// its screenshot's read was seen (or its image arrived, or the limit), a reader's once it
/// stopped reading (its own interval, at least `readerHold`) or disconnected. Without a
/// sentinel that makes covers (`--no-shield` and no `--shield`) every call does nothing.
final class ShieldController {
    private let sentinel: Sentinel?
    private let log: Log
    /// Whether reads put the covers up (the recordings' shield, on unless `--no-shield`).
    private let coversReads: Bool
    /// While the covers are up for a key: when they come down (monotonic seconds).
    private var downAt: Double?
    /// The clients whose reads hold covers up, with their last read and the interval between
    /// their reads (nil after one read).
    private var readers: [UInt32: (last: Double, interval: Double?)] = [:]
    /// The clients recording: their covers stay while they read.
    private var recordings: Set<UInt32> = []
    /// The fields the covers were last resolved with (field rules change without any window
    /// changing: a password entry shown in a dialog that stays).
    private var fieldsShown: AccessibleFields = .notQueried
    private var lastFieldsCheck = 0.0
    /// The server time of the last shield key.
    private var keyServerTime: UInt?
    /// The server time once its covers were mapped: a read stamped between the two may have
    /// been made without them.
    private var coveredServerTime: UInt?
    /// Screenshot programs' latest reads, with their server time: a read the server executed
    /// after a key but before its covers can reach the agent before the key does.
    private var recentReads: [(program: String, serverTime: UInt)] = []
    private var paused = false
    /// The programs the sentinel was last told to trust.
    private var trusted: [ProgramName] = []

    /// The covers come down at most this long after the key, whatever happens.
    static let limit = 3.0
    /// And this long after the screenshot's image arrived or its tool window went.
    static let margin = 0.2
    /// And this long after its read was seen (the server has executed it by then; a tool that
    /// reads each monitor in turn reads them within this).
    static let readMargin = 0.05
    /// A reader's covers stay this long after its last read at least, and twice its interval
    /// between reads when that is longer (a recorder at 0.5 fps).
    static let readerHold = 3.0
    /// How often the covers follow the field watcher's list.
    static let fieldsInterval = 0.25

    init(sentinel: Sentinel?, coversReads: Bool, log: Log) {
        self.sentinel = sentinel?.makesCovers == true ? sentinel : nil
        self.coversReads = coversReads
        self.log = log
        self.sentinel?.setCoversReads(coversReads)
    }

    var isOn: Bool { sentinel != nil }
    /// Whether recordings and shares are shielded (reads put covers up).
    var shieldsReads: Bool { isOn && coversReads }
    var keys: [String] { sentinel?.keys ?? [] }

    /// Moves the covers to `covers` (resolved against the windows now, with `fields`), and
    /// tells which windows are protected whole, to be covered inside when captured alone.
    func update(_ covers: [ShieldCover], fields: AccessibleFields, windows: [InnerCoverTarget] = []) {
        guard let sentinel else { return }
        fieldsShown = fields
        sentinel.setCovers(covers)
        if windows != innerTargets {
            innerTargets = windows
            sentinel.setInnerCovers(windows)
        }
    }

    /// The protected windows last told to the sentinel.
    private var innerTargets: [InnerCoverTarget] = []

    /// The programs trusted to see everything: told to the sentinel when they change.
    func trust(_ programs: [ProgramName]) {
        guard let sentinel, programs != trusted else { return }
        trusted = programs
        sentinel.trust(programs)
    }

    /// Whether the covers must follow a new field list (checked every `fieldsInterval`).
    func fieldsChanged(_ fields: AccessibleFields?, at now: Double) -> Bool {
        guard sentinel != nil, let fields, now >= lastFieldsCheck + Self.fieldsInterval else { return false }
        lastFieldsCheck = now
        return fields != fieldsShown
    }

    /// The covers went up at the key (the sentinel mapped them the moment it read the key).
    func raised(readAt: Double, mappedAt: Double, serverTime: UInt, coveredTime: UInt?, covers: Int, wallNow: Double,
                monotonicNow: Double) -> ShieldRecord? {
        guard sentinel != nil else { return nil }
        downAt = readAt + Self.limit
        keyServerTime = serverTime
        coveredServerTime = coveredTime
        let record = ShieldRecord(keyTime: wallNow - (monotonicNow - readAt), mappedAfterMs: (mappedAt - readAt) * 1000,
                                  covers: covers, serverTime: serverTime)
        log.verbose("shield key: \(record.covers) covers mapped \(JSON.fixed(record.mappedAfterMs, digits: 3)) ms after the key was read")
        // Reads heard before the key that the server executed after it, before its covers.
        for read in recentReads where covers > 0 && read.serverTime >= serverTime && coveredTime.map({ read.serverTime < $0 }) ?? true {
            lostRace(read.program, serverTime: read.serverTime)
        }
        recentReads = []
        return record
    }

    /// A client read the screen (the sentinel put the covers over what it read already). After a
    /// shield key, a screenshot program's read that the server received after the key lets the
    /// key's covers come down; one received before it lost the race.
    func screenRead(client: UInt32, program: String, serverTime: UInt, readAfterKeyMs: Double?, at now: Double) {
        guard sentinel != nil else { return }
        if coversReads {
            let interval = readers[client].map { now - $0.last }
            readers[client] = (now, interval ?? readers[client]?.interval)
        }
        if ScreenshotPrograms.contains(program), serverTime != 0 {
            recentReads = Array((recentReads + [(program, serverTime)]).suffix(8))
        }
        guard let downAt, serverTime != 0, let keyServerTime else { return }
        guard serverTime >= keyServerTime else {
            if ScreenshotPrograms.contains(program), let readAfterKeyMs, readAfterKeyMs > -Self.limit * 1000 {
                log.warning("shield: \(program) read the screen before the key's covers were up (the shield lost the race); "
                    + "guard handles its image")
                log.events.say("shield-lost", [("program", .string(program)), ("when", .string("before-key"))])
            }
            return
        }
        if let coveredServerTime, serverTime < coveredServerTime, ScreenshotPrograms.contains(program) {
            lostRace(program, serverTime: serverTime)
        }
        self.downAt = min(downAt, now + Self.readMargin)
    }

    private func lostRace(_ program: String, serverTime: UInt) {
        let covered = coveredServerTime.map { "the covers up at \($0)" } ?? "the covers' time unknown"
        log.warning("shield: \(program) read the screen while the key's covers were going up (its read at server time "
            + "\(serverTime), \(covered)): the shield may have lost the race; guard handles its image")
        log.events.say("shield-lost", [("program", .string(program)), ("when", .string("covers-going-up"))])
    }

    /// A screenshot settled (its image arrived, or the tool's window went).
    func screenshotSettled(at now: Double) {
        guard let downAt else { return }
        self.downAt = min(downAt, now + Self.margin)
    }

    /// A recording of the screen started or stopped: its covers stay while it reads.
    func recording(client: UInt32, started: Bool) {
        guard sentinel != nil else { return }
        if started {
            recordings.insert(client)
            if coversReads { log.info("shield: covers up over what the recording reads while it runs") }
        } else if recordings.remove(client) != nil {
            release(client)
            log.info("shield: the recording stopped; its covers lowered")
        }
    }

    /// A process reading the screen past the X server runs: every cover is up while it does
    /// (while reads raise covers: not paused, not `--no-shield`).
    func holdForHelper(_ pid: Int32) {
        sentinel?.hold(.helper(pid), area: nil)
    }

    func releaseHelper(_ pid: Int32) {
        sentinel?.release(.helper(pid))
    }

    /// A client that read the screen disconnected (the sentinel took its covers down).
    func clientEnded(_ client: UInt32) {
        readers[client] = nil
        recordings.remove(client)
    }

    var isRecording: Bool { !recordings.isEmpty }

    /// Protection paused: no key and no read puts the covers up, and those up come down.
    func pause(_ on: Bool) {
        guard let sentinel, paused != on else { return }
        paused = on
        sentinel.setCoversKeys(!on)
        sentinel.setCoversReads(!on && coversReads)
        if on {
            downAt = nil
            readers = [:]
            sentinel.lowerKeyCovers()
        }
    }

    /// Lowers what is due: a key's covers at their time, a reader's once it stopped reading.
    func lowerIfDue(at now: Double) {
        guard let sentinel else { return }
        if let downAt, now >= downAt {
            self.downAt = nil
            sentinel.lowerKeyCovers()
            log.verbose("shield: the key's covers lowered")
        }
        for (client, reader) in readers where !recordings.contains(client) && now >= reader.last + hold(reader.interval) {
            release(client)
        }
    }

    private func release(_ client: UInt32) {
        readers[client] = nil
        sentinel?.release(client: client)
    }

    private func hold(_ interval: Double?) -> Double { max(Self.readerHold, 2 * (interval ?? 0)) }

    /// The next time the controller has work: the covers' limit, a reader's hold, the fields check.
    func deadline(watchingFields: Bool) -> Double? {
        let readerDue = readers.filter { !recordings.contains($0.key) }.map { $0.value.last + hold($0.value.interval) }.min()
        return [downAt, readerDue, sentinel != nil && watchingFields ? lastFieldsCheck + Self.fieldsInterval : nil].compactMap { $0 }.min()
    }
}

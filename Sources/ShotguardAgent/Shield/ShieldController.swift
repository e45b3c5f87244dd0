// The shield controller: owns the covers' state and deadlines — up at the key, down once the screenshot was read, up while a recording runs.
import ShotguardAccessibility
import ShotguardBase
import ShotguardImaging
import ShotguardScreen
import ShotguardX11

/// Keeps the shield's covers over what the rules hit and decides when they are up: from the
/// shield key until the screenshot's read was seen (or its image arrived, or the limit), and
/// for as long as a recording of the screen runs. Nil shield (`--shield` not given): every call
/// does nothing.
final class ShieldController {
    private let shield: Shield?
    private let log: Log
    /// While the covers are up for a key: when they come down (monotonic seconds).
    private var downAt: Double?
    /// The clients whose recordings hold the covers up.
    private var recordings: Set<UInt32> = []
    /// The fields the covers were last resolved with (field rules change without any window
    /// changing: a password entry shown in a dialog that stays).
    private var fieldsShown: AccessibleFields = .notQueried
    private var lastFieldsCheck = 0.0
    /// Keys answered in the middle of the agent's work: their covers are up and this
    /// controller knows of them, but the capture tracker is told at the next turn.
    private var untracked: [ShieldRecord] = []
    /// The server time of the last shield key.
    private var keyServerTime: UInt?
    /// The server time once its covers were mapped: a read stamped between the two may have
    /// been made without them.
    private var coveredServerTime: UInt?

    /// The covers come down at most this long after the key, whatever happens.
    static let limit = 3.0
    /// And this long after the screenshot's image arrived or its tool window went.
    static let margin = 0.2
    /// And this long after its read was seen (the server has executed it by then; a tool that
    /// reads each monitor in turn reads them within this).
    static let readMargin = 0.05
    /// How often the covers follow the field watcher's list.
    static let fieldsInterval = 0.25

    init(shield: Shield?, log: Log) {
        self.shield = shield
        self.log = log
    }

    var isOn: Bool { shield != nil }
    var keys: [String] { shield?.keys?.names ?? [] }
    var coverCount: Int { shield?.overlays.count ?? 0 }

    /// Moves the covers to `covers` (resolved against the windows now, with `fields`).
    func update(_ covers: [ShieldCover], fields: AccessibleFields) {
        guard let shield else { return }
        fieldsShown = fields
        shield.overlays.update(covers)
    }

    /// Whether the covers must follow a new field list (checked every `fieldsInterval`).
    func fieldsChanged(_ fields: AccessibleFields?, at now: Double) -> Bool {
        guard shield != nil, let fields, now >= lastFieldsCheck + Self.fieldsInterval else { return false }
        lastFieldsCheck = now
        return fields != fieldsShown
    }

    /// The covers went up at the key (mapped by the X layer the moment it read the key).
    func raised(readAt: Double, mappedAt: Double, serverTime: UInt, coveredTime: UInt?, wallNow: Double,
                monotonicNow: Double) -> ShieldRecord? {
        guard let shield else { return nil }
        downAt = readAt + Self.limit
        keyServerTime = serverTime
        coveredServerTime = coveredTime
        let record = ShieldRecord(keyTime: wallNow - (monotonicNow - readAt), mappedAfterMs: (mappedAt - readAt) * 1000,
                                  covers: shield.overlays.count, serverTime: serverTime)
        log.verbose("shield key: \(record.covers) covers mapped \(JSON.fixed(record.mappedAfterMs, digits: 3)) ms after the key was read")
        return record
    }

    /// Notes a key answered mid-step, for `takeUntracked`.
    func noteUntracked(_ record: ShieldRecord) { untracked.append(record) }

    /// The keys answered mid-step that the tracker has not been told of yet.
    func takeUntracked() -> [ShieldRecord] {
        defer { untracked = [] }
        return untracked
    }

    var hasUntracked: Bool { !untracked.isEmpty }

    /// A screenshot's read was seen while the covers were up for a key: they come down as soon
    /// as the server has executed it. Only a read the server received after the key (its
    /// server time) counts: RECORD may hand over a read from before the key after the key's
    /// event. A read by the key's screenshot tool that came first lost the race.
    func screenRead(by program: String, serverTime: UInt, readAfterKeyMs: Double?, at now: Double) {
        guard let shield, let downAt, serverTime != 0, let keyServerTime else { return }
        guard serverTime >= keyServerTime else {
            if ScreenshotPrograms.contains(program), let readAfterKeyMs, readAfterKeyMs > -Self.limit * 1000 {
                log.warning("shield: \(program) read the screen before the key's covers were up (the shield lost the race); "
                    + "guard handles its image")
            }
            return
        }
        if let coveredServerTime, serverTime < coveredServerTime, ScreenshotPrograms.contains(program) {
            log.warning("shield: \(program) read the screen while the key's covers were going up (its read at server time "
                + "\(serverTime), the covers up at \(coveredServerTime)): the shield may have lost the race; guard handles its image")
        }
        // The recorded request is dispatched by the time its record reached us; one round trip
        // of ours after it proves the server has finished it.
        shield.overlays.sync()
        self.downAt = min(downAt, now + Self.readMargin)
    }

    /// A screenshot settled (its image arrived, or the tool's window went).
    func screenshotSettled(at now: Double) {
        guard let downAt else { return }
        self.downAt = min(downAt, now + Self.margin)
    }

    /// A recording of the screen started or stopped: the covers stay up while any runs.
    func recording(client: UInt32, started: Bool) {
        guard let shield else { return }
        if started {
            recordings.insert(client)
            shield.overlays.raise()
            log.info("shield: covers up while the recording runs")
        } else if recordings.remove(client) != nil, recordings.isEmpty, downAt == nil {
            shield.overlays.lower()
            log.info("shield: the recording stopped; covers lowered")
        }
    }

    var isRecording: Bool { !recordings.isEmpty }

    /// Lowers the covers when their time has come (not while a recording runs).
    func lowerIfDue(at now: Double) {
        guard let shield, let downAt, now >= downAt else { return }
        self.downAt = nil
        guard recordings.isEmpty else { return }
        shield.overlays.lower()
        log.verbose("shield: covers lowered")
    }

    /// The next time the controller has work: the covers' limit, the fields check.
    func deadline(watchingFields: Bool) -> Double? {
        [downAt, shield != nil && watchingFields ? lastFieldsCheck + Self.fieldsInterval : nil].compactMap { $0 }.min()
    }
}

// The shield in the agent: covers kept over the rules' rectangles, raised on a key, lowered after.
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardX11
import ShotguardAccessibility
import ShotguardScreen

extension Agent {
    /// The covers come down at most this long after the key, whatever happens.
    static let shieldLimit = 3.0
    /// And this long after the screenshot settled (its file or clipboard image arrived, or the
    /// tool's window went): a tool may still be reading the screen as it writes.
    static let shieldMargin = 0.2

    /// Resolves the rules against the windows now and moves the covers to match. The covers
    /// themselves (override-redirect windows, listed with the others) are left out.
    func refreshShield() {
        guard let shield, !display.isLost else { return }
        // Monitors and fields too: the shield covers every rectangle `regions check` lists.
        let context = screenContext(quiet: true)
        shieldFields = context.fields
        let covers = (regions?.hits(against: context) ?? []).map { ShieldCover(rect: $0.rect, fill: $0.fill) }
        shield.overlays.update(covers)
    }

    /// How often the covers follow the field watcher's list, while both run.
    static let shieldFieldsInterval = 0.25

    /// When the loop next compares the field list with the covers' (nil: no shield or no fields).
    var shieldFieldsCheck: Double? {
        guard shield != nil, fieldWatcher != nil else { return nil }
        return lastShieldFieldsCheck + Self.shieldFieldsInterval
    }

    /// The field watcher's thread keeps its list current from AT-SPI events; the covers follow
    /// it here, on the loop's thread, at most `shieldFieldsInterval` later.
    func refreshShieldIfFieldsChanged() {
        guard let check = shieldFieldsCheck, monotonicNow() >= check, let fieldWatcher else { return }
        lastShieldFieldsCheck = monotonicNow()
        if fieldWatcher.status.fields != shieldFields { refreshShield() }
    }

    /// The covers went up (in `DesktopEvents`, the moment the key was read): set their limit,
    /// open the capture event (its fallback grab sees the covers, as the tool will) and note
    /// the shield in it.
    func shieldRaised(readAt: Double, mappedAt: Double) {
        guard let shield else { return }
        let wallTime = now() - (monotonicNow() - readAt)
        shieldDown = readAt + Self.shieldLimit
        let record = ShieldRecord(keyTime: wallTime, mappedAfterMs: (mappedAt - readAt) * 1000, covers: shield.overlays.count)
        log.verbose("shield key: \(record.covers) covers mapped \(JSON.fixed(record.mappedAfterMs, digits: 3)) ms after the key was read")
        signal(SignalRecord(kind: .shieldKey, time: wallTime, detail: shield.keys.names.joined(separator: " ")), counted: false,
               freshScreen: false, candidate: nil)
        if let event, event.shield == nil { event.shield = record }
    }

    /// A screenshot settled (its image arrived, or the tool's window went): the covers come
    /// down after the margin, if they are up.
    func screenshotSettledForShield() {
        guard let shieldDown else { return }
        self.shieldDown = min(shieldDown, monotonicNow() + Self.shieldMargin)
    }

    /// Lowers the covers when their time has come.
    func lowerShieldIfDue() {
        guard let shield, let shieldDown, monotonicNow() >= shieldDown else { return }
        self.shieldDown = nil
        shield.overlays.lower()
        log.verbose("shield: covers lowered")
    }
}

// The agent's accessible fields: watched on their own thread, read at event time from the last list.
import ShotguardBase
import ShotguardAccessibility
import ShotguardRegions
import ShotguardX11
import ShotguardScreen

extension Agent {
    /// How long start-up waits for the first list of fields, so that the first screenshot is
    /// already covered; a bus that answers later still fills the list when it does.
    static let firstFieldsWait = 5.0

    /// Starts (or retargets) the field watcher for the roles the rules name; stops it when
    /// none does. At start-up says once what the accessibility bus gave, or why it gave nothing.
    func watchFields() {
        let roles = regions?.fieldRoles ?? []
        guard !roles.isEmpty else {
            fieldWatcher?.stop()
            fieldWatcher = nil
            return
        }
        if let fieldWatcher {
            fieldWatcher.update(roles: roles)
            return
        }
        let watcher = FieldWatcher(roles: roles)
        fieldWatcher = watcher
        let status = watcher.waitForFirstQuery(seconds: Self.firstFieldsWait)
        switch status.fields {
        case .unavailable(let reason):
            log.warning(reason)
        case .notQueried:
            log.warning("the accessibility bus did not answer within \(Int(Self.firstFieldsWait)) s: "
                + "field rules hit nothing until it does")
        case .available(let fields):
            let roleNames = roles.sorted().map(\.rawValue).joined(separator: ", ")
            log.info("fields: \(fields.count) showing (\(roleNames)) through the accessibility bus, "
                + "listed in \(String(format1: status.lastQueryMilliseconds)) ms; kept current from its events")
        }
    }

    /// The windows on screen now, with the last list of fields: no D-Bus call at event time.
    /// The shield's own covers are left out: they are no window of the user's, and on top of a
    /// field they would hide it from a rule that names the field's window (`class=`).
    /// `quiet` leaves out the log line (the shield resolves on every window change).
    func screenContext(quiet: Bool = false) -> ScreenContext {
        var context = display.screenContext()
        if let shield {
            let own = shield.overlays.ids
            context.windows.removeAll { own.contains($0.id) }
        }
        guard let fieldWatcher else { return context }
        let started = monotonicNow()
        let status = fieldWatcher.status
        context.fields = status.fields
        if !quiet {
            let age = String(format1: (monotonicNow() - status.updatedAt) * 1000)
            log.verbose("fields: \(status.fields.fields.count) from the list of \(age) ms ago, "
                + "read in \(String(format3: (monotonicNow() - started) * 1000)) ms")
        }
        return context
    }
}

extension String {
    /// `value` with one decimal.
    init(format1 value: Double) { self = String(Double(Int((value * 10).rounded())) / 10) }
    /// `value` with three decimals.
    init(format3 value: Double) { self = String(Double(Int((value * 1000).rounded())) / 1000) }
}

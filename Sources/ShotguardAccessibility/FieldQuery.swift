// One-shot field lookup for commands that resolve rules once (capture, regions check, show).
import ShotguardScreen

public enum FieldQuery {
    /// The showing fields of `roles` right now: `.notQueried` when no rule asks for any (the
    /// bus is then never touched), `.unavailable` with the reason when there is no bus.
    /// Runs on the calling thread; every D-Bus call is bounded by `AccessibilityBus.callTimeout`.
    ///
    /// `displayAdvertisesBus` (see `SessionBusCheck`): when given, a session without a bus
    /// to find is `.unavailable` at once, and libdbus never autolaunches one for the query.
    public static func fields(roles: Set<FieldRole>, displayAdvertisesBus: Bool? = nil) -> AccessibleFields {
        guard !roles.isEmpty else { return .notQueried }
        if let displayAdvertisesBus, !SessionBusCheck.reachable(displayAdvertisesBus: displayAdvertisesBus) {
            return .unavailable(reason: SessionBusCheck.unreachableReason)
        }
        switch AccessibilityBus.connect() {
        case .failure(let unavailable): return .unavailable(reason: unavailable.reason)
        case .success(let bus): return .available(bus.fields(roles: roles))
        }
    }
}

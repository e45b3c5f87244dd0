// A connection to the AT-SPI2 accessibility bus, and the one query `field` rules need.
import CAtspiLoader
import ShotguardImaging
import ShotguardScreen

/// The accessibility bus of this session, through libatspi.
///
/// libatspi is not thread-safe and runs its D-Bus traffic on the calling thread: use one
/// instance from one thread only. Every call it makes is bounded by `callTimeout`.
public final class AccessibilityBus {
    /// How long one D-Bus call to an application may take before it counts as failed, in ms.
    /// A hung application must not hang the caller; a busy one answers well within this.
    public static let callTimeout: Int32 = 1000

    /// What to tell the user when the bus is missing: field rules then hit nothing.
    public static let howToEnable = "field rules hit nothing until it runs. A D-Bus session starts it for GTK "
        + "applications (on GNOME: gsettings set org.gnome.desktop.interface toolkit-accessibility true); "
        + "Qt applications need QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1, Chromium and Electron "
        + "--force-renderer-accessibility"

    private init() {}

    /// Connects to the bus, or says why it cannot: libatspi is loaded here, on first use, not
    /// by every command at start-up; `atspi_init` returns 2 when neither the session bus nor
    /// the X root's `AT_SPI_BUS` leads to an accessibility bus. (Any later libatspi call
    /// without a bus would abort the process, so nothing else is tried then.)
    public static func connect() -> Result<AccessibilityBus, AccessibilityUnavailable> {
        if let missing = loadLibrary() { return .failure(missing) }
        let status = sg_atspi_init()
        guard status == 0 || status == 1 else {
            return .failure(AccessibilityUnavailable(reason: "no accessibility bus (AT-SPI2) in this session: " + howToEnable))
        }
        sg_atspi_set_timeout(callTimeout, callTimeout)
        return .success(AccessibilityBus())
    }

    /// Loads libatspi (once per process); nil when loaded, else why field rules hit nothing.
    private static func loadLibrary() -> AccessibilityUnavailable? {
        var message = [CChar](repeating: 0, count: 512)
        guard sg_atspi_load(&message, message.count) != 0 else { return nil }
        let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return AccessibilityUnavailable(reason: reason + ": field rules hit nothing until AT-SPI2's library is installed "
            + "(Debian: libatspi2.0-0)")
    }

    /// The showing fields of `roles` in every application on the bus: one Collection
    /// `GetMatches` per application, never a walk of the tree. An application that does not
    /// answer within `callTimeout` is left out.
    public func fields(roles: Set<FieldRole>) -> [AccessibleField] {
        guard !roles.isEmpty, let desktop = sg_atspi_get_desktop(0) else { return [] }
        defer { release(desktop) }
        guard let rule = matchRule(roles: roles) else { return [] }
        defer { release(rule) }
        var fields: [AccessibleField] = []
        let count = atspiCall { sg_atspi_accessible_get_child_count(desktop, $0) } ?? 0
        for index in 0..<max(count, 0) {
            guard let app = atspiCall({ sg_atspi_accessible_get_child_at_index(desktop, index, $0) }) ?? nil else { continue }
            fields += applicationFields(app, rule: rule)
            release(app)
        }
        return fields
    }

    private func applicationFields(_ app: OpaquePointer, rule: OpaquePointer) -> [AccessibleField] {
        guard let collection = sg_atspi_accessible_get_collection_iface(app) else { return [] }
        defer { release(collection) }
        let application = takeString(atspiCall { sg_atspi_accessible_get_name(app, $0) } ?? nil)
        let processID = Int(atspiCall { sg_atspi_accessible_get_process_id(app, $0) } ?? 0)
        guard let found = atspiCall({
            sg_atspi_collection_get_matches(collection, rule, ATSPI_Collection_SORT_ORDER_CANONICAL, 0, 1, $0)
        }) ?? nil else { return [] }
        defer { sg_g_array_unref(found) }
        var fields: [AccessibleField] = []
        let objects = UnsafeMutableRawPointer(found.pointee.data)!
            .bindMemory(to: OpaquePointer?.self, capacity: Int(found.pointee.len))
        for index in 0..<Int(found.pointee.len) {
            guard let object = objects[index] else { continue }
            defer { release(object) }
            if let field = describe(object, application: application, processID: processID) { fields.append(field) }
        }
        return fields
    }

    /// The field's role, name and screen extents; nil when it has no extents or no size.
    private func describe(_ object: OpaquePointer, application: String, processID: Int) -> AccessibleField? {
        guard let atspiRole = atspiCall({ sg_atspi_accessible_get_role(object, $0) }),
              let role = FieldRole(atspiRole),
              let component = sg_atspi_accessible_get_component_iface(object) else { return nil }
        defer { release(component) }
        guard let extents = atspiCall({ sg_atspi_component_get_extents(component, ATSPI_COORD_TYPE_SCREEN, $0) }) ?? nil else {
            return nil
        }
        defer { sg_g_free(extents) }
        let rect = Rect(x: Int(extents.pointee.x), y: Int(extents.pointee.y),
                        width: Int(extents.pointee.width), height: Int(extents.pointee.height))
        guard !rect.isEmpty else { return nil }
        let name = takeString(atspiCall { sg_atspi_accessible_get_name(object, $0) } ?? nil)
        return AccessibleField(role: role, name: name, rect: rect, application: application, processID: processID)
    }

    /// A rule for objects that are showing and have one of `roles`.
    private func matchRule(roles: Set<FieldRole>) -> OpaquePointer? {
        guard let states = sg_atspi_state_set_new(nil) else { return nil }
        defer { release(states) }
        sg_atspi_state_set_add(states, ATSPI_STATE_SHOWING)
        guard let roleArray = sg_g_array_new(0, 0, UInt32(MemoryLayout<AtspiRole>.size)) else { return nil }
        defer { sg_g_array_unref(roleArray) }
        for role in roles.sorted() {
            var value = role.atspiRole
            sg_g_array_append_vals(roleArray, &value, 1)
        }
        return sg_atspi_match_rule_new(states, ATSPI_Collection_MATCH_ALL, nil, ATSPI_Collection_MATCH_ALL,
                                       roleArray, ATSPI_Collection_MATCH_ANY, nil, ATSPI_Collection_MATCH_ALL, 0)
    }
}

/// Why the accessibility bus cannot be used; `reason` says how to enable it.
public struct AccessibilityUnavailable: Error, Sendable {
    public let reason: String
}

extension FieldRole {
    /// The AT-SPI2 role this role names.
    var atspiRole: AtspiRole {
        switch self {
        case .password: return ATSPI_ROLE_PASSWORD_TEXT
        case .text: return ATSPI_ROLE_TEXT
        case .entry: return ATSPI_ROLE_ENTRY
        }
    }

    init?(_ role: AtspiRole) {
        guard let match = FieldRole.allCases.first(where: { $0.atspiRole == role }) else { return nil }
        self = match
    }
}

/// `atspiCall` for the other files of this module.
func atspiResult<T>(_ call: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> T) -> T? { atspiCall(call) }

/// `release` for the other files of this module.
func atspiRelease(_ object: OpaquePointer) { release(object) }

/// Runs a libatspi call that reports failure through a `GError`; nil when it failed (a
/// vanished object, a timeout). The error is freed: a field that cannot be read is left out.
private func atspiCall<T>(_ call: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> T) -> T? {
    var error: UnsafeMutablePointer<GError>?
    let value = call(&error)
    if let error {
        sg_g_error_free(error)
        return nil
    }
    return value
}

/// Drops a reference to a GObject libatspi returned.
private func release(_ object: OpaquePointer) {
    sg_g_object_unref(UnsafeMutableRawPointer(object))
}

/// A string libatspi allocated, as a Swift string; frees it.
private func takeString(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
    guard let pointer else { return "" }
    defer { sg_g_free(pointer) }
    return String(cString: pointer)
}

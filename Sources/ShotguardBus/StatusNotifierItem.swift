// The tray icon of KDE, Xfce and waybar-like hosts: a StatusNotifierItem on the session bus, its
// menu a com.canonical.dbusmenu object, registered with the StatusNotifierWatcher when one runs.
import CSystemdBus
import Glibc

/// `org.kde.StatusNotifierItem` at `/StatusNotifierItem`, under the name
/// `org.kde.StatusNotifierItem-PID-1`, with its menu at `/MenuBar`. It registers with
/// `org.kde.StatusNotifierWatcher` when a watcher runs, and again whenever a watcher appears
/// (NameOwnerChanged), never waiting for an answer: no watcher is no error, and nothing shows.
/// `update` says to hosts what changed (NewStatus, NewIcon, NewToolTip, NewTitle, the menu's
/// LayoutUpdated). Handlers reach this object through userdata, unretained: it outlives its
/// registrations, which its deinit removes.
public final class StatusNotifierItem {
    public static let watcherName = "org.kde.StatusNotifierWatcher"
    static let watcherPath = "/StatusNotifierWatcher"
    static let interface = "org.kde.StatusNotifierItem"
    static let path = "/StatusNotifierItem"

    static let methods = [BusMember("ContextMenu", input: [BusArgument("x", "i"), BusArgument("y", "i")]),
                          BusMember("Activate", input: [BusArgument("x", "i"), BusArgument("y", "i")]),
                          BusMember("SecondaryActivate", input: [BusArgument("x", "i"), BusArgument("y", "i")]),
                          BusMember("Scroll", input: [BusArgument("delta", "i"), BusArgument("orientation", "s")])]
    static let signals = [BusMember("NewTitle"), BusMember("NewIcon"), BusMember("NewAttentionIcon"), BusMember("NewOverlayIcon"),
                          BusMember("NewToolTip"), BusMember("NewStatus", output: [BusArgument("status", "s")])]
    static let properties = [
        BusProperty(name: "Category", type: "s", constant: true), BusProperty(name: "Id", type: "s", constant: true),
        BusProperty(name: "Title", type: "s"), BusProperty(name: "Status", type: "s"),
        BusProperty(name: "WindowId", type: "i", constant: true), BusProperty(name: "IconThemePath", type: "s", constant: true),
        BusProperty(name: "IconName", type: "s"), BusProperty(name: "IconPixmap", type: "a(iiay)"),
        BusProperty(name: "OverlayIconName", type: "s"), BusProperty(name: "OverlayIconPixmap", type: "a(iiay)"),
        BusProperty(name: "AttentionIconName", type: "s"), BusProperty(name: "AttentionIconPixmap", type: "a(iiay)"),
        BusProperty(name: "AttentionMovieName", type: "s"), BusProperty(name: "ToolTip", type: "(sa(iiay)ss)"),
        BusProperty(name: "ItemIsMenu", type: "b", constant: true), BusProperty(name: "Menu", type: "o", constant: true),
    ]

    private let bus: SessionBus
    private let vtable: BusVTable
    private let menu: DBusMenu
    private var slot: OpaquePointer?
    private var ownerMatch: OpaquePointer?
    private var registration: OpaquePointer?
    /// The well-known name the item is registered under.
    public let serviceName: String
    public private(set) var look: TrayLook
    /// Whether a watcher accepted the item (a host may show it).
    public private(set) var isRegistered = false
    /// Called with an action's id when a host says it was clicked.
    public var chosen: ((Int32) -> Void)? {
        get { menu.chosen }
        set { menu.chosen = newValue }
    }
    /// Called when `isRegistered` changes: the XEmbed icon stands aside while a host shows this one.
    public var registrationChanged: ((Bool) -> Void)?

    /// Registers the objects and the name on `bus`, and asks a watcher (if any) to show the item.
    public init(bus: SessionBus, look: TrayLook) throws(BusError) {
        self.bus = bus
        self.look = look
        serviceName = "org.kde.StatusNotifierItem-\(getpid())-1"
        menu = try DBusMenu(bus: bus)
        menu.update(look.menu)
        vtable = BusVTable(methods: Self.methods.map { ($0, Self.ignored) }, signals: Self.signals, properties: Self.properties,
                           getter: Self.getter)
        let connection = try bus.connection()
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        var slot: OpaquePointer?
        try checked(sg_sd_bus_add_object_vtable(connection, &slot, Self.path, Self.interface, vtable.entries, userdata),
                    "cannot register \(Self.path)")
        self.slot = slot
        try checked(sg_sd_bus_request_name(connection, serviceName, 0), "cannot own \(serviceName) on the session bus")
        var match: OpaquePointer?
        if sg_sd_bus_match_signal_async(connection, &match, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                        "NameOwnerChanged", Self.ownerChanged, Self.matchInstalled, userdata) >= 0 {
            ownerMatch = match
        }
        register()
    }

    deinit {
        for slot in [slot, ownerMatch, registration].compactMap({ $0 }) { sg_sd_bus_slot_unref(slot) }
    }

    /// Shows `look`: hosts are told what changed, each with its own signal.
    public func update(_ look: TrayLook) {
        let old = self.look
        self.look = look
        if look.status != old.status {
            bus.emit(path: Self.path, interface: Self.interface, member: "NewStatus") { (message) throws(BusError) in
                try message.append(look.status)
            }
        }
        if look.iconName != old.iconName || look.pixmaps != old.pixmaps {
            bus.emit(path: Self.path, interface: Self.interface, member: "NewIcon")
            bus.emit(path: Self.path, interface: Self.interface, member: "NewAttentionIcon")
        }
        if look.toolTipTitle != old.toolTipTitle || look.toolTipText != old.toolTipText || look.pixmaps != old.pixmaps {
            bus.emit(path: Self.path, interface: Self.interface, member: "NewToolTip")
        }
        if look.title != old.title { bus.emit(path: Self.path, interface: Self.interface, member: "NewTitle") }
        menu.update(look.menu)
    }

    private var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func item(_ userdata: UnsafeMutableRawPointer?) -> StatusNotifierItem? {
        userdata.map { Unmanaged<StatusNotifierItem>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Asks the watcher to show the item; its answer comes to `registered`. Without a watcher
    /// the call fails at once (no service is started for it) and nothing is shown.
    private func register() {
        guard let connection = try? bus.connection() else { return }
        do throws(BusError) {
            let call = try BusMessage.methodCall(connection, destination: Self.watcherName, path: Self.watcherPath,
                                                 interface: Self.watcherName, member: "RegisterStatusNotifierItem")
            try call.append(serviceName)
            if let registration { sg_sd_bus_slot_unref(registration) }
            var slot: OpaquePointer?
            try checked(sg_sd_bus_call_async(connection, &slot, call.pointer, Self.registered, userdata, 0),
                        "RegisterStatusNotifierItem")
            registration = slot
        } catch {
            return
        }
    }

    private func setRegistered(_ value: Bool) {
        guard value != isRegistered else { return }
        isRegistered = value
        registrationChanged?(value)
    }

    private static let registered: sd_bus_message_handler_t = { reply, userdata, _ in
        guard let item = item(userdata), let reply else { return 0 }
        if let registration = item.registration { sg_sd_bus_slot_unref(registration) }
        item.registration = nil
        item.setRegistered(sg_sd_bus_message_is_method_error(reply, nil) == 0)
        return 0
    }

    /// A watcher appeared (register with it) or went away (no host shows the item now).
    private static let ownerChanged: sd_bus_message_handler_t = { signal, userdata, _ in
        guard let item = item(userdata), let signal else { return 0 }
        let message = BusMessage(borrowing: signal)
        guard let name = try? message.readString(), name == watcherName,
              (try? message.readString()) != nil, let newOwner = try? message.readString() else { return 0 }
        if newOwner.isEmpty { item.setRegistered(false) } else { item.register() }
        return 0
    }

    /// Without this callback sd-bus treats a refused match as fatal to the connection.
    private static let matchInstalled: sd_bus_message_handler_t = { _, _, _ in 0 }

    /// Activate, SecondaryActivate, ContextMenu, Scroll: the item is a menu (ItemIsMenu), so
    /// hosts show the menu on a click; these are answered and do nothing.
    private static let ignored: sd_bus_message_handler_t = { call, userdata, error in
        guard let item = item(userdata) else { return -ENOTCONN }
        return item.bus.answer(call, error) { (_, _) throws(BusError) in }
    }

    private static let getter: sd_bus_property_get_t = { _, _, _, property, reply, userdata, _ in
        guard let item = item(userdata), let property, let reply else { return -EINVAL }
        let message = BusMessage(borrowing: reply)
        do throws(BusError) {
            return try item.write(String(cString: property), to: message) ? 1 : -ENOENT
        } catch {
            return -EIO
        }
    }

    private func write(_ property: String, to message: BusMessage) throws(BusError) -> Bool {
        switch property {
        case "Category": try message.append("ApplicationStatus")
        case "Id": try message.append("shotguard")
        case "Title": try message.append(look.title)
        case "Status": try message.append(look.status)
        case "WindowId": try message.append(Int32(0))
        case "IconThemePath", "OverlayIconName", "AttentionMovieName": try message.append("")
        case "IconName", "AttentionIconName": try message.append(look.iconName)
        case "IconPixmap", "AttentionIconPixmap": try message.append(pixmaps: look.pixmaps)
        case "OverlayIconPixmap": try message.append(pixmaps: [])
        case "ToolTip":
            try message.open("r", "sa(iiay)ss")
            try message.append(look.iconName)
            try message.append(pixmaps: look.pixmaps)
            try message.append(look.toolTipTitle)
            try message.append(look.toolTipText)
            try message.close()
        case "ItemIsMenu": try message.append(true)
        case "Menu": try message.append(objectPath: DBusMenu.path)
        default: return false
        }
        return true
    }
}

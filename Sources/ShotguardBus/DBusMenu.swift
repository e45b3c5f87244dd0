// The tray's menu on the session bus: com.canonical.dbusmenu, as StatusNotifierItem hosts read it.
import CSystemdBus
import Glibc

/// A flat menu at `/MenuBar`: the root (id 0) and its items. Hosts ask for the layout
/// (`GetLayout`) and send `Event(id, "clicked")` when an item is chosen; a new list of items
/// raises the revision and says `LayoutUpdated`. Handlers reach this object through the
/// vtable's userdata, unretained: it outlives its registration, which its deinit removes.
final class DBusMenu {
    static let path = "/MenuBar"
    static let interface = "com.canonical.dbusmenu"

    static let getLayout = BusMember("GetLayout", input: [BusArgument("parentId", "i"), BusArgument("recursionDepth", "i"),
                                                          BusArgument("propertyNames", "as")],
                                     output: [BusArgument("revision", "u"), BusArgument("layout", "(ia{sv}av)")])
    static let getGroupProperties = BusMember("GetGroupProperties", input: [BusArgument("ids", "ai"),
                                                                            BusArgument("propertyNames", "as")],
                                              output: [BusArgument("properties", "a(ia{sv})")])
    static let getProperty = BusMember("GetProperty", input: [BusArgument("id", "i"), BusArgument("name", "s")],
                                       output: [BusArgument("value", "v")])
    static let event = BusMember("Event", input: [BusArgument("id", "i"), BusArgument("eventId", "s"), BusArgument("data", "v"),
                                                  BusArgument("timestamp", "u")])
    static let eventGroup = BusMember("EventGroup", input: [BusArgument("events", "a(isvu)")], output: [BusArgument("idErrors", "ai")])
    static let aboutToShow = BusMember("AboutToShow", input: [BusArgument("id", "i")], output: [BusArgument("needUpdate", "b")])
    static let aboutToShowGroup = BusMember("AboutToShowGroup", input: [BusArgument("ids", "ai")],
                                            output: [BusArgument("updatesNeeded", "ai"), BusArgument("idErrors", "ai")])
    static let layoutUpdated = BusMember("LayoutUpdated", output: [BusArgument("revision", "u"), BusArgument("parent", "i")])
    static let itemsPropertiesUpdated = BusMember("ItemsPropertiesUpdated", output: [BusArgument("updatedProps", "a(ia{sv})"),
                                                                                    BusArgument("removedProps", "a(ias)")])
    static let itemActivationRequested = BusMember("ItemActivationRequested", output: [BusArgument("id", "i"),
                                                                                      BusArgument("timestamp", "u")])

    private let bus: SessionBus
    private let vtable: BusVTable
    private var slot: OpaquePointer?
    private(set) var items: [TrayMenuItem] = []
    private(set) var revision: UInt32 = 1
    /// Called with an action's id when a host says it was clicked.
    var chosen: ((Int32) -> Void)?

    init(bus: SessionBus) throws(BusError) {
        self.bus = bus
        vtable = BusVTable(methods: [(Self.getLayout, Self.layoutHandler), (Self.getGroupProperties, Self.groupHandler),
                                     (Self.getProperty, Self.propertyHandler), (Self.event, Self.eventHandler),
                                     (Self.eventGroup, Self.eventGroupHandler), (Self.aboutToShow, Self.aboutToShowHandler),
                                     (Self.aboutToShowGroup, Self.aboutToShowGroupHandler)],
                           signals: [Self.layoutUpdated, Self.itemsPropertiesUpdated, Self.itemActivationRequested],
                           properties: [BusProperty(name: "Version", type: "u", constant: true),
                                        BusProperty(name: "TextDirection", type: "s", constant: true),
                                        BusProperty(name: "Status", type: "s", constant: true),
                                        BusProperty(name: "IconThemePath", type: "as", constant: true)],
                           getter: Self.getter)
        var slot: OpaquePointer?
        try checked(sg_sd_bus_add_object_vtable(try bus.connection(), &slot, Self.path, Self.interface, vtable.entries,
                                                Unmanaged.passUnretained(self).toOpaque()), "cannot register \(Self.path)")
        self.slot = slot
    }

    deinit { if let slot { sg_sd_bus_slot_unref(slot) } }

    /// Replaces the items; hosts are told the layout changed when it did.
    func update(_ items: [TrayMenuItem]) {
        guard items != self.items else { return }
        self.items = items
        revision &+= 1
        let revision = self.revision
        bus.emit(path: Self.path, interface: Self.interface, member: Self.layoutUpdated.name) { (message) throws(BusError) in
            try message.append(revision)
            try message.append(Int32(0))
        }
    }

    // MARK: writing items

    private func writeProperties(of id: Int32, to message: BusMessage) throws(BusError) {
        try message.open("a", "{sv}")
        func entry(_ key: String, _ type: String, _ value: (BusMessage) throws(BusError) -> Void) throws(BusError) {
            try message.open("e", "sv")
            try message.append(key)
            try message.open("v", type)
            try value(message)
            try message.close()
            try message.close()
        }
        if id == 0 {
            try entry("children-display", "s") { (message) throws(BusError) in try message.append("submenu") }
        } else if let item = items.first(where: { $0.id == id }) {
            if item.kind == .separator {
                try entry("type", "s") { (message) throws(BusError) in try message.append("separator") }
            } else {
                try entry("label", "s") { (message) throws(BusError) in try message.append(Self.escapingMnemonics(item.label)) }
                try entry("enabled", "b") { (message) throws(BusError) in try message.append(item.enabled && item.kind == .action) }
            }
            try entry("visible", "b") { (message) throws(BusError) in try message.append(true) }
        }
        try message.close()
    }

    /// `(ia{sv}av)` of `id`, with its children when `depth` allows (the items are the root's).
    private func writeLayout(of id: Int32, depth: Int32, to message: BusMessage) throws(BusError) {
        try message.open("r", "ia{sv}av")
        try message.append(id)
        try writeProperties(of: id, to: message)
        try message.open("a", "v")
        if id == 0, depth != 0 {
            for item in items {
                try message.open("v", "(ia{sv}av)")
                try writeLayout(of: item.id, depth: depth - 1, to: message)
                try message.close()
            }
        }
        try message.close()
        try message.close()
    }

    // MARK: handlers

    private static func menu(_ userdata: UnsafeMutableRawPointer?) -> DBusMenu? {
        userdata.map { Unmanaged<DBusMenu>.fromOpaque($0).takeUnretainedValue() }
    }

    private static let layoutHandler: sd_bus_message_handler_t = { call, userdata, error in
        guard let menu = menu(userdata) else { return -ENOTCONN }
        return menu.bus.answer(call, error) { (request, reply) throws(BusError) in
            let parent = try request.readInt32()
            let depth = try request.readInt32()
            guard parent == 0 || menu.items.contains(where: { $0.id == parent }) else { throw .malformed("no menu item \(parent)") }
            try reply.append(menu.revision)
            try menu.writeLayout(of: parent, depth: depth, to: reply)
        }
    }

    private static let groupHandler: sd_bus_message_handler_t = { call, userdata, error in
        guard let menu = menu(userdata) else { return -ENOTCONN }
        return menu.bus.answer(call, error) { (request, reply) throws(BusError) in
            let ids = try request.readInt32s()
            try reply.open("a", "(ia{sv})")
            for id in ids where id == 0 || menu.items.contains(where: { $0.id == id }) {
                try reply.open("r", "ia{sv}")
                try reply.append(id)
                try menu.writeProperties(of: id, to: reply)
                try reply.close()
            }
            try reply.close()
        }
    }

    private static let propertyHandler: sd_bus_message_handler_t = { call, userdata, error in
        guard let menu = menu(userdata) else { return -ENOTCONN }
        return menu.bus.answer(call, error) { (request, reply) throws(BusError) in
            let id = try request.readInt32()
            let name = try request.readString()
            guard let item = menu.items.first(where: { $0.id == id }) else { throw .malformed("no menu item \(id)") }
            switch name {
            case "label":
                try reply.open("v", "s")
                try reply.append(item.label)
            case "enabled":
                try reply.open("v", "b")
                try reply.append(item.enabled && item.kind == .action)
            case "visible":
                try reply.open("v", "b")
                try reply.append(true)
            default:
                throw .malformed("menu items have no property '\(name)'")
            }
            try reply.close()
        }
    }

    private static let eventHandler: sd_bus_message_handler_t = { call, userdata, error in
        guard let menu = menu(userdata) else { return -ENOTCONN }
        var clicked: Int32?
        let result = menu.bus.answer(call, error) { (request, _) throws(BusError) in
            let id = try request.readInt32()
            let event = try request.readString()
            if event == "clicked" { clicked = id }
        }
        // After the reply is queued: the action may change the menu and emit signals.
        if result >= 0, let clicked { menu.clicked(clicked) }
        return result
    }

    private static let eventGroupHandler: sd_bus_message_handler_t = { call, userdata, error in
        guard let menu = menu(userdata) else { return -ENOTCONN }
        var clicked: [Int32] = []
        let result = menu.bus.answer(call, error) { (request, reply) throws(BusError) in
            try request.enter("a", "(isvu)")
            var unknown: [Int32] = []
            while try !request.atEnd() {
                guard clicked.count + unknown.count < 64 else { throw .malformed("more than 64 events at once") }
                try request.enter("r", "isvu")
                let id = try request.readInt32()
                let event = try request.readString()
                try request.skip("vu")
                try request.exit()
                if !menu.items.contains(where: { $0.id == id }) { unknown.append(id) } else if event == "clicked" { clicked.append(id) }
            }
            try request.exit()
            try reply.append(int32s: unknown)
        }
        if result >= 0 { for id in clicked { menu.clicked(id) } }
        return result
    }

    private static let aboutToShowHandler: sd_bus_message_handler_t = { call, userdata, error in
        guard let menu = menu(userdata) else { return -ENOTCONN }
        return menu.bus.answer(call, error) { (_, reply) throws(BusError) in try reply.append(false) }
    }

    private static let aboutToShowGroupHandler: sd_bus_message_handler_t = { call, userdata, error in
        guard let menu = menu(userdata) else { return -ENOTCONN }
        return menu.bus.answer(call, error) { (_, reply) throws(BusError) in
            try reply.append(int32s: [])
            try reply.append(int32s: [])
        }
    }

    private static let getter: sd_bus_property_get_t = { _, _, _, property, reply, _, _ in
        guard let property, let reply else { return -EINVAL }
        let message = BusMessage(borrowing: reply)
        do throws(BusError) {
            switch String(cString: property) {
            case "Version": try message.append(UInt32(3))
            case "TextDirection": try message.append("ltr")
            case "Status": try message.append("normal")
            case "IconThemePath": try message.append([String]())
            default: return -ENOENT
            }
            return 1
        } catch {
            return -EIO
        }
    }

    /// dbusmenu reads `_` as the mark of an access key: a label's own underscores are doubled.
    static func escapingMnemonics(_ label: String) -> String {
        String(label.flatMap { $0 == "_" ? ["_", "_"] : [$0] })
    }

    /// An enabled action was clicked: its owner is told.
    private func clicked(_ id: Int32) {
        guard let item = items.first(where: { $0.id == id }), item.kind == .action, item.enabled else { return }
        chosen?(id)
    }
}

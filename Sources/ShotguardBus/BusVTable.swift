// An sd-bus vtable built from member descriptions, owning the C strings it points to for as long
// as it is registered.
import CSystemdBus
import Glibc

/// The vtable of one interface. sd-bus keeps pointers into it (and to its strings) while the
/// object is registered, so it lives until the slot that registered it is released.
final class BusVTable {
    private(set) var entries: UnsafeMutablePointer<sd_bus_vtable>
    private let count: Int
    private var strings: [UnsafeMutablePointer<CChar>] = []

    /// `methods` with the C handler of each (dispatching on `userdata`), then `signals`, then
    /// read-only `properties`, each read by `getter` (which dispatches on the property's name).
    init(methods: [(BusMember, sd_bus_message_handler_t)], signals: [BusMember], properties: [BusProperty] = [],
         getter: sd_bus_property_get_t? = nil) {
        count = methods.count + signals.count + properties.count + 2
        entries = .allocate(capacity: count)
        var index = 0
        func add(_ entry: sd_bus_vtable) {
            (entries + index).initialize(to: entry)
            index += 1
        }
        add(sg_bus_vtable_start())
        for (member, handler) in methods {
            add(sg_bus_vtable_method(keep(member.name), keep(Self.types(member.input)), keep(Self.types(member.output)),
                                     keep(names: member.input + member.output), handler,
                                     UInt64(SD_BUS_VTABLE_UNPRIVILEGED)))
        }
        for member in signals {
            add(sg_bus_vtable_signal(keep(member.name), keep(Self.types(member.output)), keep(names: member.output), 0))
        }
        for property in properties {
            let flags = property.constant ? UInt64(SD_BUS_VTABLE_PROPERTY_CONST) : 0
            add(sg_bus_vtable_property(keep(property.name), keep(property.type), getter, flags))
        }
        add(sg_bus_vtable_end())
    }

    deinit {
        entries.deinitialize(count: count)
        entries.deallocate()
        for string in strings { free(string) }
    }

    private static func types(_ arguments: [BusArgument]) -> String { arguments.map(\.type).joined() }

    /// A copy of `text` that lives as long as the vtable.
    private func keep(_ text: String) -> UnsafeMutablePointer<CChar> {
        let copy = strdup(text)!
        strings.append(copy)
        return copy
    }

    /// The argument names as sd-bus reads them: each ended by a NUL, all in one string.
    private func keep(names arguments: [BusArgument]) -> UnsafeMutablePointer<CChar> {
        let bytes = arguments.flatMap { (argument) -> [UInt8] in Array(argument.name.utf8) + [0] } + [0]
        let owned = malloc(bytes.count)!.bindMemory(to: CChar.self, capacity: bytes.count)
        for (offset, byte) in bytes.enumerated() { owned[offset] = CChar(bitPattern: byte) }
        strings.append(owned)
        return owned
    }
}

/// A read-only property of an interface: its name, D-Bus type, and whether it never changes.
struct BusProperty {
    let name: String
    let type: String
    var constant = false
}

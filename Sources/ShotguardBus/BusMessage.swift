// A D-Bus message built and read with sd-bus's non-variadic calls (its variadic ones do not import).
import CSystemdBus
import Glibc

/// One message, holding a reference for its lifetime. Strings read from it are copied out.
final class BusMessage {
    let pointer: OpaquePointer

    /// Takes over a reference the caller owns (`sd_bus_message_new_*`, `sd_bus_call`'s reply).
    init(owning pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// Adds a reference to a message sd-bus lends to a callback.
    init(borrowing pointer: OpaquePointer) {
        self.pointer = sg_sd_bus_message_ref(pointer)
    }

    deinit { sg_sd_bus_message_unref(pointer) }

    /// A method call to `destination`, not starting a service that is not running.
    static func methodCall(_ bus: OpaquePointer, destination: String, path: String, interface: String,
                           member: String, autoStart: Bool = false) throws(BusError) -> BusMessage {
        var message: OpaquePointer?
        try checked(sg_sd_bus_message_new_method_call(bus, &message, destination, path, interface, member),
                    "cannot make a call to \(interface).\(member)")
        guard let message else { throw .call("sd_bus_message_new_method_call", errno: ENOMEM) }
        let call = BusMessage(owning: message)
        try checked(sg_sd_bus_message_set_auto_start(message, autoStart ? 1 : 0), "sd_bus_message_set_auto_start")
        return call
    }

    /// A signal from `path`.
    static func signal(_ bus: OpaquePointer, path: String, interface: String, member: String) throws(BusError) -> BusMessage {
        var message: OpaquePointer?
        try checked(sg_sd_bus_message_new_signal(bus, &message, path, interface, member), "cannot make the signal \(member)")
        guard let message else { throw .call("sd_bus_message_new_signal", errno: ENOMEM) }
        return BusMessage(owning: message)
    }

    /// The empty reply to the call `self`.
    func methodReturn() throws(BusError) -> BusMessage {
        var message: OpaquePointer?
        try checked(sg_sd_bus_message_new_method_return(pointer, &message), "cannot make a reply")
        guard let message else { throw .call("sd_bus_message_new_method_return", errno: ENOMEM) }
        return BusMessage(owning: message)
    }

    /// Sends the message on `bus` (queued; written as the connection allows).
    func send(on bus: OpaquePointer) throws(BusError) {
        try checked(sg_sd_bus_send(bus, pointer, nil), "cannot send a message on the session bus")
    }

    var member: String { sg_sd_bus_message_get_member(pointer).map { String(cString: $0) } ?? "" }
    var sender: String { sg_sd_bus_message_get_sender(pointer).map { String(cString: $0) } ?? "" }

    // MARK: writing

    /// A string; sd-bus refuses text that is not UTF-8, and a NUL would end it early, so NULs
    /// become U+FFFD.
    func append(_ value: String) throws(BusError) {
        let text = value.contains("\u{0}") ? value.replacingNulls() : value
        let result = text.withCString { sg_sd_bus_message_append_basic(pointer, CChar(UInt8(ascii: "s")), $0) }
        try checked(result, "append a string")
    }

    func append(_ value: Double) throws(BusError) {
        var value = value
        try checked(sg_sd_bus_message_append_basic(pointer, CChar(UInt8(ascii: "d")), &value), "append a double")
    }

    func append(_ value: Bool) throws(BusError) {
        var value: Int32 = value ? 1 : 0
        try checked(sg_sd_bus_message_append_basic(pointer, CChar(UInt8(ascii: "b")), &value), "append a boolean")
    }

    func append(_ value: UInt32) throws(BusError) {
        var value = value
        try checked(sg_sd_bus_message_append_basic(pointer, CChar(UInt8(ascii: "u")), &value), "append a uint32")
    }

    func append(_ value: Int32) throws(BusError) {
        var value = value
        try checked(sg_sd_bus_message_append_basic(pointer, CChar(UInt8(ascii: "i")), &value), "append an int32")
    }

    func append(_ value: UInt8) throws(BusError) {
        var value = value
        try checked(sg_sd_bus_message_append_basic(pointer, CChar(UInt8(ascii: "y")), &value), "append a byte")
    }

    /// An object path (`o`).
    func append(objectPath value: String) throws(BusError) {
        let result = value.withCString { sg_sd_bus_message_append_basic(pointer, CChar(UInt8(ascii: "o")), $0) }
        try checked(result, "append an object path")
    }

    /// Bytes as one `ay`, in a single call.
    func append(bytes: [UInt8]) throws(BusError) {
        let result = bytes.withUnsafeBytes { sg_sd_bus_message_append_array(pointer, CChar(UInt8(ascii: "y")), $0.baseAddress, $0.count) }
        try checked(result, "append a byte array")
    }

    /// An array of int32 (`ai`).
    func append(int32s values: [Int32]) throws(BusError) {
        try open("a", "i")
        for value in values { try append(value) }
        try close()
    }

    /// An array of strings (`as`).
    func append(_ values: [String]) throws(BusError) {
        try open("a", "s")
        for value in values { try append(value) }
        try close()
    }

    func open(_ type: Character, _ contents: String) throws(BusError) {
        try checked(sg_sd_bus_message_open_container(pointer, CChar(type.asciiValue ?? 0), contents), "open a container \(contents)")
    }

    func close() throws(BusError) {
        try checked(sg_sd_bus_message_close_container(pointer), "close a container")
    }

    // MARK: reading

    func readString() throws(BusError) -> String {
        var value: UnsafePointer<CChar>?
        try checked(sg_sd_bus_message_read_basic(pointer, CChar(UInt8(ascii: "s")), &value), "read a string")
        return value.map { String(cString: $0) } ?? ""
    }

    func readObjectPath() throws(BusError) -> String {
        var value: UnsafePointer<CChar>?
        try checked(sg_sd_bus_message_read_basic(pointer, CChar(UInt8(ascii: "o")), &value), "read an object path")
        return value.map { String(cString: $0) } ?? ""
    }

    func readDouble() throws(BusError) -> Double {
        var value = 0.0
        try checked(sg_sd_bus_message_read_basic(pointer, CChar(UInt8(ascii: "d")), &value), "read a double")
        return value
    }

    func readBool() throws(BusError) -> Bool {
        var value: Int32 = 0
        try checked(sg_sd_bus_message_read_basic(pointer, CChar(UInt8(ascii: "b")), &value), "read a boolean")
        return value != 0
    }

    func readUInt32() throws(BusError) -> UInt32 {
        var value: UInt32 = 0
        try checked(sg_sd_bus_message_read_basic(pointer, CChar(UInt8(ascii: "u")), &value), "read a uint32")
        return value
    }

    func readInt32() throws(BusError) -> Int32 {
        var value: Int32 = 0
        try checked(sg_sd_bus_message_read_basic(pointer, CChar(UInt8(ascii: "i")), &value), "read an int32")
        return value
    }

    /// An array of int32 (`ai`), at most `limit` of them.
    func readInt32s(limit: Int = 256) throws(BusError) -> [Int32] {
        try enter("a", "i")
        var values: [Int32] = []
        while try !atEnd() {
            guard values.count < limit else { throw .malformed("more than \(limit) numbers in an array") }
            values.append(try readInt32())
        }
        try exit()
        return values
    }

    var path: String { sg_sd_bus_message_get_path(pointer).map { String(cString: $0) } ?? "" }

    /// An array of strings (`as`), at most `limit` of them.
    func readStrings(limit: Int = 256) throws(BusError) -> [String] {
        try enter("a", "s")
        var values: [String] = []
        while try !atEnd() {
            guard values.count < limit else { throw .malformed("more than \(limit) strings in an array") }
            values.append(try readString())
        }
        try exit()
        return values
    }

    /// Enters a container; false when the array or struct has no more elements of that kind.
    @discardableResult
    func enter(_ type: Character, _ contents: String) throws(BusError) -> Bool {
        let result = try checked(sg_sd_bus_message_enter_container(pointer, CChar(type.asciiValue ?? 0), contents),
                                 "read a container \(type)\(contents)")
        return result > 0
    }

    func exit() throws(BusError) {
        try checked(sg_sd_bus_message_exit_container(pointer), "leave a container")
    }

    /// Whether the container being read has no more elements.
    func atEnd() throws(BusError) -> Bool {
        try checked(sg_sd_bus_message_at_end(pointer, 0), "sd_bus_message_at_end") > 0
    }

    /// The type and contents of the next element (`v` and `s` for a variant holding a string).
    func peek() throws(BusError) -> (type: Character, contents: String)? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        guard try checked(sg_sd_bus_message_peek_type(pointer, &type, &contents), "sd_bus_message_peek_type") > 0 else {
            return nil
        }
        return (Character(UnicodeScalar(UInt8(bitPattern: type))), contents.map { String(cString: $0) } ?? "")
    }

    /// Skips the next element of `signature` (or the next complete element when empty).
    func skip(_ signature: String) throws(BusError) {
        try checked(signature.isEmpty ? sg_sd_bus_message_skip(pointer, nil) : sg_sd_bus_message_skip(pointer, signature),
                    "skip \(signature)")
    }
}

extension String {
    /// The string with every NUL replaced by U+FFFD.
    func replacingNulls() -> String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0 == "\u{0}" ? "\u{FFFD}" : $0 }))
    }
}

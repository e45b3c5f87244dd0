// Hears chosen keys anywhere on the desktop through XInput 2.2 raw events, without a grab.
import CX11

/// The shield's trigger keys, heard as `XI_RawKeyPress` on the root for all master devices.
/// Raw events reach every client that selected them, even while the window manager holds a
/// passive grab on the key (openbox's Print binding): the key is never taken from anyone.
/// XInput 2.2 must be announced; with 2.0 no raw events arrive during another client's grab.
public final class RawKeys {
    let display: Display
    /// The XInput extension's major opcode: raw events are GenericEvents of this extension.
    let opcode: Int32
    /// The keysyms to hear, and the keycodes that currently give them (one bit per keycode).
    let keysyms: [KeySym]
    private var keycodes = [Bool](repeating: false, count: 256)

    /// Names of the keysyms, for the log.
    public let names: [String]

    /// Selects raw key presses of `keysyms` (names such as `Print`, checked with `keysym(named:)`).
    public init(display: Display, keys: [String]) throws(X11Error) {
        self.display = display
        var opcode: Int32 = 0, event: Int32 = 0, error: Int32 = 0
        guard XQueryExtension(display.handle, "XInputExtension", &opcode, &event, &error) != 0 else {
            throw X11Error(.unsupported, "the X server has no XInput extension: cannot hear the Print key for --shield")
        }
        var major: Int32 = 2, minor: Int32 = 2
        guard XIQueryVersion(display.handle, &major, &minor) == Success, major > 2 || (major == 2 && minor >= 2) else {
            throw X11Error(.unsupported, "the X server has XInput \(major).\(minor), --shield needs 2.2 (raw key events during grabs)")
        }
        self.opcode = opcode
        var syms: [KeySym] = []
        for name in keys {
            guard let sym = Self.keysym(named: name) else {
                throw X11Error(.unsupported, "unknown keysym '\(name)' (expected an X keysym name such as Print or F12)")
            }
            if !syms.contains(sym) { syms.append(sym) }
        }
        keysyms = syms
        names = keys
        refreshKeycodes()
        // XISetMask is a macro: one bit per event type, in bytes.
        var mask = [UInt8](repeating: 0, count: Int(XI_LASTEVENT) / 8 + 1)
        mask[Int(XI_RawKeyPress) / 8] |= UInt8(1 << (Int(XI_RawKeyPress) % 8))
        let status = mask.withUnsafeMutableBufferPointer { bytes -> Int32 in
            var eventMask = XIEventMask(deviceid: XIAllMasterDevices, mask_len: Int32(bytes.count), mask: bytes.baseAddress)
            return XISelectEvents(display.handle, display.root, &eventMask, 1)
        }
        guard status == Success else { throw X11Error(.unsupported, "cannot select XInput raw key events on the root window") }
        display.sync()
    }

    /// The keysym of an X keysym name (`Print`, `F12`, `s`), or nil for an unknown name.
    public static func keysym(named name: String) -> KeySym? {
        let sym = XStringToKeysym(name)
        return sym == UInt(NoSymbol) ? nil : sym
    }

    /// Reads which keycodes give the keysyms now; again after a MappingNotify (xdotool, for
    /// one, maps a spare keycode for a keysym the keyboard lacks).
    public func refreshKeycodes() {
        var low: Int32 = 0, high: Int32 = 0
        XDisplayKeycodes(display.handle, &low, &high)
        var perCode: Int32 = 0
        guard low >= 0, high < 256, high >= low,
              let map = XGetKeyboardMapping(display.handle, KeyCode(low), high - low + 1, &perCode) else { return }
        defer { XFree(map) }
        for index in keycodes.indices { keycodes[index] = false }
        for code in Int(low)...Int(high) {
            for level in 0..<Int(perCode) where keysyms.contains(map[(code - Int(low)) * Int(perCode) + level]) {
                keycodes[code] = true
            }
        }
    }

    /// Whether `event` is a raw press of one of the keys. Reads the event's cookie, which Xlib
    /// already decoded when it read the event: no request, no round trip.
    /// The server time of `event` when it is a press of one of the keys; nil otherwise.
    func triggerPressTime(_ event: inout XEvent) -> UInt? {
        guard event.type == GenericEvent, event.xcookie.extension == opcode,
              event.xcookie.evtype == XI_RawKeyPress else { return nil }
        guard XGetEventData(display.handle, &event.xcookie) != 0, let data = event.xcookie.data else { return nil }
        defer { XFreeEventData(display.handle, &event.xcookie) }
        let raw = data.assumingMemoryBound(to: XIRawEvent.self).pointee
        guard raw.detail >= 0, raw.detail < 256, keycodes[Int(raw.detail)] else { return nil }
        return UInt(raw.time)
    }
}

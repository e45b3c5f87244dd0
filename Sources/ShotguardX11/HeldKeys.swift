// Waits until no key is held down: a tool started on a key's press may need the keyboard.
import CX11
import Glibc
import ShotguardBase

extension Display {
    /// Whether any key of any keyboard is down now (`XQueryKeymap`: one bit per keycode).
    public func isAnyKeyHeld() -> Bool {
        var keys = [CChar](repeating: 0, count: 32)
        XQueryKeymap(handle, &keys)
        return keys.contains { $0 != 0 }
    }

    /// Waits until no key is held, at most `seconds`; true once none is, false when keys were
    /// still down at the end. A key binding runs its command on the key's press, while the
    /// window manager's passive grab holds the keyboard until the release: a tool that grabs
    /// the keyboard itself (`scrot -s`, `maim -s`, slop) fails then. Raw key releases (XInput
    /// 2.2, heard during other clients' grabs) wake the wait; the keymap decides, so a release
    /// that came before the events were selected is not missed. Without XInput 2.2 the keymap
    /// is asked every 20 ms instead.
    public func waitForKeysReleased(seconds: Double) -> Bool {
        let hearsReleases = selectRawKeyReleases()
        let deadline = monotonicNow() + seconds
        while isAnyKeyHeld() {
            let remaining = deadline - monotonicNow()
            guard remaining > 0, !isLost else { return false }
            // Events Xlib already read from the socket would not wake poll().
            if XPending(handle) == 0 {
                waitForServer(until: monotonicNow() + (hearsReleases ? remaining : min(remaining, 0.02)))
            }
            var event = XEvent()
            while XPending(handle) > 0 { XNextEvent(handle, &event) }
        }
        return true
    }

    /// Selects raw key releases on the root for all master devices; false without XInput 2.2.
    private func selectRawKeyReleases() -> Bool {
        var opcode: Int32 = 0, event: Int32 = 0, error: Int32 = 0
        var major: Int32 = 2, minor: Int32 = 2
        guard XQueryExtension(handle, "XInputExtension", &opcode, &event, &error) != 0,
              XIQueryVersion(handle, &major, &minor) == Success, major > 2 || (major == 2 && minor >= 2) else { return false }
        // XISetMask is a macro: one bit per event type, in bytes.
        var mask = [UInt8](repeating: 0, count: Int(XI_LASTEVENT) / 8 + 1)
        mask[Int(XI_RawKeyRelease) / 8] |= UInt8(1 << (Int(XI_RawKeyRelease) % 8))
        let status = mask.withUnsafeMutableBufferPointer { bytes -> Int32 in
            var eventMask = XIEventMask(deviceid: XIAllMasterDevices, mask_len: Int32(bytes.count), mask: bytes.baseAddress)
            return XISelectEvents(handle, root, &eventMask, 1)
        }
        return status == Success
    }
}

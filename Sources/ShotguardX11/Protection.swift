// _SHOTGUARD_PROTECT: the window property by which a program asks shotguard to cover its window.
import CX11
import ShotguardImaging

extension Display {
    /// The property's name. A window whose client carries it as CARDINAL (format 32) with the
    /// value 1 is covered like a `window` rule without geometry would cover it, frame included,
    /// with no rule naming it; `xprop -id ID -f _SHOTGUARD_PROTECT 32c -set _SHOTGUARD_PROTECT 1`
    /// sets it from a shell.
    public static let protectProperty = "_SHOTGUARD_PROTECT"

    /// The client window a user means by `window`: itself when it has `WM_STATE` or `WM_CLASS`
    /// (or nothing inside it does), else the client inside it, as a frame holds one (what
    /// `xwininfo` and a click on a decoration name). Throws when the window is gone.
    public func clientWindow(of window: Window) throws(X11Error) -> Window {
        guard children(of: window) != nil else {
            throw X11Error(.windowGone, "window \(hexID(UInt(window))) does not exist (it may have closed)")
        }
        return batch { clientWindows(in: [window]).first?.client ?? window }
    }

    /// Sets `_SHOTGUARD_PROTECT` to 1 on `window` (`on`), or deletes it. Throws when the window
    /// is gone. The property stays while the window lives; the agent follows the change at once.
    public func setProtection(_ on: Bool, of window: Window) throws(X11Error) {
        let property = atom(Self.protectProperty)
        var value: UInt = 1
        let (_, error) = trap { () -> Int32 in
            if on {
                return withUnsafeBytes(of: &value) { bytes in
                    XChangeProperty(handle, window, property, XA_CARDINAL, 32, PropModeReplace,
                                    bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
                }
            }
            return XDeleteProperty(handle, window, property)
        }
        if let error { throw X11Error(error) }
    }
}

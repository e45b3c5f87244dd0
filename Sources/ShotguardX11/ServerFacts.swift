// What the X server offers that protection depends on, for `shotguard doctor`: its extensions,
// the selections a compositing manager and a tray own, and who owns them.
import CX11
import ShotguardBase

extension Display {
    /// Whether the server has the extension `name` (`RECORD`, `X-Resource`, `MIT-SHM`, `Composite`).
    public func hasExtension(_ name: String) -> Bool {
        var major: Int32 = 0, event: Int32 = 0, error: Int32 = 0
        return XQueryExtension(handle, name, &major, &event, &error) != 0
    }

    /// Why libXtst or libXRes (RECORD's and X-Resource's client libraries) cannot be loaded; nil
    /// when both are.
    public static var sensingLibrariesFailure: String? { SensingLibraries.failure }

    /// The window owning the selection `name` (`_NET_WM_CM_S0`, `_NET_SYSTEM_TRAY_S0`), or nil.
    public func selectionOwner(_ name: String) -> UInt? {
        let owner = XGetSelectionOwner(handle, atom(name))
        return owner == 0 ? nil : UInt(owner)
    }

    /// The program behind a window, as /proc names it (X-Resource's pid, else `_NET_WM_PID`).
    public func program(ofWindow window: UInt) -> String? {
        let pid = processID(ofWindow: window)
            ?? cardinals("_NET_WM_PID", of: Window(window))?.first.flatMap { Int32(exactly: $0) }
        return pid.flatMap { ProcessDetails.of(pid: $0)?.program }
    }

    /// Whether the root advertises an accessibility bus (`AT_SPI_BUS`, set by at-spi-bus-launcher).
    public var advertisesAccessibilityBus: Bool { bytes("AT_SPI_BUS", of: root, type: Atom(AnyPropertyType)).map { !$0.isEmpty } ?? false }
}

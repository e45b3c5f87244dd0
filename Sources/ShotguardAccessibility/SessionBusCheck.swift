// Whether an accessibility bus can be reached without libdbus starting a session bus that would
// outlive the command (X11 autolaunch runs dbus-launch, which leaves dbus-daemon and the
// AT-SPI bus launcher behind).
import Glibc

/// libatspi looks for its bus in `AT_SPI_BUS_ADDRESS`, then in the X root's `AT_SPI_BUS`
/// property, then asks the session bus; with no `DBUS_SESSION_BUS_ADDRESS` and no
/// `$XDG_RUNTIME_DIR/bus`, libdbus reaches the session bus by X11 autolaunch, which finds the
/// session's bus when one was autolaunched before, and otherwise starts one. That last case
/// is the one to avoid.
public enum SessionBusCheck {
    /// Whether a bus can be found without starting one: the environment names one, the user's
    /// runtime folder holds the session bus's socket, or the display advertises one
    /// (`displayAdvertisesBus`: the root's `AT_SPI_BUS`, or an owner of D-Bus's autolaunch
    /// selection). `environment` is the process's own when nil.
    public static func reachable(displayAdvertisesBus: Bool, environment: [String: String]? = nil) -> Bool {
        func variable(_ name: String) -> String? {
            if let environment { return environment[name] }
            return getenv(name).map { String(cString: $0) }
        }
        if displayAdvertisesBus { return true }
        if let address = variable("AT_SPI_BUS_ADDRESS"), !address.isEmpty { return true }
        if let address = variable("DBUS_SESSION_BUS_ADDRESS"), !address.isEmpty, !address.hasPrefix("autolaunch:") { return true }
        guard let runtime = variable("XDG_RUNTIME_DIR"), runtime.hasPrefix("/") else { return false }
        var status = stat()
        return stat(runtime + "/bus", &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK
    }

    /// Why field rules hit nothing when no bus can be reached without starting one.
    public static let unreachableReason = "no D-Bus session bus in this session (DBUS_SESSION_BUS_ADDRESS is not set, "
        + "and none runs for this display); shotguard starts none, since it would outlive the command: "
        + AccessibilityBus.howToEnable
}

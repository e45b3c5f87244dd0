// What a display tells programs that have no D-Bus address in their environment: an
// accessibility bus on the root, or a session bus D-Bus autolaunched for this user earlier.
import CX11
import Glibc

extension Display {
    /// Whether this display advertises a bus: the root's `AT_SPI_BUS` property (the AT-SPI bus
    /// launcher sets it), or an owner of D-Bus's X11 autolaunch selection
    /// `_DBUS_SESSION_BUS_SELECTION_<user>_<machine id>` (dbus-launch holds it for the session
    /// bus it started). Either lets libatspi find its bus without starting a session bus.
    public func advertisesSessionBus() -> Bool {
        if propertyChunk(atom("AT_SPI_BUS"), of: root, length: 1) != nil { return true }
        guard let selection = autolaunchSelection() else { return false }
        return XGetSelectionOwner(handle, atom(selection)) != 0
    }

    /// `_DBUS_SESSION_BUS_SELECTION_<user>_<machine id>`, as dbus-launch names it; nil when the
    /// user or the machine id cannot be read.
    private func autolaunchSelection() -> String? {
        guard let entry = getpwuid(getuid()), let name = entry.pointee.pw_name else { return nil }
        for path in ["/var/lib/dbus/machine-id", "/etc/machine-id"] {
            guard let file = fopen(path, "r") else { continue }
            defer { fclose(file) }
            var buffer = [CChar](repeating: 0, count: 64)
            guard fgets(&buffer, Int32(buffer.count), file) != nil else { continue }
            let id = String(decoding: buffer.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard id.count == 32, id.allSatisfy(\.isHexDigit) else { continue }
            return "_DBUS_SESSION_BUS_SELECTION_\(String(cString: name))_\(id)"
        }
        return nil
    }
}

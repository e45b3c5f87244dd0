// RandR 1.5 monitors: the named parts of the root window that the screens show.
import CX11
import ShotguardScreen

extension Display {
    /// The active RandR monitors now, in the server's order (`XRRGetMonitors`); empty when the
    /// server lacks RandR 1.5. Asked of the server each time, so monitors plugged in, moved
    /// or made with `xrandr --setmonitor` since the last call are seen.
    public func monitors() -> [MonitorInfo] {
        guard hasMonitors else { return [] }
        var count: Int32 = 0
        let (list, _) = trap { XRRGetMonitors(handle, root, 1, &count) }
        guard let list else { return [] }
        defer { XRRFreeMonitors(list) }
        return UnsafeBufferPointer(start: list, count: Int(max(count, 0))).compactMap { monitor in
            guard let frame = PropertyDecoding.rect(x: Int64(monitor.x), y: Int64(monitor.y),
                                                    width: Int64(monitor.width), height: Int64(monitor.height)) else { return nil }
            return MonitorInfo(name: monitorName(monitor.name), frame: frame, isPrimary: monitor.primary != 0)
        }
    }

    /// The monitor's name atom as text, remembered: names come back on every event.
    private func monitorName(_ atom: Atom) -> String {
        if let known = monitorNames[atom] { return known }
        let (text, _) = trap { XGetAtomName(handle, atom) }
        guard let text else { return "monitor-\(atom)" }
        defer { XFree(text) }
        let name = String(cString: text)
        monitorNames[atom] = name
        return name
    }

    /// Whether the server has RandR at version 1.5 or later, the first with monitors.
    func queryMonitorSupport() -> Bool {
        var eventBase: Int32 = 0, errorBase: Int32 = 0
        guard XRRQueryExtension(handle, &eventBase, &errorBase) != 0 else { return false }
        var major: Int32 = 0, minor: Int32 = 0
        guard XRRQueryVersion(handle, &major, &minor) != 0 else { return false }
        return major > 1 || (major == 1 && minor >= 5)
    }
}

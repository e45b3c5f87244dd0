// Two RandR monitors on a private Xvfb, made as a user's xrandr would make them.
import ShotguardImaging
import ShotguardTestSupport

enum TwoMonitors {
    /// LEFT (primary) and RIGHT, side by side on a 640x240 screen.
    static let left = Rect(x: 0, y: 0, width: 320, height: 240)
    static let right = Rect(x: 320, y: 0, width: 320, height: 240)

    /// Makes LEFT and RIGHT with `xrandr --setmonitor`. The server's own monitor (`screen`)
    /// cannot be deleted: LEFT takes its output, RIGHT none, so exactly these two remain.
    /// A leading `*` makes LEFT the primary monitor.
    static func make(on display: String) throws {
        try setMonitor("*LEFT", left, output: "screen", on: display)
        try setMonitor("RIGHT", right, output: "none", on: display)
    }

    /// `xrandr --setmonitor NAME W/MMWxH/MMH+X+Y OUTPUT` (96 dpi, for the millimetres).
    static func setMonitor(_ name: String, _ rect: Rect, output: String, on display: String) throws {
        let geometry = "\(rect.width)/\(rect.width * 254 / 960)x\(rect.height)/\(rect.height * 254 / 960)+\(rect.x)+\(rect.y)"
        try runTool("xrandr", ["--setmonitor", name, geometry, output], display: display)
    }
}

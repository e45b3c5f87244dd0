// A GTK window (a python script) on a private Xvfb under a D-Bus session of its own, and AT-SPI2 queries against it.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardScene
import ShotguardTestSupport

/// The window runs under `dbus-run-session`, so GTK starts the accessibility bus itself, as on
/// a desktop. Its script writes the session's bus address to its first argument once the
/// window is drawn. Queries run in python of their own (gir1.2-atspi-2.0), independent of
/// shotguard's code.
final class GtkWindowSession {
    let server: VirtualDisplay
    let folder: URL
    /// `DBUS_SESSION_BUS_ADDRESS` of the window's session.
    let busAddress: String
    private var window: ChildProcess?

    static let python = "/usr/bin/python3"

    init(windowScript: String, server: VirtualDisplay) throws {
        for program in ["dbus-run-session", "Xvfb"] where !programExists(program) {
            throw FixtureError("\(program) is not installed (Debian packages 'dbus', 'xvfb')")
        }
        self.server = server
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shotguard-gtk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let ready = folder.appendingPathComponent("ready")
        try Data().write(to: ready)
        let changes = try FileChanges([ready.path])
        let window = try ChildProcess("dbus-run-session", ["--", Self.python, "-c", windowScript, ready.path],
                                      environment: ["DISPLAY": server.name], output: .standardError, newSession: true)
        self.window = window
        var address = ""
        guard changes.wait(seconds: 20, until: {
            address = ((try? String(contentsOf: ready, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            return !address.isEmpty || window.hasExited
        }), !address.isEmpty else {
            window.stop()
            server.stop()
            throw FixtureError("the GTK window did not start (needs python3-gi, gir1.2-gtk-3.0, at-spi2-core)")
        }
        busAddress = address
    }

    func stop() {
        window?.stop()
        window = nil
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs an AT-SPI2 query script that writes `name\tx\ty\twidth\theight` lines to its first
    /// argument; returns the rectangles by name.
    func queryExtents(_ script: String, arguments: [String] = [], failure: String) throws -> [String: Rect] {
        let output = folder.appendingPathComponent("extents")
        let query = try ChildProcess(Self.python, ["-c", script, output.path] + arguments,
                                     environment: ["DISPLAY": server.name, "DBUS_SESSION_BUS_ADDRESS": busAddress],
                                     output: .standardError)
        guard query.waitForExit() == 0 else { throw FixtureError(failure) }
        var extents: [String: Rect] = [:]
        for line in try String(contentsOf: output, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: "\t").map(String.init)
            let values = fields.dropFirst().compactMap { Int($0) }
            guard fields.count == 5, values.count == 4 else { continue }
            extents[fields[0]] = Rect(x: values[0], y: values[1], width: values[2], height: values[3])
        }
        return extents
    }
}

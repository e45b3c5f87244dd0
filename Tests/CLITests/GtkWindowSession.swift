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

    /// An AT-SPI2 query that walks every accessible object of the desktop with `visit` (Python,
    /// indented for the body of `walk(node)`, adding `name: (x, y, width, height)` to `found`),
    /// after `prelude`, until `count` are found (10 s at most), and writes them tab-separated
    /// into argv[1]; it exits 1 when fewer were found.
    static func extentsQuery(prelude: String = "", expecting count: Int, visit: String) -> String {
        """
        import sys, time
        import gi
        gi.require_version("Atspi", "2.0")
        from gi.repository import Atspi
        \(prelude)
        def search():
            found = {}
            desktop = Atspi.get_desktop(0)
            def walk(node):
        \(visit)
                for i in range(node.get_child_count()):
                    walk(node.get_child_at_index(i))
            for i in range(desktop.get_child_count()):
                walk(desktop.get_child_at_index(i))
            return found
        for attempt in range(100):
            found = search()
            if len(found) == \(count):
                break
            time.sleep(0.1)
        with open(sys.argv[1], "w") as f:
            for name, (x, y, w, h) in found.items():
                f.write("%s\\t%d\\t%d\\t%d\\t%d\\n" % (name, x, y, w, h))
        sys.exit(0 if len(found) == \(count) else 1)

        """
    }

    /// A GTK 3 program around `body`, which makes `window` (no blinking caret, so two captures
    /// show the same pixels): it shows the window and writes the session bus address to argv[1]
    /// once the window is drawn.
    static func windowScript(_ body: String) -> String {
        """
        import os, sys
        import gi
        gi.require_version("Gtk", "3.0")
        from gi.repository import Gtk, GLib
        Gtk.Settings.get_default().set_property("gtk-cursor-blink", False)

        """ + body + """

        window.connect("destroy", Gtk.main_quit)
        window.show_all()
        def ready():
            with open(sys.argv[1], "w") as f:
                f.write(os.environ["DBUS_SESSION_BUS_ADDRESS"] + "\\n")
            return False
        GLib.timeout_add(200, ready)
        Gtk.main()

        """
    }

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

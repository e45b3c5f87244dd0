// A private Xvfb with a GTK3 login window (a normal and a password entry) on its own D-Bus session.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import ShotguardScene

/// The window runs under `dbus-run-session`, so GTK starts the accessibility bus itself, as
/// on a desktop. The password entry's extents come from a separate AT-SPI2 query in python
/// (gir1.2-atspi-2.0), independent of shotguard's own code.
final class AccessibleDesktop {
    let server: VirtualDisplay
    let folder: URL
    private var window: ChildProcess?
    /// `DBUS_SESSION_BUS_ADDRESS` of the window's session.
    let busAddress: String
    /// The entries' screen extents as AT-SPI2 reports them, by role ("password text", "text").
    let extents: [String: Rect]

    static let python = "/usr/bin/python3"

    init() throws {
        for program in ["dbus-run-session", "Xvfb"] where !programExists(program) {
            throw FixtureError("\(program) is not installed (Debian packages 'dbus', 'xvfb')")
        }
        server = try startPrivateServer(width: 640, height: 400)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shotguard-fields-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let ready = folder.appendingPathComponent("ready")
        try Data().write(to: ready)
        let changes = try FileChanges([ready.path])
        let window = try ChildProcess("dbus-run-session", ["--", Self.python, "-c", Self.windowScript, ready.path],
                                      environment: ["DISPLAY": server.name], output: .standardError, newSession: true)
        self.window = window
        var address = ""
        guard changes.wait(seconds: 20, until: {
            address = ((try? String(contentsOf: ready, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            return !address.isEmpty || window.hasExited
        }), !address.isEmpty else {
            throw FixtureError("the GTK window did not start (needs python3-gi, gir1.2-gtk-3.0, at-spi2-core)")
        }
        busAddress = address
        extents = try Self.queryExtents(display: server.name, bus: address, folder: folder)
    }

    func stop() {
        window?.stop()
        window = nil
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    var name: String { server.name }

    /// The password entry's extents on screen.
    var passwordRect: Rect { extents["password text"]! }
    /// The normal entry's extents on screen.
    var textRect: Rect { extents["text"]! }

    /// Asks AT-SPI2 (from python, in its own process) for the entries' screen extents, waiting
    /// (bounded, inside the query) until the application has registered both.
    private static func queryExtents(display: String, bus: String, folder: URL) throws -> [String: Rect] {
        let output = folder.appendingPathComponent("extents")
        let query = try ChildProcess(python, ["-c", queryScript, output.path],
                                     environment: ["DISPLAY": display, "DBUS_SESSION_BUS_ADDRESS": bus], output: .standardError)
        guard query.waitForExit() == 0 else { throw FixtureError("the AT-SPI2 query found no entries of the login window") }
        var extents: [String: Rect] = [:]
        for line in try String(contentsOf: output, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 5, let values = Optional(fields[1...].compactMap { Int($0) }), values.count == 4 else { continue }
            extents[fields[0]] = Rect(x: values[0], y: values[1], width: values[2], height: values[3])
        }
        guard extents["password text"] != nil, extents["text"] != nil else {
            throw FixtureError("the AT-SPI2 query did not list both entries: \(extents)")
        }
        return extents
    }

    /// The login window: placed at 40,50 (no window manager), a normal entry with a name and a
    /// password entry with a secret; no blinking caret, so two captures show the same pixels.
    /// Writes the session bus address to argv[1] once the window is drawn.
    static let windowScript = #"""
        import os, sys
        import gi
        gi.require_version("Gtk", "3.0")
        from gi.repository import Gtk, GLib
        Gtk.Settings.get_default().set_property("gtk-cursor-blink", False)
        window = Gtk.Window(title="Login")
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=8)
        user = Gtk.Entry()
        user.set_text("alice")
        password = Gtk.Entry(visibility=False)
        password.set_text("hunter2-secret")
        box.pack_start(user, False, False, 0)
        box.pack_start(password, False, False, 0)
        window.add(box)
        window.move(40, 50)
        window.set_default_size(300, 100)
        window.connect("destroy", Gtk.main_quit)
        window.show_all()
        def ready():
            with open(sys.argv[1], "w") as f:
                f.write(os.environ["DBUS_SESSION_BUS_ADDRESS"] + "\n")
            return False
        GLib.timeout_add(200, ready)
        Gtk.main()
        """#

    /// Lists every text and password text object's screen extents, tab-separated, into argv[1].
    static let queryScript = #"""
        import sys, time
        import gi
        gi.require_version("Atspi", "2.0")
        from gi.repository import Atspi
        def entries():
            found = {}
            desktop = Atspi.get_desktop(0)
            def walk(node):
                role = node.get_role_name()
                if role in ("text", "password text"):
                    e = node.get_extents(Atspi.CoordType.SCREEN)
                    found[role] = (e.x, e.y, e.width, e.height)
                for i in range(node.get_child_count()):
                    walk(node.get_child_at_index(i))
            for i in range(desktop.get_child_count()):
                walk(desktop.get_child_at_index(i))
            return found
        for attempt in range(100):
            found = entries()
            if len(found) == 2:
                break
            time.sleep(0.1)
        with open(sys.argv[1], "w") as f:
            for role, (x, y, w, h) in found.items():
                f.write("%s\t%d\t%d\t%d\t%d\n" % (role, x, y, w, h))
        sys.exit(0 if len(found) == 2 else 1)
        """#
}

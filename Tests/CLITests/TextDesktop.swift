// A private Xvfb with a GTK3 window showing an e-mail address in a label and a card number in an entry.
import Foundation
import ShotguardTestSupport
import ShotguardBase
import ShotguardImaging
import ShotguardScene

/// The window runs under `dbus-run-session`, so GTK starts the accessibility bus itself. The
/// screen boxes of the e-mail address and of the card number's four groups come from a
/// separate AT-SPI2 query in python (gir1.2-atspi-2.0), independent of shotguard's code.
final class TextDesktop {
    let server: VirtualDisplay
    let folder: URL
    private var window: ChildProcess?
    /// `DBUS_SESSION_BUS_ADDRESS` of the window's session.
    let busAddress: String
    /// The screen extents of each text the window shows, as AT-SPI2 reports them: "email"
    /// (the address), "card" (its four groups), "order" (a near-miss).
    let extents: [String: Rect]

    static let email = "alice.smith@example.com"
    static let card = "4111 1111 1111 1111"
    static let order = "#100-2345-6789"

    init() throws {
        for program in ["dbus-run-session", "Xvfb"] where !programExists(program) {
            throw FixtureError("\(program) is not installed (Debian packages 'dbus', 'xvfb')")
        }
        server = try VirtualDisplay(width: 640, height: 400)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shotguard-text-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let ready = folder.appendingPathComponent("ready")
        try Data().write(to: ready)
        let changes = try FileChanges([ready.path])
        let window = try ChildProcess("dbus-run-session", ["--", AccessibleDesktop.python, "-c", Self.windowScript, ready.path],
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

    private static func queryExtents(display: String, bus: String, folder: URL) throws -> [String: Rect] {
        let output = folder.appendingPathComponent("extents")
        let query = try ChildProcess(AccessibleDesktop.python, ["-c", queryScript, output.path, email, card, order],
                                     environment: ["DISPLAY": display, "DBUS_SESSION_BUS_ADDRESS": bus], output: .standardError)
        guard query.waitForExit() == 0 else { throw FixtureError("the AT-SPI2 query did not find the window's texts") }
        var extents: [String: Rect] = [:]
        for line in try String(contentsOf: output, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: "\t").map(String.init)
            let values = fields.dropFirst().compactMap { Int($0) }
            guard fields.count == 5, values.count == 4 else { continue }
            extents[fields[0]] = Rect(x: values[0], y: values[1], width: values[2], height: values[3])
        }
        guard extents.count == 3 else { throw FixtureError("the AT-SPI2 query found only \(extents)") }
        return extents
    }

    /// A window at 40,50 (no window manager): a label with an e-mail address and an order
    /// number, an entry with a card number; no blinking caret. Writes the bus address to
    /// argv[1] once drawn.
    static let windowScript = #"""
        import os, sys
        import gi
        gi.require_version("Gtk", "3.0")
        from gi.repository import Gtk, GLib
        Gtk.Settings.get_default().set_property("gtk-cursor-blink", False)
        window = Gtk.Window(title="Customer")
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=12)
        label = Gtk.Label(label="Contact: alice.smith@example.com (order #100-2345-6789)")
        entry = Gtk.Entry()
        entry.set_text("4111 1111 1111 1111")
        entry.set_width_chars(30)
        box.pack_start(label, False, False, 0)
        box.pack_start(entry, False, False, 0)
        box.set_border_width(16)
        window.add(box)
        window.move(40, 50)
        window.connect("destroy", Gtk.main_quit)
        window.show_all()
        def ready():
            with open(sys.argv[1], "w") as f:
                f.write(os.environ["DBUS_SESSION_BUS_ADDRESS"] + "\n")
            return False
        GLib.timeout_add(200, ready)
        Gtk.main()
        """#

    /// Finds each of argv[2:] (email, card, order) in the text of the window's objects and
    /// writes its range extents on screen, tab-separated, into argv[1].
    static let queryScript = #"""
        import sys, time
        import gi
        gi.require_version("Atspi", "2.0")
        from gi.repository import Atspi
        names = ["email", "card", "order"]
        wanted = dict(zip(names, sys.argv[2:5]))
        def search():
            found = {}
            desktop = Atspi.get_desktop(0)
            def walk(node):
                text = node.get_text_iface()
                if text is not None:
                    content = text.get_text(0, text.get_character_count())
                    for name, value in wanted.items():
                        start = content.find(value)
                        if start >= 0:
                            e = text.get_range_extents(start, start + len(value), Atspi.CoordType.SCREEN)
                            if e.width > 0:
                                found[name] = (e.x, e.y, e.width, e.height)
                for i in range(node.get_child_count()):
                    walk(node.get_child_at_index(i))
            for i in range(desktop.get_child_count()):
                walk(desktop.get_child_at_index(i))
            return found
        for attempt in range(100):
            found = search()
            if len(found) == 3:
                break
            time.sleep(0.1)
        with open(sys.argv[1], "w") as f:
            for name, (x, y, w, h) in found.items():
                f.write("%s\t%d\t%d\t%d\t%d\n" % (name, x, y, w, h))
        sys.exit(0 if len(found) == 3 else 1)
        """#
}

// A private Xvfb with a GTK3 login window (a normal and a password entry) on its own D-Bus session.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import ShotguardScene

/// The password entry's extents come from a separate AT-SPI2 query (see `GtkWindowSession`),
/// which waits (bounded) until the application has registered both entries.
final class AccessibleDesktop {
    private let session: GtkWindowSession
    /// The entries' screen extents as AT-SPI2 reports them, by role ("password text", "text").
    let extents: [String: Rect]

    static let python = GtkWindowSession.python

    init() throws {
        session = try GtkWindowSession(windowScript: Self.windowScript, server: try startPrivateServer(width: 640, height: 400))
        do {
            extents = try session.queryExtents(Self.queryScript, failure: "the AT-SPI2 query found no entries of the login window")
            guard extents["password text"] != nil, extents["text"] != nil else {
                throw FixtureError("the AT-SPI2 query did not list both entries: \(extents)")
            }
        } catch {
            session.stop()
            throw error
        }
    }

    func stop() { session.stop() }

    var name: String { session.server.name }
    var server: VirtualDisplay { session.server }
    /// `DBUS_SESSION_BUS_ADDRESS` of the window's session.
    var busAddress: String { session.busAddress }

    /// The password entry's extents on screen.
    var passwordRect: Rect { extents["password text"]! }
    /// The normal entry's extents on screen.
    var textRect: Rect { extents["text"]! }

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

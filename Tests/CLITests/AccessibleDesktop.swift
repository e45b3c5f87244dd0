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
    static let windowScript = GtkWindowSession.windowScript(#"""
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
        """#)

    /// Lists every text and password text object's screen extents, tab-separated, into argv[1].
    static let queryScript = GtkWindowSession.extentsQuery(expecting: 2, visit: """
                role = node.get_role_name()
                if role in ("text", "password text"):
                    e = node.get_extents(Atspi.CoordType.SCREEN)
                    found[role] = (e.x, e.y, e.width, e.height)
        """)
}

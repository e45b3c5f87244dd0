// A private Xvfb with a GTK3 window showing an e-mail address in a label and a card number in an entry.
import Foundation
import ShotguardTestSupport
import ShotguardBase
import ShotguardImaging
import ShotguardScene

/// The screen boxes of the e-mail address and of the card number's four groups come from a
/// separate AT-SPI2 query (see `GtkWindowSession`).
final class TextDesktop {
    private let session: GtkWindowSession
    /// The screen extents of each text the window shows, as AT-SPI2 reports them: "email"
    /// (the address), "card" (its four groups), "order" (a near-miss).
    let extents: [String: Rect]

    static let email = "alice.smith@example.com"
    static let card = "4111 1111 1111 1111"
    static let order = "#100-2345-6789"

    init() throws {
        session = try GtkWindowSession(windowScript: Self.windowScript, server: try VirtualDisplay(width: 640, height: 400))
        do {
            extents = try session.queryExtents(Self.queryScript, arguments: [Self.email, Self.card, Self.order],
                                               failure: "the AT-SPI2 query did not find the window's texts")
            guard extents.count == 3 else { throw FixtureError("the AT-SPI2 query found only \(extents)") }
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

    /// A window at 40,50 (no window manager): a label with an e-mail address and an order
    /// number, an entry with a card number; no blinking caret. Writes the bus address to
    /// argv[1] once drawn.
    static let windowScript = GtkWindowSession.windowScript(#"""
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
        """#)

    /// Finds each of argv[2:] (email, card, order) in the text of the window's objects and
    /// writes its range extents on screen, tab-separated, into argv[1].
    static let queryScript = GtkWindowSession.extentsQuery(prelude: """
        names = ["email", "card", "order"]
        wanted = dict(zip(names, sys.argv[2:5]))
        """, expecting: 3, visit: """
                text = node.get_text_iface()
                if text is not None:
                    content = text.get_text(0, text.get_character_count())
                    for name, value in wanted.items():
                        start = content.find(value)
                        if start >= 0:
                            e = text.get_range_extents(start, start + len(value), Atspi.CoordType.SCREEN)
                            if e.width > 0:
                                found[name] = (e.x, e.y, e.width, e.height)
        """)
}

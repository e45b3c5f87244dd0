// The desktop the X11 CLI suites share: four windows (two past the screen's edges) and rules for them.
import ShotguardImaging
import ShotguardTestSupport

enum X11Scene {
    static let width = 320
    static let height = 240

    /// Bottom first. Chat reaches past the right and bottom edges, Notes past the left and top,
    /// Cover lies over the Vault's right side. Colours use channels 0x10 and 0xE0-0xF0: apart
    /// from the wallpaper (0x40-0xBF) and from the fills (0x00, 0xFF).
    static let windows = [
        DesktopWindow(frame: Rect(x: 40, y: 30, width: 100, height: 80), colours: [0xE01010, 0x10E010, 0x1010E0, 0xE0E010],
                      className: "Vault", instance: "vault", title: "Vault – Personal"),
        DesktopWindow(frame: Rect(x: 250, y: 150, width: 100, height: 120), colours: [0xF01818, 0x18F018, 0x1818F0, 0xF0F018],
                      className: "Chat", instance: "chat", title: "Team chat"),
        DesktopWindow(frame: Rect(x: -20, y: -10, width: 70, height: 50), colours: [0xE0E0E0, 0x101010, 0xE010E0, 0x10E0E0],
                      className: "Notes", instance: "notes", title: "Notes"),
        DesktopWindow(frame: Rect(x: 120, y: 60, width: 60, height: 50), colours: [0x10E0F0, 0xF010E0, 0xE0F010, 0x18E018],
                      className: "Cover", instance: "cover", title: "Over the vault"),
    ]

    static func desktop() -> X11Desktop { X11Desktop(width: width, height: height, windows: windows) }

    /// One rule per line from line 2; line 5 matches no window.
    static let rules = """
        # rules for the X11 CLI tests
        window class=Vault                                # the whole vault
        window class=Chat 50%x50%-0-0 fill=#00ff00        # its bottom-right quarter, past the screen
        window class=Notes 30x20+0+0 fill=#ff0000         # its top-left, past the screen
        window class=Nobody
        screen 40x10-0+0 fill=#0000ff
        window instance=cover title~"(?i)^over" 10x10-0-0 fill=#ffff00

        """

    /// What each rule of `rules` covers on screen, worked out by hand, clipped to the screen.
    /// The Vault shows only where Notes (its 10x10 corner at 40,30) and Cover (from 120,60)
    /// leave it visible: three pieces, the bands above and below Notes' corner, then Cover's.
    static let covers: [(line: Int, rect: Rect, rgb: UInt32)] = [
        (2, Rect(x: 50, y: 30, width: 90, height: 10), 0x000000),
        (2, Rect(x: 40, y: 40, width: 100, height: 20), 0x000000),
        (2, Rect(x: 40, y: 60, width: 80, height: 50), 0x000000),
        (3, Rect(x: 300, y: 210, width: 20, height: 30), 0x00FF00),  // 50x60+300+210 before clipping
        (4, Rect(x: 0, y: 0, width: 10, height: 10), 0xFF0000),  // 30x20-20-10 before clipping
        (6, Rect(x: 280, y: 0, width: 40, height: 10), 0x0000FF),
        (7, Rect(x: 170, y: 100, width: 10, height: 10), 0xFFFF00),
    ]

    /// `screen` (or the part of it at `area`) with every cover painted in, in image coordinates.
    static func redacted(_ screen: PixelBuffer, area: Rect? = nil) -> PixelBuffer {
        let image = area.map { screen.cropped(to: $0) } ?? screen
        return Pixels.painted(image, covers(inImageAt: area ?? screen.bounds))
    }

    /// The covers that fall in `area` of the screen, moved to the coordinates of an image of it.
    static func covers(inImageAt area: Rect) -> [(Rect, UInt32)] {
        Pixels.covers(covers.map { ($0.rect, $0.rgb) }, inImageAt: area)
    }
}

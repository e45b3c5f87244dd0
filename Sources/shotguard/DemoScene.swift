// The demo's desktop: a wallpaper with a top bar and clock, a card vault, a chat and notes.
import ShotguardScene
import ShotguardImaging
import ShotguardX11

/// What the demo puts on its virtual screen, and the rules that hide the sensitive parts.
enum DemoScene {
    static let width = 1280
    static let height = 800

    static let regions = """
        # shotguard demo rules: see shotguard-regions(5)
        window class=Vault 100%x92+0+64                       # card number, expiry and CVV
        window class=Vault title~"(?i)personal" 100%x34-0-0 fill=#303030
        window class=Chat 32%x100%+0+0 fill=pixelate:12       # the contact list
        screen 140x28-0+0                                     # the clock in the top bar

        """

    static func wallpaper() -> PixelBuffer {
        var image = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            let shade = UInt32(40 + y * 60 / height)
            for x in 0..<width { image[x, y] = 0xFF00_0000 | shade << 16 | (shade + 30) << 8 | (shade + 70 + UInt32(x % 64) / 8) }
        }
        image.fillRect(Rect(x: 0, y: 0, width: width, height: 28), colour: 0x202328)
        image.draw("ACTIVITIES   VAULT   CHAT   NOTES", x: 10, y: 7, scale: 2, colour: 0xE0E0E0)
        image.draw("SUN 29 NOV 14:07", x: width - 134, y: 9, scale: 1, colour: 0xFFFFFF)
        return image
    }

    static func vault() -> PixelBuffer {
        var image = PixelBuffer(width: 460, height: 250, fill: 0xFFFF_FFFF)
        image.fillRect(Rect(x: 0, y: 0, width: 460, height: 40), colour: 0x2E5E4E)
        image.draw("VAULT - PERSONAL", x: 14, y: 12, scale: 2, colour: 0xFFFFFF)
        image.draw("CARD NUMBER", x: 14, y: 52, scale: 2, colour: 0x606060)
        image.draw("4111 1111 1111 1111", x: 14, y: 72, scale: 3, colour: 0x101010)
        image.draw("EXPIRES 12/29    CVV 737", x: 14, y: 130, scale: 2, colour: 0x303030)
        image.draw("BANK: EXAMPLE SAVINGS", x: 14, y: 160, scale: 2, colour: 0x303030)
        image.draw("PIN HINT: FIRST DOG", x: 14, y: 224, scale: 2, colour: 0x904040)
        return image
    }

    static func chat() -> PixelBuffer {
        var image = PixelBuffer(width: 520, height: 330, fill: 0xFFF7_F7F9)
        image.fillRect(Rect(x: 0, y: 0, width: 166, height: 330), colour: 0x3B2F4A)
        for (index, name) in ["ALICE K.", "BOB M.", "CAROL T.", "DAVE R.", "ERIN S."].enumerated() {
            image.fillRect(Rect(x: 10, y: 14 + index * 40, width: 22, height: 22), colour: 0x70A0D0 + UInt32(index) * 0x101000)
            image.draw(name, x: 40, y: 18 + index * 40, scale: 2, colour: 0xF0F0F0)
        }
        let messages = ["ALICE: STANDUP AT 10?", "YOU: YES, AFTER THE BUILD", "ALICE: THE BUG IS IN THE PNG WRITER",
                        "YOU: ON IT", "BOB: LUNCH?"]
        for (index, text) in messages.enumerated() {
            image.draw(text, x: 180, y: 20 + index * 34, scale: 2, colour: 0x202020)
        }
        return image
    }

    static func notes() -> PixelBuffer {
        var image = PixelBuffer(width: 400, height: 200, fill: 0xFFFF_F8D0)
        image.draw("NOTES", x: 14, y: 14, scale: 3, colour: 0x604000)
        image.draw("- SHIP THE DEMO", x: 14, y: 60, scale: 2, colour: 0x403010)
        image.draw("- MEASURE THE CAPTURE", x: 14, y: 90, scale: 2, colour: 0x403010)
        image.draw("- NOTHING HERE IS SECRET", x: 14, y: 120, scale: 2, colour: 0x403010)
        return image
    }

    /// Paints the wallpaper and opens the three windows; returns them (they close when released).
    static func show(on display: Display) throws(X11Error) -> [PaintedWindow] {
        try display.setRootBackground(wallpaper())
        return [
            try PaintedWindow(display: display, frame: Rect(x: 760, y: 470, width: 400, height: 200), content: notes(),
                              instance: "notes", className: "Notes", title: "Notes"),
            try PaintedWindow(display: display, frame: Rect(x: 80, y: 90, width: 460, height: 250), content: vault(),
                              instance: "vault", className: "Vault", title: "Vault - Personal"),
            try PaintedWindow(display: display, frame: Rect(x: 600, y: 110, width: 520, height: 330), content: chat(),
                              instance: "chat", className: "Chat", title: "Team chat"),
        ]
    }
}

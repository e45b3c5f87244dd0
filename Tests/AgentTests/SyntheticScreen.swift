// Screen-like images for the placement tests: a wallpaper, windows with title bars and text.
import ShotguardImaging

enum SyntheticScreen {
    /// A desktop of `width`×`height`: a gradient wallpaper and a few windows of text, each
    /// line different, so that every part of it occurs once.
    static func desktop(width: Int = 640, height: Int = 400) -> PixelBuffer {
        var screen = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                screen[x, y] = 0xFF00_0000 | UInt32(40 + x * 60 / width) << 16 | UInt32(70 + y * 80 / height) << 8 | 0x90
            }
        }
        let windows = [
            Rect(x: width / 20, y: height / 16, width: width * 2 / 5, height: height / 2),
            Rect(x: width / 2, y: height / 8, width: width * 2 / 5, height: height * 3 / 5),
            Rect(x: width / 8, y: height * 5 / 8, width: width / 2, height: height / 3),
        ]
        for (number, frame) in windows.enumerated() {
            drawWindow(&screen, frame: frame, title: "WINDOW \(number + 1)", seed: number)
        }
        return screen
    }

    /// A window: a title bar, a white body and lines of text in a few colours.
    static func drawWindow(_ screen: inout PixelBuffer, frame: Rect, title: String, seed: Int) {
        let colours: [UInt32] = [0x202020, 0xC01010, 0x1040C0, 0x108030, 0x606060]
        screen.fillRect(frame, colour: 0xF4F4F4)
        screen.fillRect(Rect(x: frame.x, y: frame.y, width: frame.width, height: 18), colour: 0x3050A0)
        screen.draw(title, x: frame.x + 6, y: frame.y + 5, colour: 0xFFFFFF)
        screen.outline(frame, thickness: 1, colour: 0x202840)
        var line = 0
        for y in stride(from: frame.y + 26, to: frame.maxY - 10, by: 11) {
            let text = "LINE \(line) OF \(title) \(seed * 7919 + line * 104729)"
            screen.draw(text, x: frame.x + 8, y: y, colour: colours[(line + seed) % colours.count])
            line += 1
        }
    }

    /// A pop-up: a bordered grey box with a line of text.
    static func drawPopup(_ screen: inout PixelBuffer, at rect: Rect, text: String = "PASSWORD 1234") {
        screen.fillRect(rect, colour: 0xE8E0C0)
        screen.outline(rect, thickness: 2, colour: 0x404040)
        screen.draw(text, x: rect.x + 8, y: rect.y + rect.height / 2 - 3, colour: 0x000000)
    }

    /// An arrow cursor, 12×19 pixels, black with a white edge, its tip at (x, y).
    static func drawCursor(_ screen: inout PixelBuffer, x: Int, y: Int) {
        for row in 0..<19 {
            let span = min(row, 11)
            for column in 0...span where x + column < screen.width && y + row < screen.height {
                let edge = column == 0 || column == span || row == 18
                screen[x + column, y + row] = edge ? 0xFFFF_FFFF : 0xFF00_0000
            }
        }
    }

    /// The image as a JPEG at `quality` with 4:2:0 chroma (scrot's kind of file) would decode.
    static func throughJPEG(_ image: PixelBuffer, quality: Int = 75) throws -> DecodedImage {
        let bytes = try JPEGEncoder.encode(image, options: JPEGOptions(quality: quality, fullChroma: false), destination: "test.jpg")
        return try ImageCodec.decode(bytes, source: "test.jpg")
    }

    /// The image as a lossy WebP at `quality` would decode.
    static func throughWebP(_ image: PixelBuffer, quality: Int = 75) throws -> DecodedImage {
        let bytes = try WebPCodec.encode(image, options: WebPOptions(quality: quality), destination: "test.webp")
        return try ImageCodec.decode(bytes, source: "test.webp")
    }
}

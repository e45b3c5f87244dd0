// A 5x7 bitmap font for labels in previews and the demo's sample windows: no font files needed.

enum BitmapFont {
    static let width = 5
    static let height = 7

    /// Rows of each glyph, top first; bit 4 is the leftmost column.
    private static let glyphs: [Character: [UInt8]] = [
        "0": [14, 17, 19, 21, 25, 17, 14], "1": [4, 12, 4, 4, 4, 4, 14], "2": [14, 17, 1, 2, 4, 8, 31],
        "3": [31, 2, 4, 2, 1, 17, 14], "4": [2, 6, 10, 18, 31, 2, 2], "5": [31, 16, 30, 1, 1, 17, 14],
        "6": [6, 8, 16, 30, 17, 17, 14], "7": [31, 1, 2, 4, 8, 8, 8], "8": [14, 17, 17, 14, 17, 17, 14],
        "9": [14, 17, 17, 15, 1, 2, 12],
        "A": [14, 17, 17, 31, 17, 17, 17], "B": [30, 17, 17, 30, 17, 17, 30], "C": [14, 17, 16, 16, 16, 17, 14],
        "D": [28, 18, 17, 17, 17, 18, 28], "E": [31, 16, 16, 30, 16, 16, 31], "F": [31, 16, 16, 30, 16, 16, 16],
        "G": [14, 17, 16, 23, 17, 17, 15], "H": [17, 17, 17, 31, 17, 17, 17], "I": [14, 4, 4, 4, 4, 4, 14],
        "J": [7, 2, 2, 2, 2, 18, 12], "K": [17, 18, 20, 24, 20, 18, 17], "L": [16, 16, 16, 16, 16, 16, 31],
        "M": [17, 27, 21, 21, 17, 17, 17], "N": [17, 17, 25, 21, 19, 17, 17], "O": [14, 17, 17, 17, 17, 17, 14],
        "P": [30, 17, 17, 30, 16, 16, 16], "Q": [14, 17, 17, 17, 21, 18, 13], "R": [30, 17, 17, 30, 20, 18, 17],
        "S": [15, 16, 16, 14, 1, 1, 30], "T": [31, 4, 4, 4, 4, 4, 4], "U": [17, 17, 17, 17, 17, 17, 14],
        "V": [17, 17, 17, 17, 17, 10, 4], "W": [17, 17, 17, 21, 21, 21, 10], "X": [17, 17, 10, 4, 10, 17, 17],
        "Y": [17, 17, 10, 4, 4, 4, 4], "Z": [31, 1, 2, 4, 8, 16, 31],
        " ": [0, 0, 0, 0, 0, 0, 0], "-": [0, 0, 0, 31, 0, 0, 0], ":": [0, 12, 12, 0, 12, 12, 0],
        ".": [0, 0, 0, 0, 0, 12, 12], "/": [1, 1, 2, 4, 8, 16, 16], "#": [10, 10, 31, 10, 31, 10, 10],
        "*": [0, 4, 21, 14, 21, 4, 0], "@": [14, 17, 23, 21, 23, 16, 15], "?": [14, 17, 1, 2, 4, 0, 4],
        "!": [4, 4, 4, 4, 4, 0, 4], ",": [0, 0, 0, 0, 12, 4, 8], "'": [4, 4, 8, 0, 0, 0, 0],
        "(": [2, 4, 8, 8, 8, 4, 2], ")": [8, 4, 2, 2, 2, 4, 8], "$": [4, 15, 20, 14, 5, 30, 4],
    ]

    /// The glyph of `character`'s capital; "?" for anything without one. Some capitals are
    /// two characters ("ß" gives "SS"): those have no glyph of their own either.
    static func rows(for character: Character) -> [UInt8] {
        let upper = character.uppercased()
        return (upper.count == 1 ? glyphs[Character(upper)] : nil) ?? glyphs["?"]!
    }
}

extension PixelBuffer {
    /// The size `text` takes at `scale` (one pixel of gap between glyphs).
    public static func textSize(_ text: String, scale: Int) -> (width: Int, height: Int) {
        (max(0, text.count * (BitmapFont.width + 1) - 1) * scale, BitmapFont.height * scale)
    }

    /// Draws `text` with its top-left corner at (x, y), clipped to the image.
    public mutating func draw(_ text: String, x: Int, y: Int, scale: Int = 1, colour: UInt32) {
        var left = x
        for character in text {
            for (row, bits) in BitmapFont.rows(for: character).enumerated() {
                for column in 0..<BitmapFont.width where bits & (16 >> column) != 0 {
                    fillRect(Rect(x: left + column * scale, y: y + row * scale, width: scale, height: scale), colour: colour)
                }
            }
            left += (BitmapFont.width + 1) * scale
        }
    }

    /// Fills `rect` (clipped) with an opaque 0xRRGGBB colour.
    public mutating func fillRect(_ rect: Rect, colour: UInt32) {
        redact(rect, with: .solid(colour))
    }

    /// Draws the outline of `rect`, `thickness` pixels wide, inside its edges.
    public mutating func outline(_ rect: Rect, thickness: Int, colour: UInt32) {
        let t = min(thickness, rect.width, rect.height)
        fillRect(Rect(x: rect.x, y: rect.y, width: rect.width, height: t), colour: colour)
        fillRect(Rect(x: rect.x, y: rect.maxY - t, width: rect.width, height: t), colour: colour)
        fillRect(Rect(x: rect.x, y: rect.y, width: t, height: rect.height), colour: colour)
        fillRect(Rect(x: rect.maxX - t, y: rect.y, width: t, height: rect.height), colour: colour)
    }
}

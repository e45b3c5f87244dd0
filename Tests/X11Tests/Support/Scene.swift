// Known screen content: a patterned wallpaper, windows of known colours, and the screen they make.
import ShotguardBase
import ShotguardImaging
import ShotguardX11
import ShotguardScene
import XCTest

enum Scene {
    /// A wallpaper whose neighbouring pixels all differ, so a capture one pixel off shows. Channels
    /// stay in 0x40...0xBF, apart from every colour a window or fill below uses.
    static func wallpaper(width: Int, height: Int) -> PixelBuffer {
        var image = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let red = 0x40 + UInt32((x * 5 + y) % 0x80)
                let green = 0x40 + UInt32((y * 3 + x / 4) % 0x80)
                let blue = 0x40 + UInt32(((x ^ y) * 11) % 0x80)
                image[x, y] = 0xFF00_0000 | red << 16 | green << 8 | blue
            }
        }
        return image
    }

    /// A window's content: four quadrants of `colours` (top-left, top-right, bottom-left,
    /// bottom-right), so a flipped or shifted capture shows.
    static func quadrants(width: Int, height: Int, _ colours: [UInt32]) -> PixelBuffer {
        var image = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                image[x, y] = 0xFF00_0000 | colours[(y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)]
            }
        }
        return image
    }

    /// Sets the root to the wallpaper and returns it.
    @discardableResult
    static func paintWallpaper(on display: Display) throws -> PixelBuffer {
        let image = wallpaper(width: display.width, height: display.height)
        try display.setRootBackground(image)
        return image
    }

    /// Three windows on a 320x240 screen: one plain, one over it, one past the bottom-right corner.
    static let standard: [(frame: Rect, colours: [UInt32])] = [
        (Rect(x: 20, y: 30, width: 80, height: 60), [0xE01010, 0x10E010, 0x1010E0, 0xE0E010]),
        (Rect(x: 60, y: 70, width: 51, height: 41), [0xF0F0F0, 0x101010, 0xE010E0, 0x10E0E0]),
        (Rect(x: 260, y: 200, width: 100, height: 50), [0xF01818, 0x18F018, 0x1818F0, 0xF0F018]),
    ]

    /// Paints the wallpaper and opens `layout`'s windows in order; returns them (keep them
    /// alive) and the screen they should make.
    static func show(_ layout: [(frame: Rect, colours: [UInt32])], on display: Display) throws
        -> (windows: [PaintedWindow], screen: PixelBuffer) {
        let wallpaper = try paintWallpaper(on: display)
        var windows: [PaintedWindow] = []
        var drawn: [(frame: Rect, content: PixelBuffer)] = []
        for (index, item) in layout.enumerated() {
            let content = quadrants(width: item.frame.width, height: item.frame.height, item.colours)
            windows.append(try PaintedWindow(display: display, frame: item.frame, content: content,
                                             instance: "w\(index)", className: "W\(index)", title: "window \(index)"))
            drawn.append((item.frame, content))
        }
        return (windows, composed(wallpaper, drawn))
    }

    /// `screen` with each window's content drawn at its frame, in order (bottom first), clipped.
    static func composed(_ screen: PixelBuffer, _ windows: [(frame: Rect, content: PixelBuffer)]) -> PixelBuffer {
        var out = screen
        for (frame, content) in windows {
            for y in max(0, frame.y)..<min(out.height, frame.maxY) {
                for x in max(0, frame.x)..<min(out.width, frame.maxX) {
                    out[x, y] = content[x - frame.x, y - frame.y]
                }
            }
        }
        return out
    }
}

/// Asserts that `actual` has `expected`'s size and the same 0xRRGGBB in every pixel (the pad byte
/// of a depth-24 capture is not a colour). Reports the first few pixels that differ.
func assertSameRGB(_ actual: PixelBuffer, _ expected: PixelBuffer, _ message: String = "",
                   file: StaticString = #filePath, line: UInt = #line) {
    guard actual.width == expected.width, actual.height == expected.height else {
        XCTFail("\(message) size \(actual.width)x\(actual.height), expected \(expected.width)x\(expected.height)",
                file: file, line: line)
        return
    }
    var wrong: [String] = []
    var count = 0
    for y in 0..<actual.height {
        for x in 0..<actual.width where actual.rgb(x: x, y: y) != expected.rgb(x: x, y: y) {
            count += 1
            if wrong.count < 5 {
                wrong.append("(\(x),\(y)) is \(rgbHex(actual.rgb(x: x, y: y))), expected \(rgbHex(expected.rgb(x: x, y: y)))")
            }
        }
    }
    XCTAssertEqual(count, 0, "\(message) pixels differ: " + wrong.joined(separator: "; "), file: file, line: line)
}

func rgbHex(_ value: UInt32) -> String {
    let text = String(value & 0xFF_FFFF, radix: 16)
    return "#" + String(repeating: "0", count: 6 - text.count) + text
}

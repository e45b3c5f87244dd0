// The standard screen of the capture tests: three windows of known colours, one past the corner.
import ShotguardImaging
import ShotguardTestSupport

enum Scene {
    /// Three windows on a 320x240 screen: one plain, one over it, one past the bottom-right
    /// corner. Colours use channels 0x10 and 0xE0-0xF0, apart from the wallpaper's 0x40-0xBF.
    static let standard = [
        window(0, Rect(x: 20, y: 30, width: 80, height: 60), [0xE01010, 0x10E010, 0x1010E0, 0xE0E010]),
        window(1, Rect(x: 60, y: 70, width: 51, height: 41), [0xF0F0F0, 0x101010, 0xE010E0, 0x10E0E0]),
        window(2, Rect(x: 260, y: 200, width: 100, height: 50), [0xF01818, 0x18F018, 0x1818F0, 0xF0F018]),
    ]

    private static func window(_ index: Int, _ frame: Rect, _ colours: [UInt32]) -> DesktopWindow {
        DesktopWindow(frame: frame, colours: colours, className: "W\(index)", instance: "w\(index)", title: "window \(index)")
    }
}

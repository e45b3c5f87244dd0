// The image guard leaves where a screenshot could not be redacted: it says what happened and shows nothing of the screen.
import ShotguardImaging

enum Placeholder {
    /// A grey image of `width`×`height` (640×400 when the original's size is unknown) that says
    /// the screenshot was set aside and how to get it back. Nothing of the screen is in it.
    static func image(width: Int?, height: Int?, quarantineID: String?) -> PixelBuffer {
        let width = min(max(width ?? 640, 16), 16_384), height = min(max(height ?? 400, 16), 16_384)
        var image = PixelBuffer(width: width, height: height)
        image.fillRect(Rect(x: 0, y: 0, width: width, height: height), colour: 0x3C3F41)
        var lines = ["SHOTGUARD SET THIS SCREENSHOT ASIDE", "IT COULD NOT BE REDACTED"]
        if let quarantineID {
            lines.append("TO GET IT BACK:")
            lines.append("SHOTGUARD QUARANTINE RESTORE \(quarantineID)")
        } else {
            lines.append("NOTHING ELSE WAS KEPT")
        }
        let longest = lines.map(\.count).max() ?? 1
        // The largest scale at which the longest line fits with a margin; 1 at the least.
        let scale = max(1, min((width - 16) / max(1, longest * 6), (height - 16) / max(1, lines.count * 10)))
        let lineHeight = 10 * scale
        var y = max(0, (height - lines.count * lineHeight) / 2)
        for line in lines {
            let size = PixelBuffer.textSize(line, scale: scale)
            image.draw(line, x: max(0, (width - size.width) / 2), y: y, scale: scale, colour: 0xF0F0F0)
            y += lineHeight
        }
        image.hasAlpha = false
        return image
    }
}

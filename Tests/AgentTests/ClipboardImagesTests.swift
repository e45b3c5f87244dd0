// The redacted clipboard image under each target: PNG always, the others when they can be made.
@testable import ShotguardAgent
import ShotguardImaging
import XCTest

final class ClipboardImagesTests: XCTestCase {
    func testPNGFirstThenEachOtherTargetOfferedOnce() throws {
        let image = PixelBuffer(width: 8, height: 8)
        let (images, skipped) = try ClipboardImages.encodeAll(image, offered: ["image/jpeg", "image/png", "image/webp", "image/jpeg"],
                                                              original: nil)
        XCTAssertEqual(images.map(\.target), ["image/png", "image/jpeg", "image/webp"])
        XCTAssertEqual(skipped, [])
        XCTAssertEqual(ImageFormat.sniff(images[1].bytes), .jpeg)
        XCTAssertEqual(ImageFormat.sniff(images[2].bytes), .webp)
    }

    /// WebP cannot hold an image wider than 16383 pixels: that target is left out (a paste
    /// asking for it is refused), PNG and JPEG are still served.
    func testATargetThatCannotBeMadeIsLeftOutNotTheWholeImage() throws {
        let wide = PixelBuffer(width: 16_400, height: 2)
        let (images, skipped) = try ClipboardImages.encodeAll(wide, offered: ["image/webp", "image/jpeg"], original: nil)
        XCTAssertEqual(images.map(\.target), ["image/png", "image/jpeg"])
        XCTAssertEqual(skipped.count, 1)
        XCTAssertTrue(skipped.first?.hasPrefix("image/webp (") ?? false, "\(skipped)")
    }
}

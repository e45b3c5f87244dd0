// Which file names the file watcher takes for images: the image formats' extensions, as the imaging layer lists them.
@testable import ShotguardAgent
import ShotguardImaging
import XCTest

final class ImageNameTests: XCTestCase {
    func testEveryExtensionOfEveryFormatIsAnImageName() {
        for format in ImageFormat.allCases {
            for name in format.names {
                XCTAssertTrue(ScreenshotFileClassifier.looksLikeImage("shot." + name), name)
                XCTAssertTrue(ScreenshotFileClassifier.looksLikeImage("Shot." + name.uppercased()), name)
            }
        }
    }

    func testHiddenTemporaryAndOtherNamesAreNot() {
        for name in [".shot.png", "shot.png.part", "shot.png~", "shot", "shot.", "notes.txt", "png"] {
            XCTAssertFalse(ScreenshotFileClassifier.looksLikeImage(name), name)
        }
        XCTAssertTrue(ScreenshotFileClassifier.looksLikeImage(BytePath("Screenshot from 2026.jpeg")))
    }
}

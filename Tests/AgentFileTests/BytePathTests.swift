// Paths as bytes: joined, split and shown escaped, one line per path.
@testable import ShotguardAgent
import XCTest

final class BytePathTests: XCTestCase {
    func testDescriptionEscapesWhatIsNotText() {
        XCTAssertEqual(BytePath("/home/u/Bildschirmfoto ä 屏幕截图.png").description, "/home/u/Bildschirmfoto ä 屏幕截图.png")
        XCTAssertEqual(BytePath(bytes: Array("/a/".utf8) + [0xFF, 0xC3] + Array(".png".utf8)).description, "/a/\\xff\\xc3.png")
        XCTAssertEqual(BytePath("a\nb\\c").description, "a\\x0ab\\\\c", "one line, and no two paths alike")
        XCTAssertEqual(BytePath(bytes: [0xED, 0xA0, 0x80]).description, "\\xed\\xa0\\x80", "a surrogate is not UTF-8")
        XCTAssertEqual(BytePath(bytes: [0xC0, 0xAF]).description, "\\xc0\\xaf", "nor an overlong form")
    }

    func testComponents() {
        let path = BytePath("/home/u/shot.png")
        XCTAssertEqual(path.lastComponent, "shot.png")
        XCTAssertEqual(path.parent, "/home/u")
        XCTAssertEqual(BytePath("/home").parent, "/")
        XCTAssertNil(BytePath("/").parent)
        XCTAssertEqual(BytePath("/").appending("home"), "/home")
        XCTAssertTrue(path.isInside("/home/u"))
        XCTAssertFalse(BytePath("/home/u2/x").isInside("/home/u"))
        XCTAssertEqual(path.withoutExtension, "/home/u/shot")
        XCTAssertEqual(BytePath("/home/u.d/shot").withoutExtension, "/home/u.d/shot", "a dot in a folder's name is no extension")
        XCTAssertEqual(BytePath("/home/u/.hidden").withoutExtension, "/home/u/.hidden")
    }
}

final class ScreenshotNameTests: XCTestCase {
    /// A screenshot's name in any of the tools' languages and cases, or any name in a Screenshots
    /// folder, is strong; other names are weak.
    func testScreenshotNamesAreStrong() {
        for path in ["/h/Pictures/Screenshot from 2026-01-01.png", "/h/Снимок экрана 1.png", "/h/スクリーンショット.png",
                     "/h/2026-12-03-scrot.png", "/h/Pictures/Screenshots/IMG_1.png", "/h/Capture d’écran.png",
                     "/h/BILDSCHIRMFOTO.PNG"] {
            XCTAssertTrue(ScreenshotFileClassifier.isStronglyNamed(BytePath(path)), path)
        }
        for path in ["/h/Pictures/holiday.jpg", "/h/Screenshots-old/x.png", "/h/scr.png", "/h/Pictures/photo-00001.png"] {
            XCTAssertFalse(ScreenshotFileClassifier.isStronglyNamed(BytePath(path)), path)
        }
    }
}

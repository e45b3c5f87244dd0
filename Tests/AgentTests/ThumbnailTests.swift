// Thumbnail names: MD5 of the file's URI, with the URI escaped as GLib escapes it.
@testable import ShotguardAgent
import ShotguardTestSupport
import XCTest

final class ThumbnailTests: XCTestCase {
    func testMD5MatchesTheRFCVectors() {
        XCTAssertEqual(md5Hex([]), "d41d8cd98f00b204e9800998ecf8427e")
        XCTAssertEqual(md5Hex(Array("abc".utf8)), "900150983cd24fb0d6963f7d28e17f72")
        XCTAssertEqual(md5Hex(Array("12345678901234567890123456789012345678901234567890123456789012345678901234567890".utf8)),
                       "57edf4a22be3c955ac49da2e2107b67a")
    }

    func testTheURIIsEscapedAsGLibDoesIt() {
        // GLib.filename_to_uri("/tmp/a b/!$&'()*+,;=:@[]~_-.%#?ü\x01.png")
        let path = Array("/tmp/a b/!$&'()*+,;=:@[]~_-.%#?ü".utf8) + [1] + Array(".png".utf8)
        XCTAssertEqual(Thumbnails.uri(forPath: path), "file:///tmp/a%20b/!$&'()*+,%3B=:@%5B%5D~_-.%25%23%3F%C3%BC%01.png")
    }

    func testEverySizeAndFailureFolderIsACandidate() throws {
        let temporary = try TemporaryFolder(self, label: "thumbnails")
        try temporary.folder("fail/gnome-thumbnail-factory")
        let folder = temporary.path
        let thumbnails = Thumbnails(folder: folder)
        let name = md5Hex(Array("file:///home/u/shot.png".utf8)) + ".png"
        XCTAssertEqual(Set(thumbnails.candidates(forPath: Array("/home/u/shot.png".utf8))),
                       Set(["normal", "large", "x-large", "xx-large", "fail/gnome-thumbnail-factory"].map { "\(folder)/\($0)/\(name)" }))
    }
}

// Classifying a file without keeping its bytes, and reading them later only if it is unchanged.
import Foundation
@testable import ShotguardAgent
import ShotguardImaging
import ShotguardTestSupport
import XCTest

final class ClassifyLaterTests: XCTestCase {
    private static let png = try! PNGEncoder.encode(PixelBuffer(width: 4, height: 4, fill: 0xFF00_80FF), destination: "t.png")

    private func classified(_ path: String) throws -> ScreenshotFile {
        switch ScreenshotFileClassifier.classify(BytePath(path), now: Date().timeIntervalSince1970, keepingBytes: false) {
        case .failure(let reason): throw FailureText("not classified: \(reason)")
        case .success(let file): return file
        }
    }

    func testMetadataWithoutBytesThenTheBytesOnRead() throws {
        let root = try TemporaryFolder(self)
        let path = try root.file("screenshot-1.png", Self.png)
        let file = try classified(path)
        XCTAssertNil(file.png, "the bytes are not kept")
        XCTAssertEqual(file.format, .png)
        XCTAssertEqual(Int(file.identity.size), Self.png.count)
        var status = stat()
        XCTAssertEqual(lstat(path, &status), 0)
        XCTAssertEqual(file.identity, FileIdentity(status))
        XCTAssertEqual(try ScreenshotFileClassifier.read(file).get(), Self.png)
    }

    func testAFileRewrittenSinceItWasCheckedIsNotRead() throws {
        let root = try TemporaryFolder(self)
        let path = try root.file("screenshot-2.png", Self.png)
        let file = try classified(path)
        try root.file("screenshot-2.png", Self.png + [0])
        XCTAssertEqual(ScreenshotFileClassifier.read(file).failureText, "changed or replaced since it was checked")
    }

    func testAFileReplacedByAnotherOfTheSameSizeAndTimeIsNotRead() throws {
        let root = try TemporaryFolder(self)
        let path = try root.file("screenshot-3.png", Self.png)
        let file = try classified(path)
        let other = try root.file("other.png", Self.png)
        var times = [timespec(), timespec()]
        var status = stat()
        XCTAssertEqual(lstat(path, &status), 0)
        times = [status.st_atim, status.st_mtim]
        XCTAssertEqual(utimensat(AT_FDCWD, other, &times, 0), 0)
        XCTAssertEqual(rename(other, path), 0)
        XCTAssertEqual(ScreenshotFileClassifier.read(file).failureText, "changed or replaced since it was checked")
    }

    func testASymlinkPutInItsPlaceIsNotFollowed() throws {
        let root = try TemporaryFolder(self)
        let path = try root.file("screenshot-4.png", Self.png)
        let file = try classified(path)
        let elsewhere = try root.file("elsewhere.png", Self.png)
        XCTAssertEqual(unlink(path), 0)
        XCTAssertEqual(symlink(elsewhere, path), 0)
        XCTAssertEqual(ScreenshotFileClassifier.read(file).failureText, "a symbolic link (not followed)")
    }
}

struct FailureText: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Result where Failure == ScreenshotFileClassifier.SkipReason {
    var failureText: String? {
        if case .failure(let reason) = self { return reason.description }
        return nil
    }
}

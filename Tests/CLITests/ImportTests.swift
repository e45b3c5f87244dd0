// A photo import of 10,000 images into ~/Pictures neither blinds the agent nor delays the screenshot taken during it.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import XCTest

/// The import and the screenshot, shared by the suites with and without RECORD. The agent runs
/// on its default folders (~/Pictures, ~/Pictures/Screenshots, home), as on a desktop.
class PhotoImportTestCase: WatchDesktopTestCase {
    static let photos = 10_000

    /// 10,000 small distinct PNGs copied into ~/Pictures with one `cp`, then, a second later,
    /// scrot into ~/Pictures/Screenshots: the screenshot is rewritten redacted without waiting for
    /// the import's photos to be examined, and every photo keeps its bytes. Prints the time from
    /// scrot's exit to the rewrite.
    func importThenScreenshot(file: StaticString = #filePath, line: UInt = #line) throws {
        let pictures = sandbox.path("Pictures")
        try FileManager.default.createDirectory(atPath: pictures + "/Screenshots", withIntermediateDirectories: true)
        let made = sandbox.path("made/import")
        try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true)
        try runTool("/usr/bin/python3 '\(TestScripts.path("small-photos.py"))' \(Self.photos) '\(made)'", display: desk.name)
        let screen = try desk.screen()
        let watch = try WatchAgent(["--regions", regions, "--no-clipboard", "--no-tools"], sandbox: sandbox, display: desk.name)

        let copyStarted = Date()
        try runTool("cd '\(made)' && cp -- *.png '\(pictures)/'", display: desk.name)
        let copied = Date()
        usleep(1_000_000)  // the user takes a screenshot a second after the import
        let shot = pictures + "/Screenshots/scrot-import.png"
        try runTool("scrot -o '\(shot)'", display: desk.name)
        let scrotExited = Date()
        let rewrote = watch.waitForExamined(shot, seconds: 60) { $0["file"] as? String == "rewritten" }
        XCTAssertNotNil(rewrote, watch.log, file: file, line: line)
        let rewritten = WatchAgent.time(of: rewrote) ?? Date()
        print("import: cp of \(Self.photos) photos took \(milliseconds(from: copyStarted, to: copied)) ms; "
            + "scrot exited \(milliseconds(from: copied, to: scrotExited)) ms after it; the screenshot was rewritten "
            + "\(milliseconds(from: scrotExited, to: rewritten)) ms after scrot exited "
            + "(RECORD: \(Self.serverHasRecord ? "yes" : "no"))")
        assertRedacted(try sandbox.image("Pictures/Screenshots/scrot-import.png"), origin: fullScreen, screen: screen,
                       expected: try desk.expectedRedactions(), file: file, line: line)

        // Rewritten while the import was still being gone through: a photo comes after it.
        XCTAssertTrue(watch.waitUntilSettled(examined: 1, seconds: 120), "the agent did not finish with the import",
                      file: file, line: line)
        let examined = watch.events.filter { $0["event"] as? String == "examined" }.compactMap { $0["name"] as? String }
        let position = try XCTUnwrap(examined.firstIndex(of: shot), "the screenshot was examined: \(examined.suffix(5))",
                                     file: file, line: line)
        let photosAfter = examined[(position + 1)...].filter { $0.hasPrefix(pictures + "/photo-") }.count
        // The photos examined between the screenshot's arrival and its examination: those it
        // waited for (photos examined while the copy ran, before scrot did, waited for nothing).
        let events = watch.events
        let arrived = try XCTUnwrap(events.firstIndex { $0["event"] as? String == "taken" && $0["name"] as? String == shot },
                                    "the screenshot was taken in", file: file, line: line)
        let done = try XCTUnwrap(events.firstIndex { $0["event"] as? String == "examined" && $0["name"] as? String == shot },
                                 file: file, line: line)
        let photosBefore = events[arrived..<done].filter {
            $0["event"] as? String == "examined" && ($0["name"] as? String ?? "").hasPrefix(pictures + "/photo-")
        }.count
        // How much of the import the agent took in before it took the screenshot's file: photos
        // taken in as candidates, or left unopened by the burst's shortcut.
        let taken = Set(events[..<arrived].compactMap { event -> String? in
            guard ["taken", "left"].contains(event["event"] as? String ?? ""), let name = event["name"] as? String,
                  name.hasPrefix(pictures + "/photo-") else { return nil }
            return name
        }).count
        print("import: \(photosBefore) photos examined between the screenshot's arrival and its examination, \(photosAfter) "
            + "after it; the agent took in "
            + "\(taken) of the \(Self.photos) photos' signals before the screenshot's")
        // Photos are examined 20 a second and 64 per burst at most (with RECORD, in a burst,
        // those no program read the screen for are not even opened): a screenshot that waited
        // for the import would come after the whole 64.
        XCTAssertLessThan(photosBefore, 64, "the screenshot waited for the import: \(examined.suffix(5))", file: file, line: line)

        for index in [0, 1, 4_999, 9_998, 9_999] {
            let name = String(format: "photo-%05d.png", index)
            XCTAssertEqual(try sandbox.bytes("Pictures/" + name), try sandbox.bytes("made/import/" + name), "\(name) keeps its bytes",
                           file: file, line: line)
        }
        let quarantined = (try? FileManager.default.contentsOfDirectory(atPath: sandbox.path(".local/state/shotguard/quarantine"))) ?? []
        XCTAssertEqual(quarantined, [], "no photo set aside", file: file, line: line)
    }
}

/// With RECORD, as on a desktop: a photo no program read the screen for is not even read, and
/// scrot's read and its file are tied to each other.
final class ImportTests: PhotoImportTestCase {
    func testAScreenshotDuringAPhotoImportIsRewrittenFirst() throws { try importThenScreenshot() }
}

/// Without RECORD every photo is an image to look for on the screen: the per-second budget and
/// the cap per burst are all that keep the import from delaying the screenshot.
final class ImportWithoutRecordTests: PhotoImportTestCase {
    override class var serverHasRecord: Bool { false }

    func testAScreenshotDuringAPhotoImportIsRewrittenFirst() throws { try importThenScreenshot() }
}

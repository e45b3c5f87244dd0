// The clipboard guard's limits never end in a leak: every copy of one screenshot pastes redacted, and an owner that keeps putting the original back ends with nothing to paste.
import Foundation
import Glibc
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import XCTest

/// On a server without RECORD: `scrot -o s.png` then writes the same unredacted bytes every
/// time (with RECORD the agent follows scrot to `s.png` and may rewrite it before xclip reads
/// it), so each paste depends on the clipboard guard alone — the case of the seventh copy that
/// was once pasted whole ("gave up after 5 takeovers").
final class ClipboardLimitTests: WatchDesktopTestCase {
    override class var serverHasRecord: Bool { false }

    /// Ten copies of one unchanged screen, as a key binding run ten times makes them: each is a
    /// new owner's fresh copy (no retake), and each paste is the redacted image.
    func testTenCopiesOfOneScreenshotArePastedRedactedEveryTime() throws {
        let screen = try desk.screen()
        let watch = try ClipboardPastes.agent(regions: regions, sandbox: sandbox, display: desk.name)
        var originals = Set<[UInt8]>()
        for copy in 1...10 {
            try runTool("cd '\(sandbox.path("made"))' && scrot -o s.png && xclip -selection clipboard -t image/png -i s.png",
                        display: desk.name)
            originals.insert(try sandbox.bytes("made/s.png"))
            XCTAssertTrue(watch.waitForClipboardReplaced(count: copy), "copy \(copy): \(watch.log)")
            let pasted = try XCTUnwrap(try ClipboardPastes.paste(sandbox: sandbox, display: desk.name), "copy \(copy) pasted nothing")
            XCTAssertFalse(originals.contains(pasted), "copy \(copy) pasted the original")
            assertRedacted(try PNGDecoder.decode(pasted, source: "paste \(copy)"), origin: fullScreen, screen: screen,
                           expected: try desk.expectedRedactions())
        }
        XCTAssertEqual(originals.count, 1, "scrot wrote the same original ten times")
        XCTAssertEqual(watch.events("clipboard-retake").count, 0, "a new owner's copy is no retake: \(watch.log)")
        XCTAssertEqual(watch.events("clipboard-withheld").count, 0, watch.log)
    }

    /// One owner (one process, one window) that takes CLIPBOARD back with the original each
    /// time guard replaced it: guarded again up to the retake limit, then withheld — once the
    /// owner stops, a paste gets nothing, never the original.
    func testAnOwnerThatKeepsTakingTheClipboardBackEndsWithNothingToPaste() throws {
        let watch = try retakeFight(retakes: 8)  // three beyond ClipboardRetakes.limit (5)
        let retakes = watch.events("clipboard-retake").compactMap { $0["count"] as? Int }
        XCTAssertEqual(retakes.max(), 5, "guarded again up to the limit: \(watch.log)")
        XCTAssertTrue(watch.events("clipboard-retake").allSatisfy { $0["limit"] as? Int == 5 }, "the limit holds: \(watch.log)")
    }

    /// The same owner a thousand times over, as fast as the server lets it, while someone pastes
    /// every tenth of a second: past the limit guard takes CLIPBOARD away each time (serving
    /// nothing) for as long as the owner takes it back, so the owner ends by losing it and a
    /// paste gets nothing, never the original. (Pastes during the fight may reach the owner:
    /// X11 gives CLIPBOARD to whoever asks, and guard must read an image before judging it.)
    ///
    /// The agent once lost this fight: the owner's XFixesSelectionNotify was read into Xlib's
    /// queue by the withhold's round trips, after the turn had drained it, and the loop slept
    /// in poll() with it unhandled until the next paste, which got the original.
    func testAnOwnerThatTakesTheClipboardBackAThousandTimesWhileSomeonePastesEndsWithNothingToPaste() throws {
        _ = try retakeFight(retakes: 1_000, pasting: true)
    }

    /// Runs the retaking owner on a region screenshot around the vault's covered row until it
    /// gives up, then checks the paste; returns the agent.
    private func retakeFight(retakes: Int, pasting: Bool = false, file: StaticString = #filePath, line: UInt = #line) throws -> WatchAgent {
        let screen = try desk.screen()
        let row = try XCTUnwrap(try desk.expectedRedactions().first, file: file, line: line).rect
        // Small enough for one request of the owner.
        let area = Rect(x: max(0, row.x - 20), y: max(0, row.y - 30), width: row.width + 40, height: row.height + 60)
        let image = sandbox.path("made/region.png")
        try runTool("maim -u -g \(area.width)x\(area.height)+\(area.x)+\(area.y) '\(image)'", display: desk.name, file: file, line: line)
        let original = try sandbox.bytes("made/region.png")
        XCTAssertLessThan(original.count, 200_000, "fits in one request of the owner", file: file, line: line)
        let watch = try ClipboardPastes.agent(regions: regions, sandbox: sandbox, display: desk.name)

        let said = try sandbox.write("made/owner.out", [])
        let changes = try FileChanges([said])
        let owner = try ChildProcess("/bin/sh", ["-c", "exec /usr/bin/python3 '\(TestScripts.path("retaking-owner.py"))' "
                                                 + "'\(image)' \(retakes) > '\(said)'"],
                                     environment: ["DISPLAY": desk.name], output: .standardError)
        defer { owner.stop() }
        let paster = pasting ? try ChildProcess("/bin/sh", ["-c", "while :; do timeout 5 xclip -selection clipboard -t image/png -o "
                                                                + ">/dev/null 2>&1; sleep 0.1; done"],
                                                 environment: ["DISPLAY": desk.name], newSession: true) : nil
        let text = { (try? String(contentsOfFile: said, encoding: .utf8)) ?? "" }
        let gaveUp = changes.wait(seconds: 60) { text().contains("gave up") }
        paster?.stop()
        let withheld = watch.events("clipboard-withheld").count
        let lastLines = watch.log.suffix(600)
        XCTAssertTrue(gaveUp, "the owner still holds CLIPBOARD after \(text().split(separator: "\n").last ?? "nothing"); "
            + "guard withheld \(withheld) times and then stopped taking it back; its last lines:\n\(lastLines)", file: file, line: line)
        XCTAssertGreaterThan(withheld, 0, watch.log, file: file, line: line)
        if let pasted = try ClipboardPastes.paste(sandbox: sandbox, display: desk.name, file: file, line: line) {
            XCTAssertNotEqual(pasted, original, "the paste after the retakes is the original", file: file, line: line)
            assertRedacted(try PNGDecoder.decode(pasted, source: "the paste"), origin: area, screen: screen,
                           expected: try desk.expectedRedactions(), file: file, line: line)
        }
        return watch
    }
}

/// On a server with RECORD, as on a desktop: the agent follows scrot to `s.png` (and may rewrite
/// it before xclip reads it) and ties xclip's copy to scrot's read (a sibling process). Whichever
/// comes first, every paste is redacted.
final class ClipboardLimitWithRecordTests: WatchDesktopTestCase {
    func testTenCopiesOfOneScreenshotArePastedRedactedEveryTime() throws {
        let screen = try desk.screen()
        let watch = try ClipboardPastes.agent(regions: regions, sandbox: sandbox, display: desk.name)
        for copy in 1...10 {
            try runTool("cd '\(sandbox.path("made"))' && scrot -o s.png && xclip -selection clipboard -t image/png -i s.png",
                        display: desk.name)
            // Guard replaced xclip's image, or xclip copied the file guard had already rewritten.
            XCTAssertTrue(watch.wait {
                watch.events("examined") { $0["clipboard"] as? String == "replaced" }.count
                    + watch.events("ignored") { $0["why"] as? String == "own-image" }.count >= copy
            }, "copy \(copy): \(watch.log)")
            let pasted = try XCTUnwrap(try ClipboardPastes.paste(sandbox: sandbox, display: desk.name), "copy \(copy) pasted nothing")
            assertRedacted(try PNGDecoder.decode(pasted, source: "paste \(copy)"), origin: fullScreen, screen: screen,
                           expected: try desk.expectedRedactions())
        }
        XCTAssertEqual(watch.events("clipboard-withheld").count, 0, watch.log)
    }
}

/// What the clipboard suites share: the agent on the clipboard only, and a paste.
enum ClipboardPastes {
    /// An agent that guards the clipboard (files and tool windows off).
    static func agent(regions: String, sandbox: Sandbox, display: String) throws -> WatchAgent {
        try WatchAgent(["--regions", regions, "--no-files", "--no-tools"], sandbox: sandbox, display: display)
    }

    /// What `xclip -o` pastes as image/png now; nil when the clipboard offers none (a paste
    /// that gets no answer in 10 s fails the test). Written outside `made`, scrot's working
    /// folder, where the agent takes a new image for scrot's.
    static func paste(sandbox: Sandbox, display: String, file: StaticString = #filePath, line: UInt = #line) throws -> [UInt8]? {
        let output = sandbox.path("pasted.png")
        let child = try ChildProcess("/bin/sh", ["-c", "timeout 10 xclip -selection clipboard -t image/png -o > '\(output)'"],
                                     environment: ["DISPLAY": display], output: .standardError)
        let status = child.waitForExit()
        if status == 124 { XCTFail("the paste got no answer in 10 s", file: file, line: line) }
        guard status == 0 else { return nil }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        return bytes.isEmpty ? nil : bytes
    }
}

// Guard never damages what a person made: a copied photo, a browser's copy, a newer copy, a screen with something moving.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardX11
import ShotguardTestSupport
import XCTest

final class GuardPrecisionTests: WatchDesktopTestCase {
    private func agent(_ extra: [String] = []) throws -> WatchAgent {
        try WatchAgent(["--regions", regions] + extra, sandbox: sandbox, display: desk.name)
    }

    /// A photo: noise that is nowhere on the screen.
    private func photo(_ name: String, width: Int = 300, height: Int = 200, seed: UInt32 = 4242) throws -> String {
        try sandbox.write("made/\(name)", png: WatchDesktop.pattern(width: width, height: height, seed: seed))
    }

    /// What a paste of `target` gets now, as bytes.
    private func paste(_ target: String) throws -> [UInt8] {
        let output = sandbox.path("made/pasted-\(target.replacingOccurrences(of: "/", with: "-"))")
        try runTool("xclip -selection clipboard -t '\(target)' -o > '\(output)'", display: desk.name)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    /// Copying a photo while a protected window is on screen: the clipboard keeps the photo.
    func testACopiedPhotoIsNeverReplaced() throws {
        let watch = try agent(["--no-files", "--no-tools"])
        let path = try photo("holiday.png")
        try runTool("xclip -selection clipboard -t image/png -i '\(path)'", display: desk.name)
        let examined = try XCTUnwrap(watch.waitForExamined("the clipboard image"), watch.log)
        XCTAssertEqual(examined["outcome"] as? String, "left", "\(examined)")
        XCTAssertEqual(try paste("image/png"), try sandbox.bytes("made/holiday.png"), "the paste is the photo")
        XCTAssertTrue(examined["clipboard"] is NSNull, "guard served nothing: \(examined)")
    }

    /// A browser's "Copy Image" offers the image with HTML, a URI and text: every one of them
    /// stays as the owner offered it.
    func testEveryTargetOfABrowserCopyStays() throws {
        let watch = try agent(["--no-files", "--no-tools"])
        let image = try photo("cat.png")
        let html = try sandbox.write("made/page.html", text: "<img src=\"https://example.org/cat.png\" alt=\"a cat\">")
        let uri = try sandbox.write("made/uri.txt", text: "https://example.org/cat.png\r\n")
        let text = try sandbox.write("made/text.txt", text: "a cat")
        let said = sandbox.path("made/owner.out")
        let owner = try ChildProcess("/bin/sh", ["-c", "exec /usr/bin/python3 '\(Self.ownerScript)' 'image/png=\(image)' "
                                                 + "'text/html=\(html)' 'text/uri-list=\(uri)' 'UTF8_STRING=\(text)' > '\(said)'"],
                                     environment: ["DISPLAY": desk.name], output: .standardError)
        defer { owner.stop() }
        XCTAssertEqual(watch.waitForExamined("the clipboard image")?["outcome"] as? String, "left", watch.log)
        XCTAssertEqual(watch.events("clipboard").first?["targets"] as? Int, 4, "every target was read first: \(watch.log)")
        XCTAssertEqual(try paste("image/png"), try sandbox.bytes("made/cat.png"))
        XCTAssertEqual(try paste("text/html"), try sandbox.bytes("made/page.html"))
        XCTAssertEqual(try paste("text/uri-list"), try sandbox.bytes("made/uri.txt"))
        XCTAssertEqual(try paste("UTF8_STRING"), try sandbox.bytes("made/text.txt"))
    }

    /// A screenshot copied, then a text copied 2-5 ms later: guard's takeover carries the
    /// screenshot's own time, so the server refuses it once the text owns the clipboard — the
    /// text is never lost (100 tries).
    func testATextCopiedJustAfterAScreenshotIsNeverReplaced() throws {
        let watch = try agent(["--no-files", "--no-tools"])
        let shot = sandbox.path("made/screen.png")
        try runTool("maim -u '\(shot)'", display: desk.name)
        var lost: [Int] = []
        // What the agent did with an image: examined it, or failed to read it.
        let outcomes = { watch.events("examined").count + watch.events("clipboard-failed").count }
        for attempt in 1...100 {
            let delay = String(format: "0.00%d", 2 + attempt % 4)
            let before = outcomes()
            try runTool("xclip -selection clipboard -t image/png -i '\(shot)'; sleep \(delay); "
                        + "printf 'text %d' \(attempt) | xclip -selection clipboard", display: desk.name)
            // Until the agent did what it does with this image (or never read it: the text came first).
            _ = watch.wait(seconds: 2.5) { outcomes() > before }
            if String(decoding: try paste("UTF8_STRING"), as: UTF8.self) != "text \(attempt)" { lost.append(attempt) }
        }
        XCTAssertEqual(lost, [], "texts lost to a takeover: \(watch.log.suffix(4000))")
    }

    /// Something repainting 30 times a second far from every rule (a video, a spinner): a
    /// full-screen screenshot still places and is rewritten, never set aside.
    func testAnAnimationFarFromTheRulesDoesNotSpoilAScreenshot() throws {
        let said = try sandbox.write("made/animation.out", [])
        let changes = try FileChanges([said])
        let animation = try ChildProcess("/bin/sh", ["-c", "exec /usr/bin/python3 '\(Self.animationScript)' 300 40 160 90 > '\(said)'"],
                                         environment: ["DISPLAY": desk.name], output: .standardError)
        defer { animation.stop() }
        XCTAssertTrue(changes.wait(seconds: 10) { (try? String(contentsOfFile: said, encoding: .utf8))?.contains("shown") ?? false })
        let watch = try agent(["--dir", shots, "--no-clipboard", "--no-tools"])
        for index in 1...5 {
            try runTool("scrot -o '\(shots)/scrot-moving-\(index).png'", display: desk.name)
            let report = try XCTUnwrap(watch.nextReport(), watch.log)
            XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", watch.log)
            let rewritten = try sandbox.image("shots/scrot-moving-\(index).png")
            for (rect, fill) in try desk.expectedRedactions() {
                XCTAssertEqual(rewritten[rect.x + rect.width / 2, rect.y + rect.height / 2] & 0xFF_FFFF, fill, "covered")
            }
        }
        XCTAssertEqual(setAside(by: watch), [], "never set aside: \(watch.log)")
    }

    /// ImageMagick writes a WebP in steps: guard judges it once it is whole, and rewrites it.
    func testAWebPFromImageMagickIsJudgedOnceComplete() throws {
        let watch = try agent(["--dir", shots, "--no-clipboard", "--no-tools"])
        let made = sandbox.path("made/shot.png")
        try runTool("scrot -o '\(made)' && /usr/bin/convert '\(made)' -quality 90 '\(shots)/screenshot-im.webp'", display: desk.name)
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", watch.log)
        XCTAssertEqual(setAside(by: watch), [], "never set aside: \(watch.log)")
    }

    /// The images the agent set aside (quarantined) so far, by name.
    private func setAside(by watch: WatchAgent) -> [String] {
        watch.events("examined") { $0["quarantine"] is String || $0["file"] as? String == "quarantined" }
            .compactMap { $0["name"] as? String }
    }

    static let ownerScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/clipboard-owner.py").path
    static let animationScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/animated-window.py").path
}

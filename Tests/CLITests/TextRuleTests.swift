// `text` rules in capture against a real GTK3 window on Xvfb: accessible text gives exact boxes, no OCR.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardAccessibility
import ShotguardScene
import ShotguardText
import ShotguardTestSupport
import XCTest

final class TextRuleTests: TextDesktopTestCase {
    static let rules = "text email fill=#ff00ff\ntext card fill=#00ff00\n"

    private func run(_ arguments: [String], environment: [String: String?] = [:]) throws -> RunResult {
        try sandbox.run(arguments, environment: ["DISPLAY": desk.name, "DBUS_SESSION_BUS_ADDRESS": desk.busAddress]
            .merging(environment) { $1 })
    }

    /// The boxes on standard error, by kind: `shotguard: text KIND (line N) covered at RECT from SOURCE`.
    private func covers(_ stderr: String) -> [(kind: String, rect: Rect, source: String)] {
        stderr.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ").map(String.init)
            guard words.count >= 8, words[0] == "shotguard:", words[1] == "text", let at = words.firstIndex(of: "at"),
                  at + 3 < words.count else { return nil }
            // WxH+X+Y
            let numbers = words[at + 1].split(whereSeparator: { $0 == "x" || $0 == "+" }).compactMap { Int($0) }
            guard numbers.count == 4 else { return nil }
            let rect = Rect(x: numbers[2], y: numbers[3], width: numbers[0], height: numbers[1])
            return (words[2], rect, words[(at + 3)...].joined(separator: " "))
        }
    }

    /// Capture covers the e-mail address and the card number at the boxes the application
    /// gives for their characters (plus the margin), in the rules' colours; the order number
    /// beside the address stays as it was. OCR cannot run here (no model where TESSDATA_PREFIX
    /// points): the accessible text alone did it, and the rest of the screen holds no text.
    func testCaptureCoversTheAccessibleEmailAndCardExactlyWithoutOCR() throws {
        let regions = try sandbox.write("regions", text: Self.rules)
        let plain = try run(["capture", "--no-redact", "-o", sandbox.path("plain.png")])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        let noModel = sandbox.path("no-tessdata")
        let redacted = try run(["capture", "--regions", regions, "-o", sandbox.path("redacted.png")],
                               environment: ["TESSDATA_PREFIX": noModel])
        XCTAssertEqual(redacted.status, 0, redacted.stderr)
        let found = covers(redacted.stderr)
        XCTAssertEqual(found.map(\.kind).sorted(), ["card", "email"], redacted.stderr)
        XCTAssertTrue(found.allSatisfy { $0.source == "accessible text" }, redacted.stderr)
        XCTAssertFalse(redacted.stderr.contains(TextDesktop.email) || redacted.stderr.contains("4111"), "the text is never printed")
        let image = try sandbox.image("redacted.png")
        let original = try sandbox.image("plain.png")
        for (kind, colour) in [("email", UInt32(0xFF00FF)), ("card", 0x00FF00)] {
            let exact = try XCTUnwrap(desk.extents[kind])
            let box = try XCTUnwrap(found.first { $0.kind == kind }?.rect, redacted.stderr)
            // The box holds the characters, with at most a small margin around them.
            XCTAssertEqual(box.intersection(exact), exact, "\(kind): \(box) does not hold \(exact)")
            XCTAssertLessThanOrEqual(box.width - exact.width, 2 * max(3, exact.height / 4) + 2, "\(kind): \(box) vs \(exact)")
            XCTAssertLessThanOrEqual(box.height - exact.height, 2 * max(3, exact.height / 4) + 2, "\(kind): \(box) vs \(exact)")
            for y in box.y..<box.maxY {
                for x in box.x..<box.maxX { XCTAssertEqual(image[x, y] & 0xFFFFFF, colour, "\(kind) at \(x),\(y)") }
            }
        }
        // Everything outside the two boxes is as it was: the order number too.
        let boxes = found.map(\.rect)
        let order = try XCTUnwrap(desk.extents["order"])
        XCTAssertTrue(boxes.allSatisfy { $0.intersection(order).isEmpty })
        var differing = 0
        for y in 0..<image.height {
            for x in 0..<image.width where !boxes.contains(where: { $0.contains(x: x, y: y) }) {
                if image[x, y] & 0xFFFFFF != original[x, y] & 0xFFFFFF { differing += 1 }
            }
        }
        XCTAssertEqual(differing, 0)
    }

    /// `redact` with no display reads the same window's capture by OCR alone, and covers both
    /// texts at boxes that hold the application's own; the order number stays.
    func testRedactWithoutADisplayFindsTheSameTextsByOCR() throws {
        let regions = try sandbox.write("regions", text: Self.rules)
        let plain = try run(["capture", "--no-redact", "-o", sandbox.path("plain.png")])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        let redacted = try sandbox.run(["redact", sandbox.path("plain.png"), "--regions", regions, "-o", sandbox.path("redacted.png")])
        XCTAssertEqual(redacted.status, 0, redacted.stderr)
        let found = covers(redacted.stderr)
        XCTAssertEqual(found.map(\.kind).sorted(), ["card", "email"], redacted.stderr)
        XCTAssertTrue(found.allSatisfy { $0.source == "OCR" }, redacted.stderr)
        for (kind, rect) in found.map({ ($0.kind, $0.rect) }) {
            let exact = try XCTUnwrap(desk.extents[kind])
            XCTAssertEqual(rect.intersection(exact), exact, "\(kind): the OCR box \(rect) does not hold \(exact)")
            XCTAssertTrue(rect.intersection(try XCTUnwrap(desk.extents["order"])).isEmpty, "\(kind): \(rect) covers the order number")
        }
    }

    /// The agent's way in: a field watcher reads the accessible text on its own thread (the one
    /// that owns the bus) when asked from another, with the application's own boxes.
    func testTheFieldWatcherReadsTheAccessibleTextOnItsThreadWhenAsked() throws {
        setenv("DISPLAY", desk.name, 1)
        setenv("DBUS_SESSION_BUS_ADDRESS", desk.busAddress, 1)
        let watcher = FieldWatcher(roles: [])
        defer { watcher.stop() }
        let text = try XCTUnwrap(watcher.textRuns(timeout: 20), "no answer from the watcher's thread")
        XCTAssertFalse(text.truncated)
        let words = text.runs.flatMap(\.words)
        let email = try XCTUnwrap(words.first { $0.text == TextDesktop.email }, "\(words.map(\.text))")
        XCTAssertEqual(email.rect, desk.extents["email"])
        let groups = words.filter { $0.text == "1111" || $0.text == "4111" }
        XCTAssertEqual(groups.count, 4, "\(words.map(\.text))")
        // And the scanner covers both from these runs alone: the image holds no text at all.
        let scanner = TextScanner(rules: [TextRule(kind: .email, line: 1), TextRule(kind: .card, line: 2)])
        let blank = PixelBuffer(width: 640, height: 400, fill: 0xFFFF_FFFF)
        let result = try scanner.scan(blank, origin: Rect(x: 0, y: 0, width: 640, height: 400), accessibleText: text.runs)
        XCTAssertEqual(result.hits.map(\.kind).sorted { $0.rawValue < $1.rawValue }, [.card, .email])
        XCTAssertTrue(result.hits.allSatisfy { $0.source == .accessible })
        XCTAssertEqual(result.linesRead, 0)
    }
}

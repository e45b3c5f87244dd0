// `windows`, `windows --json` and `windows --ids` on a known desktop with a focused window.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import XCTest

final class X11WindowsCommandTests: X11DesktopTestCase {
    nonisolated(unsafe) static let desktop = X11Scene.desktop()
    override class var sharedDesktop: X11Desktop { desktop }

    /// The Chat window has the focus (no window manager: the focus is the active window).
    private let active = 1

    override func setUpWithError() throws {
        try super.setUpWithError()
        try runTool("xdotool", ["windowfocus", "--sync", hexID(desktop.ids[active])], display: try desktop.name())
    }

    private func windows(_ extra: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try desktop.run(["windows"] + extra, in: sandbox, file: file, line: line)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        XCTAssertEqual(result.stderr, "", file: file, line: line)
        return result.stdoutText
    }

    func testTableListsEveryWindowTopFirstAndMarksTheActiveOne() throws {
        let lines = try windows([]).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 1 + X11Scene.windows.count, lines.joined(separator: "\n"))
        XCTAssertTrue(lines.first?.contains("TITLE") ?? false, "a header first")
        let expected = Array(zip(desktop.ids, X11Scene.windows).enumerated().reversed())
        for (line, (index, (id, window))) in zip(lines.dropFirst(), expected) {
            XCTAssertTrue(line.hasPrefix((index == active ? "* " : "  ") + hexID(id) + " "), line)
            for text in [window.className, window.instance, window.title] {
                XCTAssertTrue(line.contains(" \(text)"), "\(line) names \(text)")
            }
            XCTAssertTrue(line.hasSuffix(window.title), line)
        }
    }

    func testJSONHasEveryFieldOfEveryWindow() throws {
        let text = try windows(["--json"])
        XCTAssertTrue(text.hasSuffix("]\n"))
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
        let items = try XCTUnwrap(parsed, text)
        XCTAssertEqual(items.count, X11Scene.windows.count)
        let expected = Array(zip(desktop.ids, X11Scene.windows).enumerated().reversed())
        for (item, (index, (id, window))) in zip(items, expected) {
            XCTAssertEqual(item["id"] as? String, hexID(id))
            XCTAssertEqual(item["class"] as? String, window.className)
            XCTAssertEqual(item["instance"] as? String, window.instance)
            XCTAssertEqual(item["title"] as? String, window.title)
            XCTAssertEqual(item["x"] as? Int, window.frame.x)
            XCTAssertEqual(item["y"] as? Int, window.frame.y)
            XCTAssertEqual(item["width"] as? Int, window.frame.width)
            XCTAssertEqual(item["height"] as? Int, window.frame.height)
            XCTAssertEqual(item["active"] as? Bool, index == active, "\(item)")
            XCTAssertNotNil(item["geometry"] as? String)
        }
    }

    func testIdsAreTopFirstOnePerLine() throws {
        XCTAssertEqual(try windows(["--ids"]), desktop.ids.reversed().map { hexID($0) + "\n" }.joined())
    }

    /// What `windows` prints as a geometry, given back to `capture --geometry`, must name the
    /// window's own rectangle, also for a window past the left or top edge (Notes, at -20,-10).
    func testPrintedGeometryNamesTheWindowWhenGivenBackToCapture() throws {
        let items = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try windows(["--json"]).utf8)) as? [[String: Any]])
        for item in items {
            let geometry = try XCTUnwrap(item["geometry"] as? String)
            let id = try XCTUnwrap(item["id"] as? String)
            let byGeometry = try desktop.run(["capture", "--no-redact", "--geometry", geometry, "-o", "-"], in: sandbox)
            let byWindow = try desktop.run(["capture", "--no-redact", "--window", id, "-o", "-"], in: sandbox)
            XCTAssertEqual(byGeometry.status, 0, "\(geometry): \(byGeometry.stderr)")
            XCTAssertEqual(byWindow.status, 0, "\(id): \(byWindow.stderr)")
            guard byGeometry.status == 0, byWindow.status == 0 else { continue }
            XCTAssertEqual(byGeometry.stdout, byWindow.stdout, "--geometry \(geometry) and --window \(id) (\(item["title"] ?? ""))")
        }
    }
}

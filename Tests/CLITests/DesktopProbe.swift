// What the tests of the tray, its menu, the recording mark and the picker need from the desktop:
// xdotool, a real tray (trayer), a fresh grab of the screen, and the share of a colour in it.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import XCTest

/// Runs xdotool on `display`; its result (a search that finds nothing exits 1).
func xdotool(_ arguments: [String], display: String, file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
    let tool = try requireTool("xdotool", package: "xdotool", file: file, line: line)
    return try runProgram(tool, arguments, environment: ["DISPLAY": display, "PATH": "/usr/bin:/bin"], file: file, line: line)
}

/// The window named exactly `name` (a search, as `xdotool search --name` does it), waited for
/// up to 10 s with `--sync`, or nil when none comes.
func findWindow(named name: String, display: String, wait: Bool = false, file: StaticString = #filePath,
                line: UInt = #line) throws -> UInt? {
    let timeout = try requireTool("timeout", package: "coreutils", file: file, line: line)
    let tool = try requireTool("xdotool", package: "xdotool", file: file, line: line)
    let search = ["search"] + (wait ? ["--sync"] : []) + ["--name", "^\(name)$"]
    let result = try runProgram(timeout, ["10", tool.path] + search, environment: ["DISPLAY": display, "PATH": "/usr/bin:/bin"],
                                file: file, line: line)
    return result.lines.first.flatMap { UInt($0) }
}

/// Where window `id` is on the root.
func rootGeometry(of id: UInt, display: String, file: StaticString = #filePath, line: UInt = #line) throws -> Rect {
    let result = try xdotool(["getwindowgeometry", "--shell", String(id)], display: display, file: file, line: line)
    var values: [String: Int] = [:]
    for entry in result.lines {
        let parts = entry.split(separator: "=", maxSplits: 1)
        if parts.count == 2, let number = Int(parts[1]) { values[String(parts[0])] = number }
    }
    guard let x = values["X"], let y = values["Y"], let width = values["WIDTH"], let height = values["HEIGHT"] else {
        throw FixtureError("xdotool getwindowgeometry said \(result.stdoutText) \(result.stderr)")
    }
    return Rect(x: x, y: y, width: width, height: height)
}

/// The screen now, grabbed on a connection of its own: each grab is a new client, so that the
/// agent never takes a test's grabs for one program recording the screen.
func freshScreen(_ display: String) throws -> PixelBuffer {
    try ScreenGrabber(display: try Display(name: display)).captureScreen()
}

/// The share of the pixels of `rect` in `image` within 40 of `colour` in every channel.
func share(of colour: UInt32, in image: PixelBuffer, _ rect: Rect) -> Double {
    let area = rect.intersection(image.bounds)
    guard !area.isEmpty else { return 0 }
    var near = 0
    for y in area.y..<area.maxY {
        for x in area.x..<area.maxX {
            let pixel = image[x, y]
            let close = [16, 8, 0].allSatisfy { shift in
                abs(Int(pixel >> UInt32(shift) & 0xFF) - Int(colour >> UInt32(shift) & 0xFF)) <= 40
            }
            if close { near += 1 }
        }
    }
    return Double(near) / Double(area.area)
}

/// A real system tray on `display`: trayer (Debian's package), in the screen's top-right corner.
/// Stopped when the test ends.
func startTrayer(on display: String, for test: XCTestCase, file: StaticString = #filePath, line: UInt = #line) throws {
    _ = try requireTool("trayer", package: "trayer", file: file, line: line)
    let trayer = try ChildProcess("trayer", ["--edge", "top", "--align", "right", "--widthtype", "request", "--height", "28",
                                             "--SetDockType", "true", "--SetPartialStrut", "false"],
                                  environment: ["DISPLAY": display])
    test.addTeardownBlock { trayer.stop() }
}

/// An ffmpeg x11grab recording of the whole screen for `seconds`, into nothing (the null muxer).
func startRecording(_ display: String, seconds: Int) throws -> ChildProcess {
    _ = try requireTool("ffmpeg", package: "ffmpeg")
    return try ChildProcess("ffmpeg", ["-loglevel", "error", "-nostdin", "-f", "x11grab", "-draw_mouse", "0", "-framerate", "10",
                                       "-t", String(seconds), "-i", display, "-f", "null", "-"],
                            environment: ["DISPLAY": display], output: .standardError)
}

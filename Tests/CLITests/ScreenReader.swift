// The tests' own screen reader (Tests/Scripts/screen-reader.c), built into a test's sandbox, and the frames it read.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import XCTest

/// A reader for each way real programs read the screen (a browser's shared pixmap and copies,
/// OBS's named pixmap, a DAMAGE watcher, a slow GetImage poller), compiled with `cc` from its
/// source in the checkout. Each frame it read is a PPM file it wrote itself: a test decodes
/// those, never a file the agent could rewrite.
struct ScreenReader {
    enum Mode: String {
        case copyArea = "copyarea", named, damage, getImage = "getimage"
    }

    let path: String
    private let sandbox: Sandbox

    /// Builds the reader into `sandbox` (the X, MIT-SHM, Composite and DAMAGE headers and
    /// libraries: libx11-dev, libxext-dev, libxcomposite-dev, libxdamage-dev).
    init(sandbox: Sandbox, file: StaticString = #filePath, line: UInt = #line) throws {
        self.sandbox = sandbox
        path = sandbox.path("screen-reader")
        _ = try programOutput("cc", ["-O2", "-o", path, repositoryFile("Tests/Scripts/screen-reader.c").path,
                                     "-lX11", "-lXext", "-lXcomposite", "-lXdamage"],
                              because: "the test reader needs the X headers (scripts/install-deps.sh installs libxcomposite-dev "
                                + "and libxdamage-dev)", file: file, line: line)
    }

    /// The folder a run of `name` writes its frames into (made empty).
    private func folder(_ name: String) throws -> String {
        let folder = sandbox.path("frames-\(name)")
        try? FileManager.default.removeItem(atPath: folder)  // a folder of an earlier run of the same name: replaced
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Runs the reader in `mode` to its end: `frames` frames, `interval` ms apart; `target` is
    /// a window id (named) or a `WxH+X+Y` region of the root. Returns the frames it read, in order.
    func read(_ mode: Mode, interval: Int, frames: Int, target: String? = nil, display: String, name: String? = nil,
              file: StaticString = #filePath, line: UInt = #line) throws -> [PixelBuffer] {
        let folder = try folder(name ?? mode.rawValue)
        let reader = try ChildProcess(path, [mode.rawValue, String(interval), String(frames), folder] + (target.map { [$0] } ?? []),
                                      environment: ["DISPLAY": display], output: .standardError)
        XCTAssertEqual(reader.waitForExit(), 0, "screen-reader \(mode.rawValue) failed", file: file, line: line)
        return try Self.frames(in: folder)
    }

    /// Starts the reader and returns at once: the test stops it (its folder is `frames-NAME`).
    func start(_ mode: Mode, interval: Int, frames: Int, target: String? = nil, display: String, name: String,
               hold: Bool = false) throws -> (process: ChildProcess, folder: String) {
        let folder = try folder(name)
        var environment = ["DISPLAY": display]
        if hold { environment["SCREEN_READER_HOLD"] = "1" }
        let process = try ChildProcess(path, [mode.rawValue, String(interval), String(frames), folder] + (target.map { [$0] } ?? []),
                                       environment: environment)
        return (process, folder)
    }

    /// The frames in `folder`, decoded, in the order they were read.
    static func frames(in folder: String) throws -> [PixelBuffer] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".ppm") }.sorted()
        return try names.map { name in
            try PNMCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))), source: name)
        }
    }
}

/// Frames counted the way the sharing tests judge them.
enum FrameCount {
    /// How many frames show any pixel of a protected rectangle other than its fill; `origin`:
    /// where the frame's corner was on the root.
    static func uncovered(_ frames: [PixelBuffer], _ expected: [(rect: Rect, fill: UInt32)], origin: (x: Int, y: Int) = (0, 0)) -> Int {
        showingProtected(frames, expected, origin: origin).count
    }

    /// The indices of those frames, for a failure to say which frames (the first few: the covers
    /// came late; scattered: they came down).
    static func showingProtected(_ frames: [PixelBuffer], _ expected: [(rect: Rect, fill: UInt32)],
                                 origin: (x: Int, y: Int) = (0, 0)) -> [Int] {
        frames.indices.filter { index in
            let frame = frames[index]
            return expected.contains { rect, fill in
                let inside = rect.offsetBy(dx: -origin.x, dy: -origin.y).intersection(Rect(x: 0, y: 0, width: frame.width, height: frame.height))
                return (inside.y..<inside.maxY).contains { y in (inside.x..<inside.maxX).contains { x in frame[x, y] & 0xFF_FFFF != fill } }
            }
        }
    }

    /// How many frames hold a run of `runLength` pixels of any of `rows` (a protected window's
    /// own pixels), wherever they are in the frame: a read of another window's contents, or of
    /// a region, shows them at a place of its own.
    static func showing(_ rows: [[UInt32]], in frames: [PixelBuffer], runLength: Int = 32) -> Int {
        frames.filter { frame in
            rows.contains { row in
                let run = Array(row.prefix(runLength)).map { $0 & 0xFF_FFFF }
                guard run.count == runLength, frame.width >= runLength else { return false }
                return (0..<frame.height).contains { y in
                    (0...(frame.width - runLength)).contains { x in
                        frame[x, y] & 0xFF_FFFF == run[0] && (1..<runLength).allSatisfy { frame[x + $0, y] & 0xFF_FFFF == run[$0] }
                    }
                }
            }
        }.count
    }
}

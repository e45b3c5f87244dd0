// Real scrot JPEGs (quality 75, 4:2:0 chroma) placed against the agent's own grab of a private Xvfb.
import Foundation
import Testing
import ShotguardBase
@testable import ShotguardAgent
import ShotguardImaging
import ShotguardRegions
import ShotguardX11
import ShotguardScene
import ShotguardScreen

/// One 1920×1080 Xvfb for the suite, with the synthetic desktop as its root background.
final class ScrotDesktop: @unchecked Sendable {
    let server: VirtualDisplay
    let display: Display
    let folder: URL

    init() throws {
        server = try VirtualDisplay(width: 1920, height: 1080)
        display = try Display(name: server.name)
        try display.setRootBackground(SyntheticScreen.desktop(width: 1920, height: 1080))
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shotguard-scrot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // The suite's desktop lives in a static, never deinitialised: stop its Xvfb at exit,
        // or it outlives the test run.
        atexit { (try? ScrotPlacementTests.shared.get())?.stop() }
    }

    func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
        server.stop()
    }

    /// Runs `scrot -q 75 [extra] FILE` on the display and decodes what it wrote.
    func scrot(_ extra: [String], name: String) throws -> DecodedImage {
        let path = folder.appendingPathComponent(name).path
        let child = try ChildProcess("scrot", ["-q", "75"] + extra + [path], environment: ["DISPLAY": server.name])
        let status = child.waitForExit()
        guard status == 0 else { throw X11Error(.capture, "scrot exited with status \(status)") }
        let bytes = try FileIO.read(path, limit: DecodeLimits.standard.maxInputBytes)
        return try ImageCodec.decode(bytes, source: path)
    }
}

@Suite(.serialized) struct ScrotPlacementTests {
    static let shared = Result { try ScrotDesktop() }

    /// scrot's full-screen JPEG is the screen at the event: placed at the origin, verified.
    @Test func aScrotJPEGOfTheScreenIsPlacedAndVerified() throws {
        let desktop = try Self.shared.get()
        guard programExists("scrot") else { Issue.record("scrot is not installed (Debian package 'scrot')"); return }
        let root = try ScreenGrabber(display: desktop.display).captureScreen()
        let shot = try desktop.scrot([], name: "screen.jpg")
        #expect(shot.format == .jpeg && shot.isLossy)
        #expect(ImageEncoding.matching(original: try FileIO.read(desktop.folder.appendingPathComponent("screen.jpg").path, limit: 1 << 26))
            .map { if case .jpeg(let options) = $0 { options.quality } else { 0 } } == 75)
        let context = ScreenContext(width: root.width, height: root.height, windows: [])
        let started = monotonicNow()
        let alignment = Aligner.align(shot.image, root: root, context: context, verify: true, tolerance: .forImage(shot))
        let elapsed = (monotonicNow() - started) * 1000
        #expect(alignment?.method == .screen)
        #expect(alignment?.verified == true)
        print("placement: scrot -q 75 full screen 1920x1080: \(String(format: "%.1f", elapsed)) ms")
    }

    /// `scrot -a X,Y,W,H`: a region, found by search at its exact offset.
    @Test(arguments: [(121, 150, 640, 400), (1000, 90, 777, 555), (250, 680, 240, 160)])
    func aScrotJPEGOfARegionIsFoundAtItsOffset(x: Int, y: Int, width: Int, height: Int) throws {
        let desktop = try Self.shared.get()
        let root = try ScreenGrabber(display: desktop.display).captureScreen()
        let shot = try desktop.scrot(["-a", "\(x),\(y),\(width),\(height)"], name: "region-\(x).jpg")
        let context = ScreenContext(width: root.width, height: root.height, windows: [])
        let started = monotonicNow()
        // The standard budget's 100 ms is for release builds; a debug build under test gets room.
        let result = Aligner.locate(shot.image, root: root, context: context, verify: true, tolerance: .forImage(shot),
                                    budget: SearchBudget(verifications: 64, candidates: 64, seconds: 60))
        let elapsed = (monotonicNow() - started) * 1000
        #expect(result.alignment?.rect == Rect(x: x, y: y, width: width, height: height), "search ended \(String(describing: result.search))")
        print("placement: scrot -q 75 region \(width)x\(height) on 1920x1080: \(String(format: "%.1f", elapsed)) ms")
    }

    /// `scrot -a` as PNG: found by exact rows, at its offset.
    @Test func aScrotPNGOfARegionIsFoundAtItsOffset() throws {
        let desktop = try Self.shared.get()
        let root = try ScreenGrabber(display: desktop.display).captureScreen()
        let shot = try desktop.scrot(["-a", "250,680,240,160"], name: "region.png")
        #expect(!shot.isLossy)
        let context = ScreenContext(width: root.width, height: root.height, windows: [])
        let started = monotonicNow()
        let result = Aligner.locate(shot.image, root: root, context: context, verify: true, tolerance: .forImage(shot),
                                    budget: SearchBudget(verifications: 64, candidates: 64, seconds: 60))
        let elapsed = (monotonicNow() - started) * 1000
        #expect(result.alignment?.rect == Rect(x: 250, y: 680, width: 240, height: 160), "search ended \(String(describing: result.search))")
        #expect(result.alignment?.difference == nil)
        print("placement: scrot PNG region 240x160 on 1920x1080: \(String(format: "%.1f", elapsed)) ms")
    }
}

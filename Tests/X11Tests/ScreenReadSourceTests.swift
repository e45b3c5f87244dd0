// The screen-read source itself: what it leaves out, window pixmaps, a recording's rate, X-Resource.
import Foundation
import CX11
import Glibc
import ShotguardBase
import ShotguardImaging
import ShotguardScene
@testable import ShotguardX11
import ShotguardTestSupport
import XCTest

final class ScreenReadSourceTests: XCTestCase {
    nonisolated(unsafe) static let fixture = XvfbFixture()

    override class func setUp() {
        super.setUp()
        fixture.start(width: 320, height: 240)
        fixture.prepare { display in
            try paintWallpaper(on: display)
            return []
        }
    }

    override class func tearDown() {
        fixture.stop()
        super.tearDown()
    }

    private func pump(excluding: [Display]) throws -> ScreenReadPump {
        ScreenReadPump(try ScreenReadSource(displayName: try Self.fixture.scene().name, excluding: excluding))
    }

    /// The agent's own grabs are left out; another connection's, made after them, come
    /// through, so the first did reach the server while recording. Requests of other kinds
    /// (xprop's property reads, the grabber's set-up) bring nothing, not even a client's end.
    func testLeavesOutExcludedConnectionsAndOtherRequests() throws {
        let agent = try Self.fixture.display()
        let other = try Self.fixture.display()
        let pump = try pump(excluding: [agent])
        let full = Rect(x: 0, y: 0, width: 320, height: 240)
        _ = try ScreenGrabber(display: agent).capture(full)
        _ = try ScreenGrabber(display: agent, allowSharedMemory: false).capture(full)
        try runTool("xprop", ["-root"], display: agent.name)
        _ = try ScreenGrabber(display: other, allowSharedMemory: false).capture(Rect(x: 5, y: 6, width: 7, height: 8))
        // In the server's order: the excluded reads, had they come, would have come first.
        XCTAssertTrue(pump.run(seconds: 10) { !pump.events.isEmpty })
        XCTAssertEqual(pump.events.count, 1, "\(pump.events)")
        XCTAssertEqual(pump.reads.first?.client, other.clientBase)
        XCTAssertEqual(pump.reads.first?.request, .getImage)
        XCTAssertEqual(pump.reads.first?.drawable, UInt(other.root))
        XCTAssertEqual(pump.reads.first?.area, Rect(x: 5, y: 6, width: 7, height: 8))
        XCTAssertTrue(pump.reads.allSatisfy { $0.client != agent.clientBase })
    }

    /// A client that names a window's pixmap with Composite and reads it: the reads carry the
    /// window, and land on the window's rectangle with its border (the pixmap holds both).
    func testWindowPixmapReadsArePlacedOnTheirWindow() throws {
        let display = try Self.fixture.display()
        let pump = try pump(excluding: [display])
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/window-pixmap-reader.py").path
        let reader = try PipedCommand("/usr/bin/python3 \(script) 150 20 60 40 3 5 5 10 10", display: display.name, capacity: 4096)
        XCTAssertTrue(pump.run(seconds: 20) { pump.reads.count == 2 }, "the pixmap reads were not seen")
        // The reader is blocked on its output, so its window is still there.
        let placed = pump.reads.map { display.rootRectangle(of: $0) }
        XCTAssertTrue(pump.run(seconds: 20, output: reader) { reader.ended })
        XCTAssertEqual(reader.status(), 0)
        let window = String(decoding: reader.output.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        XCTAssertEqual(pump.reads.map { $0.pixmapWindow.map(hexID) }, [window, window])
        XCTAssertEqual(pump.reads.map(\.area), [Rect(x: 0, y: 0, width: 66, height: 46), Rect(x: 5, y: 5, width: 10, height: 10)])
        XCTAssertEqual(placed, [Rect(x: 150, y: 20, width: 66, height: 46), Rect(x: 155, y: 25, width: 10, height: 10)])
        // Gone with its client: the same pixmap read now is nowhere.
        XCTAssertTrue(pump.runUntilEnded(pump.reads[0].client, asking: display, seconds: 10))
        XCTAssertNil(display.rootRectangle(of: pump.reads[0]))
    }

    /// A 30 fps recording of 2 s is 60 frames: each is one read, or counted in the read
    /// before it when they came together (the pump looks only while the test waits on it).
    func testRecordingAtThirtyFramesASecondIsSeenFrameByFrame() throws {
        let display = try Self.fixture.display()
        let pump = try pump(excluding: [display])
        let recorder = try ChildProcess("ffmpeg", ["-loglevel", "error", "-f", "x11grab", "-framerate", "30", "-video_size",
                                                   "320x240", "-t", "2", "-i", display.name, "-f", "null", "-"],
                                        environment: ["DISPLAY": display.name])
        XCTAssertTrue(pump.run(seconds: 30) { !pump.reads.isEmpty }, "the recording was not seen")
        XCTAssertEqual(recorder.waitForExit(), 0)
        XCTAssertTrue(pump.runUntilEnded(pump.reads[0].client, asking: display, seconds: 10), "the recorder's end was not seen")
        let frames = pump.reads
        XCTAssertEqual(Set(frames.map(\.client)).count, 1)
        let count = frames.reduce(0) { $0 + $1.repeats }
        XCTAssertTrue((58...66).contains(count), "\(count) reads for 60 frames")
        XCTAssertTrue(frames.allSatisfy { $0.request == .shmGetImage && $0.area == Rect(x: 0, y: 0, width: 320, height: 240) })
        let span = frames.last!.serverTime &- frames.first!.serverTime
        print("30 fps for 2 s: \(count) reads in \(frames.count) over \(span) ms of server time, in \(pump.wakeups) wake-ups")
    }

    /// X-Resource names this process for its own connection and window.
    func testProcessOfAClientAndOfAWindow() throws {
        let display = try Self.fixture.display()
        XCTAssertEqual(display.processID(ofClient: display.clientBase), getpid())
        let window = try PaintedWindow(display: display, frame: Rect(x: 1, y: 2, width: 3, height: 4),
                                       content: PixelBuffer(width: 3, height: 4), instance: "own", className: "Own", title: "own")
        XCTAssertEqual(display.clientBase(ofResource: UInt(window.id)), display.clientBase)
        XCTAssertEqual(display.processID(ofWindow: UInt(window.id)), getpid())
        XCTAssertEqual(display.processID(ofWindow: UInt(display.root)), nil, "the root is the server's")
        XCTAssertNil(display.processID(ofClient: 0x1FE0_0000), "no client has this base")
    }

    /// X-Resource has a live client, with its process, and no longer has one that closed its
    /// connection: that one is gone, not merely without a process (as a client over TCP is).
    func testAClosedConnectionIsGoneFromTheServer() throws {
        let display = try Self.fixture.display()
        var other: Display? = try Self.fixture.display()
        let base = try XCTUnwrap(other?.clientBase)
        let live = display.clientProcesses(of: base)
        XCTAssertTrue(live.known)
        XCTAssertEqual(live.pids[base], getpid())
        XCTAssertTrue(live.clients.contains(base))
        XCTAssertFalse(live.isGone(base))
        XCTAssertTrue(display.clientProcesses(of: 0).clients.isSuperset(of: [display.clientBase, base]))
        other = nil
        // The server has read the closed connection's end once a later round trip of this one
        // came back: each answer comes from a turn of its loop that began after the close.
        var answer = display.clientProcesses(of: base)
        for _ in 0..<100 where !answer.isGone(base) { answer = display.clientProcesses(of: base) }
        XCTAssertTrue(answer.isGone(base), "\(answer)")
        XCTAssertNil(answer.pids[base])
        XCTAssertFalse(ClientProcesses(known: false).isGone(base), "no answer says nothing of its absence")
    }

    /// A server without RECORD: a clear error, and X-Resource's absence is an unknown pid.
    /// Without libXtst (or libXRes) the source says which library is missing and what cannot
    /// be seen; nothing else needs them, so the process starts and opens its display.
    func testWithoutLibXtstTheSourceSaysSo() throws {
        let probe = try shotguardBinary().deletingLastPathComponent().appendingPathComponent("sensing-probe")
        for library in ["libXtst.so.6", "libXRes.so.1"] {
            let run = try runWithoutLibrary(library, probe, [], environment: ["DISPLAY": try Self.fixture.name()])
            XCTAssertEqual(run.status, 1, run.stderr)
            XCTAssertTrue(run.stderr.hasPrefix("sensing-probe: cannot load \(library) ("), run.stderr)
            XCTAssertTrue(run.stderr.hasSuffix("): programs that read the screen (scrot, ffmpeg, a screen share) cannot be "
                + "seen as they read it until it is installed (Debian: libxtst6 and libxres1)\n"), run.stderr)
        }
    }

    func testServerWithoutRecordSaysSo() throws {
        let server = try VirtualDisplay(width: 64, height: 48, withoutExtensions: ["RECORD", "X-Resource"])
        defer { server.stop() }
        XCTAssertThrowsError(try ScreenReadSource(displayName: server.name)) { error in
            let failure = error as? X11Error
            XCTAssertEqual(failure?.kind, .unsupported)
            XCTAssertEqual(failure?.message, "the X server '\(server.name)' has no RECORD extension: programs that read "
                + "the screen (scrot, ffmpeg, a screen share) cannot be seen as they read it")
        }
        let display = try Display(name: server.name)
        XCTAssertNil(display.processID(ofClient: display.clientBase))
    }

    /// The server going away: the descriptor wakes the loop, `read` hands over nothing and
    /// says the source is lost, and letting the source go does not end the process.
    func testServerLossEndsTheSourceCleanly() throws {
        let doomed = try VirtualDisplay(width: 64, height: 48)
        var source: ScreenReadSource? = try ScreenReadSource(displayName: doomed.name)
        let pump = ScreenReadPump(try XCTUnwrap(source))
        XCTAssertFalse(source?.isLost ?? true)
        doomed.stop()
        XCTAssertFalse(pump.run(seconds: 10) { false }, "runs until it finds the source lost")
        XCTAssertTrue(source?.isLost ?? false)
        XCTAssertEqual(source?.read(), [])
        source = nil
    }

    /// Copies are recorded only for the clients that may copy the screen: a client that connects
    /// is recorded for its probation, so its first copy of the root is seen at once (with its
    /// destination); one that copied nothing is let go after it, while still connected, and its
    /// copies are then no longer recorded (the server stops hooking them).
    func testCopiesAreRecordedForNewClientsThenOnlyForThoseThatMayShare() throws {
        let marker = try Self.fixture.display()
        let pump = try pump(excluding: [])
        let copier = try Self.fixture.display()
        let idle = try Self.fixture.display()
        let pixmap = XCreatePixmap(copier.handle, copier.root, 50, 40, UInt32(XDefaultDepth(copier.handle, 0)))
        let gc = XCreateGC(copier.handle, pixmap, 0, nil)
        XCopyArea(copier.handle, copier.root, pixmap, gc, 10, 20, 50, 40, 0, 0)
        copier.sync()
        XCTAssertTrue(pump.run(seconds: 10) { !pump.reads(of: copier.clientBase).isEmpty }, "the first copy was seen")
        let copy = try XCTUnwrap(pump.reads(of: copier.clientBase).first)
        XCTAssertEqual(copy.request, .copyArea)
        XCTAssertEqual(copy.drawable, UInt(copier.root))
        XCTAssertEqual(copy.area, Rect(x: 10, y: 20, width: 50, height: 40))
        XCTAssertEqual(copy.destination, CopyDestination(drawable: UInt(pixmap), x: 0, y: 0))
        XCTAssertGreaterThanOrEqual(pump.source.copyClients, 2, "the new clients are recorded")
        XCTAssertTrue(pump.run(seconds: 10) { pump.source.copyClients == 1 }, "the idle client was let go after its probation")
        // Its copy of the root is no longer seen; the marker's read after it is.
        let idleCopier = RootCopier(idle)
        defer { idleCopier.free() }
        idleCopier.copy(from: 0, 0)
        XCTAssertTrue(try markerReadIsSeen(marker, pump))
        XCTAssertTrue(pump.reads(of: idle.clientBase).isEmpty, "\(pump.events)")
        XFreeGC(copier.handle, gc)
        XFreePixmap(copier.handle, pixmap)
    }

    /// A registration with the copy context goes out for each client alone: one for a client
    /// that ended on the way is refused (BadMatch) without keeping a live client's out.
    /// Regression: both went in one request, the server refused all of it, and a share
    /// starting on a connection past its probation was not recorded.
    func testAClientGoneOnTheWayKeepsNoOtherOutOfTheCopyRecording() throws {
        let marker = try Self.fixture.display()
        let pump = try pump(excluding: [])
        let live = try Self.fixture.display()
        var gone: Display? = try Self.fixture.display()
        let goneBase = try XCTUnwrap(gone?.clientBase)
        XCTAssertNotNil(marker.processID(ofClient: goneBase), "X-Resource knows a live client")
        gone = nil
        // Each question a round trip: the server has read the connection's end once it no longer knows it.
        let deadline = monotonicNow() + 10
        while marker.processID(ofClient: goneBase) != nil, monotonicNow() < deadline {}
        XCTAssertNil(marker.processID(ofClient: goneBase), "the client is gone")
        // Out of the copy context, as it is after its probation.
        pump.source.changeCopyClients(adding: [], removing: [live.clientBase])
        let copier = RootCopier(live)
        defer { copier.free() }
        copier.copy(from: 0, 0)
        XCTAssertTrue(try markerReadIsSeen(marker, pump))
        XCTAssertTrue(pump.reads(of: live.clientBase).isEmpty, "let go: its copy is not recorded \(pump.events)")
        pump.source.changeCopyClients(adding: [goneBase, live.clientBase], removing: [])
        copier.copy(from: 10, 20)
        XCTAssertTrue(pump.run(seconds: 10) { !pump.reads(of: live.clientBase).isEmpty }, "registered again: its copy is seen")
        XCTAssertEqual(pump.reads(of: live.clientBase).first?.area, Rect(x: 10, y: 20, width: 50, height: 40))
    }

    /// Reads 4x4 pixels on `marker` and waits for the read: everything recorded before it was handled.
    private func markerReadIsSeen(_ marker: Display, _ pump: ScreenReadPump) throws -> Bool {
        _ = try ScreenGrabber(display: marker, allowSharedMemory: false).capture(Rect(x: 0, y: 0, width: 4, height: 4))
        return pump.run(seconds: 10) { !pump.reads(of: marker.clientBase).isEmpty }
    }
}

/// A client's 50x40 pixmap and the GC that copies the root into it.
private struct RootCopier {
    let display: Display
    let pixmap: Pixmap
    let gc: GC

    init(_ display: Display) {
        self.display = display
        pixmap = XCreatePixmap(display.handle, display.root, 50, 40, UInt32(XDefaultDepth(display.handle, 0)))
        gc = XCreateGC(display.handle, pixmap, 0, nil)
    }

    /// Copies the root's 50x40 at (`x`, `y`) into the pixmap, and waits for the server to have done it.
    func copy(from x: Int32, _ y: Int32) {
        XCopyArea(display.handle, display.root, pixmap, gc, x, y, 50, 40, 0, 0)
        display.sync()
    }

    func free() {
        XFreeGC(display.handle, gc)
        XFreePixmap(display.handle, pixmap)
    }
}

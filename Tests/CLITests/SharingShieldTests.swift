// Screen shares the way browsers, OBS and GStreamer read the screen, under the default agent: each seen with its program, and at most its first frame shows a protected window.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardScene
import ShotguardTestSupport
import ShotguardX11
import XCTest

/// The test reader (Tests/Scripts/screen-reader.c) reads the screen by each path real programs
/// use, and writes each frame it read; `shotguard watch --no-guard --json` runs with no shield
/// option (the recordings' shield is on by default). The frames are counted from the reader's
/// own files.
final class SharingShieldTests: WatchDesktopTestCase {
    /// The agent, reporting only (`--no-guard`) unless `guarding` (a locked policy refuses `--no-guard`).
    private func agent(regions path: String? = nil, guarding: Bool = false, bus: AgentBus? = nil) throws -> WatchAgent {
        try WatchAgent(["--regions", path ?? regions, "--no-clipboard", "--no-tools"] + (guarding ? [] : ["--no-guard"]), sandbox: sandbox,
                       display: desk.name, environment: bus?.environment ?? [:])
    }

    /// The recording lines of `watch --json` so far, in order.
    private func recordings(_ watch: WatchAgent, count: Int) -> [[String: Any]] {
        var lines: [[String: Any]] = []
        while lines.count < count, let line = watch.nextReport(seconds: 10, type: "recording")?.json { lines.append(line) }
        return lines
    }

    /// Every recording line the agent printed so far (each is printed before its event is said).
    private func allRecordings(_ watch: WatchAgent) throws -> [[String: Any]] {
        String(decoding: try Data(contentsOf: watch.stdoutURL), as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["type"] as? String == "recording" }
    }

    /// Rows of the vault's protected strip, as the vault paints them.
    private var vaultRows: [[UInt32]] {
        let content = WatchDesktop.pattern(width: 200, height: 120, seed: 3)
        return [22, 40, 58].map { y in (0..<content.width).map { content[$0, y] } }
    }

    /// libwebrtc's share (Chrome, Firefox, Electron apps): a shared pixmap, a CopyArea of the
    /// root into it and an XSync each frame, read from shared memory. Regression: nothing was
    /// seen, every frame showed the vault.
    func testABrowsersShareLeaksAtMostItsFirstFrame() throws {
        let reader = try ScreenReader(sandbox: sandbox)
        let watch = try agent()
        let expected = try desk.expectedRedactions()
        let frames = try reader.read(.copyArea, interval: 33, frames: 45, display: desk.name)
        XCTAssertEqual(frames.count, 45)
        let shown = FrameCount.uncovered(frames, expected)
        print("CopyArea share at 30 fps: \(shown) of \(frames.count) frames show a protected pixel")
        XCTAssertLessThanOrEqual(shown, 1, watch.log.suffix(2000).description)
        XCTAssertTrue(watch.waitForCoversDown(), "the covers came down once it was gone: \(watch.log.suffix(800))")
        let lines = recordings(watch, count: 2)
        XCTAssertEqual(lines.map { $0["state"] as? String }, ["started", "stopped"], watch.log)
        XCTAssertEqual(lines.first?["program"] as? String, "screen-reader")
        XCTAssertEqual(lines.first?["request"] as? String, "CopyArea")
        XCTAssertEqual(lines.first?["geometry"] as? String, "640x400+0+0")
        XCTAssertEqual(lines.first?["covers"] as? Int, 2, "the vault's row and the clock corner")
        XCTAssertNotNil(lines.first?["pid"] as? Int)
    }

    /// x11perf copies its own window into a pixmap millions of times a second from its first
    /// moment (in the copy recording), and reads one pixel after each batch to wait for the
    /// server (a recording of one pixel). Regression: the agent fell behind the recorded flood,
    /// the server kept hundreds of megabytes of recording for it and slowed to a crawl, x11perf's
    /// end was seen more than ten seconds late, and a share started after it leaked every frame
    /// until the backlog was read. Now x11perf's end is seen as it ends, and the share is
    /// covered from its first frame.
    func testACopyFloodInAClientsFirstSecondsLeavesASharesCoversOnTime() throws {
        _ = try requireTool("x11perf", package: "x11-apps")
        let reader = try ScreenReader(sandbox: sandbox)
        let watch = try agent()
        let expected = try desk.expectedRedactions()
        let flood = try ChildProcess("x11perf", ["-repeat", "1", "-time", "1", "-copywinpix10"], environment: ["DISPLAY": desk.name],
                                     output: .standardError)
        XCTAssertEqual(flood.waitForExit(), 0, "x11perf")
        XCTAssertTrue(watch.waitForEvent("recording") { $0["state"] as? String == "stopped" && $0["program"] as? String == "x11perf" },
                      "x11perf's end was not seen: \(watch.log.suffix(1500))")
        let frames = try reader.read(.copyArea, interval: 33, frames: 30, display: desk.name)
        XCTAssertEqual(frames.count, 30)
        let shown = FrameCount.showingProtected(frames, expected)
        print("CopyArea share after x11perf's copy flood: \(shown.count) of \(frames.count) frames show a protected pixel: \(shown)")
        XCTAssertLessThanOrEqual(shown.count, 1, "frames \(shown): \(watch.log.suffix(2000))")
    }

    /// A core GetImage every 2 s: a recording at its second read, and covered from its first.
    /// Regression: at 0.5 fps every frame showed the vault (never counted as a recording).
    func testASlowPollerLeaksAtMostItsFirstFrame() throws {
        let reader = try ScreenReader(sandbox: sandbox)
        let watch = try agent()
        let frames = try reader.read(.getImage, interval: 2000, frames: 3, display: desk.name)
        XCTAssertEqual(frames.count, 3)
        XCTAssertLessThanOrEqual(FrameCount.uncovered(frames, try desk.expectedRedactions()), 1, watch.log.suffix(2000).description)
        XCTAssertEqual(recordings(watch, count: 1).first?["request"] as? String, "GetImage", watch.log)
    }

    /// GStreamer's ximagesrc (Kazam, vokoscreen): DAMAGE on the root, a read at each change. The
    /// watch itself is a recording and raises the covers before any read.
    func testADamageWatcherIsCoveredFromItsWatch() throws {
        let reader = try ScreenReader(sandbox: sandbox)
        let watch = try agent()
        // Something that changes all the time, far from the vault and the clock corner.
        let said = try sandbox.write("animation.out", [])
        let changes = try FileChanges([said])
        let script = repositoryFile("Tests/Scripts/animated-window.py").path
        let animation = try ChildProcess("/bin/sh", ["-c", "exec /usr/bin/python3 '\(script)' 420 330 60 40 > '\(said)'"],
                                         environment: ["DISPLAY": desk.name], output: .standardError)
        defer { animation.stop() }
        XCTAssertTrue(changes.wait(seconds: 10) { (try? String(contentsOfFile: said, encoding: .utf8))?.contains("shown") ?? false },
                      "the animation did not show")
        let frames = try reader.read(.damage, interval: 50, frames: 10, display: desk.name)
        XCTAssertEqual(frames.count, 10)
        XCTAssertLessThanOrEqual(FrameCount.uncovered(frames, try desk.expectedRedactions()), 1, watch.log.suffix(2000).description)
        let lines = recordings(watch, count: 2)
        XCTAssertEqual(lines.map { $0["state"] as? String }, ["started", "stopped"], watch.log)
        XCTAssertEqual(lines.first?["geometry"] as? String, "640x400+0+0")
        XCTAssertEqual(lines.first?["covers"] as? Int, 2)
        // The covers went up for the watch itself (its reads, at 20 a second, made it a
        // recording before the watch's own second).
        XCTAssertEqual(watch.events.first { $0["event"] as? String == "covers" }?["hold"] as? String, "DamageCreate", watch.log)
    }

    /// OBS's window capture: Notes redirected and its pixmap named once, read each frame. It
    /// holds Notes's own contents (never the vault's), is a recording from the redirection until
    /// it frees the pixmap and undoes it — while its client still runs — and covers only what
    /// lies inside Notes (nothing protected).
    func testANamedPixmapHolderRecordsUntilItFreesThePixmap() throws {
        let reader = try ScreenReader(sandbox: sandbox)
        let watch = try agent()
        let notes = try desk.display.geometry(of: desk.notes.id).frame
        let (process, folder) = try reader.start(.named, interval: 100, frames: 5, target: String(desk.notes.id), display: desk.name,
                                                  name: "named", hold: true)
        defer { process.stop() }
        let lines = recordings(watch, count: 2)
        XCTAssertEqual(lines.map { $0["state"] as? String }, ["started", "stopped"], watch.log)
        XCTAssertFalse(process.hasExited, "the recording stopped when the pixmap was freed, not when the client left")
        XCTAssertEqual(watch.events.filter { $0["event"] as? String == "covers" }.count, 0, "nothing protected inside Notes")
        let geometry = try XCTUnwrap(lines.first?["geometry"] as? String)
        XCTAssertTrue(geometry.hasSuffix("+\(notes.x)+\(notes.y)") || geometry.contains("x\(notes.height)"),
                      "what it watches is Notes (\(notes)): \(geometry)")
        XCTAssertEqual(lines.first?["covers"] as? Int, 0, "nothing protected is inside Notes")
        let frames = try ScreenReader.frames(in: folder)
        XCTAssertEqual(frames.count, 5)
        XCTAssertEqual(FrameCount.showing(vaultRows, in: frames), 0, "a window's pixmap holds that window alone")
        XCTAssertFalse(watch.events.contains { $0["event"] as? String == "covers" }, "no cover went up: \(watch.log)")
    }

    /// A browser sharing the vault's window alone, or OBS's window capture of it: the vault's
    /// own pixels, in which the covers on the screen are not. Regression: every frame showed
    /// the vault's protected rows. Covers made children of the vault, over what the rule names
    /// of it, are in them from the watch on; the vault's other rows still show.
    func testANamedPixmapOfTheVaultItselfShowsItsProtectedRowsInAtMostItsFirstFrame() throws {
        let reader = try ScreenReader(sandbox: sandbox)
        let watch = try agent()
        let frames = try reader.read(.named, interval: 100, frames: 10, target: String(desk.vault.id), display: desk.name)
        XCTAssertEqual(frames.count, 10)
        let shown = FrameCount.showing(vaultRows, in: frames)
        print("named pixmap of the vault: \(shown) of \(frames.count) frames show its protected rows")
        XCTAssertLessThanOrEqual(shown, 1, watch.log.suffix(2000).description)
        let content = WatchDesktop.pattern(width: 200, height: 120, seed: 3)
        let free = [6, 90].map { y in (0..<content.width).map { content[$0, y] } }
        XCTAssertEqual(FrameCount.showing(free, in: frames), frames.count, "the rows no rule names show in every frame")
        XCTAssertTrue(watch.waitForCoversDown(), "the covers came down once it was gone: \(watch.log.suffix(800))")
    }

    /// OBS's window capture names the pixmap of the window manager's frame, title bar and all.
    /// With a rule naming the whole vault (its title bar too, on the screen), the covers inside
    /// the vault hid its client area, and the title bar showed in every frame. A cover made a
    /// child of the frame hides it, from the watch on.
    func testANamedPixmapOfTheVaultsFrameShowsNothingOfItInAtMostItsFirstFrame() throws {
        let titles = sandbox.home.appendingPathComponent("frame-id").path
        try runTool("xwininfo -tree -id \(desk.vault.id) | sed -n 's/^ *Parent window id: \\(0x[0-9a-f]*\\).*/\\1/p' > \(titles)",
                    display: desk.name)
        let frameText = try String(contentsOfFile: titles, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let frame = try XCTUnwrap(UInt(frameText.dropFirst(2), radix: 16), "no parent in '\(frameText)'")
        XCTAssertNotEqual(frame, UInt(desk.display.root), "openbox did not frame the vault")
        let whole = try sandbox.write("whole", text: "window class=Vault\n")
        let reader = try ScreenReader(sandbox: sandbox)
        let watch = try agent(regions: whole)
        let frames = try reader.read(.named, interval: 100, frames: 10, target: String(frame), display: desk.name)
        XCTAssertEqual(frames.count, 10)
        let showing = FrameCount.showingProtected(frames, [(Rect(x: 0, y: 0, width: 4096, height: 4096), 0x000000)])
        print("named pixmap of the vault's frame: \(showing.count) of \(frames.count) frames show any of it")
        XCTAssertLessThanOrEqual(showing.count, 1, "frames \(showing): \(watch.log.suffix(2000))")
        XCTAssertTrue(watch.waitForCoversDown(), "the covers came down once it was gone: \(watch.log.suffix(800))")
    }

    /// The same share of a vault wholly past the screen's edge (dwm hides another tag's
    /// windows so; it has no frames, and an override-redirect window stands in for one here):
    /// its Composite pixmap still holds all of it. Regression: the sentinel placed the watch
    /// and the reads nowhere on the screen and dropped them, so every frame showed the vault.
    func testANamedPixmapOfAVaultPastTheScreensEdgeShowsItsProtectedRowsInAtMostItsFirstFrame() throws {
        let content = WatchDesktop.pattern(width: 180, height: 100, seed: 5)
        let hidden = try PaintedWindow(display: desk.display, frame: Rect(x: 20, y: 200, width: content.width, height: content.height),
                                       content: content, instance: "vault", className: "Vault", title: "", popup: true)
        defer { hidden.destroy() }
        try hidden.move(x: fullScreen.width + 40, y: 200)
        let reader = try ScreenReader(sandbox: sandbox)
        let watch = try agent()
        let frames = try reader.read(.named, interval: 100, frames: 10, target: String(hidden.id), display: desk.name)
        XCTAssertEqual(frames.count, 10)
        let rows = [22, 40, 58].map { y in (0..<content.width).map { content[$0, y] } }
        let shown = FrameCount.showing(rows, in: frames)
        print("named pixmap of a vault past the edge: \(shown) of \(frames.count) frames show its protected rows")
        XCTAssertLessThanOrEqual(shown, 1, watch.log.suffix(2000).description)
        let free = [6, 90].map { y in (0..<content.width).map { content[$0, y] } }
        XCTAssertEqual(FrameCount.showing(free, in: frames), frames.count, "the rows no rule names show in every frame")
    }

    /// A share of a 200x100 region far from every protected rectangle: a recording, and nothing
    /// on the user's screen is covered.
    func testARegionShareFarFromTheRulesCoversNothing() throws {
        let reader = try ScreenReader(sandbox: sandbox)
        let watch = try agent()
        let frames = try reader.read(.copyArea, interval: 50, frames: 15, target: "200x100+400+260", display: desk.name)
        XCTAssertEqual(frames.count, 15)
        let lines = recordings(watch, count: 2)
        XCTAssertEqual(lines.map { $0["state"] as? String }, ["started", "stopped"], watch.log)
        XCTAssertEqual(lines.first?["geometry"] as? String, "200x100+400+260")
        XCTAssertEqual(lines.first?["covers"] as? Int, 0)
        XCTAssertFalse(watch.events.contains { $0["event"] as? String == "covers" }, "no cover went up: \(watch.log)")
    }

    /// `trust program=screen-reader`: the user's own recorder sees everything (no cover goes
    /// up, so its frames show the vault), and is still said as a recording, trusted.
    func testATrustedRecorderRaisesNoCovers() throws {
        let reader = try ScreenReader(sandbox: sandbox)
        let trusting = try sandbox.write("trusting", text: WatchDesktop.regions + "trust program=screen-reader\n")
        let watch = try agent(regions: trusting)
        XCTAssertTrue(watch.waitForLog("trusting screen-reader", seconds: 10), watch.log)
        let frames = try reader.read(.copyArea, interval: 50, frames: 10, display: desk.name)
        XCTAssertEqual(FrameCount.showing(vaultRows, in: frames), 10, "every frame shows the vault: nothing was covered")
        let lines = recordings(watch, count: 2)
        XCTAssertEqual(lines.first?["trusted"] as? Bool, true, watch.log)
        XCTAssertEqual(lines.first?["covers"] as? Int, 0)
        XCTAssertFalse(watch.events.contains { $0["event"] as? String == "covers" }, "no cover went up: \(watch.log)")
    }

    /// Under a locked system policy the user's `trust` has no effect: the agent says so, and
    /// the recorder's frames are covered from its second on.
    func testALockedPolicyRefusesTheUsersTrust() throws {
        let reader = try ScreenReader(sandbox: sandbox)
        let policy = sandbox.home.appendingPathComponent("xdg/shotguard")
        try FileManager.default.createDirectory(at: policy, withIntermediateDirectories: true)
        try Data("lock\n".utf8).write(to: policy.appendingPathComponent("regions"))
        let trusting = try sandbox.write("trusting", text: WatchDesktop.regions + "trust program=screen-reader\n")
        let watch = try agent(regions: trusting, guarding: true)
        XCTAssertTrue(watch.waitForLog("refused (line 4: trust program=screen-reader)", seconds: 10), watch.log)
        let frames = try reader.read(.copyArea, interval: 50, frames: 10, display: desk.name)
        XCTAssertLessThanOrEqual(FrameCount.uncovered(frames, try desk.expectedRedactions()), 1, watch.log.suffix(2000).description)
        XCTAssertEqual(recordings(watch, count: 1).first?["trusted"] as? Bool, false, watch.log)
    }

    /// A share that runs is in `status` (text and JSON) with its program, pid, request and what
    /// was covered; the bus says it started and stopped with its program and pid; one
    /// notification names the program and the count.
    func testAShareIsInStatusOnTheBusAndInANotification() throws {
        let bus = try AgentBus(self, notificationServer: true)
        let reader = try ScreenReader(sandbox: sandbox)
        let watch = try agent(bus: bus)
        let monitor = try bus.monitor()
        defer { monitor.terminate() }
        let (share, _) = try reader.start(.copyArea, interval: 100, frames: 600, display: desk.name, name: "long")
        defer { share.stop() }
        XCTAssertTrue(watch.waitForEvent("recording") { $0["state"] as? String == "started" }, watch.log)
        let status = try sandbox.run(["status"], environment: bus.environment.mapValues { $0 })
        XCTAssertEqual(status.status, 0, status.stderr)
        let line = try XCTUnwrap(status.lines.first { $0.hasPrefix("recording: ") }, status.stdoutText)
        XCTAssertTrue(line.hasPrefix("recording: screen-reader (pid \(share.pid)) since "), line)
        XCTAssertTrue(line.hasSuffix(", CopyArea of 640x400+0+0: 2 protected areas covered"), line)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try sandbox.run(["status", "--json"],
                                                                                              environment: bus.environment.mapValues { $0 }).stdout))
            as? [String: Any])
        let recording = try XCTUnwrap((json["recordings"] as? [[String: Any]])?.first, "\(json)")
        XCTAssertEqual(recording["program"] as? String, "screen-reader")
        XCTAssertEqual(recording["pid"] as? Int, Int(share.pid))
        XCTAssertEqual(recording["request"] as? String, "CopyArea")
        XCTAssertEqual(recording["covers"] as? Int, 2)
        XCTAssertEqual(recording["trusted"] as? Bool, false)
        XCTAssertTrue(bus.waitForNotify { $0["summary"] as? String == "screen-reader is sharing your screen: 2 protected areas covered" },
                      "\(bus.notifyCalls())")
        share.stop()
        XCTAssertTrue(watch.waitForEvent("recording") { $0["state"] as? String == "stopped" }, watch.log)
        readOutput(of: [monitor]) { agentSignals(in: monitor).count >= 2 || monitor.isFinished }
        let signals = agentSignals(in: monitor).filter { $0.member.hasPrefix("Recording") }
        XCTAssertEqual(signals.map(\.member), ["RecordingStarted", "RecordingStopped"])
        XCTAssertEqual(signals.first?.arguments.first as? String, "screen-reader")
        XCTAssertEqual(signals.first?.arguments.dropFirst().first as? Int, Int(share.pid))
        XCTAssertEqual(signals.first?.arguments.last as? String, "640x400+0+0")
        XCTAssertFalse(try sandbox.run(["status"], environment: bus.environment.mapValues { $0 }).stdoutText.contains("recording: "), "it ended")
    }

    /// Ordinary desktop use while the agent runs, each program a new client (its copies
    /// recorded): a compositing manager drawing the screen (picom, with its CopyArea, RENDER
    /// Composite, DAMAGE and redirections), a terminal scrolling (xterm), a GTK application
    /// scrolling, the window manager reading their icons (openbox's GetImage of another client's
    /// pixmap). None is a read of the screen: no cover, no recording. A region share made after
    /// them proves the agent has heard everything before it.
    func testOrdinaryDesktopUseRaisesNoCoverAndNoRecording() throws {
        for (program, package) in [("picom", "picom"), ("xterm", "xterm")] { _ = try requireTool(program, package: package) }
        let reader = try ScreenReader(sandbox: sandbox)
        let watch = try agent()
        let environment = ["DISPLAY": desk.name, "HOME": sandbox.home.path]
        let picom = try ChildProcess("picom", ["--backend", "xrender", "--no-vsync", "--config", "/dev/null"], environment: environment)
        defer { picom.stop() }
        let deadline = Date().addingTimeInterval(10)
        while desk.display.selectionOwner("_NET_WM_CM_S0") == nil, Date() < deadline, !picom.hasExited { usleep(20_000) }
        XCTAssertNotNil(desk.display.selectionOwner("_NET_WM_CM_S0"), "picom did not start compositing")
        let terminal = try ChildProcess("xterm", ["-fa", "DejaVu Sans Mono", "-fs", "10", "-geometry", "60x12+280+190", "-e", "sh", "-c",
                                                  "seq 1 4000"], environment: environment)
        let scroller = try ChildProcess("/usr/bin/python3", [repositoryFile("Tests/Scripts/gtk-scroller.py").path, "200"],
                                        environment: environment, output: .standardError)
        XCTAssertEqual(terminal.waitForExit(), 0, "xterm")
        XCTAssertEqual(scroller.waitForExit(), 0, "the GTK application")
        _ = try reader.read(.copyArea, interval: 50, frames: 3, target: "100x50+20+330", display: desk.name)
        XCTAssertTrue(watch.waitForEvent("recording") { $0["program"] as? String == "screen-reader" }, watch.log)
        let recordings = watch.events.filter { $0["event"] as? String == "recording" }
        XCTAssertEqual(Set(recordings.compactMap { $0["program"] as? String }), ["screen-reader"], "\(recordings)")
        XCTAssertFalse(watch.events.contains { $0["event"] as? String == "covers" }, "no cover went up: \(watch.log)")
        XCTAssertFalse(watch.log.contains("screen read by openbox"), "openbox reading an icon reads no screen: \(watch.log)")
    }

    /// Programs that read the screen past the X server are recognised by what they are: a
    /// process that loads NVIDIA's NvFBC library (here python3 loading a real library installed
    /// under that name, in a folder of the agent's LD_LIBRARY_PATH) and gpu-screen-recorder's
    /// KMS helper (a real program run under that name, from the agent's PATH). While one runs
    /// every protected area is covered, it is said as a recording with why, and its end lowers
    /// the covers.
    func testCaptureHelpersPastTheXServerCoverEveryProtectedArea() throws {
        let libraries = sandbox.home.appendingPathComponent("nvidia")
        let programs = sandbox.home.appendingPathComponent("bin")
        for folder in [libraries, programs] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let library = libraries.appendingPathComponent("libnvidia-fbc.so.1").path
        // The library itself, not its link (copyItem copies a link as a link).
        let real = URL(fileURLWithPath: "/usr/lib/x86_64-linux-gnu/libXdamage.so.1").resolvingSymlinksInPath().path
        try FileManager.default.copyItem(atPath: real, toPath: library)
        let helper = programs.appendingPathComponent("gsr-kms-server").path
        try FileManager.default.copyItem(atPath: "/bin/sleep", toPath: helper)
        let watch = try WatchAgent(["--regions", regions, "--no-guard", "--no-clipboard", "--no-tools"], sandbox: sandbox,
                                   display: desk.name,
                                   environment: ["PATH": programs.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                                                 "LD_LIBRARY_PATH": libraries.path])
        let expected = try desk.expectedRedactions()
        for (arguments, means) in [(["/usr/bin/python3", "-c", "import ctypes, time; ctypes.CDLL('\(library)'); time.sleep(60)"], "NVIDIA NvFBC"),
                                   ([helper, "60"], "DRM/KMS, gsr-kms-server")] {
            let downs = watch.events.filter { $0["event"] as? String == "covers-shown" && $0["covers"] as? Int == 0 }.count
            let process = try ChildProcess(arguments[0], Array(arguments.dropFirst()))
            XCTAssertTrue(watch.waitForEvent("recording") { $0["request"] as? String == means && $0["state"] as? String == "started" },
                          "\(means): \(watch.log)")
            XCTAssertTrue(watch.waitForEvent("covers-shown") { $0["covers"] as? Int == expected.count }, "\(means): \(watch.log)")
            XCTAssertEqual(FrameCount.uncovered([try desk.screen()], expected), 0, "\(means): every protected area covered")
            // This test's own grabs of the screen, one a round, make it a recorder too: lines are
            // read by the helper's pid.
            let lines = { try self.allRecordings(watch).filter { $0["pid"] as? Int == Int(process.pid) } }
            process.stop()
            XCTAssertTrue(watch.waitForCoversDown(count: downs + 1), "\(means): its end lowers the covers: \(watch.log)")
            XCTAssertTrue(watch.waitForEvent("recording") { $0["pid"] as? Int == Int(process.pid) && $0["state"] as? String == "stopped" },
                          watch.log)
            let said = try lines()
            XCTAssertEqual(said.map { $0["state"] as? String }, ["started", "stopped"], watch.log)
            XCTAssertEqual(said.first?["covers"] as? Int, expected.count)
        }
    }
}

// The pixels a program read off the screen, followed wherever they go: moved, renamed, piped, linked, to another mount namespace.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardScene
import ShotguardTestSupport
import ShotguardX11
import XCTest

/// `shotguard watch` (guard on, RECORD): each way a screenshot's pixels leave the program that
/// read them, into folders the agent does not watch, ends with every protected pixel covered
/// where the pixels landed, and every other pixel the screen's.
final class FollowPixelsTests: WatchDesktopTestCase {
    private func agent() throws -> WatchAgent {
        try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"], sandbox: sandbox, display: desk.name)
    }

    /// A folder the agent does not watch.
    private func elsewhere() throws -> TemporaryFolder { try TemporaryFolder(self, label: "not-watched") }

    /// Waits for the next report, checks that guard rewrote the file, and that `path` (which
    /// may be another name of it) holds the screen with the rules applied.
    private func assertRewritten(_ path: String, by watch: WatchAgent, screen: PixelBuffer,
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        let report = try XCTUnwrap(watch.nextReport(), "no report for \(path): \(watch.log)", file: file, line: line)
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", "\(report.json)\n\(watch.log)",
                       file: file, line: line)
        try assertRedactedFile(path, screen: screen, file: file, line: line)
    }

    private func assertRedactedFile(_ path: String, screen: PixelBuffer, file: StaticString = #filePath, line: UInt = #line) throws {
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: path), "\(path) is gone", file: file, line: line)
        let written = try ImageCodec.decode([UInt8](bytes), source: path).image
        assertRedacted(written, origin: fullScreen, screen: screen, expected: try desk.expectedRedactions(), file: file, line: line)
    }

    /// scrot's own idiom: the screenshot moved away by the command scrot runs once it is written.
    func testScrotMovingItsScreenshotAwayGetsItRedactedWhereItWent() throws {
        _ = try requireTool("scrot", package: "scrot")
        let first = try elsewhere(), second = try elsewhere()
        let screen = try desk.screen()
        let watch = try agent()
        try runTool("scrot", ["-o", first.at("shot.png"), "-e", "mv $f '\(second.path)/'"], display: desk.name)
        try assertRewritten(second.at("shot.png"), by: watch, screen: screen)
        XCTAssertFalse(FileManager.default.fileExists(atPath: first.at("shot.png")))
    }

    /// Written under a name that is no image's, then renamed by another program.
    func testAScreenshotWrittenUnderAnotherNameAndRenamedIsRedacted() throws {
        _ = try requireTool("import", package: "imagemagick")
        let folder = try elsewhere()
        let screen = try desk.screen()
        let watch = try agent()
        try runTool("cd '\(folder.path)' && import -window root png:x.bin && mv x.bin x.png", display: desk.name)
        try assertRewritten(folder.at("x.png"), by: watch, screen: screen)
    }

    /// An unnamed file (O_TMPFILE) written by the reader, then linked into place.
    func testAnUnnamedFileLinkedIntoPlaceIsRedacted() throws {
        let folder = try elsewhere()
        let screen = try desk.screen()
        let watch = try agent()
        let script = """
            import ctypes, io, os, sys
            from PIL import Image
            from Xlib import X, display
            d = display.Display()
            root = d.screen().root
            geometry = root.get_geometry()
            reply = root.get_image(0, 0, geometry.width, geometry.height, X.ZPixmap, 0xFFFFFFFF)
            data = io.BytesIO()
            Image.frombytes("RGB", (geometry.width, geometry.height), reply.data, "raw", "BGRX").save(data, "PNG")
            fd = os.open(sys.argv[1], os.O_TMPFILE | os.O_WRONLY, 0o600)
            os.write(fd, data.getvalue())
            # linkat(2) with AT_SYMLINK_FOLLOW, as open(2) shows (Python's os.link calls link(2)).
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.linkat(-100, b"/proc/self/fd/%d" % fd, -100, (sys.argv[1] + "/linked.png").encode(), 0x400) != 0:
                sys.exit("linkat: " + os.strerror(ctypes.get_errno()))
            os.close(fd)
            """
        let file = try sandbox.write("made/tmpfile-writer.py", text: script)
        try runTool("/usr/bin/python3 '\(file)' '\(folder.path)'", display: desk.name)
        try assertRewritten(folder.at("linked.png"), by: watch, screen: screen)
    }

    /// The reader writes to a pipe; the program at the other end writes the file.
    func testPipedScreenshotsAreRedacted() throws {
        for tool in [("import", "imagemagick"), ("maim", "maim"), ("xwd", "x11-apps"), ("convert", "imagemagick")] {
            _ = try requireTool(tool.0, package: tool.1)
        }
        let folder = try elsewhere()
        let screen = try desk.screen()
        let watch = try agent()
        let pipelines = [
            ("cat.png", "import -window root png:- | cat > '\(folder.at("cat.png"))'"),
            ("tee.png", "maim -u | tee '\(folder.at("tee.png"))' > /dev/null"),
            ("convert.png", "xwd -root -silent | convert xwd:- '\(folder.at("convert.png"))'"),
        ]
        for (name, pipeline) in pipelines {
            try runTool(pipeline, display: desk.name)
            try assertRewritten(folder.at(name), by: watch, screen: screen)
        }
    }

    /// A screenshot written to the program's standard output, which the shell opened on a
    /// file: xwd writes it and exits within milliseconds, often before the agent first looks at
    /// its descriptors; the sentinel saw the file as xwd read.
    func testAScreenshotWrittenToARedirectedStandardOutputIsRedacted() throws {
        _ = try requireTool("xwd", package: "x11-apps")
        _ = try requireTool("maim", package: "maim")
        let folder = try elsewhere()
        let screen = try desk.screen()
        let watch = try agent()
        for (name, command) in [("x.xwd", "xwd -root -silent"), ("m.png", "maim -u")] {
            try runTool("\(command) > '\(folder.at(name))'", display: desk.name)
            try assertRewritten(folder.at(name), by: watch, screen: screen)
        }
    }

    /// ImageMagick's import saving a BMP where nobody watches: written and closed between two
    /// looks, found at its exit by the name it was given.
    func testABMPSavedElsewhereIsRedacted() throws {
        _ = try requireTool("import", package: "imagemagick")
        let folder = try elsewhere()
        let screen = try desk.screen()
        let watch = try agent()
        try runTool("import -window root '\(folder.at("x.bmp"))'", display: desk.name)
        try assertRewritten(folder.at("x.bmp"), by: watch, screen: screen)
    }

    /// A reader whose standard output is a text file, written before and after its read: no
    /// image, left as it is.
    func testARedirectedStandardOutputThatIsNoImageIsLeftAlone() throws {
        _ = try requireTool("xwd", package: "x11-apps")
        let folder = try elsewhere()
        let watch = try agent()
        let log = folder.at("log.txt")
        try runTool("{ echo 'reading the screen'; xwd -root -silent -out /dev/null; echo 'read the screen'; } > '\(log)'",
                    display: desk.name)
        // The capture event settles once the reader's files would have been handed on.
        XCTAssertTrue(watch.waitForEvent("settled"), watch.log)
        XCTAssertEqual(try String(contentsOfFile: log, encoding: .utf8), "reading the screen\nread the screen\n")
        XCTAssertEqual(watch.events("examined").count, 0, watch.log)
    }

    /// A second name made for the screenshot at once: the file itself is redacted, so both names
    /// show the redacted image.
    func testAHardLinkMadeAtOnceKeepsNoProtectedPixel() throws {
        _ = try requireTool("scrot", package: "scrot")
        let folder = try elsewhere()
        let screen = try desk.screen()
        let watch = try agent()
        try runTool("scrot -o '\(folder.at("f.png"))' && ln '\(folder.at("f.png"))' '\(folder.at("g.png"))'", display: desk.name)
        try assertRewritten(folder.at("f.png"), by: watch, screen: screen)
        try assertRedactedFile(folder.at("g.png"), screen: screen)
    }

    /// A screenshot program in a mount namespace of its own, writing into a folder only that
    /// namespace sees: reached through the program's own descriptor.
    func testAWriterInAMountNamespaceOfItsOwnIsRedactedThere() throws {
        _ = try requireTool("scrot", package: "scrot")
        _ = try requireTool("unshare", package: "util-linux")
        let hidden = sandbox.path("made/private")
        try FileManager.default.createDirectory(atPath: hidden, withIntermediateDirectories: true)
        let out = sandbox.path("made/seen-inside.png")
        let go = sandbox.path("made/go")
        XCTAssertEqual(mkfifo(go, 0o600), 0)
        // Opened for reading and writing, the FIFO never blocks; the shell's `read` gets the line
        // whenever it comes to it, as long as this end is open.
        let release = open(go, O_RDWR)
        XCTAssertGreaterThanOrEqual(release, 0)
        defer { close(release) }
        let screen = try desk.screen()
        let watch = try agent()
        let inside = "mount -t tmpfs none '\(hidden)' && scrot -o '\(hidden)/s.png' && read line < '\(go)' && cat '\(hidden)/s.png' > '\(out)'"
        let unshare = getuid() == 0 ? ["-m"] : ["-r", "-m"]
        let child = try ChildProcess("unshare", unshare + ["sh", "-c", inside], environment: ["DISPLAY": desk.name], output: .standardError)
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", "\(report.json)\n\(watch.log)")
        XCTAssertEqual(write(release, "go\n", 3), 3)
        XCTAssertEqual(child.waitForExit(), 0, "the namespace's shell failed")
        try assertRedactedFile(out, screen: screen)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: hidden), [], "the agent's namespace never had the file")
    }

    /// The agent stopped while a program connects and reads: when it runs again, it still ties
    /// the read to the program (its pid is learnt while it is connected), and follows it.
    func testAReadMadeWhileTheAgentWasStoppedIsStillFollowed() throws {
        let folder = try elsewhere()
        let screen = try desk.screen()
        let watch = try agent()
        watch.send(SIGSTOP)
        let reader = try HeldReader(self, area: fullScreen, display: desk.name)
        watch.send(SIGCONT)
        XCTAssertTrue(watch.waitForEvent("holding") { $0["pid"] as? Int == Int(reader.pid) }, watch.log)
        try reader.run("save \(folder.at("late.png"))")
        try reader.run("exit")
        try assertRewritten(folder.at("late.png"), by: watch, screen: screen)
    }

    /// A reader that closed its connection before the agent asked the server which process it
    /// is (ImageMagick's `import` on a loaded machine; here the agent is stopped while it reads
    /// and hangs up): the program started on the display as it connected is followed in its
    /// stead, and its screenshot, saved where nobody watches, is redacted. Regression: "cannot
    /// be followed", and the screenshot kept the vault.
    func testAReaderGoneFromTheServerBeforeItWasAskedIsFollowed() throws {
        let folder = try elsewhere()
        let screen = try desk.screen()
        let watch = try agent()
        let reader = try hungUpReader(watchedBy: watch)
        try reader.run("save \(folder.at("late.png"))")
        try reader.run("exit")
        try assertRewritten(folder.at("late.png"), by: watch, screen: screen)
        XCTAssertEqual(watch.events("unfollowed").count, 0, watch.log)
    }

    /// The same program taken for a reader that hung up, writing a photo at the path its command
    /// line names (so the agent ties the file to it): nothing says the photo holds what was
    /// read, and it is nowhere on the screen, so it keeps its bytes; it is not set aside.
    func testAPhotoWrittenByAProgramTakenForAReaderThatHungUpKeepsItsBytes() throws {
        let photo = try sandbox.write("made/photo.png", png: WatchDesktop.pattern(width: 300, height: 200, seed: 4242))
        let path = shots + "/IMG_0002.png"
        let watch = try agent()
        let reader = try hungUpReader(watchedBy: watch, naming: [path])
        try reader.run("copy \(photo) \(path)")
        XCTAssertTrue(watch.waitForEvent("examined") { $0["name"] as? String == path }, watch.log)
        let outcome = watch.events("examined") { $0["name"] as? String == path }.last
        XCTAssertEqual(outcome?["outcome"] as? String, "left", "\(outcome ?? [:])\n\(watch.log)")
        // Examined, not passed over for want of a read: the file was tied to the program.
        XCTAssertEqual(outcome?["why"] as? String, "not-screenshot", "\(outcome ?? [:])\n\(watch.log)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), try Data(contentsOf: URL(fileURLWithPath: photo)))
        try reader.run("exit")
    }

    /// A held reader of the whole screen that closed its connection while `watch` was stopped,
    /// so that the server no longer had its client when the agent asked; the agent has taken it
    /// for the reader by the time this returns.
    private func hungUpReader(watchedBy watch: WatchAgent, naming: [String] = [],
                              file: StaticString = #filePath, line: UInt = #line) throws -> HeldReader {
        watch.send(SIGSTOP)
        let reader = try HeldReader(self, area: fullScreen, display: desk.name, hangsUp: true, naming: naming)
        // Each answer comes from a turn of the server's loop that began after the reader hung up.
        var rounds = 0
        while desk.display.processIDsOfAllClients().values.contains(reader.pid), rounds < 100 { rounds += 1 }
        XCTAssertFalse(desk.display.processIDsOfAllClients().values.contains(reader.pid), "the server still has the reader's client",
                       file: file, line: line)
        watch.send(SIGCONT)
        XCTAssertTrue(watch.waitForEvent("holding") { $0["pid"] as? Int == Int(reader.pid) }, watch.log, file: file, line: line)
        XCTAssertTrue(watch.log.contains("could not tell its process"), watch.log, file: file, line: line)
        return reader
    }

    /// GNOME's screenshot program saving into a folder nobody watches, as a new user does.
    func testGnomeScreenshotSavingAnywhereIsRedacted() throws {
        try assertProgramSavingAnywhereIsRedacted("gnome-screenshot", ["-f"])
    }

    /// Xfce's, the same.
    func testXfceScreenshooterSavingAnywhereIsRedacted() throws {
        try assertProgramSavingAnywhereIsRedacted("xfce4-screenshooter", ["-f", "-s"])
    }

    private func assertProgramSavingAnywhereIsRedacted(_ program: String, _ arguments: [String],
                                                       file: StaticString = #filePath, line: UInt = #line) throws {
        _ = try requireTool(program, package: program, file: file, line: line)
        let folder = try elsewhere()
        let screen = try desk.screen()
        let watch = try agent()
        try runTool(program, arguments + [folder.at("shot.png")], display: desk.name, file: file, line: line)
        try assertRewritten(folder.at("shot.png"), by: watch, screen: screen, file: file, line: line)
    }

    /// A screenshot made smaller follows its pixels too: scrot's own thumbnail (`-t 25`,
    /// written beside the screenshot) and a copy made a third of its size by the command scrot
    /// runs. Each is covered over every rule's rectangle made as small; elsewhere it is the
    /// screen made small. Regression: the thumbnail was "not found on the screen" and left
    /// with the vault in it, the copy set aside behind a placeholder.
    func testAScreenshotMadeSmallerIsCoveredWhereTheRulesAreMadeAsSmall() throws {
        _ = try requireTool("scrot", package: "scrot")
        _ = try requireTool("convert", package: "imagemagick")
        let folder = try elsewhere()
        // The desk's wallpaper and windows are noise, grey once made small: a poster of four
        // colours gives the screen the shapes a desktop has.
        var colours = PixelBuffer(width: 360, height: 120, fill: 0xFFC0_2020)
        colours.fillRect(Rect(x: 180, y: 0, width: 180, height: 60), colour: 0x20A040)
        colours.fillRect(Rect(x: 0, y: 60, width: 180, height: 60), colour: 0x2040C0)
        colours.fillRect(Rect(x: 180, y: 60, width: 180, height: 60), colour: 0xF0F0F0)
        let poster = try PaintedWindow(display: desk.display, frame: Rect(x: 260, y: 44, width: 360, height: 120), content: colours,
                                       instance: "poster", className: "Poster", title: "Poster")
        defer { poster.destroy() }
        try runTool("xdotool windowfocus --sync \(hexID(UInt(desk.notes.id)))", display: desk.name)
        let screen = try desk.screen()
        let watch = try agent()
        try runTool("scrot", ["-o", "-t", "25", folder.at("shot.png"), "-e", "convert $f -resize 33% '\(folder.path)/small.png'"],
                    display: desk.name)
        for name in ["shot-thumb.png", "small.png"] {
            let path = folder.at(name)
            XCTAssertTrue(watch.waitForEvent("examined") { $0["name"] as? String == path && $0["outcome"] as? String == "placed" },
                          "\(name) was not placed: \(watch.log)")
            let image = try ImageCodec.decode([UInt8](try XCTUnwrap(FileManager.default.contents(atPath: path))), source: path).image
            let scale = (Double(image.width) / Double(screen.width), Double(image.height) / Double(screen.height))
            for (rect, fill) in try desk.expectedRedactions() {
                let left = Int((Double(rect.x) * scale.0).rounded(.down)), top = Int((Double(rect.y) * scale.1).rounded(.down))
                let right = min(image.width, Int((Double(rect.maxX) * scale.0).rounded(.up)))
                let bottom = min(image.height, Int((Double(rect.maxY) * scale.1).rounded(.up)))
                for y in top..<bottom {
                    for x in left..<right where image[x, y] & 0xFF_FFFF != fill {
                        return XCTFail("\(name): pixel (\(x),\(y)) is \(hex(image[x, y] & 0xFF_FFFF)), expected the fill \(hex(fill))")
                    }
                }
            }
            // Far from every rule (the middle of each of the poster's colours), it is the screen made small.
            for (x, y) in [(350, 74), (530, 74), (350, 134), (530, 134)] {
                let small = (x: Int(Double(x) * scale.0), y: Int(Double(y) * scale.1))
                for channel in [16, 8, 0] as [UInt32] {
                    let ours = Int(image[small.x, small.y] >> channel & 0xFF), theirs = Int(screen[x, y] >> channel & 0xFF)
                    XCTAssertLessThanOrEqual(abs(ours - theirs), 8, "\(name): (\(x),\(y)) of the screen is not as it was")
                }
            }
        }
    }

    /// `ffmpeg -f x11grab … -frames:v 1 f.png` reads frames while it probes its input before it
    /// writes the first one (here fifty, a second and a half): it is taken for a recording, whose
    /// later frames the shield covers, and still followed for the still image it writes, which
    /// shows a frame read before the covers went up. Regression:
    /// the agent stopped following it once it was recording, and the frame kept the vault.
    func testARecorderThatWritesAStillImageHasItRedacted() throws {
        _ = try requireTool("ffmpeg", package: "ffmpeg")
        let folder = try elsewhere()
        let screen = try desk.screen()
        let watch = try agent()
        let path = folder.at("frame.png")
        try runTool("ffmpeg -loglevel error -y -f x11grab -draw_mouse 0 -framerate 30 -probesize 50M -video_size "
                        + "\(screen.width)x\(screen.height) -i '\(desk.name)' -frames:v 1 '\(path)'", display: desk.name)
        XCTAssertTrue(watch.waitForEvent("recording") { $0["state"] as? String == "started" && $0["program"] as? String == "ffmpeg" },
                      "ffmpeg was not taken for a recording: \(watch.log)")
        try assertRewritten(path, by: watch, screen: screen)
    }

    /// A program found recording writes more than frames: a browser sharing the screen saves a
    /// download. `ffmpeg` records the screen and, once it is recording, copies a photo given on
    /// a FIFO into a PNG: the photo is nowhere on the screen, and it is left as ffmpeg wrote it.
    /// Regression: a recorder's image that could not be placed was set aside as a screenshot.
    func testAnImageARecorderWritesThatIsNoFrameIsLeft() throws {
        _ = try requireTool("ffmpeg", package: "ffmpeg")
        let folder = try elsewhere()
        let photo = WatchDesktop.pattern(width: 320, height: 240, seed: 4242)
        let photoPNG = try PNGEncoder.encode(photo, destination: "photo.png")
        let fifo = sandbox.path("photo.fifo")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0, "mkfifo \(fifo)")
        let watch = try agent()
        let copy = folder.at("copy.png")
        let ffmpeg = try ChildProcess("ffmpeg", ["-loglevel", "error", "-y", "-f", "x11grab", "-draw_mouse", "0", "-framerate", "30",
                                                 "-i", desk.name, "-f", "png_pipe", "-i", fifo,
                                                 "-map", "0", "-t", "2", "-pix_fmt", "yuv420p", folder.at("rec.mp4"),
                                                 "-map", "1", "-frames:v", "1", copy],
                                      environment: ["DISPLAY": desk.name], output: .standardError)
        defer { ffmpeg.stop() }
        // ffmpeg probes the screen's frames before it opens the FIFO, which waits for a writer.
        XCTAssertTrue(watch.waitForEvent("recording", seconds: 30) { $0["state"] as? String == "started" && $0["program"] as? String == "ffmpeg" },
                      "ffmpeg was not taken for a recording: \(watch.log)")
        let writer = open(fifo, O_WRONLY)
        XCTAssertGreaterThanOrEqual(writer, 0)
        photoPNG.withUnsafeBytes { _ = Glibc.write(writer, $0.baseAddress, $0.count) }
        close(writer)
        XCTAssertEqual(ffmpeg.waitForExit(), 0, "ffmpeg failed")
        XCTAssertTrue(watch.waitForEvent("examined", seconds: 30) { $0["name"] as? String == copy }, "copy.png not examined: \(watch.log)")
        let written = try ImageCodec.decode([UInt8](XCTUnwrap(FileManager.default.contents(atPath: copy))), source: copy).image
        XCTAssertEqual(written.pixels.map { $0 & 0xFF_FFFF }, photo.pixels.map { $0 & 0xFF_FFFF }, "the photo's copy changed: \(watch.log)")
    }
}

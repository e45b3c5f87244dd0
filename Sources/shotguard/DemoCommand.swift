// `shotguard demo`: the whole capture-and-redact path on a private virtual display.
import ShotguardBase
import ShotguardScene
import ShotguardImaging
import ShotguardRegions
import ShotguardX11
@preconcurrency import Glibc
import ShotguardScreen

enum DemoCommand: Subcommand {
    static let spec = CommandSpec(
        name: "demo", summary: "show capture and redaction on a private virtual display",
        arguments: "",
        options: [
            OptionSpec("dir", value: "DIR",
                       help: "Write the demo's files into DIR (created if needed; default: a new temporary folder)."),
            .help,
        ],
        details: "Starts its own Xvfb (and openbox when installed), opens sample windows, writes a sample\n"
            + "regions file, and writes before.png, after.png and preview.png. Needs Xvfb (package xvfb).",
        examples: ["shotguard demo --dir /tmp/shotguard-demo"])

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .usage("demo: takes no arguments") }
        let folder = try outputFolder(arguments.value("dir"))
        let regionsPath = folder + "/regions"
        do throws(FileError) {
            try FileIO.writeAtomically(Array(DemoScene.regions.utf8), to: regionsPath)
        } catch {
            throw .failure(error.description)
        }
        let regions = try RegionsLoader.require(explicitPath: regionsPath)

        let server = try LiveDisplay.run { () throws(X11Error) in
            try VirtualDisplay(width: DemoScene.width, height: DemoScene.height)
        }
        defer { server.stop() }
        let managed = server.startWindowManager()
        let display = try LiveDisplay.run { () throws(X11Error) in try Display(name: server.name) }
        let windows = try LiveDisplay.run { () throws(X11Error) in try DemoScene.show(on: display) }
        defer { windows.forEach { $0.destroy() } }

        let grabber = ScreenGrabber(display: display)
        let context = display.screenContext()
        let before = try LiveDisplay.run { () throws(X11Error) in try grabber.captureScreen() }
        var after = before
        let hits = after.redact(regions, context: context, origin: context.bounds)
        var preview = before
        RegionsShowCommand.annotate(&preview, hits: hits)

        for (name, image) in [("before.png", before), ("after.png", after), ("preview.png", preview)] {
            try ImageOutput.write(image, to: folder + "/" + name, compressionLevel: EncodeOptions.fast.compressionLevel)
        }
        Console.output("""
            shotguard demo on display \(server.name) (\(DemoScene.width)x\(DemoScene.height), \
            \(managed ? "openbox" : "no window manager"), capture by \(grabber.method.rawValue))
            \(context.windows.count) windows, \(regions.rules.count) rules, \(hits.count) rectangles redacted
            wrote \(folder)/before.png, after.png, preview.png and regions
            \(folder)

            """)
    }

    private static func outputFolder(_ requested: String?) throws(CLIError) -> String {
        if let requested {
            var path = requested.hasPrefix("/") ? "" : "."
            for part in requested.split(separator: "/") {
                path += "/" + part
                if mkdir(path, 0o755) != 0, errno != EEXIST {
                    throw .failure("\(requested): cannot create the folder \(path): \(errnoText())")
                }
            }
            return requested
        }
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(base)/shotguard-demo-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw .failure("\(base): cannot create a folder for the demo: \(errnoText())")
        }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}

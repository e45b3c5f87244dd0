// `shotguard capture`: grabs the screen, a window or a rectangle, and redacts before writing.
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardX11
import ShotguardScreen

enum CaptureCommand: Subcommand {
    static let spec = CommandSpec(
        name: "capture", summary: "capture the screen, a window or a rectangle, redacted",
        arguments: "-o FILE",
        options: [
            .imageOutput,
            OptionSpec("screen", help: "Capture the whole screen (the default)."),
            OptionSpec("active", help: "Capture the active window as it shows on screen."),
            OptionSpec("window", value: "ID", help: "Capture window ID (see 'shotguard windows')."),
            OptionSpec("geometry", value: "WxH+X+Y", help: "Capture this rectangle of the screen."),
            OptionSpec("monitor", value: "NAME", help: "Capture the RandR monitor NAME, or 'primary' (see 'shotguard monitors')."),
            OptionSpec("frame", help: "With --active or --window, include the window manager's decorations."),
            .regions,
            OptionSpec("no-redact", help: "Write the capture as it is, applying no rules."),
            .noShm, .format, .quality, .compression, .help,
        ],
        details: "A window is captured from the screen (what the user sees), clipped to the screen.\n"
            + "Rules of the regions file are resolved against the windows on screen now; an invalid\n"
            + "regions file writes nothing (exit 2). Text rules are found in the capture: in the text\n"
            + "applications expose (AT-SPI2) with exact boxes, and by OCR in the rest.",
        examples: ["shotguard capture --active -o ~/shot.png", "shotguard capture --geometry 800x600+0+0 -o - | xclip -sel clip -t image/png"])

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else {
            throw .usage("capture: unexpected argument '\(arguments.positionals[0])' (the output goes in -o FILE)")
        }
        let targets = ["screen", "active", "window", "geometry", "monitor"].filter { arguments.has($0) || arguments.value($0) != nil }
        guard targets.count <= 1 else {
            throw .usage("capture: choose one of --screen, --active, --window, --geometry and --monitor")
        }
        if arguments.has("frame"), !(arguments.has("active") || arguments.value("window") != nil) {
            throw .usage("capture: --frame goes with --active or --window")
        }
        let output = try arguments.output(for: spec)
        let encoding = try arguments.imageEncoding(for: output)
        let geometry = try arguments.value("geometry").map { text throws(CLIError) in
            try RedactCommand.parseGeometry(text, option: "--geometry")
        }
        let windowID = try arguments.value("window").map { text throws(CLIError) in try LiveDisplay.windowID(text) }
        let loaded = arguments.has("no-redact") ? nil : try RegionsLoader.load(explicitPath: arguments.value("regions"))
        // With no regions file at all, windows that ask for protection are still covered.
        let regions = arguments.has("no-redact") ? nil
            : loaded ?? RegionsFile(path: RegionsFile.defaultPath, rules: [], hasUserFile: false)

        // A PNG to a file is grabbed in strips, through a ring of strips in a small segment; text
        // rules need the whole frame first (their pass reads all of it before anything is written).
        let hasText = regions?.hasTextRules == true
        let inStrips: Bool
        if case .png = encoding, ImageOutput.canStream(to: output), !hasText { inStrips = true } else { inStrips = false }
        let display = try LiveDisplay.open()
        var context: ScreenContext
        if let regions {
            context = display.screenContext()
            LiveFields.attach(to: &context, regions: regions, display: display)
        } else {
            // No rules: only the screen's size (and the monitors, for --monitor) is needed, not the windows.
            let size = display.size
            context = ScreenContext(width: size.width, height: size.height, windows: [],
                                    monitors: arguments.value("monitor") != nil ? display.monitors() : [])
        }
        let area: Rect
        if let geometry {
            area = geometry.resolve(in: context.bounds)
            guard !area.intersection(context.bounds).isEmpty else {
                throw .usage("capture: --geometry \(arguments.value("geometry") ?? "") lies wholly off the "
                    + "\(context.width)x\(context.height) screen; nothing to capture")
            }
        } else if arguments.has("active") {
            guard let active = display.activeWindow() else {
                throw .failure("capture --active: no window is active on display '\(display.name)'")
            }
            area = try windowArea(UInt(active), display: display, withFrame: arguments.has("frame"))
        } else if let windowID {
            area = try windowArea(windowID, display: display, withFrame: arguments.has("frame"))
        } else if let name = arguments.value("monitor") {
            area = try monitorArea(name, context: context).intersection(context.bounds)
        } else {
            area = context.bounds
        }
        let ring = inStrips ? ringFor(area.intersection(context.bounds), encoding: encoding) : nil
        let grabber = ScreenGrabber(display: display, allowSharedMemory: !arguments.has("no-shm"), segmentRows: ring?.ring)
        if case .png(let options) = encoding, let ring,
           try writeWhileGrabbing(area, ring: ring, grabber: grabber, regions: regions, context: context, options: options,
                                  to: output) {
            // Written as the strips came in.
        } else if case .png(let options) = encoding, !hasText {
            // Redacted and encoded where the X server put the pixels, and written to the file as
            // it is compressed: neither the frame nor the PNG is copied whole.
            let written = try LiveDisplay.run { () throws(X11Error) in
                try grabber.withCapture(area) { rows, captured in
                    if let regions { rows.redact(regions, context: context, origin: captured) }
                    return Result { () throws(ImagingError) in
                        try ImageOutput.writeAtomically(to: output) { (fd) throws(ImagingError) in
                            try PNGEncoder.write(rows, options: options, to: fd, destination: output)
                        }
                    }
                }
            }
            do throws(ImagingError) { try written.get() } catch { throw .failure(error.description) }
        } else {
            var (image, captured) = try LiveDisplay.run { () throws(X11Error) in try grabber.capture(area) }
            if let regions {
                let covered = image.redact(regions, context: context, origin: captured)
                if hasText {
                    // Accessible text first (exact boxes); OCR reads the rest.
                    try TextPass.apply(to: &image, regions: regions, context: context, origin: captured,
                                       skipping: covered.map(\.rect), accessibleText: TextPass.accessibleText())
                }
            }
            try ImageOutput.write(image, to: output, as: encoding)
        }
        if loaded == nil, let regions {
            let covered = regions.hits(against: context).contains { !$0.rect.intersection(area).isEmpty }
            Console.error("shotguard: warning: no regions file at \(RegionsFile.defaultPath), so no rule protects this capture: "
                + (covered ? "only windows that ask for protection (\(Display.protectProperty)) were covered\n"
                    : "it was written unredacted\n"))
        }
        // The process ends next, and the kernel detaches the segment and the server frees its
        // side when the connection closes: an orderly detach would wait a round trip while the
        // server unmaps it (a whole frame's: 3 ms of a 1080p capture, 9 ms at 4K).
        _ = Unmanaged.passRetained(grabber)
    }

    /// The strip and ring rows through which a PNG of `area` is grabbed (`ScreenGrabber.ring`).
    private static func ringFor(_ area: Rect, encoding: ImageEncoding) -> (strip: Int, ring: Int)? {
        guard case .png(let options) = encoding, !area.isEmpty else { return nil }
        let besides = PNGStreamWriter.ringRowsBesidesStrip(width: area.width, height: area.height, options: options)
        return ScreenGrabber.ring(forHeight: area.height, besides: besides)
    }

    /// Grabs `area` in strips through a ring in the shared segment and writes the PNG while
    /// they arrive: each strip is covered as it comes in, and the encoder compresses the rows
    /// that are in while the server copies the next strip into rows already compressed, so the
    /// frame is never whole in memory. False, having done nothing, when there is no shared
    /// segment or a rule's fill is a mosaic (it reads rows a ring may no longer hold): then the
    /// whole frame is grabbed first.
    private static func writeWhileGrabbing(_ area: Rect, ring: (strip: Int, ring: Int), grabber: ScreenGrabber,
                                           regions: RegionsFile?, context: ScreenContext, options: EncodeOptions,
                                           to output: String) throws(CLIError) -> Bool {
        var grabError: X11Error?
        let hits = regions?.hits(against: context) ?? []
        guard hits.allSatisfy({ if case .solid = $0.fill { true } else { false } }) else { return false }
        let written = try LiveDisplay.run { () throws(X11Error) in
            try grabber.withRingCapture(area, stripRows: ring.strip, ringRows: ring.ring) { rows, captured, grab in
                let covers = hits.translated(toImageAt: captured).covers
                return Result { () throws(ImagingError) in
                    try ImageOutput.writeAtomically(to: output) { (fd) throws(ImagingError) in
                        let writer = try PNGStreamWriter(ring: rows, height: captured.height, covers: covers, options: options,
                                                         to: fd, destination: output)
                        grabError = grab({ writer.reserve(until: $0) }, { writer.ringArrived($0) })
                        guard grabError == nil else {
                            writer.cancel()
                            throw ImagingError(.io, source: output, "the capture was not completed")
                        }
                        try writer.finish()
                    }
                }
            }
        }
        if let grabError {
            // A refused segment (not a lost display) is dropped: grab the whole frame by XGetImage.
            if grabber.method == .getImage { return false }
            throw .failure(grabError.message)
        }
        guard let written else { return false }
        do throws(ImagingError) { try written.get() } catch { throw .failure(error.description) }
        return true
    }

    /// The monitor's rectangle on the root; an unknown name fails, listing the monitors there are.
    private static func monitorArea(_ name: String, context: ScreenContext) throws(CLIError) -> Rect {
        if let monitor = context.monitor(named: name) { return monitor.frame }
        let present = context.monitors.map { $0.name.escapingControlCharacters() + ($0.isPrimary ? " (primary)" : "") }
        let what = name == "primary" ? "no monitor is primary" : "no monitor named '\(name.escapingControlCharacters())'"
        throw .failure("capture --monitor: \(what) (monitors: "
            + (present.isEmpty ? "none; the X server lacks RandR 1.5" : present.joined(separator: ", ")) + ")")
    }

    /// The window's rectangle on screen; it must exist and be viewable.
    private static func windowArea(_ id: UInt, display: Display, withFrame: Bool) throws(CLIError) -> Rect {
        let (frame, isViewable) = try LiveDisplay.run { () throws(X11Error) in try display.geometry(of: .init(id)) }
        guard isViewable else { throw .failure("window \(hexID(id)) is not viewable (unmapped or minimised)") }
        guard withFrame else { return frame }
        let extents = display.frameExtents(of: .init(id))
        return Rect(x: frame.x - extents.left, y: frame.y - extents.top,
                    width: frame.width + extents.left + extents.right, height: frame.height + extents.top + extents.bottom)
    }
}

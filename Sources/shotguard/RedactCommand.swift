// `shotguard redact`: blacks out rectangles of an existing image, in any format the imaging layer reads.
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardX11
@preconcurrency import Glibc
import ShotguardScreen

enum RedactCommand: Subcommand {
    static let spec = CommandSpec(
        name: "redact", summary: "redact an existing image (\(ImageFormat.titles()))",
        arguments: "IN -o FILE",
        options: [
            .imageOutput, .regions,
            OptionSpec("rect", value: "WxH+X+Y", repeatable: true,
                       help: "Also cover this rectangle of the image (repeatable; % and -X/-Y allowed)."),
            OptionSpec("fill", value: "STYLE",
                       help: "Cover for --rect: black (default), #rrggbb or pixelate[:N] (weaker)."),
            OptionSpec("origin", value: "+X+Y",
                       help: "Where the image's top-left corner was on screen, for rules (default +0+0)."),
            .format, .quality, .compression, .help,
        ],
        details: "IN (\(ImageFormat.titles()), told by its bytes) may be '-' for standard input; its metadata\n"
            + "is not copied. Rules of the regions file apply with the image at --origin on the screen;\n"
            + "window rules are resolved against the live X display and fail closed (exit 2)\n"
            + "without one. Text rules (card numbers, e-mail addresses, IBANs, keys, patterns) are\n"
            + "found by OCR in the whole image, display or not, and each match is covered; standard\n"
            + "error lists their kinds and boxes. No output file is created on any failure.",
        examples: ["shotguard redact shot.png --rect 300x40+20+10 -o shot-redacted.png"],
        operand: .file)

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.count == 1, let input = arguments.positionals.first else {
            throw .usage("redact: expected one input image (shotguard redact IN -o FILE)")
        }
        let output = try arguments.output(for: spec)
        let encoding = try arguments.imageEncoding(for: output)
        if arguments.value("fill") != nil, arguments.all("rect").isEmpty {
            throw .usage("redact: --fill sets the cover of --rect rectangles; give --rect too (rules name their fill in the regions file)")
        }
        let fill = try parseFill(arguments.value("fill"))
        let rects = try arguments.all("rect").map { text throws(CLIError) in (text, try parseGeometry(text, option: "--rect")) }
        let regions = try RegionsLoader.load(explicitPath: arguments.value("regions"))

        let origin = try parseOrigin(arguments.value("origin"))

        // Window rules are resolved first: without a display nothing is read or written.
        let live = try regions.flatMap { regions throws(CLIError) in try liveContext(for: regions) }
        let bytes = try read(input)
        // The covers, in image coordinates and in order (rules, then --rect), for an image of this size.
        let fills = { (width: Int, height: Int) throws(CLIError) -> [Cover] in
            var fills: [Cover] = []
            if let regions {
                let screen: ScreenContext
                if let live {
                    screen = live
                } else {
                    screen = try imageAsScreen(width: width, height: height, origin: arguments.value("origin"), regions: regions)
                }
                fills += regions.hits(against: screen)
                    .translated(toImageAt: Rect(x: origin.x, y: origin.y, width: width, height: height)).covers
            }
            let bounds = Rect(x: 0, y: 0, width: width, height: height)
            return try fills + rects.map { (text, geometry) throws(CLIError) in
                let rect = geometry.resolve(in: bounds)
                // A rectangle that covers nothing is a mistake (a wrong offset, another image's
                // size): saying nothing would pass the image on as if it were covered.
                guard !rect.intersection(bounds).isEmpty else {
                    throw .usage("redact: --rect \(text) lies wholly outside the \(width)x\(height) image; nothing was written")
                }
                return (rect: rect, fill: fill)
            }
        }
        // Text rules need the whole image before anything is written: no streamed rewrite.
        let hasText = regions?.hasTextRules == true
        if case .png(let options) = encoding, ImageOutput.canStream(to: output), !hasText, let rewrite = PNGRewrite(bytes),
           try rewriteWhileDecoding(rewrite, covers: try fills(rewrite.width, rewrite.height), options: options,
                                    to: output) {
            warnIfNothingProtects(regions: regions, rects: rects.count)
            return
        }
        var image = try decode(bytes, source: input)
        let covers = try fills(image.width, image.height)
        for cover in covers { image.redact(cover.rect, with: cover.fill) }
        if let regions, hasText {
            let placed = Rect(x: origin.x, y: origin.y, width: image.width, height: image.height)
            let screen = live ?? ScreenContext(width: image.width, height: image.height, windows: [])
            try TextPass.apply(to: &image, regions: regions, context: screen, origin: placed, skipping: covers.map(\.rect))
        }
        try ImageOutput.write(image, to: output, as: encoding)
        warnIfNothingProtects(regions: regions, rects: rects.count)
    }

    /// No rules and no --rect: the output is the input re-encoded, which a user expecting a
    /// redaction must hear about (one line; exit 0, as the file was written as asked).
    private static func warnIfNothingProtects(regions: RegionsFile?, rects: Int) {
        guard regions == nil, rects == 0 else { return }
        Console.error("shotguard: warning: no regions file at \(RegionsFile.defaultPath) and no --rect: nothing was redacted\n")
    }

    /// PNG to PNG, the usual case: decoded, redacted and encoded at once (PNGRewrite). False,
    /// with nothing written, when the decoder finds the data corrupt: the full decoder then says why.
    private static func rewriteWhileDecoding(_ rewrite: PNGRewrite, covers: [Cover], options: EncodeOptions,
                                             to output: String) throws(CLIError) -> Bool {
        do throws(ImagingError) {
            // Throwing removes the partial file.
            try ImageOutput.writeAtomically(to: output) { (fd) throws(ImagingError) in
                try rewrite.write(covers: covers, options: options, to: fd, destination: output)
            }
        } catch {
            if error.kind == .corrupt { return false }
            throw .failure(error.description)
        }
        return true
    }

    /// Without a display the image is taken to be the whole screen. That cannot hold for an
    /// image placed with --origin, so rules whose rectangles depend on the screen's size
    /// (percentages, offsets from the right or bottom) fail closed there.
    private static func imageAsScreen(width: Int, height: Int, origin: String?,
                                      regions: RegionsFile) throws(CLIError) -> ScreenContext {
        let sized = regions.screenRules.filter { rule in
            guard let geometry = rule.geometry else { return false }
            let lengths = [geometry.width, geometry.height, geometry.x.length, geometry.y.length]
            return geometry.x.fromFarEdge || geometry.y.fromFarEdge || lengths.contains { if case .percent = $0 { true } else { false } }
        }
        if origin != nil, !sized.isEmpty {
            throw .usage("\(regions.path): screen rules (line \(sized.map { String($0.line) }.joined(separator: ", "))) need the "
                + "screen's size, which --origin without an X display cannot give; nothing was written")
        }
        return ScreenContext(width: width, height: height, windows: [])
    }

    /// The live screen (windows, monitors and size) whenever a display is there; without one, nil
    /// when the file has no window or monitor rules, and a usage error (fail closed) when it has.
    private static func liveContext(for regions: RegionsFile) throws(CLIError) -> ScreenContext? {
        // Text rules limited to windows (`text card in class=…`) need the windows too.
        let windowRules = regions.rules.filter {
            $0.target == .window || $0.target == .monitor || $0.target == .text && !$0.matches.isEmpty
        }
        guard !windowRules.isEmpty else { return try? Display().screenContext() }
        let lines = (windowRules.count == 1 ? "line " : "lines ") + windowRules.map { String($0.line) }.joined(separator: ", ")
        let kind = windowRules.contains { $0.target == .text } ? "rules that name windows"
            : windowRules.contains { $0.target == .monitor } ? "window and monitor rules" : "window rules"
        do throws(X11Error) {
            return try Display().screenContext()
        } catch {
            let reason = "\(regions.path): \(kind) (\(lines)) need an X display to resolve; nothing was written"
            throw error.kind == .noDisplay && getenv("DISPLAY") == nil
                ? .usage("\(reason) (DISPLAY is not set)") : .failure("\(reason) (\(error.message))")
        }
    }

    /// `+X+Y` (or `-X-Y`, counted like any X geometry offset from the top-left here).
    private static func parseOrigin(_ text: String?) throws(CLIError) -> (x: Int, y: Int) {
        guard let text else { return (0, 0) }
        let geometry = try parseGeometry("0x0" + text, option: "--origin")
        guard case .pixels(let x) = geometry.x.length, case .pixels(let y) = geometry.y.length,
              !geometry.x.fromFarEdge, !geometry.y.fromFarEdge else {
            throw .usage("--origin '\(text)': expected +X+Y in pixels, e.g. +100+40")
        }
        return (x, y)
    }

    private static func read(_ input: String) throws(CLIError) -> [UInt8] {
        do throws(ImagingError) {
            return try ImagingError.file { () throws(FileError) in try FileIO.read(input, limit: DecodeLimits.standard.maxInputBytes) }
        } catch {
            throw .failure(error.description)
        }
    }

    private static func decode(_ bytes: [UInt8], source input: String) throws(CLIError) -> PixelBuffer {
        do throws(ImagingError) {
            return try ImageCodec.decode(bytes, source: input).image
        } catch {
            throw .failure(error.description)
        }
    }

    static func parseFill(_ text: String?) throws(CLIError) -> Fill {
        guard let text else { return .black }
        do throws(FillSyntaxError) {
            return try Fill.parse(text)
        } catch {
            throw .usage("--fill: \(error.message)")
        }
    }

    static func parseGeometry(_ text: String, option: String) throws(CLIError) -> Geometry {
        do throws(GeometrySyntaxError) {
            return try Geometry.parse(text)
        } catch {
            throw .usage("\(option) '\(text)': \(error.message)")
        }
    }
}

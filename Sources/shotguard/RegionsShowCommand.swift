// `shotguard regions show`: a live capture with every resolved rectangle outlined and labelled.
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen
import ShotguardText
import ShotguardX11

enum RegionsShowCommand: Subcommand {
    static let spec = CommandSpec(
        name: "regions show", summary: "write a capture with every rule's rectangles outlined",
        arguments: "-o FILE",
        options: [.output, .regions, .noShm, .compression, .help],
        details: "Each rectangle that would be redacted is outlined in red and labelled with its\n"
            + "rule's line number (P for a window that asks for protection): a picture of what\n"
            + "will be hidden. What allow rules keep visible is outlined in green, labelled A\n"
            + "and the line. Text that text rules find (by OCR and the accessibility bus) is\n"
            + "outlined in orange, labelled by its kind and line (card L5). Nothing in it is redacted.",
        examples: ["shotguard regions show -o preview.png"])

    static let outlineColour: UInt32 = 0xFF2020
    static let allowColour: UInt32 = 0x20C020
    static let labelColour: UInt32 = 0xFFFFFF
    static let textColour: UInt32 = 0xFF8C00

    /// What the text rules find in the capture (read before anything is drawn on it); none,
    /// with a line saying why, when OCR cannot run.
    private static func textMatches(in image: PixelBuffer, regions: RegionsFile, context: ScreenContext) -> [TextHit] {
        guard regions.hasTextRules else { return [] }
        let scanner = TextScanner(rules: regions.scannerRules(against: context))
        do throws(OCRUnavailable) {
            return try scanner.scan(image, origin: image.bounds, accessibleText: TextPass.accessibleText()).hits
        } catch {
            Console.error("shotguard: regions show: text rules are not outlined: \(error.reason)\n")
            return []
        }
    }

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .usage("regions show: takes no arguments") }
        let output = try arguments.output(for: spec)
        let level = try arguments.compressionLevel(default: EncodeOptions.fast.compressionLevel)
        let regions = try RegionsLoader.require(explicitPath: arguments.value("regions"))
        let display = try LiveDisplay.open()
        let grabber = ScreenGrabber(display: display, allowSharedMemory: !arguments.has("no-shm"))
        var context = display.screenContext()
        LiveFields.attach(to: &context, regions: regions, display: display)
        var image = try LiveDisplay.run { () throws(X11Error) in try grabber.captureScreen() }
        let resolutions = regions.resolve(against: context)
        let allowed = resolutions.flatMap(\.allowed).map { (rect: $0.rect, label: "A\($0.line)") }
        let text = textMatches(in: image, regions: regions, context: context)
        annotate(&image, allowColour, allowed)
        annotate(&image, hits: resolutions.flatMap(\.hits))
        annotate(&image, textColour, text.map { (rect: $0.rect, label: "\($0.kind.rawValue) L\($0.line)") })
        try ImageOutput.write(image, to: output, compressionLevel: level)
    }

    /// Outlines each hit and labels it with its line number (P for a window that asks for
    /// protection), in a red tab at its top-left corner.
    static func annotate(_ image: inout PixelBuffer, hits: [RegionHit]) {
        annotate(&image, outlineColour, hits.map { (rect: $0.rect, label: $0.origin == .windowProperty ? "P" : "L\($0.line)") })
    }

    /// Outlines each rectangle in `colour`, then puts each label in a tab of that colour at
    /// its rectangle's top-left corner.
    private static func annotate(_ image: inout PixelBuffer, _ colour: UInt32, _ boxes: [(rect: Rect, label: String)]) {
        for box in boxes { image.outline(box.rect, thickness: 3, colour: colour) }
        for box in boxes {
            let size = PixelBuffer.textSize(box.label, scale: 2)
            let tab = Rect(x: box.rect.x, y: box.rect.y, width: size.width + 8, height: size.height + 6)
            image.fillRect(tab, colour: colour)
            image.draw(box.label, x: tab.x + 4, y: tab.y + 3, scale: 2, colour: labelColour)
        }
    }
}

// `shotguard regions show`: a live capture with every resolved rectangle outlined and labelled.
import ShotguardImaging
import ShotguardRegions
import ShotguardX11

enum RegionsShowCommand: Subcommand {
    static let spec = CommandSpec(
        name: "regions show", summary: "write a capture with every rule's rectangles outlined",
        arguments: "-o FILE",
        options: [.output, .regions, .noShm, .compression, .help],
        details: "Each rectangle that would be redacted is outlined in red and labelled with its rule's\n"
            + "line number: a picture of what will be hidden. Nothing in it is redacted.",
        examples: ["shotguard regions show -o preview.png"])

    static let outlineColour: UInt32 = 0xFF2020
    static let labelColour: UInt32 = 0xFFFFFF

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .usage("regions show: takes no arguments") }
        let output = try arguments.output(for: spec)
        let level = try arguments.compressionLevel(default: EncodeOptions.fast.compressionLevel)
        let regions = try RegionsLoader.require(explicitPath: arguments.value("regions"))
        let display = try LiveDisplay.open()
        let grabber = ScreenGrabber(display: display, allowSharedMemory: !arguments.has("no-shm"))
        var context = display.screenContext()
        LiveFields.attach(to: &context, regions: regions)
        var image = try LiveDisplay.run { () throws(X11Error) in try grabber.captureScreen() }
        annotate(&image, hits: regions.hits(against: context))
        try ImageOutput.write(image, to: output, compressionLevel: level)
    }

    /// Outlines each hit and labels it with its line number, in a red tab at its top-left corner.
    static func annotate(_ image: inout PixelBuffer, hits: [RegionHit]) {
        for hit in hits { image.outline(hit.rect, thickness: 3, colour: outlineColour) }
        for hit in hits {
            let label = "L\(hit.line)"
            let size = PixelBuffer.textSize(label, scale: 2)
            let tab = Rect(x: hit.rect.x, y: hit.rect.y, width: size.width + 8, height: size.height + 6)
            image.fillRect(tab, colour: outlineColour)
            image.draw(label, x: tab.x + 4, y: tab.y + 3, scale: 2, colour: labelColour)
        }
    }
}

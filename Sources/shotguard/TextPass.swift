// The text pass of `redact` and `capture`: the regions file's text rules over the whole image.
import ShotguardAccessibility
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen
import ShotguardText

enum TextPass {
    /// Finds what the `text` rules of `regions` ask for in `image` (whose pixels show `origin`
    /// on screen) and covers it with each rule's fill, leaving out `skipping` (image
    /// rectangles already covered). Standard error lists each cover's kind, rule and box, never
    /// the text. Fails closed: when OCR cannot run, nothing is written (the caller throws).
    static func apply(to image: inout PixelBuffer, regions: RegionsFile, context: ScreenContext, origin: Rect,
                      skipping: [Rect], accessibleText: [TextRun] = []) throws(CLIError) {
        let scanner = TextScanner(rules: regions.scannerRules(against: context))
        let result: TextScanResult
        do throws(OCRUnavailable) {
            result = try scanner.scan(image, origin: origin, skipping: skipping, accessibleText: accessibleText)
        } catch {
            let lines = regions.textRules.map { String($0.line) }.joined(separator: ", ")
            throw .failure("\(regions.path): text rules (line\(regions.textRules.count == 1 ? "" : "s") \(lines)) need OCR, "
                + "which cannot run: \(error.reason); nothing was written")
        }
        for hit in result.hits {
            image.redact(hit.rect, with: hit.fill)
            Console.error("shotguard: text \(hit.kind.rawValue) (line \(hit.line)) covered at \(hit.rect) "
                + "from \(hit.source == .accessible ? "accessible text" : "OCR")\n")
        }
    }

    /// The showing text of the applications on the accessibility bus, for a capture of the
    /// screen now; empty (OCR reads everything) when there is no bus.
    static func accessibleText() -> [TextRun] {
        guard case .success(let text) = TextQuery.runs() else { return [] }
        return text.runs
    }
}

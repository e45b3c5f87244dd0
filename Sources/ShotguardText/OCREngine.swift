// One Tesseract instance: recognises the words of a grey image and gives their boxes.
import CTesseract
import Glibc
import ShotguardImaging

/// Why OCR cannot run: Tesseract's library or its English model is missing.
public struct OCRUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
}

/// A Tesseract `TessBaseAPI` with its English model, set up for lines of screen text.
///
/// Tesseract's API object is not thread-safe: an engine is used by one thread at a time (the
/// scanner's pool hands each to one worker), hence `@unchecked Sendable`.
final class OCREngine: @unchecked Sendable {
    private let api: OpaquePointer

    /// Loads libtesseract (once per process) and the English model. Init-time variables: no
    /// dictionaries (keys and numbers are not words, and a dictionary pulls a misread towards one).
    init() throws(OCRUnavailable) {
        var message = [CChar](repeating: 0, count: 512)
        guard sg_tess_load(&message, message.count) == 0 else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw OCRUnavailable(reason: reason + ": text rules need Tesseract (Debian: libtesseract5 tesseract-ocr-eng)")
        }
        guard let api = sg_tess_base_api_create() else {
            throw OCRUnavailable(reason: "cannot create a Tesseract instance (out of memory)")
        }
        let settings = [("load_system_dawg", "0"), ("load_freq_dawg", "0"), ("debug_file", "/dev/null")]
        let names = settings.map { strdup($0.0) }
        let values = settings.map { strdup($0.1) }
        defer {
            names.forEach { free($0) }
            values.forEach { free($0) }
        }
        var namePointers = names
        var valuePointers = values
        let status = sg_tess_base_api_init4(api, nil, "eng", SG_OEM_LSTM_ONLY, &namePointers, &valuePointers, settings.count)
        guard status == 0 else {
            sg_tess_base_api_delete(api)
            throw OCRUnavailable(reason: "Tesseract cannot load its English model: text rules need it "
                + "(Debian: tesseract-ocr-eng; TESSDATA_PREFIX, when set, must name the folder holding eng.traineddata)")
        }
        // Polarity is the scanner's business: it hands over dark text on a light background.
        sg_tess_base_api_set_variable(api, "tessedit_do_invert", "0")
        // The LSTM's own other choices for each symbol, read through the choice iterator: the
        // second reading of a digit in doubt rescues a number whose checksum fails.
        sg_tess_base_api_set_variable(api, "lstm_choice_mode", "2")
        // Each iteration decodes the line again for one more choice per symbol: two give the
        // second and third choices (a third was right in the corpus: "&", then "6", then "8"),
        // and cost 7% less CPU than Tesseract's default five on a screen of small text.
        sg_tess_base_api_set_variable(api, "lstm_choice_iterations", "2")
        // A block, not a single line: a candidate may hold two lines that touch.
        sg_tess_base_api_set_page_seg_mode(api, SG_PSM_SINGLE_BLOCK)
        self.api = api
    }

    deinit {
        sg_tess_base_api_end(api)
        sg_tess_base_api_delete(api)
    }

    /// The words of an 8-bit grey image (dark text on light), line by line, with their boxes in
    /// its pixels and each symbol's other readings.
    func words(in image: GreyImage) -> [[OCRWord]] {
        let handed = image.pixels.withUnsafeBufferPointer { pixels in
            sg_tess_base_api_set_image(api, pixels.baseAddress, pixels.count, Int32(clamping: image.width),
                                       Int32(clamping: image.height), 1, Int32(clamping: image.width))
        }
        // GreyImage holds width * height pixels: anything else is a bug that must not read past
        // them, nor pass for an image with no text.
        precondition(handed == 0, "a grey image's pixels do not hold its \(image.width)x\(image.height) size")
        // Screen text at the sizes the scanner scales it to reads as print at 300 dpi.
        sg_tess_base_api_set_source_resolution(api, 300)
        defer { sg_tess_base_api_clear(api) }
        guard sg_tess_base_api_recognize(api) == 0, let iterator = sg_tess_base_api_get_iterator(api) else { return [] }
        defer { sg_tess_result_iterator_delete(iterator) }
        var lines: [[OCRWord]] = []
        // Whether the symbols now iterated belong to a word that was kept (one with text and a box).
        var inWord = false
        repeat {
            if sg_tess_result_iterator_is_at_beginning_of(iterator, SG_RIL_TEXTLINE) != 0 || lines.isEmpty { lines.append([]) }
            if sg_tess_result_iterator_is_at_beginning_of(iterator, SG_RIL_WORD) != 0 {
                inWord = false
                var left: Int32 = 0, top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0
                guard let text = Self.text(iterator, SG_RIL_WORD),
                      sg_tess_result_iterator_bounding_box(iterator, SG_RIL_WORD, &left, &top, &right, &bottom) != 0 else { continue }
                lines[lines.count - 1].append(OCRWord(word: TextWord(text: text, rect: Rect(x: Int(left), y: Int(top), width: Int(right - left),
                                                                                        height: Int(bottom - top))),
                                                      symbols: []))
                inWord = true
            }
            guard inWord, let symbol = Self.text(iterator, SG_RIL_SYMBOL) else { continue }
            let confidence = sg_tess_result_iterator_confidence(iterator, SG_RIL_SYMBOL)
            let last = lines.count - 1
            lines[last][lines[last].count - 1].symbols.append(OCRSymbol(text: symbol, confidence: confidence,
                                                                          alternatives: Self.alternatives(iterator, of: symbol)))
        } while sg_tess_result_iterator_next(iterator, SG_RIL_SYMBOL) != 0
        return lines.filter { !$0.isEmpty }
    }

    /// The text of the element at `level` the iterator is at; nil when it has none.
    private static func text(_ iterator: OpaquePointer, _ level: SGTessPageIteratorLevel) -> String? {
        guard let text = sg_tess_result_iterator_get_utf8_text(iterator, level) else { return nil }
        defer { sg_tess_delete_text(text) }
        let string = String(decoding: UnsafeRawBufferPointer(start: text, count: strlen(text)), as: UTF8.self)
        return string.isEmpty ? nil : string
    }

    /// The recogniser's other readings of the symbol at the iterator, most confident first,
    /// without the symbol itself; at most `OCRSymbol.maximumAlternatives`. None when the choices
    /// it kept do not hold the symbol read (they would be another symbol's).
    private static func alternatives(_ iterator: OpaquePointer, of symbol: String) -> [OCRSymbol.Alternative] {
        guard let choices = sg_tess_result_iterator_get_choice_iterator(iterator) else { return [] }
        defer { sg_tess_choice_iterator_delete(choices) }
        var readings: [OCRSymbol.Alternative] = []
        // The LSTM keeps a handful of choices per symbol; the bound is against a library that would not stop.
        var seen = 0
        repeat {
            guard let text = sg_tess_choice_iterator_get_utf8_text(choices) else { break }
            readings.append(OCRSymbol.Alternative(text: String(cString: text), confidence: sg_tess_choice_iterator_confidence(choices)))
            seen += 1
        } while seen < 16 && sg_tess_choice_iterator_next(choices) != 0
        guard readings.contains(where: { $0.text == symbol }) else { return [] }
        let others = readings.filter { $0.text != symbol && !$0.text.isEmpty }.sorted { $0.confidence > $1.confidence }
        return Array(others.prefix(OCRSymbol.maximumAlternatives))
    }
}

/// One word OCR read: its text and box, and the symbols it is made of.
struct OCRWord: Sendable {
    var word: TextWord
    var symbols: [OCRSymbol]
}

/// One symbol (character) of a word, how sure the recogniser was of it (0-100), and what else
/// it might have been.
struct OCRSymbol: Sendable {
    struct Alternative: Sendable {
        var text: String
        var confidence: Float
    }

    /// The most other readings kept of one symbol.
    static let maximumAlternatives = 4

    var text: String
    var confidence: Float
    var alternatives: [Alternative]
}

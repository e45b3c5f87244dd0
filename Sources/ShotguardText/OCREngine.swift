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
        // A block, not a single line: a candidate may hold two lines that touch.
        sg_tess_base_api_set_page_seg_mode(api, SG_PSM_SINGLE_BLOCK)
        self.api = api
    }

    deinit {
        sg_tess_base_api_end(api)
        sg_tess_base_api_delete(api)
    }

    /// The words of an 8-bit grey image (dark text on light), with their boxes in its pixels.
    func words(in image: GreyImage) -> [[TextWord]] {
        image.pixels.withUnsafeBufferPointer { pixels in
            sg_tess_base_api_set_image(api, pixels.baseAddress, Int32(image.width), Int32(image.height), 1, Int32(image.width))
        }
        // Screen text at the sizes the scanner scales it to reads as print at 300 dpi.
        sg_tess_base_api_set_source_resolution(api, 300)
        defer { sg_tess_base_api_clear(api) }
        guard sg_tess_base_api_recognize(api) == 0, let iterator = sg_tess_base_api_get_iterator(api) else { return [] }
        defer { sg_tess_result_iterator_delete(iterator) }
        var lines: [[TextWord]] = []
        repeat {
            if sg_tess_result_iterator_is_at_beginning_of(iterator, SG_RIL_TEXTLINE) != 0 || lines.isEmpty { lines.append([]) }
            guard let text = sg_tess_result_iterator_get_utf8_text(iterator, SG_RIL_WORD) else { continue }
            defer { sg_tess_delete_text(text) }
            var left: Int32 = 0, top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0
            guard sg_tess_result_iterator_bounding_box(iterator, SG_RIL_WORD, &left, &top, &right, &bottom) != 0 else { continue }
            let word = String(decoding: UnsafeRawBufferPointer(start: text, count: strlen(text)), as: UTF8.self)
            lines[lines.count - 1].append(TextWord(text: word, rect: Rect(x: Int(left), y: Int(top),
                                                                         width: Int(right - left), height: Int(bottom - top))))
        } while sg_tess_result_iterator_next(iterator, SG_RIL_WORD) != 0
        return lines.filter { !$0.isEmpty }
    }
}

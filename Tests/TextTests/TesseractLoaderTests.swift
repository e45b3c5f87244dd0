// Tesseract is loaded at run time through CTesseract's own copy of the constants it needs: this
// checks the copy against the real header, and that the installed library and model load.
import CTesseract
import Foundation
import ShotguardTestSupport
import ShotguardText
import XCTest

final class TesseractLoaderTests: XCTestCase {
    /// Each value CTesseract's header fixes, as capi.h gives it and as Swift sees it.
    private static let mirrored: [(name: String, value: Int)] = [
        ("PSM_SINGLE_BLOCK", Int(SG_PSM_SINGLE_BLOCK.rawValue)), ("PSM_SINGLE_LINE", Int(SG_PSM_SINGLE_LINE.rawValue)),
        ("PSM_SPARSE_TEXT", Int(SG_PSM_SPARSE_TEXT.rawValue)), ("PSM_RAW_LINE", Int(SG_PSM_RAW_LINE.rawValue)),
        ("RIL_BLOCK", Int(SG_RIL_BLOCK.rawValue)), ("RIL_PARA", Int(SG_RIL_PARA.rawValue)),
        ("RIL_TEXTLINE", Int(SG_RIL_TEXTLINE.rawValue)), ("RIL_WORD", Int(SG_RIL_WORD.rawValue)),
        ("RIL_SYMBOL", Int(SG_RIL_SYMBOL.rawValue)), ("OEM_LSTM_ONLY", Int(SG_OEM_LSTM_ONLY.rawValue)),
    ]

    func testTheMirroredConstantsMatchTesseractsHeader() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shotguard-tess-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let lines = Self.mirrored.map { "    printf(\"%s %d\\n\", \"\($0.name)\", (int)\($0.name));" }
        let source = "#include <tesseract/capi.h>\n#include <stdio.h>\nint main(void) {\n" + lines.joined(separator: "\n")
            + "\n    return 0;\n}\n"
        let sourcePath = folder.appendingPathComponent("values.c").path
        let programPath = folder.appendingPathComponent("values").path
        try Data(source.utf8).write(to: URL(fileURLWithPath: sourcePath))
        _ = try programOutput("cc", [sourcePath, "-o", programPath],
                       because: "Tesseract's C header is needed to check CTesseract's copy (Debian: libtesseract-dev)")
        var real: [String: Int] = [:]
        for line in try programOutput(programPath, [], because: "the values program failed").split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = Int(parts[1]) { real[String(parts[0])] = value }
        }
        for entry in Self.mirrored {
            XCTAssertEqual(entry.value, real[entry.name], "\(entry.name): CTesseract's header differs from capi.h")
        }
    }

    func testTheLibraryAndTheEnglishModelLoad() throws {
        var message = [CChar](repeating: 0, count: 256)
        XCTAssertEqual(sg_tess_load(&message, message.count), 0,
                       String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        XCTAssertTrue(String(cString: sg_tess_version()).hasPrefix("5."))
        // The model loads (a scanner prepares its first engine), and OpenMP was held to one thread.
        let scanner = TextScanner(rules: [TextRule(kind: .card, line: 1)])
        XCTAssertNoThrow(try scanner.prepare())
        XCTAssertNoThrow(try scanner.with(rules: [TextRule(kind: .email, line: 2)]).prepare())
        XCTAssertEqual(getenv("OMP_THREAD_LIMIT").map { String(cString: $0) }, "1")
    }
}

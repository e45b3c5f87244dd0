// libatspi is loaded at run time through CAtspiLoader's own copy of the types it needs: this
// checks the copy against the real headers, the loading, and that no command links it (nor
// libsystemd, libXtst and libXRes, loaded the same way) any more.
import CAtspiLoader
import Foundation
import ShotguardTestSupport
import XCTest

final class AtspiLoaderTests: XCTestCase {
    /// Each value CAtspiLoader's header fixes, as the real headers give it (a C expression) and as
    /// Swift sees it through CAtspiLoader. A wrong value would query the wrong role or state, or
    /// read GLib's structs at the wrong offsets.
    private static let mirrored: [(name: String, expression: String, value: Int)] = [
        ("ATSPI_ROLE_PASSWORD_TEXT", "ATSPI_ROLE_PASSWORD_TEXT", Int(ATSPI_ROLE_PASSWORD_TEXT.rawValue)),
        ("ATSPI_ROLE_TEXT", "ATSPI_ROLE_TEXT", Int(ATSPI_ROLE_TEXT.rawValue)),
        ("ATSPI_ROLE_ENTRY", "ATSPI_ROLE_ENTRY", Int(ATSPI_ROLE_ENTRY.rawValue)),
        ("ATSPI_ROLE_LABEL", "ATSPI_ROLE_LABEL", Int(ATSPI_ROLE_LABEL.rawValue)),
        ("ATSPI_ROLE_LIST_ITEM", "ATSPI_ROLE_LIST_ITEM", Int(ATSPI_ROLE_LIST_ITEM.rawValue)),
        ("ATSPI_ROLE_TABLE_CELL", "ATSPI_ROLE_TABLE_CELL", Int(ATSPI_ROLE_TABLE_CELL.rawValue)),
        ("ATSPI_ROLE_TERMINAL", "ATSPI_ROLE_TERMINAL", Int(ATSPI_ROLE_TERMINAL.rawValue)),
        ("ATSPI_ROLE_PARAGRAPH", "ATSPI_ROLE_PARAGRAPH", Int(ATSPI_ROLE_PARAGRAPH.rawValue)),
        ("ATSPI_ROLE_CAPTION", "ATSPI_ROLE_CAPTION", Int(ATSPI_ROLE_CAPTION.rawValue)),
        ("ATSPI_ROLE_HEADING", "ATSPI_ROLE_HEADING", Int(ATSPI_ROLE_HEADING.rawValue)),
        ("ATSPI_ROLE_DOCUMENT_TEXT", "ATSPI_ROLE_DOCUMENT_TEXT", Int(ATSPI_ROLE_DOCUMENT_TEXT.rawValue)),
        ("ATSPI_ROLE_STATIC", "ATSPI_ROLE_STATIC", Int(ATSPI_ROLE_STATIC.rawValue)),
        ("ATSPI_STATE_SHOWING", "ATSPI_STATE_SHOWING", Int(ATSPI_STATE_SHOWING.rawValue)),
        ("ATSPI_Collection_MATCH_ALL", "ATSPI_Collection_MATCH_ALL", Int(ATSPI_Collection_MATCH_ALL.rawValue)),
        ("ATSPI_Collection_MATCH_ANY", "ATSPI_Collection_MATCH_ANY", Int(ATSPI_Collection_MATCH_ANY.rawValue)),
        ("ATSPI_Collection_SORT_ORDER_CANONICAL", "ATSPI_Collection_SORT_ORDER_CANONICAL",
         Int(ATSPI_Collection_SORT_ORDER_CANONICAL.rawValue)),
        ("ATSPI_COORD_TYPE_SCREEN", "ATSPI_COORD_TYPE_SCREEN", Int(ATSPI_COORD_TYPE_SCREEN.rawValue)),
        ("sizeof AtspiRole", "sizeof(AtspiRole)", MemoryLayout<AtspiRole>.size),
        ("sizeof AtspiStateType", "sizeof(AtspiStateType)", MemoryLayout<AtspiStateType>.size),
        ("sizeof AtspiCollectionMatchType", "sizeof(AtspiCollectionMatchType)", MemoryLayout<AtspiCollectionMatchType>.size),
        ("sizeof AtspiCollectionSortOrder", "sizeof(AtspiCollectionSortOrder)", MemoryLayout<AtspiCollectionSortOrder>.size),
        ("sizeof AtspiCoordType", "sizeof(AtspiCoordType)", MemoryLayout<AtspiCoordType>.size),
        ("sizeof GArray", "sizeof(GArray)", MemoryLayout<GArray>.size),
        ("offsetof GArray.data", "offsetof(GArray, data)", MemoryLayout<GArray>.offset(of: \.data)!),
        ("offsetof GArray.len", "offsetof(GArray, len)", MemoryLayout<GArray>.offset(of: \.len)!),
        ("sizeof GError", "sizeof(GError)", MemoryLayout<GError>.size),
        ("offsetof GError.domain", "offsetof(GError, domain)", MemoryLayout<GError>.offset(of: \.domain)!),
        ("offsetof GError.code", "offsetof(GError, code)", MemoryLayout<GError>.offset(of: \.code)!),
        ("offsetof GError.message", "offsetof(GError, message)", MemoryLayout<GError>.offset(of: \.message)!),
        ("sizeof AtspiRect", "sizeof(AtspiRect)", MemoryLayout<AtspiRect>.size),
        ("offsetof AtspiRect.x", "offsetof(AtspiRect, x)", MemoryLayout<AtspiRect>.offset(of: \.x)!),
        ("offsetof AtspiRect.y", "offsetof(AtspiRect, y)", MemoryLayout<AtspiRect>.offset(of: \.y)!),
        ("offsetof AtspiRect.width", "offsetof(AtspiRect, width)", MemoryLayout<AtspiRect>.offset(of: \.width)!),
        ("offsetof AtspiRect.height", "offsetof(AtspiRect, height)", MemoryLayout<AtspiRect>.offset(of: \.height)!),
        // The loader's prototypes write gboolean as int, GType as size_t, GQuark as uint32_t.
        ("sizeof gboolean", "sizeof(gboolean)", MemoryLayout<Int32>.size),
        ("sizeof GType", "sizeof(GType)", MemoryLayout<Int>.size),
        ("sizeof GQuark", "sizeof(GQuark)", MemoryLayout<UInt32>.size),
    ]

    func testTheMirroredConstantsAndLayoutsMatchTheAtspiHeaders() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shotguard-atspi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let flags = try programOutput("pkg-config", ["--cflags", "atspi-2"], because: "the AT-SPI2 headers are needed to "
            + "check CAtspiLoader's copy of them (Debian: pkg-config libatspi2.0-dev)")
        let lines = Self.mirrored.map { "    printf(\"%s %ld\\n\", \"\($0.name)\", (long)(\($0.expression)));" }
        let source = "#include <atspi/atspi.h>\n#include <stddef.h>\n#include <stdio.h>\nint main(void) {\n"
            + lines.joined(separator: "\n") + "\n    return 0;\n}\n"
        let sourcePath = folder.appendingPathComponent("values.c").path
        let programPath = folder.appendingPathComponent("values").path
        try Data(source.utf8).write(to: URL(fileURLWithPath: sourcePath))
        let arguments = flags.split(whereSeparator: \.isWhitespace).map(String.init) + [sourcePath, "-o", programPath]
        _ = try programOutput("cc", arguments, because: "the values of the real headers could not be compiled")
        let printed = try programOutput(programPath, [], because: "the compiled values program failed")
        var real: [String: Int] = [:]
        for line in printed.split(separator: "\n") {
            guard let space = line.lastIndex(of: " "), let value = Int(line[line.index(after: space)...]) else { continue }
            real[String(line[..<space])] = value
        }
        for entry in Self.mirrored {
            XCTAssertEqual(entry.value, real[entry.name], "\(entry.name): CAtspiLoader's header differs from AT-SPI2's")
        }
    }

    func testEveryFunctionResolvesInTheInstalledLibatspi() {
        var message = [CChar](repeating: 0, count: 256)
        let loaded = sg_atspi_load(&message, message.count)
        XCTAssertEqual(loaded, 0, String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        // Loaded once per process: a second call gives the first outcome.
        XCTAssertEqual(sg_atspi_load(nil, 0), loaded)
    }

    /// Every command used to load libatspi, GLib, GObject and libdbus at start-up, later
    /// libsystemd with its compression and crypto libraries, and libXtst and libXRes. Now only a
    /// field rule loads the first, only a session-bus connection libsystemd (CSystemdBus), and
    /// only capture sensing the last two (CX11's sg_x_sensing.h), so the binary must not need
    /// them, directly or through another library. Tesseract (and the fifty libraries it brings)
    /// is loaded only by a text rule's OCR, too, and libXcomposite only by the shield under a
    /// compositing manager (CX11's sg_x_composite.h).
    func testTheBinaryLoadsNoLibraryItLoadsOnFirstUseAtStartUp() throws {
        let binary = try shotguardBinary().path
        let loaded = try programOutput("ldd", [binary], because: "ldd could not list what \(binary) loads")
        XCTAssertTrue(loaded.contains("libc.so.6"), loaded)
        for library in ["libatspi", "libglib-2.0", "libgobject-2.0", "libgio-2.0", "libdbus-1", "libsystemd", "liblzma",
                        "libzstd", "liblz4", "libcap.", "libgcrypt", "libgpg-error", "libXtst", "libXRes",
                        "libtesseract", "liblept", "libcurl", "libarchive", "libXcomposite"] {
            XCTAssertFalse(loaded.contains(library), "\(binary) loads \(library) at start-up:\n\(loaded)")
        }
    }
}

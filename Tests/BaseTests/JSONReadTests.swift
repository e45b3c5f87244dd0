// Reading back JSON the project writes: flat entries, nested reports, and documents nested too deep.
import ShotguardBase
import XCTest

final class JSONReadTests: XCTestCase {
    private func parse(_ text: String) -> [String: JSONValue]? { JSONValue.parseObject(Array(text.utf8)) }

    func testAFlatObjectReadsAsBefore() throws {
        let fields = try XCTUnwrap(parse(#"{"id":"a\u00e9\n","size":12,"ok":true,"gone":null}"#))
        XCTAssertEqual(fields["id"]?.string, "a\u{e9}\n")
        XCTAssertEqual(fields["size"]?.number, 12)
        XCTAssertNotNil(fields["ok"])
        XCTAssertNil(fields["ok"]?.string)
        XCTAssertNil(fields["gone"]?.number)
    }

    /// report.json nests objects and arrays (image, signals, redactions, guard): they read back
    /// as written by `JSON`.
    func testNestedValuesWrittenByJSONReadBack() throws {
        let written = JSON.object([
            ("image", .object([("source", .string("file")), ("path", .null), ("width", .number(640))])),
            ("redactions", .array([.object([("line", .number(1))]), .object([("line", .number(3))])])),
            ("signals", .array([])),
            ("guard", .object([("file", .string("rewritten")), ("clipboard", .string("replaced"))])),
            ("note", .null),
        ]).text
        let fields = try XCTUnwrap(parse(written), written)
        XCTAssertEqual(fields["image"]?["source"]?.string, "file")
        XCTAssertEqual(fields["image"]?["width"]?.number, 640)
        XCTAssertNil(fields["image"]?["path"]?.string)
        XCTAssertEqual(fields["redactions"]?.array?.compactMap { $0["line"]?.number }, [1, 3])
        XCTAssertEqual(fields["signals"]?.array?.count, 0)
        XCTAssertEqual(fields["guard"]?["clipboard"]?.string, "replaced")
        XCTAssertNil(fields["note"]?.object)
    }

    func testMalformedContainersAreRefused() {
        for text in [#"{"a":[1,2}"#, #"{"a":{"b":1}"#, #"{"a":[1,]}"#, #"{"a":[,1]}"#, #"{"a":{"b"}}"#, "[1]"] {
            XCTAssertNil(parse(text), text)
        }
    }

    /// A document nested without end is refused at `maximumDepth`, not read until the stack runs out.
    func testNestingBeyondTheLimitIsRefused() {
        let depth = JSONValue.maximumDepth
        let deepest = "{\"a\":" + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + "}"
        XCTAssertNotNil(parse(deepest), "\(depth) levels are read")
        let deeper = "{\"a\":" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        XCTAssertNil(parse(deeper), "\(depth + 1) levels are refused")
        let bomb = "{\"a\":" + String(repeating: "[", count: 1_000_000)
        XCTAssertNil(parse(bomb))
    }
}

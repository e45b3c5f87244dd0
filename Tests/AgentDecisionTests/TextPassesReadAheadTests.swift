// A reading of the screen ahead of any screenshot gives way to a screenshot's pass sent after it.
import Foundation
import Glibc
import ShotguardImaging
import ShotguardText
@testable import ShotguardAgent
import XCTest

final class TextPassesReadAheadTests: XCTestCase {
    /// The corpus's light screen (about a hundred lines, card numbers among them).
    private func screen() throws -> PixelBuffer {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../TextTests/Corpus/00-light.png").standardized.path
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        return try PNGDecoder.decode(bytes, source: path)
    }

    /// Waits on the passes' pipe until `done` holds of what came through it (bounded).
    private func collect(_ passes: TextPasses, until done: ([ScreenReading], [TextJobResult]) -> Bool)
        -> ([ScreenReading], [TextJobResult]) {
        var readings: [ScreenReading] = [], results: [TextJobResult] = []
        let deadline = Date().addingTimeInterval(120)
        while !done(readings, results), Date() < deadline {
            var descriptor = pollfd(fd: passes.fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 1000)
            passes.clearWake()
            readings += passes.takeReadings()
            results += passes.takeResults()
        }
        return (readings, results)
    }

    /// A screenshot's pass sent while the screen is read ahead stops that reading at its next
    /// line (it leaves lines, and is not taken as the screen read), and runs whole itself.
    func testAScreenshotsPassStopsAReadingAheadAndRunsWhole() throws {
        let image = try screen()
        let passes = try XCTUnwrap(TextPasses())
        let rules = [TextRule(kind: .card, line: 1)]
        passes.readAhead(image, rules: rules, for: 60)
        XCTAssertTrue(passes.readingAhead)
        // The reading first loads Tesseract and finds the screen's lines: the pass is sent
        // long before it reads its first.
        _ = passes.submit(image, origin: image.bounds, skipping: [], rules: rules)
        let (readings, results) = collect(passes) { $0.count == 1 && $1.count == 1 }
        let reading = try XCTUnwrap(readings.first, "the reading ahead ended")
        XCTAssertTrue(reading.ahead)
        XCTAssertGreaterThan(reading.linesLeft, 0, "it gave way: \(reading)")
        XCTAssertNil(reading.failure)
        XCTAssertFalse(passes.readingAhead)
        let result = try XCTUnwrap(results.first, "the pass ended")
        XCTAssertTrue(result.complete, "\(result.failure ?? "")")
        XCTAssertFalse(result.hits.isEmpty, "the screen's card numbers were found")
    }

    /// Read ahead whole, the screen's lines are remembered: a screenshot of it begun later reads
    /// none of them again.
    func testAScreenReadAheadIsReadFromMemoryAsAScreenshotBegins() throws {
        let image = try screen()
        let passes = try XCTUnwrap(TextPasses())
        let rules = [TextRule(kind: .card, line: 1)]
        passes.readAhead(image, rules: rules, for: 60)
        let ahead = try XCTUnwrap(collect(passes) { readings, _ in !readings.isEmpty }.0.first)
        XCTAssertEqual(ahead.linesLeft, 0, "\(ahead)")
        XCTAssertGreaterThan(ahead.linesRead, 20)
        passes.warm(image, rules: rules)
        let begun = try XCTUnwrap(collect(passes) { readings, _ in !readings.isEmpty }.0.first)
        XCTAssertFalse(begun.ahead)
        XCTAssertEqual(begun.linesRead, ahead.linesRead)
        XCTAssertEqual(begun.linesRemembered, begun.linesRead, "every line read ahead")
    }
}

// Pause durations as typed (90s, 10m, 1h30m) and as read back.
import ShotguardBus
import XCTest

final class PauseDurationTests: XCTestCase {
    func testDurationsAddUp() {
        let cases: [(String, Double)] = [("0", 0), ("90s", 90), ("10m", 600), ("1h", 3600), ("1h30m", 5400),
                                         ("2m30s", 150), ("24h", 86400), ("1h1m1s", 3661), ("0h5m", 300),
                                         // Regression: --help says 0 pauses until resumed, and 0s was refused.
                                         ("0s", 0), ("0m", 0), ("0h0m", 0)]
        for (text, seconds) in cases { XCTAssertEqual(PauseDuration.seconds(text), seconds, text) }
    }

    func testWhatIsNotADurationIsRefused() {
        for text in ["", "10", "m", "10x", "-5m", "1.5h", "1h1h", "24h1s", "25h", "10 m", "99999999999999h",
                     "١٠m", "10M", "h10"] {
            XCTAssertNil(PauseDuration.seconds(text), "'\(text)'")
        }
    }

    func testDescriptions() {
        let cases: [(Double, String)] = [(1, "1 second"), (90, "90 seconds"), (60, "1 minute"), (600, "10 minutes"),
                                         (3600, "1 hour"), (5400, "1 hour 30 minutes"), (7260, "2 hours 1 minute"),
                                         (599.6, "10 minutes"), (3599, "1 hour")]
        for (seconds, text) in cases { XCTAssertEqual(PauseDuration.describe(seconds), text, "\(seconds)") }
    }
}

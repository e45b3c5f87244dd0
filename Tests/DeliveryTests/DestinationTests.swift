// --report-to parsed: Sentry DSNs (self-hosted, with a path prefix), webhooks, commands; and labels that show no secret.
import ShotguardDelivery
import XCTest

final class DestinationTests: XCTestCase {
    func testASentryDSNNamesItsEnvelopeEndpointAndKey() throws {
        let destination = try Destination.parse("sentry:https://abc123@o1.ingest.sentry.io/4507")
        guard case .sentry(let dsn) = destination else { return XCTFail("\(destination)") }
        XCTAssertEqual(dsn.envelopeURL, "https://o1.ingest.sentry.io/api/4507/envelope/")
        XCTAssertEqual(dsn.publicKey, "abc123")
        XCTAssertEqual(dsn.authHeader(client: "shotguard/1"),
                       "X-Sentry-Auth: Sentry sentry_version=7, sentry_key=abc123, sentry_client=shotguard/1")
        XCTAssertEqual(destination.spec, "sentry:https://abc123@o1.ingest.sentry.io/4507")
        XCTAssertEqual(destination.label, "sentry o1.ingest.sentry.io project 4507")
    }

    /// A self-hosted Sentry under a path, on a port, with an old DSN's secret (not needed).
    func testASelfHostedDSNKeepsItsPrefixAndPort() throws {
        let dsn = try SentryDSN.parse("http://key:secret@sentry.internal:9000/sentry/12/")
        XCTAssertEqual(dsn.envelopeURL, "http://sentry.internal:9000/sentry/api/12/envelope/")
        XCTAssertEqual(dsn.publicKey, "key")
    }

    func testBadDestinationsSayWhatWasExpected() {
        for (text, words) in [("sentry:https://o1.ingest.sentry.io/4507", "no public key"),
                              ("sentry:ftp://k@h/1", "not https or http"),
                              ("sentry:https://k@h/project", "is not a number"),
                              ("ftp://example.com/x", "expected sentry:DSN"),
                              ("https:///path", "has no host"),
                              ("https://example.com/a b", "spaces"),
                              ("exec:", "needs a command")] {
            XCTAssertThrowsError(try Destination.parse(text), text) { error in
                XCTAssertTrue("\(error)".contains(words), "\(text): \(error)")
                XCTAssertTrue("\(error)".hasPrefix("--report-to '"), "\(error)")
            }
        }
    }

    /// A webhook's label shows its host, never the user and password of its URL.
    func testAWebhookLabelHidesCredentials() throws {
        let destination = try Destination.parse("https://user:token@hooks.example.com/x?key=secret", headerFile: "/h")
        XCTAssertEqual(destination.label, "webhook hooks.example.com")
        XCTAssertEqual(destination.headerFile, "/h")
        XCTAssertEqual(try Destination.parse("exec:notify-send done").label, "exec")
    }

    func testHeaderFilesAreCheckedLineByLine() throws {
        XCTAssertEqual(try HeaderFile.parse(Array("# tokens\r\nAuthorization: Bearer abc \r\n\nX-Team:  qa\n".utf8), path: "h"),
                       ["Authorization: Bearer abc", "X-Team: qa"])
        XCTAssertThrowsError(try HeaderFile.parse(Array("Authorization Bearer\n".utf8), path: "h")) {
            XCTAssertEqual("\($0)", "--report-header-file h:1: expected 'Name: value'")
        }
        XCTAssertThrowsError(try HeaderFile.parse(Array("A: b\nBad Name: c\n".utf8), path: "h")) {
            XCTAssertEqual("\($0)", "--report-header-file h:2: 'Bad Name' is not a header name")
        }
        XCTAssertThrowsError(try HeaderFile.parse(Array("A: b\u{1b}c\n".utf8), path: "h")) {
            XCTAssertTrue("\($0)".hasSuffix("h:1: the value has control characters"), "\($0)")
        }
    }
}

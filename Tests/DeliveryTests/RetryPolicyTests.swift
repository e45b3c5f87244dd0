// What each answer means for a report: delivered, waited for (backoff or Retry-After), or refused for good.
import ShotguardDelivery
import XCTest

final class RetryPolicyTests: XCTestCase {
    private let policy = RetryPolicy(base: 5, cap: 900, retryAfterCap: 3600)

    func testOnlyA2xxDelivers() {
        for status in [200, 201, 202, 204, 299] {
            XCTAssertEqual(policy.verdict(.answered(status: status, retryAfter: nil, body: ""), failures: 1, now: 0), .delivered)
        }
        XCTAssertEqual(policy.verdict(.exited(0), failures: 1, now: 0), .delivered)
        XCTAssertNotEqual(policy.verdict(.exited(1), failures: 1, now: 0), .delivered)
        XCTAssertNotEqual(policy.verdict(.answered(status: 304, retryAfter: nil, body: ""), failures: 1, now: 0), .delivered)
    }

    /// Down or busy: the wait doubles with each failure in a row, up to the cap.
    func testBackoffDoublesToItsCap() {
        XCTAssertEqual((1...10).map { policy.backoff(failures: $0) }, [5, 10, 20, 40, 80, 160, 320, 640, 900, 900])
        XCTAssertEqual(policy.verdict(.unreachable("Connection refused"), failures: 3, now: 0), .retry(after: 20, why: "Connection refused"))
        XCTAssertEqual(policy.verdict(.answered(status: 503, retryAfter: nil, body: "down"), failures: 1, now: 0),
                       .retry(after: 5, why: "HTTP 503: down"))
        XCTAssertEqual(policy.backoff(failures: 1000), 900, "no overflow after many failures")
    }

    /// Retry-After in seconds or as an HTTP date is honoured over the backoff, within its cap.
    func testRetryAfterIsHonoured() {
        XCTAssertEqual(policy.verdict(.answered(status: 429, retryAfter: "2", body: ""), failures: 4, now: 0),
                       .retry(after: 2, why: "HTTP 429"))
        let now = 1_445_412_470.0  // 2015-10-21 07:27:50 UTC
        XCTAssertEqual(RetryPolicy.seconds(retryAfter: "Wed, 21 Oct 2015 07:28:00 GMT", now: now), 10)
        XCTAssertEqual(RetryPolicy.seconds(retryAfter: "Wed, 21 Oct 2015 07:28:00 GMT", now: now + 60), 0, "a date past is now")
        XCTAssertEqual(policy.verdict(.answered(status: 503, retryAfter: "999999", body: ""), failures: 1, now: 0),
                       .retry(after: 3600, why: "HTTP 503"))
        XCTAssertNil(RetryPolicy.seconds(retryAfter: "soon", now: 0))
        XCTAssertEqual(policy.verdict(.answered(status: 429, retryAfter: "soon", body: ""), failures: 2, now: 0),
                       .retry(after: 10, why: "HTTP 429"), "a Retry-After that is not one: the backoff")
    }

    /// A 4xx about the report itself refuses it (the queue goes on); one about the destination
    /// (auth, a wrong project) makes every report wait for the fix.
    func testClientErrorsRefuseTheReportOrWaitForTheDestination() {
        XCTAssertEqual(policy.verdict(.answered(status: 400, retryAfter: nil, body: "bad envelope"), failures: 1, now: 0),
                       .refused(why: "HTTP 400: bad envelope"))
        XCTAssertEqual(policy.verdict(.answered(status: 413, retryAfter: nil, body: ""), failures: 1, now: 0), .refused(why: "HTTP 413"))
        for status in [401, 403, 404] {
            guard case .retry = policy.verdict(.answered(status: status, retryAfter: nil, body: ""), failures: 1, now: 0) else {
                return XCTFail("\(status) should wait for the fix")
            }
        }
    }
}

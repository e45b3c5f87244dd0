// How the screen-read source merges its two RECORD contexts' elements back into the server's order.
@testable import ShotguardX11
import XCTest

final class ServerOrderTests: XCTestCase {
    private let client: UInt32 = 0x120_0000

    private func element(_ time: UInt32, _ client: UInt32, _ sequence: UInt32, ended: Bool = false) -> ServerOrder {
        ServerOrder(time: time, client: client, sequence: sequence, ended: ended)
    }

    /// Different clients go by the server's time, across its wrap at 2^32 milliseconds.
    func testClientsGoByTime() {
        XCTAssertTrue(element(1000, client, 9).precedes(element(1001, 0x140_0000, 2)))
        XCTAssertFalse(element(1001, client, 9).precedes(element(1000, 0x140_0000, 2)))
        XCTAssertTrue(element(UInt32.max - 2, client, 9).precedes(element(3, 0x140_0000, 2)), "across the wrap")
    }

    /// Within one millisecond, one client's requests go by their sequence, and its end (which
    /// bears its last request's sequence) after all of them.
    func testOneClientWithinAMillisecondGoesBySequence() {
        XCTAssertTrue(element(500, client, 41).precedes(element(500, client, 42)), "a shared pixmap, then the copy into it")
        XCTAssertFalse(element(500, client, 42).precedes(element(500, client, 41)))
        XCTAssertTrue(element(500, client, 42).precedes(element(500, client, 42, ended: true)), "a copy before its client's end")
        XCTAssertFalse(element(500, client, 42, ended: true).precedes(element(500, client, 42)))
    }

    /// The server gives an ended client's id to the next client: the new one's copies (a low
    /// sequence) come after the old one's end and its last reads (a high sequence), by time.
    /// Regression: they were put before them, and that end took the new client's covers down.
    func testAClientThatTookAnEndedClientsIdComesAfterItsEnd() {
        let oldEnd = element(7000, client, 301_544, ended: true)
        let oldRead = element(6990, client, 301_544)
        let newCopy = element(7012, client, 12)
        XCTAssertTrue(oldEnd.precedes(newCopy))
        XCTAssertFalse(newCopy.precedes(oldEnd))
        XCTAssertTrue(oldRead.precedes(newCopy))
        XCTAssertFalse(newCopy.precedes(oldRead))
    }

    /// In the millisecond of the end: a request past the ended client's last sequence is the
    /// next client's, after the end; one at or below it is taken for the ended client's.
    func testInTheEndsMillisecondASequencePastItsLastIsTheNextClients() {
        let end = element(7000, client, 6, ended: true)
        XCTAssertTrue(end.precedes(element(7000, client, 9)), "the next client's ninth request")
        XCTAssertFalse(element(7000, client, 9).precedes(end))
        XCTAssertTrue(element(7000, client, 6).precedes(end), "the ended client's last request")
        XCTAssertFalse(end.precedes(element(7000, client, 6)))
    }
}

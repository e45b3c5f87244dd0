// Which read lowers the covers of `shield -- COMMAND`: the command's own, stamped after the covers, without X.
@testable import ShotguardAgent
import Glibc
import ShotguardBase
import ShotguardImaging
import ShotguardX11
import XCTest

final class CoverWatchTests: XCTestCase {
    private func read(client: UInt32, pid: Int32?, at serverTime: UInt) -> ScreenReadEvent {
        .read(ScreenRead(request: .shmGetImage, client: client, drawable: 0x100, area: Rect(x: 0, y: 0, width: 640, height: 400),
                         serverTime: serverTime, receivedAt: 0, processID: pid))
    }

    func testAReadStampedBeforeTheCoversDoesNotCount() {
        var watch = CoverWatch(child: getpid(), mappedAt: 5000, up: true)
        XCTAssertNil(watch.firstRead(in: [read(client: 0x40_0000, pid: getpid(), at: 4999)]))
        XCTAssertEqual(watch.firstRead(in: [read(client: 0x40_0000, pid: getpid(), at: 5000)])?.pid, getpid())
    }

    /// The server's millisecond clock wraps at 2^32: a read just after the wrap is later.
    func testTheServerClockWraps() {
        let watch = CoverWatch(child: 1, mappedAt: 0xFFFF_FFF0, up: true)
        XCTAssertTrue(watch.isAfterCovers(0xFFFF_FFF0))
        XCTAssertTrue(watch.isAfterCovers(5))
        XCTAssertFalse(watch.isAfterCovers(0xFFFF_FF00))
        XCTAssertTrue(CoverWatch(child: 1, mappedAt: nil, up: true).isAfterCovers(0), "no stamp: every read is after")
    }

    /// A process the command started (here a child of this process, standing for the command,
    /// in a session and group of its own: found by its parent) counts; an unrelated one (init)
    /// does not, nor a read with no process.
    func testOnlyTheCommandAndItsDescendantsCount() throws {
        let child = try ChildProcess("sleep", ["30"], newSession: true)
        defer { child.stop() }
        var watch = CoverWatch(child: getpid(), mappedAt: nil, up: true)
        XCTAssertNil(watch.firstRead(in: [read(client: 0x20_0000, pid: 1, at: 10), read(client: 0x60_0000, pid: nil, at: 10)]))
        let found = try XCTUnwrap(watch.firstRead(in: [read(client: 0x40_0000, pid: child.pid, at: 11)]))
        XCTAssertEqual(found.pid, child.pid)
    }

    /// A client's answer is kept until it ends: the server then gives its base to the next.
    func testAClientThatEndedIsAskedAgain() {
        var watch = CoverWatch(child: getpid(), mappedAt: nil, up: true)
        XCTAssertNil(watch.firstRead(in: [read(client: 0x40_0000, pid: 1, at: 10)]))
        XCTAssertNil(watch.firstRead(in: [read(client: 0x40_0000, pid: getpid(), at: 11)]), "the client's first answer is kept")
        XCTAssertEqual(watch.firstRead(in: [.clientEnded(0x40_0000), read(client: 0x40_0000, pid: getpid(), at: 12)])?.pid, getpid())
    }
}

// RECORD's replies split into elements as libXtst splits them, and a recorder's repeated frames held back, without X.
import CX11
import ShotguardImaging
@testable import ShotguardX11
import XCTest

final class RecordReplyTests: XCTestCase {
    /// A reply of `category` from client `base`, its header and its elements' headers in this
    /// machine's byte order, the requests in the recorded client's (`swapped`: the other order).
    private func reply(_ category: Int32, headers: Int32, swapped: Bool = false, base: UInt32 = 0xA0_0000,
                       time: UInt32 = 77, sequence: UInt32 = 5, _ data: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [1, UInt8(category), 9, 0]
        withUnsafeBytes(of: UInt32(data.count / 4)) { bytes += $0 }
        bytes += [UInt8(headers), swapped ? 1 : 0, 0, 0]
        for word in [base, time, sequence, 0, 0] { withUnsafeBytes(of: word) { bytes += $0 } }
        return bytes + data
    }

    private func word(_ value: UInt32, swapped: Bool = false) -> [UInt8] {
        withUnsafeBytes(of: swapped ? value.byteSwapped : value) { Array($0) }
    }

    /// Each element with what libXtst would give: its time, sequence, client, and the request.
    private func elements(_ reply: [UInt8]) -> (ok: Bool, found: [(time: UInt, sequence: UInt, base: UInt32, bytes: [UInt8])]) {
        var found: [(UInt, UInt, UInt32, [UInt8])] = []
        let ok = reply.withUnsafeBytes { buffer in
            var index: Int? = 0
            while let start = index {
                guard case .element(let element, let next) = RecordReply.element(of: buffer, at: start) else { return false }
                let bytes = element.data.map { Array(UnsafeBufferPointer(start: $0, count: Int(element.data_len) * 4)) } ?? []
                found.append((element.server_time, element.client_seq, UInt32(element.id_base), bytes))
                index = next
            }
            return true
        }
        return (ok, found)
    }

    /// Requests with the server's time and their sequence before each; a BIG-REQUESTS length
    /// (0, then 32 bits); the other byte order.
    func testRequestsComeWithTheirTimeAndSequence() {
        let getImage: [UInt8] = [73, 2, 5, 0] + word(0x50D) + [0, 0, 0, 0, 1, 0, 1, 0] + word(0xFFFF_FFFF)
        let big: [UInt8] = [62, 0, 0, 0] + word(3) + word(0x50D)
        let both = XRecordFromClientTime | XRecordFromClientSequence
        var result = elements(reply(XRecordFromClient, headers: both, word(1000) + word(41) + getImage + word(1001) + word(42) + big))
        XCTAssertTrue(result.ok)
        XCTAssertEqual(result.found.map(\.time), [1000, 1001])
        XCTAssertEqual(result.found.map(\.sequence), [41, 42])
        XCTAssertEqual(result.found.map(\.base), [0xA0_0000, 0xA0_0000])
        XCTAssertEqual(result.found.map(\.bytes), [getImage, big])

        let swappedImage: [UInt8] = [73, 2, 0, 5] + word(0x50D, swapped: true) + [0, 0, 0, 0, 0, 1, 0, 1] + word(0xFFFF_FFFF)
        // The element headers are in the recording connection's order, the request in the client's.
        result = elements(reply(XRecordFromClient, headers: both, swapped: true, word(1000) + word(41) + swappedImage))
        XCTAssertTrue(result.ok)
        XCTAssertEqual(result.found.map(\.time), [1000])
        XCTAssertEqual(result.found.map(\.sequence), [41])
        XCTAssertEqual(result.found.map(\.bytes), [swappedImage])
    }

    /// A client's start carries its connection setup (sized by its own field); its end, the
    /// sequence of its last request; the start of data, nothing. Each is one element.
    func testClientsStartingAndEnding() {
        let setup: [UInt8] = [0x6C, 0, 11, 0, 0, 0, 1, 0] + word(0)
        var result = elements(reply(XRecordClientStarted, headers: XRecordFromClientSequence, setup))
        XCTAssertTrue(result.ok)
        XCTAssertEqual(result.found.map(\.bytes), [setup])
        result = elements(reply(XRecordClientDied, headers: XRecordFromClientSequence, time: 7000, word(99)))
        XCTAssertEqual(result.found.map(\.sequence), [99])
        // The server begins a reply at each change of client or category and takes its time
        // then: an end's time is the reply's, when it happened (the merge of the contexts
        // orders by it).
        XCTAssertEqual(result.found.map(\.time), [7000])
        XCTAssertEqual(result.found.map(\.bytes), [[]])
        result = elements(reply(XRecordStartOfData, headers: 0, []))
        XCTAssertTrue(result.ok)
        XCTAssertEqual(result.found.count, 1)
    }

    /// An element that claims more than the reply holds ends the reply: what came before it
    /// is handed over, nothing is read past the end.
    func testAnElementPastTheEndIsDropped() {
        let getImage: [UInt8] = [73, 2, 5, 0] + word(0x50D) + [0, 0, 0, 0, 1, 0, 1, 0] + word(0xFFFF_FFFF)
        let claimsMore: [UInt8] = [62, 0, 200, 0] + word(0x50D)
        let result = elements(reply(XRecordFromClient, headers: 0, getImage + claimsMore))
        XCTAssertFalse(result.ok)
        XCTAssertEqual(result.found.map(\.bytes), [getImage])
        let zeroLength: [UInt8] = [62, 0, 0, 0] + word(0)
        XCTAssertFalse(elements(reply(XRecordFromClient, headers: 0, zeroLength)).ok, "a BIG-REQUESTS length of 0 is no request")
        XCTAssertFalse(elements([UInt8](repeating: 0, count: 16)).ok, "shorter than its header")
    }

    // MARK: held frames

    private func read(_ client: UInt32, _ area: Rect, at time: Double) -> SentinelEvent {
        .read(ScreenRead(request: .copyArea, client: client, drawable: 0x50D, area: area, serverTime: UInt(time * 1000),
                         receivedAt: time), rootArea: area, process: nil, trusted: false)
    }

    private func said(_ event: SentinelEvent?) -> (client: UInt32, repeats: Int, time: Double)? {
        guard case .read(let read, _, _, _)? = event else { return nil }
        return (read.client, read.repeats, read.receivedAt)
    }

    /// A share's frames after its first are said together, the latest with the count of all,
    /// once `interval` has passed; a different read says the held ones first; another client's
    /// first read is said at once.
    func testARecordersFramesAreSaidTogether() {
        var frames = HeldFrames()
        let screen = Rect(x: 0, y: 0, width: 640, height: 400)
        let first = read(1, screen, at: 10)
        XCTAssertFalse(frames.hold(first, at: 10), "a first read is said at once")
        frames.noteSaid(first, at: 10)
        for step in 1...5 { XCTAssertTrue(frames.hold(read(1, screen, at: 10 + 0.033 * Double(step)), at: 10 + 0.033 * Double(step))) }
        XCTAssertFalse(frames.hold(read(2, screen, at: 10.2), at: 10.2), "another client's read")
        XCTAssertEqual(frames.due(at: 10.2).count, 0)
        XCTAssertEqual(frames.deadline, 10 + HeldFrames.interval)
        let due = frames.due(at: 10.25)
        XCTAssertEqual(due.count, 1)
        XCTAssertEqual(said(due.first)?.repeats, 5)
        XCTAssertEqual(said(due.first)?.time ?? 0, 10.165, accuracy: 0.0001, "the latest read's time")
        XCTAssertNil(frames.deadline)

        XCTAssertTrue(frames.hold(read(1, screen, at: 10.3), at: 10.3))
        XCTAssertFalse(frames.hold(read(1, Rect(x: 0, y: 0, width: 10, height: 10), at: 10.31), at: 10.31), "a different read")
        XCTAssertEqual(said(frames.release(1))?.repeats, 1, "said before the different one")
        XCTAssertNil(frames.release(1))
        XCTAssertFalse(frames.hold(read(1, screen, at: 11), at: 11), "after the interval a read is said at once")
        frames.forget(1)
        XCTAssertFalse(frames.hold(read(1, screen, at: 11.01), at: 11.01), "a client forgotten starts again")
    }
}

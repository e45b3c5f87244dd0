// The sharing paths as the RECORD callback sees them, without X: copies of the screen, watches, the compositing manager, which clients' copies are recorded.
import CX11
import ShotguardBase
import ShotguardImaging
@testable import ShotguardX11
import XCTest

final class SharingCollectorTests: XCTestCase {
    private let opcodes = RecordedOpcodes(sharedMemory: 130, composite: 142, damage: 143, render: 139)
    private let root: UInt32 = 0x50D
    private let browser: UInt32 = 0xA0_0000
    private let manager: UInt32 = 0xC0_0000
    private let cmSelection: UInt32 = 0x1AB

    private func collector(manager: UInt32? = nil) -> RecordCollector {
        RecordCollector(opcodes: opcodes, excluded: [], baseMask: 0x1FE0_0000, compositingSelection: cmSelection,
                        compositingManager: manager, processOf: { _ in 4242 })
    }

    private func deliver(_ collector: RecordCollector, _ bytes: [UInt8], client: UInt32, category: Int32 = XRecordFromClient) {
        var copy = bytes
        copy.withUnsafeMutableBufferPointer { buffer in
            let element = XRecordInterceptData(id_base: XID(client), server_time: 1000, client_seq: 0, category: category,
                                               client_swapped: 0, data: buffer.isEmpty ? nil : buffer.baseAddress,
                                               data_len: UInt(buffer.count / 4))
            collector.take(element)
        }
    }

    /// A request of `major`/`minor` with 32-bit fields, then 16-bit ones, padded to 4 bytes.
    private func request(_ major: UInt8, _ minor: UInt8, _ words: [UInt32], _ halves: [Int] = []) -> [UInt8] {
        var body: [UInt8] = []
        for word in words { withUnsafeBytes(of: word.littleEndian) { body += $0 } }
        for half in halves { withUnsafeBytes(of: UInt16(truncatingIfNeeded: half).littleEndian) { body += $0 } }
        while body.count % 4 != 0 { body.append(0) }
        let units = UInt16(1 + body.count / 4)
        return [major, minor] + withUnsafeBytes(of: units.littleEndian) { Array($0) } + body
    }

    private func copyArea(from source: UInt32, to destination: UInt32, _ area: Rect, at x: Int = 0, _ y: Int = 0) -> [UInt8] {
        request(62, 0, [source, destination, 0x55], [area.x, area.y, x, y, area.width, area.height])
    }

    private var reads: (RecordCollector) -> [ScreenRead] {
        { $0.takeEvents().compactMap { if case .read(let read) = $0 { read } else { nil } } }
    }

    /// libwebrtc's share: a shared pixmap, then copies of the root into it. Each copy is a read
    /// of the root with its destination; a copy inside the client's own drawables is none.
    func testCopiesOfTheScreenAreReadsAndCopiesOfItsOwnAreNot() {
        let collector = collector()
        deliver(collector, request(130, 5, [browser | 1, root, 640 | 400 << 16, 24, 7, 0]), client: browser)
        XCTAssertEqual(collector.registrations, [browser], "a shared pixmap's holder: its copies are recorded")
        deliver(collector, copyArea(from: root, to: browser | 1, Rect(x: 0, y: 0, width: 640, height: 400)), client: browser)
        deliver(collector, copyArea(from: browser | 2, to: browser | 3, Rect(x: 0, y: 0, width: 10, height: 10)), client: browser)
        deliver(collector, copyArea(from: root, to: root, Rect(x: 0, y: 0, width: 10, height: 10)), client: browser)
        let seen = reads(collector)
        XCTAssertEqual(seen.count, 1)
        XCTAssertEqual(seen.first?.request, .copyArea)
        XCTAssertEqual(seen.first?.drawable, UInt(root))
        XCTAssertEqual(seen.first?.destination, CopyDestination(drawable: UInt(browser | 1), x: 0, y: 0))
        XCTAssertEqual(seen.first?.processID, 4242)
        XCTAssertEqual(seen.first?.drawableClient, 0)
    }

    /// RENDER: a picture of the root composited into the client's own picture is a read of the
    /// root (maim); one of its own pixmap is not; an unknown picture reads nothing known.
    func testRenderCompositeOfARootPictureIsARead() {
        let collector = collector()
        deliver(collector, request(139, 4, [browser | 10, root, 0x20, 0]), client: browser)
        deliver(collector, request(139, 4, [browser | 11, browser | 5, 0x20, 0]), client: browser)
        deliver(collector, request(139, 8, [3, browser | 10, 0, browser | 11], [20, 30, 0, 0, 0, 0, 300, 200]), client: browser)
        deliver(collector, request(139, 8, [3, browser | 11, 0, browser | 11], [0, 0, 0, 0, 0, 0, 30, 20]), client: browser)
        deliver(collector, request(139, 8, [3, browser | 99, 0, browser | 11], [0, 0, 0, 0, 0, 0, 30, 20]), client: browser)
        let seen = reads(collector)
        XCTAssertEqual(seen.map(\.request), [.renderComposite])
        XCTAssertEqual(seen.first?.area, Rect(x: 20, y: 30, width: 300, height: 200))
        XCTAssertEqual(seen.first?.destination?.drawable, UInt(browser | 5))
    }

    /// DAMAGE on the root, a redirection and a named pixmap of another client's window are
    /// watches, each ended by its own request; on the client's own window they are none.
    func testWatchesStartAndEnd() {
        let collector = collector()
        let window: UInt32 = 0x80_0001
        deliver(collector, request(143, 1, [browser | 7, root, 3]), client: browser)
        deliver(collector, request(143, 1, [browser | 8, browser | 1, 3]), client: browser)
        deliver(collector, request(142, 1, [window, 1]), client: browser)
        deliver(collector, request(142, 6, [window, browser | 9]), client: browser)
        let kinds: [ScreenWatch.Kind] = collector.takeEvents().compactMap {
            if case .watchStarted(let watch) = $0 { watch.kind } else { nil }
        }
        XCTAssertEqual(kinds, [.damage, .redirect, .namedPixmap])
        XCTAssertEqual(collector.registrations, [browser], "a named pixmap's holder: its FreePixmap is recorded")
        deliver(collector, request(143, 2, [browser | 7]), client: browser)
        deliver(collector, request(142, 3, [window, 1]), client: browser)
        deliver(collector, request(54, 0, [browser | 9]), client: browser)
        XCTAssertEqual(collector.takeEvents(), [
            .watchEnded(ScreenWatchKey(client: browser, kind: .damage, resource: UInt(browser | 7))),
            .watchEnded(ScreenWatchKey(client: browser, kind: .redirect, resource: UInt(window))),
            .watchEnded(ScreenWatchKey(client: browser, kind: .namedPixmap, resource: UInt(browser | 9))),
        ])
        deliver(collector, request(143, 1, [browser | 12, root, 3]), client: browser)
        deliver(collector, [], client: browser, category: XRecordClientDied)
        XCTAssertEqual(collector.takeEvents().last, .clientEnded(browser), "its end ends its watches")
        XCTAssertTrue(collector.watches.isEmpty)
    }

    /// The compositing manager (the owner of _NET_WM_CM_S0) draws the screen with all of these:
    /// none of its copies, redirections, named pixmaps or damage counts, nor what it set up
    /// before it took the selection.
    func testTheCompositingManagersWorkIsNoRead() {
        let collector = collector()
        deliver(collector, request(143, 1, [manager | 1, 0x80_0001, 3]), client: manager)
        deliver(collector, request(22, 0, [manager | 2, cmSelection, 0]), client: manager)
        XCTAssertEqual(collector.compositingManager, manager)
        deliver(collector, request(142, 2, [root, 1]), client: manager)
        deliver(collector, request(142, 6, [0x80_0001, manager | 3]), client: manager)
        deliver(collector, copyArea(from: 0x80_0001, to: manager | 4, Rect(x: 0, y: 0, width: 50, height: 50)), client: manager)
        let events = collector.takeEvents()
        XCTAssertEqual(events, [.watchStarted(ScreenWatch(kind: .damage, client: manager, resource: UInt(manager | 1), drawable: 0x80_0001,
                                                          serverTime: 1000, receivedAt: 0, processID: 4242)),
                                .watchEnded(ScreenWatchKey(client: manager, kind: .damage, resource: UInt(manager | 1)))])
        // Another client's DAMAGE on the root is still a watch; the manager letting go of the
        // selection makes it an ordinary client again.
        deliver(collector, request(143, 1, [browser | 1, root, 3]), client: browser)
        deliver(collector, request(22, 0, [0, cmSelection, 0]), client: manager)
        XCTAssertNil(collector.compositingManager)
        XCTAssertEqual(collector.takeEvents().count, 1)
    }

    /// A client that starts is recorded for its probation, then let go; a holder of a shared
    /// pixmap stays until it frees it; one that copied the screen stays a while.
    func testCopyRecordingLetsOrdinaryClientsGo() {
        var copies = CopyRecording()
        copies.started(1, at: 0)
        copies.started(2, at: 0)
        copies.started(3, at: 0)
        XCTAssertFalse(copies.pin(2, 0x21, at: 1), "already recorded: nothing to send")
        XCTAssertFalse(copies.keep(3, at: 2))
        XCTAssertEqual(copies.deadline, CopyRecording.probation)
        XCTAssertEqual(copies.expired(at: CopyRecording.probation), [1])
        XCTAssertEqual(copies.expired(at: 2 + CopyRecording.hold), [3])
        XCTAssertEqual(copies.expired(at: 1000), [], "a shared pixmap keeps it")
        copies.unpin(2, 0x21)
        XCTAssertEqual(copies.expired(at: 1000), [2])
        XCTAssertTrue(copies.pin(4, 0x41, at: 1000), "a client from before: registered when it makes a shared pixmap")
        copies.ended(4)
        XCTAssertNil(copies.deadline)
    }

    /// A client on probation that copies only its own drawables, thousands of times (a
    /// benchmark, a game), is let go early; one that copied the screen, or holds a shared
    /// pixmap, is never let go for its own copies.
    func testAFloodOfOwnCopiesEndsTheProbation() {
        var copies = CopyRecording()
        copies.started(1, at: 0)
        copies.started(2, at: 0)
        copies.started(3, at: 0)
        XCTAssertFalse(copies.keep(2, at: 0.1))
        _ = copies.pin(3, 0x31, at: 0.1)
        var reached: [Int: [UInt32]] = [:]
        for count in 1...CopyRecording.ownCopiesOnProbation + 10 {
            for client: UInt32 in [1, 2, 3] where copies.copiedOwn(client, at: 0.5) { reached[count, default: []].append(client) }
        }
        XCTAssertEqual(reached, [CopyRecording.ownCopiesOnProbation: [1]],
                       "said once, at the copy that reached the count, so that the source lets it go before reading on")
        XCTAssertEqual(copies.expired(at: 0.5), [1], "the flooding client goes at once; the sharer and the pixmap holder stay")
        XCTAssertEqual(copies.expired(at: CopyRecording.probation), [])
    }

    /// A new client copying its own pixmaps: the copy that reaches the count asks the source
    /// to let it go at once (`lettingGo`), and no copy before it does.
    func testTheCopyThatEndsAProbationAsksForTheLetGoAtOnce() {
        let collector = collector()
        let game: UInt32 = 0xE0_0000
        deliver(collector, [], client: game, category: XRecordClientStarted)
        for count in 1..<CopyRecording.ownCopiesOnProbation {
            deliver(collector, copyArea(from: game | 1, to: game | 2, Rect(x: 0, y: 0, width: 10, height: 10)), client: game)
            XCTAssertFalse(collector.lettingGo, "copy \(count)")
        }
        deliver(collector, copyArea(from: game | 1, to: game | 2, Rect(x: 0, y: 0, width: 10, height: 10)), client: game)
        XCTAssertTrue(collector.lettingGo)
        XCTAssertEqual(collector.expiredCopyClients(at: 0), [game], "let go before its probation ends")
        XCTAssertTrue(reads(collector).isEmpty, "its own copies read nothing of the screen")
    }

    /// Covers are up over what any hold holds; a reader's grows to all it read; a client's end
    /// takes its holds away; a helper holds the whole screen.
    func testCoverHolds() {
        var holds = CoverHolds()
        let vault = Rect(x: 40, y: 80, width: 200, height: 40)
        let corner = Rect(x: 576, y: 0, width: 64, height: 32)
        XCTAssertTrue(holds.add(.reader(7), Rect(x: 400, y: 260, width: 200, height: 100)))
        XCTAssertFalse(holds.holds(vault) || holds.holds(corner), "a region far from both")
        XCTAssertFalse(holds.add(.reader(7), Rect(x: 400, y: 260, width: 200, height: 100)), "the same area again changes nothing")
        XCTAssertTrue(holds.add(.reader(7), Rect(x: 500, y: 0, width: 100, height: 10)), "it grew")
        XCTAssertTrue(holds.holds(corner) && !holds.holds(vault))
        holds.add(.watch(ScreenWatchKey(client: 9, kind: .damage, resource: 0x90_0001)), Rect(x: 0, y: 0, width: 640, height: 400))
        XCTAssertTrue(holds.holds(vault) && holds.hasReaders)
        XCTAssertTrue(holds.removeClient(9))
        XCTAssertTrue(holds.remove(.reader(7)))
        XCTAssertTrue(holds.isEmpty)
        holds.add(.helper(4242), nil)
        XCTAssertTrue(holds.holds(vault) && holds.holds(corner) && !holds.hasReaders)
    }

    /// A client is judged trusted from its process at its first read, and again when the
    /// trusted programs change; its end forgets it (its id goes to the next client).
    func testTrustedClients() {
        let obs = ProcessDetails(pid: 10, program: "obs", executable: Array("/usr/bin/obs".utf8), workingFolder: nil, arguments: [],
                                 parentPID: 1, processGroup: 10)
        var trust = TrustedClients()
        XCTAssertFalse(trust.judge(7, process: obs))
        trust.programs = [ProgramName("obs")]
        XCTAssertTrue(trust.isTrusted(7), "judged again from the process it had")
        XCTAssertFalse(trust.judge(8, process: nil), "a client whose process is unknown is not trusted")
        trust.forget(7)
        XCTAssertFalse(trust.isTrusted(7))
    }
}

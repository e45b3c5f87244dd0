// What the RECORD callback makes of elements, without X: exclusions, pixmap names, clients' ends, bounds.
import CX11
import ShotguardImaging
@testable import ShotguardX11
import XCTest

final class RecordCollectorTests: XCTestCase {
    private let opcodes = RecordedOpcodes(sharedMemory: 130, composite: 142)

    /// Hands `bytes` to the collector as libXtst would: one element of `category` from `client`.
    private func deliver(_ collector: RecordCollector, _ bytes: [UInt8], client: UInt32, category: Int32 = XRecordFromClient,
                         time: UInt = 1000, swapped: Bool = false, units: UInt? = nil) {
        var copy = bytes
        copy.withUnsafeMutableBufferPointer { buffer in
            let element = XRecordInterceptData(id_base: XID(client), server_time: time, client_seq: 0, category: category,
                                               client_swapped: swapped ? 1 : 0,
                                               data: buffer.isEmpty ? nil : buffer.baseAddress,
                                               data_len: units ?? UInt(buffer.count / 4))
            collector.take(element)
        }
    }

    private func getImage(_ drawable: UInt32, _ rect: Rect) -> [UInt8] {
        var bytes: [UInt8] = [73, 2, 5, 0]
        withUnsafeBytes(of: drawable.littleEndian) { bytes += $0 }
        for value in [rect.x, rect.y, rect.width, rect.height] { withUnsafeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian) { bytes += $0 } }
        return bytes + [0xFF, 0xFF, 0xFF, 0xFF]
    }

    private func name(window: UInt32, pixmap: UInt32) -> [UInt8] {
        var bytes: [UInt8] = [142, 6, 3, 0]
        withUnsafeBytes(of: window.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: pixmap.littleEndian) { bytes += $0 }
        return bytes
    }

    func testReadsCarryTheirClientTimeAndWindow() {
        let collector = RecordCollector(opcodes: opcodes, excluded: [0x20_0000], baseMask: 0x1FE0_0000, processOf: { _ in nil })
        collector.receivedAt = 42
        deliver(collector, [], client: 0, category: XRecordStartOfData)
        XCTAssertTrue(collector.started)
        deliver(collector, getImage(0x50D, Rect(x: 1, y: 2, width: 3, height: 4)), client: 0x20_0000)  // the agent's own
        deliver(collector, name(window: 0x80_0000, pixmap: 0xA0_0001), client: 0xA0_0000)
        deliver(collector, getImage(0xA0_0001, Rect(x: 0, y: 0, width: 66, height: 46)), client: 0xA0_0000, time: 1234)
        deliver(collector, getImage(0xA0_0002, Rect(x: 0, y: 0, width: 5, height: 5)), client: 0xA0_0000, time: 1235)
        XCTAssertEqual(collector.takeEvents(), [
            // Naming another client's window's pixmap is watching it.
            .watchStarted(ScreenWatch(kind: .namedPixmap, client: 0xA0_0000, resource: 0xA0_0001, drawable: 0x80_0000,
                                      serverTime: 1000, receivedAt: 42)),
            .read(ScreenRead(request: .getImage, client: 0xA0_0000, drawable: 0xA0_0001, area: Rect(x: 0, y: 0, width: 66, height: 46),
                             serverTime: 1234, receivedAt: 42, pixmapWindow: 0x80_0000)),
            .read(ScreenRead(request: .getImage, client: 0xA0_0000, drawable: 0xA0_0002, area: Rect(x: 0, y: 0, width: 5, height: 5),
                             serverTime: 1235, receivedAt: 42)),
        ])
        XCTAssertEqual(collector.takeEvents(), [], "taken once")
    }

    /// A client's end is reported for readers only, in order with the reads around it, and
    /// forgets the pixmaps it named: its base may go to the next client at once.
    func testClientEndsAreOrderedAndForgetPixmaps() {
        let collector = RecordCollector(opcodes: opcodes, excluded: [], baseMask: 0x1FE0_0000, processOf: { _ in nil })
        deliver(collector, name(window: 0x80_0000, pixmap: 0xA0_0001), client: 0xA0_0000)
        deliver(collector, getImage(0x50D, Rect(x: 0, y: 0, width: 8, height: 8)), client: 0xA0_0000)
        deliver(collector, [], client: 0xC0_0000, category: XRecordClientDied)  // never read: nothing to say
        deliver(collector, [], client: 0xA0_0000, category: XRecordClientDied)
        deliver(collector, getImage(0xA0_0001, Rect(x: 0, y: 0, width: 8, height: 8)), client: 0xA0_0000)
        let events = collector.takeEvents().filter { if case .watchStarted = $0 { false } else { true } }
        XCTAssertEqual(events.count, 3)
        XCTAssertEqual(events[1], .clientEnded(0xA0_0000))
        guard case .read(let later) = events[2] else { return XCTFail("\(events)") }
        XCTAssertNil(later.pixmapWindow, "the new client's pixmap is not the old one's window")
        XCTAssertEqual(collector.pixmaps.count, 0)
    }

    /// Elements that are not reads, or claim no data, bring nothing; swapped elements decode.
    func testOddElementsBringNothing() {
        let collector = RecordCollector(opcodes: opcodes, excluded: [], baseMask: 0x1FE0_0000, processOf: { _ in nil })
        deliver(collector, [], client: 0xA0_0000)
        deliver(collector, getImage(0x50D, Rect(x: 0, y: 0, width: 1, height: 1)), client: 0xA0_0000, units: 0)
        deliver(collector, getImage(0x50D, Rect(x: 0, y: 0, width: 1, height: 1)), client: 0xA0_0000, units: 2)
        deliver(collector, getImage(0x50D, Rect(x: 0, y: 0, width: 1, height: 1)), client: 0xA0_0000, category: XRecordFromServer)
        XCTAssertEqual(collector.takeEvents(), [])
        let swapped: [UInt8] = [73, 2, 0, 5, 0, 0, 0x05, 0x0D, 0, 1, 0, 2, 0, 3, 0, 4, 0xFF, 0xFF, 0xFF, 0xFF]
        deliver(collector, swapped, client: 0xA0_0000, swapped: true)
        XCTAssertEqual(collector.takeEvents().count, 1)
    }

    /// A client's process is asked once, as it connects, and again only for a new client on
    /// the same base; a client there before recording is asked at its first read; the agent's
    /// own connections never.
    func testProcessesAreAskedAsClientsConnect() {
        var asked: [UInt32] = []
        var next: Int32 = 100
        let collector = RecordCollector(opcodes: opcodes, excluded: [0x20_0000], baseMask: 0x1FE0_0000, processOf: { client in
            asked.append(client)
            next += 1
            return client == 0xE0_0000 ? nil : next
        })
        let read = getImage(0x50D, Rect(x: 0, y: 0, width: 1, height: 1))
        deliver(collector, [], client: 0xA0_0000, category: XRecordClientStarted)
        deliver(collector, [], client: 0x20_0000, category: XRecordClientStarted)
        deliver(collector, read, client: 0xA0_0000)
        deliver(collector, read, client: 0xA0_0000)
        deliver(collector, read, client: 0xC0_0000)  // connected before recording began
        deliver(collector, read, client: 0xC0_0000)
        deliver(collector, [], client: 0xE0_0000, category: XRecordClientStarted)  // over TCP: no process
        deliver(collector, read, client: 0xE0_0000)
        deliver(collector, [], client: 0xA0_0000, category: XRecordClientDied)
        deliver(collector, [], client: 0xA0_0000, category: XRecordClientStarted)
        deliver(collector, read, client: 0xA0_0000)
        XCTAssertEqual(asked, [0xA0_0000, 0xC0_0000, 0xE0_0000, 0xA0_0000])
        var processes: [Int32?] = []
        for case .read(let read) in collector.takeEvents() { processes += Array(repeating: read.processID, count: read.repeats) }
        XCTAssertEqual(processes, [101, 101, 102, 102, nil, 104])
    }

    /// Clients that start in one turn are asked about together, at its first start: the second
    /// of import's two connections, closed by the time it would be asked alone, still gets its
    /// process. The answer is not used for a client that started after its id's client ended,
    /// nor in a later turn.
    func testClientsStartedInOneTurnAreAskedAboutTogether() {
        var alone: [UInt32] = []
        var together = 0
        let collector = RecordCollector(opcodes: opcodes, excluded: [], baseMask: 0x1FE0_0000, processOf: { client in
            alone.append(client)
            return client == 0xC0_0000 ? 300 : nil  // the others closed before they were asked alone
        }, processesOfAll: {
            together += 1
            return [0xA0_0000: 100, 0xB0_0000: 200, 0xC0_0000: 250]
        })
        let read = getImage(0x50D, Rect(x: 0, y: 0, width: 1, height: 1))
        collector.beginTurn()
        deliver(collector, [], client: 0xA0_0000, category: XRecordClientStarted)
        deliver(collector, [], client: 0xB0_0000, category: XRecordClientStarted)
        deliver(collector, read, client: 0xB0_0000)
        deliver(collector, [], client: 0xC0_0000, category: XRecordClientDied)
        deliver(collector, [], client: 0xC0_0000, category: XRecordClientStarted)
        deliver(collector, read, client: 0xC0_0000)
        collector.beginTurn()
        deliver(collector, [], client: 0xD0_0000, category: XRecordClientStarted)
        deliver(collector, read, client: 0xD0_0000)
        XCTAssertEqual(together, 2)
        XCTAssertEqual(alone, [0xC0_0000, 0xD0_0000])
        let processes = collector.takeEvents().compactMap { event -> Int32?? in
            if case .read(let read) = event { read.processID } else { nil }
        }
        XCTAssertEqual(processes, [200, 300, nil])
    }

    /// One call keeps at most `limit` reads and counts the rest; a client's end still comes.
    func testReadsPerCallAreBounded() {
        let collector = RecordCollector(opcodes: opcodes, excluded: [], baseMask: 0x1FE0_0000, processOf: { _ in nil })
        for index in 0..<(RecordCollector.limit + 10) {
            deliver(collector, getImage(0x50D, Rect(x: index % 1000, y: index / 1000, width: 1, height: 1)), client: 0xA0_0000)
        }
        deliver(collector, [], client: 0xA0_0000, category: XRecordClientDied)
        let events = collector.takeEvents()
        XCTAssertEqual(events.count, RecordCollector.limit + 1)
        XCTAssertEqual(events.last, .clientEnded(0xA0_0000))
        XCTAssertEqual(collector.dropped, 10)
        deliver(collector, getImage(0x50D, Rect(x: 0, y: 0, width: 1, height: 1)), client: 0xA0_0000)
        XCTAssertEqual(collector.takeEvents().count, 1, "the bound is per call")
    }

    /// A client that reads the same pixels again before anything else of its own (x11perf
    /// waits on the server so, thousands of times a second) makes one read that counts them
    /// all, with the first one's time; a different read, or another client's, is a read of its own.
    func testTheSameReadAgainIsCountedInTheFirst() {
        let collector = RecordCollector(opcodes: opcodes, excluded: [], baseMask: 0x1FE0_0000, processOf: { _ in nil })
        let pixel = getImage(0x50D, Rect(x: 602, y: 602, width: 1, height: 1))
        for time: UInt in 1000..<1500 { deliver(collector, pixel, client: 0xA0_0000, time: time) }
        deliver(collector, pixel, client: 0xC0_0000, time: 1500)
        deliver(collector, getImage(0x50D, Rect(x: 0, y: 0, width: 8, height: 8)), client: 0xA0_0000, time: 1501)
        deliver(collector, pixel, client: 0xA0_0000, time: 1502)
        let reads = collector.takeEvents().compactMap { if case .read(let read) = $0 { read } else { nil } }
        XCTAssertEqual(reads.map(\.client), [0xA0_0000, 0xC0_0000, 0xA0_0000, 0xA0_0000])
        XCTAssertEqual(reads.map(\.repeats), [500, 1, 1, 1])
        XCTAssertEqual(reads.map(\.serverTime), [1000, 1500, 1501, 1502])
        XCTAssertEqual(collector.dropped, 0)
    }

    /// A read of a client's own drawable brings its copies into the recording (a copy of the
    /// screen it made before may be in it), unless it reads a few pixels: x11perf's read of one
    /// pixel of its window after each batch of copies would bring back its flood of copies.
    func testOnlyAReadOfMoreThanAFewOwnPixelsRecordsTheClientsCopies() {
        let collector = RecordCollector(opcodes: opcodes, excluded: [], baseMask: 0x1FE0_0000, processOf: { _ in nil })
        deliver(collector, getImage(0xA0_0002, Rect(x: 0, y: 0, width: 8, height: 8)), client: 0xA0_0000)
        XCTAssertEqual(collector.registrations, [])
        deliver(collector, getImage(0xA0_0002, Rect(x: 0, y: 0, width: 9, height: 8)), client: 0xA0_0000)
        XCTAssertEqual(collector.registrations, [0xA0_0000])
    }

    /// The pixmap map keeps at most its limit, forgetting the pixmap named first.
    func testWindowPixmapsAreBounded() {
        var pixmaps = WindowPixmaps(limit: 3)
        for pixmap: UInt32 in 1...5 { pixmaps.name(pixmap, window: 100 + pixmap) }
        XCTAssertEqual(pixmaps.count, 3)
        XCTAssertEqual((1...5).map { pixmaps.window(of: $0) }, [nil, nil, 103, 104, 105])
        pixmaps.name(4, window: 200)
        XCTAssertEqual(pixmaps.window(of: 4), 200)
        for pixmap: UInt32 in 6...1025 { pixmaps.name(pixmap, window: 1) }
        XCTAssertEqual(pixmaps.count, 3)
        XCTAssertEqual([1023, 1024, 1025].map { pixmaps.window(of: $0) }, [1, 1, 1])
        pixmaps.forgetClient(base: 0, mask: 0xFFFF_FC00)
        XCTAssertEqual([1023, 1024, 1025].map { pixmaps.window(of: $0) }, [nil, 1, 1], "ids under 1024 are client 0's under this mask")
        pixmaps.name(7, window: 2)
        XCTAssertEqual(pixmaps.count, 3)
    }

    /// A client the server no longer has when asked which process it is hung up: its reads say
    /// so (the agent looks for the program behind it). A client over TCP, which the server
    /// has with no process, has not; nor has one when the server could not answer at all; nor
    /// the next client on a hung-up one's base.
    func testAClientGoneBeforeItWasAskedIsSaidToHaveHungUp() {
        let tcp: UInt32 = 0xB0_0000, gone: UInt32 = 0xC0_0000, unanswered: UInt32 = 0xD0_0000
        var goneAsked = 0
        let collector = RecordCollector(opcodes: opcodes, excluded: [], baseMask: 0x1FE0_0000, ask: { client in
            switch client {
            case 0: return ClientProcesses(known: true, pids: [0xA0_0000: 100], clients: [0xA0_0000, tcp])
            case tcp: return ClientProcesses(known: true, clients: [tcp])
            case unanswered: return ClientProcesses(known: false)
            default:
                // The first client on that base was gone; the next one is there.
                goneAsked += 1
                return goneAsked == 1 ? ClientProcesses(known: true) : ClientProcesses(known: true, pids: [gone: 300], clients: [gone])
            }
        })
        let read = getImage(0x50D, Rect(x: 0, y: 0, width: 1, height: 1))
        collector.beginTurn()
        for client in [0xA0_0000, tcp, gone, unanswered] {
            deliver(collector, [], client: client, category: XRecordClientStarted)
            deliver(collector, read, client: client)
        }
        deliver(collector, [], client: gone, category: XRecordClientDied)
        collector.beginTurn()
        deliver(collector, [], client: gone, category: XRecordClientStarted)
        deliver(collector, read, client: gone)
        let reads = collector.takeEvents().compactMap { event -> ScreenRead? in if case .read(let read) = event { read } else { nil } }
        XCTAssertEqual(reads.map(\.readerHungUp), [false, false, true, false, false])
        XCTAssertEqual(reads.map(\.processID), [100, nil, nil, nil, 300])
    }
}

extension RecordCollector {
    /// A collector whose questions about a client's process are answered by `processOf` (nil:
    /// the server could not answer) and, for every client at once, by `processesOfAll`.
    convenience init(opcodes: RecordedOpcodes, excluded: Set<UInt32>, baseMask: UInt32, compositingSelection: UInt32 = 0,
                     compositingManager: UInt32? = nil, processOf: @escaping (UInt32) -> Int32?,
                     processesOfAll: @escaping () -> [UInt32: Int32] = { [:] }) {
        self.init(opcodes: opcodes, excluded: excluded, baseMask: baseMask, compositingSelection: compositingSelection,
                  compositingManager: compositingManager, ask: { client in
            if client == 0 {
                let all = processesOfAll()
                return ClientProcesses(known: true, pids: all, clients: Set(all.keys))
            }
            return processOf(client).map { ClientProcesses(known: true, pids: [client: $0], clients: [client]) } ?? ClientProcesses(known: false)
        })
    }
}

// The one descriptor path: errors that name the file, the call and errno; no byte lost to a signal.
import Foundation
import Glibc
import ShotguardBase
import XCTest

/// Signals the handler below has seen.
nonisolated(unsafe) private var interruptions = 0

final class FileDescriptorTests: XCTestCase {
    func testAFullDiskIsAnErrorNamingTheFileTheCallAndErrno() throws {
        let full = try FileDescriptor.open("/dev/full", O_WRONLY)
        defer { try? full.close() }
        XCTAssertThrowsError(try full.writeAll([1, 2, 3])) { error in
            XCTAssertEqual("\(error)", "/dev/full: write: No space left on device")
        }
    }

    func testOpenAndReadFailuresNameTheirCall() throws {
        XCTAssertThrowsError(try FileDescriptor.open("/nonexistent/shot.png", O_RDONLY)) { error in
            XCTAssertEqual("\(error)", "/nonexistent/shot.png: open: No such file or directory")
        }
        let folder = try FileDescriptor.open("/tmp", O_RDONLY)
        defer { try? folder.close() }
        XCTAssertThrowsError(try folder.readAll(limit: 100)) { error in
            XCTAssertEqual("\(error)", "/tmp: read: Is a directory")
        }
    }

    func testClosingTwiceSaysBadDescriptor() throws {
        let file = try FileDescriptor.open("/dev/null", O_RDONLY)
        try file.close()
        XCTAssertThrowsError(try file.close()) { error in
            XCTAssertEqual("\(error)", "/dev/null: close: Bad file descriptor")
        }
    }

    func testReadAllStopsAtTheLimit() throws {
        let zero = try FileDescriptor.open("/dev/zero", O_RDONLY)
        defer { try? zero.close() }
        XCTAssertThrowsError(try zero.readAll(limit: 3_000_000)) { error in
            XCTAssertEqual((error as? FileError)?.kind, .tooLarge)
        }
    }

    /// 4 MiB into a pipe whose reader signals the writing thread before each read: a write
    /// blocked on the full pipe is cut short by a handler installed without SA_RESTART (a
    /// partial count, or EINTR when nothing was written yet). Every byte arrives, in order.
    func testWritesCutShortOrInterruptedBySignalsLoseNothing() throws {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in interruptions += 1 }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        var previous = sigaction()
        XCTAssertEqual(sigaction(SIGUSR1, &action, &previous), 0)
        defer { sigaction(SIGUSR1, &previous, nil) }
        interruptions = 0

        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        let sent = (0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        let writer = pthread_self()
        nonisolated(unsafe) let received = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: sent.count + 1)
        defer { received.deallocate() }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var count = 0
        let reader = Thread {
            // This thread never takes the signal itself.
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGUSR1)
            pthread_sigmask(SIG_BLOCK, &blocked, nil)
            while true {
                pthread_kill(writer, SIGUSR1)
                let got = read(readEnd, received.baseAddress! + count, min(1 << 16, received.count - count))
                if got <= 0 { break }
                count += got
            }
            done.signal()
        }
        reader.start()
        try FileDescriptor(writeEnd, name: "pipe").writeAll(sent)
        close(writeEnd)
        done.wait()
        XCTAssertEqual(count, sent.count)
        XCTAssertTrue(Array(received.prefix(count)) == sent, "the bytes arrived in order")
        XCTAssertGreaterThan(interruptions, 0, "the writer took the signals")
        print("writer interrupted by \(interruptions) signals")
    }
}

// A scan asked to stop starts no further line, and says what it left; one in the background reads as one in front.
import Glibc
import ShotguardImaging
import Synchronization
@testable import ShotguardText
import XCTest

final class ScanStopTests: XCTestCase {
    /// A reading ahead of any screenshot gives way to the screenshot's own: once its `stop` says
    /// so, no line is read, and every line is counted as left, so it is not taken as complete.
    func testAScanToldToStopReadsNoFurtherLineAndSaysWhatItLeft() throws {
        let screen = try XCTUnwrap(try Corpus.load().first { $0.name == "04-light.png" }).image
        let scanner = TextScanner(rules: [TextRule(kind: .card, line: 1)])
        let stopped = try scanner.scan(screen, origin: screen.bounds, stop: { true })
        XCTAssertGreaterThan(stopped.linesLeft, 20, "the screen's lines, all left")
        XCTAssertEqual(stopped.linesRead, 0)
        XCTAssertFalse(stopped.isComplete)
        XCTAssertEqual(stopped.hits, [])
    }

    /// On threads of low priority (nice 10) the same lines are read and the same covers found as on
    /// the caller's: priority changes when OCR runs, never what it finds.
    func testAScanInTheBackgroundFindsWhatOneInFrontFinds() throws {
        let screen = try XCTUnwrap(try Corpus.load().first { $0.name == "05-dark.png" }).image
        let rules = [TextRule(kind: .card, line: 1), TextRule(kind: .email, line: 2)]
        let front = try TextScanner(rules: rules).scan(screen, origin: screen.bounds)
        let background = try TextScanner(rules: rules).scan(screen, origin: screen.bounds, background: true)
        XCTAssertTrue(background.isComplete)
        XCTAssertEqual(background.linesRead, front.linesRead)
        XCTAssertLessThan(background.linesRemembered * 10, background.linesRead, "only lines shown twice on the screen")
        XCTAssertFalse(front.hits.isEmpty, "the screen shows card numbers and addresses")
        XCTAssertEqual(Set(background.hits), Set(front.hits))
    }
}

final class BackgroundWorkersTests: XCTestCase {
    /// Background jobs run on threads of their own at nice 10, never on the caller's thread,
    /// whose priority stays as it was (a nice value cannot be raised again without privilege:
    /// the queue that runs a screenshot's pass next must not be left low).
    func testBackgroundJobsRunAtNiceTenOffTheCallersThread() {
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        errno = 0
        let before = getpriority(which, 0)
        let caller = pthread_self()
        let seen = Mutex<[(nice: Int32, onCaller: Bool)]>([])
        Workers.run(jobs: 8, workers: 2, background: true) { _, _ in
            let nice = getpriority(which, 0)
            seen.withLock { $0.append((nice, pthread_equal(pthread_self(), caller) != 0)) }
        }
        let jobs = seen.withLock { $0 }
        XCTAssertEqual(jobs.count, 8)
        XCTAssertTrue(jobs.allSatisfy { $0.nice == max(before, Workers.backgroundNice) && !$0.onCaller }, "\(jobs)")
        XCTAssertEqual(getpriority(which, 0), before, "the caller's priority is unchanged")
        // In front, the caller works too, at its own priority.
        let front = Mutex<[Int32]>([])
        Workers.run(jobs: 8, workers: 2) { _, _ in front.withLock { $0.append(getpriority(which, 0)) } }
        XCTAssertTrue(front.withLock { $0 }.allSatisfy { $0 == before })
    }
}

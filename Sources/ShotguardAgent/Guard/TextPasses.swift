// Guard's second pass for `text` rules: OCR on a thread of its own, its result handed back to the loop.
import Dispatch
import Glibc
import ShotguardBase
import ShotguardImaging
import ShotguardText
import Synchronization

/// One text pass to run: an image already redacted by the rectangle rules.
struct TextJob: Sendable {
    let number: Int
    let image: PixelBuffer
    /// What the image shows on screen (for rules limited to windows).
    let origin: Rect
    /// Image rectangles already covered: not read.
    let skipping: [Rect]
    let rules: [TextRule]
}

/// What a text pass found, or why it could not run.
struct TextJobResult: Sendable {
    let number: Int
    let hits: [TextHit]
    /// False when the deadline passed with lines unread, or OCR could not run: fail closed.
    let complete: Bool
    let failure: String?
}

/// What one reading of the screen came to: ahead of any screenshot (`TextPasses.readAhead`), or
/// as one began (`TextPasses.warm`). Its matches are dropped: what it read is remembered.
struct ScreenReading: Sendable {
    /// Read ahead of any screenshot (else as one began).
    let ahead: Bool
    /// Candidate lines OCR read now, and those whose words it already had.
    let linesRead: Int
    let linesRemembered: Int
    /// Lines not read: a screenshot began, or the deadline passed (0 when OCR cannot run:
    /// `failure` says why).
    let linesLeft: Int
    /// Wall-clock seconds the reading took.
    let seconds: Double
    let failure: String?
}

/// Runs text passes one after another on a serial queue of their own (OCR takes a second or
/// two; the loop must keep answering), and wakes the loop through a pipe when one is done.
final class TextPasses {
    private let queue = DispatchQueue(label: "shotguard.text-pass")
    /// Results the queue hands over, behind a lock (the queue's thread and the loop's).
    private final class Inbox: Sendable {
        let results = Mutex<[TextJobResult]>([])
        let readings = Mutex<[ScreenReading]>([])
        /// Counts the screenshots' readings (a pass or a warming) sent to the queue: a reading
        /// ahead stops at its next line once this moves on from the count it began with.
        let screenshots = Atomic<Int>(0)
    }

    private let finished = Inbox()
    private let wake: (read: Int32, write: Int32)
    private var scanner: TextScanner?
    private(set) var running = 0
    /// Whether a reading ahead is on the queue or running.
    private(set) var readingAhead = false
    /// The readings of the screen queued whose results were not taken yet.
    private(set) var readingsQueued = 0
    private var next = 0

    /// How long a pass may take before it counts as failed.
    static let limit = 10.0

    init?() {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        }
        wake = (fds[0], fds[1])
    }

    deinit {
        close(wake.read)
        close(wake.write)
    }

    var fileDescriptor: Int32 { wake.read }

    /// Loads Tesseract for every worker on the passes' queue, once: called as a screenshot
    /// begins, so the models load while the tool writes its file and the first pass reads at
    /// once. A failure to load is not lost: the pass that follows meets it and fails closed.
    func prepare() {
        guard scanner == nil else { return }
        let scanner = TextScanner(rules: [])
        self.scanner = scanner
        queue.async { try? scanner.prepareWorkers() }
    }

    /// Reads `image` (the screen the agent grabbed as a screenshot began) on the passes' queue
    /// and drops what it finds: what OCR reads of its lines is remembered (`LineCache`), so the
    /// screenshot's own pass, when its file or clipboard image comes, reads only the lines that
    /// changed. Nothing is covered from this reading: a failure shows in the pass that follows.
    /// It stops a reading ahead at its next line. Its result comes through `takeReadings`.
    func warm(_ image: PixelBuffer, rules: [TextRule]) {
        finished.screenshots.add(1, ordering: .relaxed)
        // A quarter of a pass's time at most: the screenshot's own pass waits behind it on the
        // queue, and reads for itself whatever this one left.
        _ = queueReading(image, rules: rules, ahead: false, seconds: Self.limit / 4)
    }

    /// Reads `image` (the screen as it is, no screenshot begun) on the passes' queue ahead of
    /// any screenshot, on threads of a low priority (nice 10), and drops what it finds: what OCR
    /// read of its lines is remembered (`LineCache`), so a screenshot taken of this screen later is
    /// read from memory, at once. It gives way: a screenshot's reading sent after it stops it at
    /// the next line. Its result comes through `takeReadings`. One at a time.
    func readAhead(_ image: PixelBuffer, rules: [TextRule], for seconds: Double) {
        guard !readingAhead else { return }
        readingAhead = queueReading(image, rules: rules, ahead: true, seconds: seconds)
    }

    /// Queues one reading of the screen that starts no line `seconds` after it began; false
    /// when no scanner could be made.
    private func queueReading(_ image: PixelBuffer, rules: [TextRule], ahead: Bool, seconds: Double) -> Bool {
        prepare()
        guard let scanner = scanner?.with(rules: rules) else { return false }
        readingsQueued += 1
        let finished = self.finished, wakeFD = wake.write
        let began = finished.screenshots.load(ordering: .relaxed)
        let stop: (@Sendable () -> Bool)? = ahead ? { @Sendable in finished.screenshots.load(ordering: .relaxed) != began } : nil
        queue.async {
            let started = monotonicNow()
            let reading: ScreenReading
            do throws(OCRUnavailable) {
                let scan = try scanner.scan(image, origin: image.bounds, deadline: started + seconds, stop: stop,
                                            background: ahead)
                reading = ScreenReading(ahead: ahead, linesRead: scan.linesRead, linesRemembered: scan.linesRemembered,
                                        linesLeft: scan.linesLeft, seconds: monotonicNow() - started, failure: nil)
            } catch {
                reading = ScreenReading(ahead: ahead, linesRead: 0, linesRemembered: 0, linesLeft: 0,
                                        seconds: monotonicNow() - started, failure: error.reason)
            }
            finished.readings.withLock { $0.append(reading) }
            var byte: UInt8 = 1
            _ = write(wakeFD, &byte, 1)
        }
        return true
    }

    /// The readings of the screen that ended since the last call (`clearWake` first).
    func takeReadings() -> [ScreenReading] {
        let readings = finished.readings.withLock { readings -> [ScreenReading] in
            defer { readings = [] }
            return readings
        }
        if readings.contains(where: \.ahead) { readingAhead = false }
        readingsQueued -= readings.count
        return readings
    }

    /// Starts a pass over `image` (redacted by the rectangle rules) and returns its number.
    func submit(_ image: PixelBuffer, origin: Rect, skipping: [Rect], rules: [TextRule]) -> Int {
        finished.screenshots.add(1, ordering: .relaxed)
        next += 1
        running += 1
        let scanner = self.scanner.map { $0.with(rules: rules) } ?? TextScanner(rules: rules)
        self.scanner = scanner
        let job = TextJob(number: next, image: image, origin: origin, skipping: skipping, rules: rules)
        let finished = self.finished, wakeFD = wake.write
        queue.async {
            let result: TextJobResult
            do throws(OCRUnavailable) {
                // The pass's own time, from when the queue starts it: a reading ahead it waited
                // behind (the lines its workers had begun) does not eat it.
                let scan = try scanner.scan(job.image, origin: job.origin, skipping: job.skipping,
                                            deadline: monotonicNow() + Self.limit)
                result = TextJobResult(number: job.number, hits: scan.hits, complete: scan.isComplete,
                                       failure: scan.isComplete ? nil : "\(scan.linesLeft) lines were left unread after \(Int(Self.limit)) s")
            } catch {
                result = TextJobResult(number: job.number, hits: [], complete: false, failure: "OCR cannot run: \(error.reason)")
            }
            finished.results.withLock { $0.append(result) }
            var byte: UInt8 = 1
            _ = write(wakeFD, &byte, 1)
        }
        return next
    }

    /// Empties the wake pipe: called once before `takeReadings` and `takeResults`, so a result
    /// that comes between the two still leaves its byte for the next wake.
    func clearWake() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wake.read, &buffer, buffer.count) > 0 {}
    }

    /// The passes that ended since the last call (`clearWake` first).
    func takeResults() -> [TextJobResult] {
        let results = finished.results.withLock { results -> [TextJobResult] in
            defer { results = [] }
            return results
        }
        running -= results.count
        return results
    }
}

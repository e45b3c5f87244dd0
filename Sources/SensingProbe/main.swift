// sensing-probe: the screen-read source's loop alone, so that what sensing costs can be measured.
//
//   sensing-probe [--resolve] [--verbose]
//
// Prints `ready` once the server records. Each line `report` on standard input prints
// `report reads=N watches=N copyClients=N wakeups=N polls=N user=S system=S voluntary=N`: the
// reads and watches so far, the clients whose copies are recorded now, the times the source's
// descriptors woke the loop, all wake-ups of poll, this process's CPU time in
// seconds and its voluntary context switches. `--resolve` also asks, for each read, where its
// pixels are (a round trip) and, once per client, its process's details (/proc), as the agent
// would. `--verbose` prints a line per read. Ends at the end of standard input.
import Glibc
import ShotguardBase
import ShotguardImaging
import ShotguardX11

/// A line on standard output, written at once (a pipe's reader waits for it).
func emit(_ line: String) {
    // A reader gone (the bench stopped) ends nothing here: the probe ends with its input.
    do throws(FileError) {
        try FileDescriptor.standardOutput.writeAll(line + "\n")
    } catch {
        return
    }
}

func fail(_ message: String) -> Never {
    let line = Array("sensing-probe: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

let options = Set(CommandLine.arguments.dropFirst())
guard options.isSubset(of: ["--resolve", "--verbose"]) else { fail("usage: sensing-probe [--resolve] [--verbose]") }
do throws(X11Error) {
    var probe = try Probe(resolve: options.contains("--resolve"), verbose: options.contains("--verbose"))
    emit("ready")
    probe.run()
} catch {
    fail(error.message)
}

/// The loop: the source's descriptor and standard input, nothing else.
struct Probe {
    let display: Display
    let source: ScreenReadSource
    let resolve, verbose: Bool
    var reads = 0, watches = 0, wakeups = 0, polls = 0
    var programs: [UInt32: String] = [:]
    var input: [UInt8] = []

    init(resolve: Bool, verbose: Bool) throws(X11Error) {
        display = try Display()
        source = try ScreenReadSource(displayName: display.name, excluding: [display])
        self.resolve = resolve
        self.verbose = verbose
    }

    mutating func run() {
        while !source.isLost {
            let sources = source.fileDescriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            var descriptors = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0)] + sources
            // The source's deadline: clients leave the copy context then.
            let timeout = source.deadline.map { max(0, Int32(clamping: Int((($0 - monotonicNow()) * 1000).rounded(.up)))) } ?? -1
            guard poll(&descriptors, nfds_t(descriptors.count), timeout) >= 0 || errno == EINTR else { fail("poll: \(errnoText())") }
            polls += 1
            let readable = descriptors.dropFirst().contains { $0.revents != 0 }
            if readable { wakeups += 1 }
            if readable || timeout >= 0 {
                for event in source.read() { handle(event) }
            }
            if descriptors[0].revents != 0 { readInput() }
        }
        fail("the X server went away")
    }

    private mutating func handle(_ event: ScreenReadEvent) {
        switch event {
        case .read(let read):
            handle(read)
        case .watchStarted(let watch):
            watches += 1
            if verbose { emit("watch \(watch.kind.rawValue) client=\(hexID(UInt(watch.client))) drawable=\(hexID(watch.drawable))") }
        case .watchEnded:
            break
        case .clientEnded(let client):
            programs[client] = nil
        }
    }

    private mutating func handle(_ read: ScreenRead) {
        reads += 1
        guard resolve || verbose else { return }
        let rect = display.rootRectangle(of: read)
        let who = program(of: read)
        guard verbose else { return }
        emit("read \(read.request.rawValue) client=\(hexID(UInt(read.client))) drawable=\(hexID(read.drawable)) "
            + "area=\(read.area) time=\(read.serverTime) window=\(read.pixmapWindow.map(hexID) ?? "none") "
            + "rect=\(rect.map(\.description) ?? "none") \(who)")
    }

    /// The program behind a read's client, read from /proc once per client (until it ends).
    private mutating func program(of read: ScreenRead) -> String {
        if let known = programs[read.client] { return known }
        let details = read.processID.flatMap { ProcessDetails.of(pid: $0) }
        let name = details.map { "program=\($0.program) pid=\($0.pid)" } ?? "program=unknown pid=\(read.processID.map(String.init) ?? "unknown")"
        programs[read.client] = name
        return name
    }

    private mutating func readInput() {
        var chunk = [UInt8](repeating: 0, count: 256)
        let count = chunk.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
        if count == 0 { exit(0) }
        if count > 0 { input += chunk[0..<count] }
        while let end = input.firstIndex(of: UInt8(ascii: "\n")) {
            if input[..<end].elementsEqual("report".utf8) { report() }
            input.removeSubrange(...end)
        }
    }

    private func report() {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        emit("report reads=\(reads) watches=\(watches) copyClients=\(source.copyClients) wakeups=\(wakeups) polls=\(polls) "
            + "user=\(Self.seconds(usage.ru_utime)) "
            + "system=\(Self.seconds(usage.ru_stime)) voluntary=\(usage.ru_nvcsw)")
    }

    private static func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
}

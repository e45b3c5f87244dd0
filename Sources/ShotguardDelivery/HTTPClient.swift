// Uploads through libcurl's multi interface, driven by the caller's poll loop: never a blocking call.
import CCurl
import Glibc
import ShotguardBase

/// One POST: its URL, header lines and body (bytes, or a multipart form).
struct HTTPRequest {
    enum Content {
        case bytes([UInt8])
        /// Read from the file while sending: a large image is never copied into memory.
        case file(String)
    }

    struct Part {
        let name: String
        let type: String
        let filename: String?
        let content: Content
    }

    enum Body {
        case bytes([UInt8])
        case form([Part])
    }

    let url: String
    let headers: [String]
    let body: Body
}

/// Why libcurl cannot be used.
public struct HTTPUnavailable: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// Transfers under way on one multi handle. The caller polls `watches` until `deadline`, calls
/// `ready(fd:revents:)` for each ready one and `expire(now:)` each turn, then takes `finished()`.
final class HTTPClient {
    private let loop: OpaquePointer
    private var transfers: [OpaquePointer: Int] = [:]
    private let userAgent: String
    /// When libcurl wants to be called back (monotonic seconds); nil when it does not.
    private(set) var deadline: Double?
    private var done: [(id: Int, result: AttemptResult)] = []

    /// Loads libcurl (once per process) and makes a multi handle.
    init(userAgent: String) throws(HTTPUnavailable) {
        var message = [CChar](repeating: 0, count: 512)
        guard sg_curl_load(&message, message.count) == 0 else {
            throw HTTPUnavailable(description: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        guard let loop = sg_curl_loop_new() else { throw HTTPUnavailable(description: "libcurl cannot make a multi handle") }
        self.loop = loop
        self.userAgent = userAgent
    }

    deinit {
        for transfer in transfers.keys {
            sg_curl_loop_remove(loop, transfer)
            sg_curl_transfer_free(transfer)
        }
        sg_curl_loop_free(loop)
    }

    static var version: String { String(cString: sg_curl_version()) }

    var isBusy: Bool { !transfers.isEmpty }

    /// Starts `request` as transfer `id`; nil, or why it could not start.
    func start(_ request: HTTPRequest, id: Int) -> String? {
        // Stall: under 1 byte/s for 30 s; overall 10 minutes, for a large image on a slow link.
        guard let transfer = sg_curl_transfer_new(userAgent, 15, 30, 600) else { return "libcurl: out of memory" }
        var code: Int32 = sg_curl_transfer_set_url(transfer, request.url)
        for line in request.headers where code == 0 { code = sg_curl_transfer_add_header(transfer, line) }
        if code == 0 {
            switch request.body {
            case .bytes(let bytes):
                code = bytes.withUnsafeBufferPointer { sg_curl_transfer_set_body(transfer, $0.baseAddress, $0.count) }
            case .form(let parts):
                for part in parts where code == 0 {
                    switch part.content {
                    case .bytes(let bytes):
                        code = bytes.withUnsafeBufferPointer {
                            sg_curl_transfer_add_part_data(transfer, part.name, $0.baseAddress, $0.count, part.type, part.filename)
                        }
                    case .file(let path):
                        code = sg_curl_transfer_add_part_file(transfer, part.name, path, part.type, part.filename)
                    }
                }
            }
        }
        if code != 0 {
            sg_curl_transfer_free(transfer)
            return "libcurl: " + String(cString: sg_curl_strerror(code))
        }
        let added = sg_curl_loop_add(loop, transfer)
        takeTimer()
        guard added == 0 else {
            sg_curl_transfer_free(transfer)
            return "libcurl cannot start the transfer (multi error \(added))"
        }
        transfers[transfer] = id
        return nil
    }

    /// The sockets to poll and their events.
    var watches: [(fd: Int32, events: Int16)] {
        (0..<sg_curl_loop_watch_count(loop)).map { index in
            var fd: Int32 = -1
            var events: Int16 = 0
            sg_curl_loop_watch(loop, index, &fd, &events)
            return (fd, events)
        }
    }

    /// A socket of `watches` is ready.
    func ready(fd: Int32, revents: Int16) {
        var running: Int32 = 0
        sg_curl_loop_act(loop, fd, revents, &running)
        takeTimer()
        collect()
    }

    /// Calls libcurl back when its timer is due (connect and stall time-outs, retries of its own).
    func expire(now: Double) {
        guard let deadline, deadline <= now else { return }
        self.deadline = nil
        var running: Int32 = 0
        sg_curl_loop_act(loop, -1, 0, &running)
        takeTimer()
        collect()
    }

    /// The transfers that ended since the last call, with what came of them.
    func finished() -> [(id: Int, result: AttemptResult)] {
        defer { done.removeAll() }
        return done
    }

    /// Stops transfer `id` (the queue dropped its report).
    func cancel(id: Int) {
        guard let transfer = transfers.first(where: { $0.value == id })?.key else { return }
        transfers[transfer] = nil
        sg_curl_loop_remove(loop, transfer)
        sg_curl_transfer_free(transfer)
        takeTimer()
    }

    private func takeTimer() {
        var milliseconds = -1
        guard sg_curl_loop_take_timer(loop, &milliseconds) != 0 else { return }
        deadline = milliseconds < 0 ? nil : monotonicNow() + Double(milliseconds) / 1000
    }

    private func collect() {
        var code: Int32 = 0
        while let transfer = sg_curl_loop_next_done(loop, &code) {
            guard let id = transfers.removeValue(forKey: transfer) else { continue }
            done.append((id, Self.result(of: transfer, code: code)))
            sg_curl_loop_remove(loop, transfer)
            sg_curl_transfer_free(transfer)
        }
        takeTimer()
    }

    private static func result(of transfer: OpaquePointer, code: Int32) -> AttemptResult {
        let status = Int(sg_curl_transfer_status(transfer))
        guard code == 0, status > 0 else {
            let detail = String(cString: sg_curl_transfer_error(transfer))
            return .unreachable(detail.isEmpty ? String(cString: sg_curl_strerror(code)) : detail)
        }
        let retryAfter = String(cString: sg_curl_transfer_retry_after(transfer))
        var length = 0
        let start = sg_curl_transfer_body(transfer, &length)
        // A service's page, for the log: one line of printable text at most.
        let body = start.map { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) } ?? ""
        var line = String.UnicodeScalarView()
        for scalar in body.unicodeScalars {
            if scalar == "\n" || scalar == "\r" || line.count >= 200 { break }
            if scalar.value >= 0x20, scalar.value != 0x7F { line.append(scalar) }
        }
        return .answered(status: status, retryAfter: retryAfter.isEmpty ? nil : retryAfter, body: String(line))
    }
}

// What an attempt's outcome means for a report: delivered, tried again later (and when), or refused for good.
import Glibc

/// How one attempt to hand a report to a destination ended.
public enum AttemptResult: Sendable, Equatable {
    /// The service answered with `status`; `retryAfter` is its Retry-After header, `body` the
    /// start of its answer (for the log).
    case answered(status: Int, retryAfter: String?, body: String)
    /// No answer: libcurl's error (no route, refused, timed out, TLS).
    case unreachable(String)
    /// `exec:`'s command ended with this status (128 + N for signal N).
    case exited(Int32)
    /// The attempt could not be made (an unreadable header file, libcurl missing, a broken entry).
    case notMade(String)
}

/// What the queue does after an attempt.
public enum Verdict: Sendable, Equatable {
    case delivered
    /// The destination is down or busy: nothing more goes there for `after` seconds, and this
    /// report is tried again first (the queue keeps its order).
    case retry(after: Double, why: String)
    /// The service refused this report itself (a 4xx that another try would not change): it is
    /// kept, marked refused, and the queue goes on; `reports send ID` tries it again.
    case refused(why: String)
}

/// Backoff and the meaning of HTTP statuses. Pure.
public struct RetryPolicy: Sendable {
    /// The wait after the first failure in a row; it doubles with each failure after.
    public var base: Double
    /// The longest wait between tries.
    public var cap: Double
    /// The longest Retry-After honoured: a service asking for days is asked again after this.
    public var retryAfterCap: Double

    public init(base: Double = 5, cap: Double = 900, retryAfterCap: Double = 3600) {
        self.base = base
        self.cap = cap
        self.retryAfterCap = retryAfterCap
    }

    /// The wait after the `failures`-th failure in a row (1 for the first).
    public func backoff(failures: Int) -> Double {
        let doublings = min(max(0, failures - 1), 30)
        return min(cap, base * Double(1 << doublings))
    }

    /// The verdict on `result`, the `failures`-th failure in a row if it is one; `now` in seconds
    /// since the epoch (for a Retry-After date).
    public func verdict(_ result: AttemptResult, failures: Int, now: Double) -> Verdict {
        switch result {
        case .answered(let status, let retryAfter, let body):
            let said = body.isEmpty ? "" : ": " + body
            switch status {
            case 200...299:
                return .delivered
            case 408, 425, 429, 500...599:
                // Busy or down: the service's own wait when it gives one, else the backoff.
                let wait = retryAfter.flatMap { Self.seconds(retryAfter: $0, now: now) }.map { min($0, retryAfterCap) }
                return .retry(after: wait ?? backoff(failures: failures), why: "HTTP \(status)\(said)")
            case 401, 403, 404, 407:
                // The destination is misconfigured (a token, a project, a URL): every report would
                // be refused, so they wait, in order, for the fix rather than each being refused.
                return .retry(after: backoff(failures: failures), why: "HTTP \(status) (check the destination and its headers)\(said)")
            case 300...399:
                return .retry(after: backoff(failures: failures), why: "HTTP \(status): redirects are not followed (use the final URL)")
            case 400...499:
                return .refused(why: "HTTP \(status)\(said)")
            default:
                return .retry(after: backoff(failures: failures), why: "unexpected HTTP status \(status)")
            }
        case .unreachable(let why):
            return .retry(after: backoff(failures: failures), why: why)
        case .exited(0):
            return .delivered
        case .exited(let status):
            return .retry(after: backoff(failures: failures),
                          why: status > 128 ? "the command was killed by signal \(status - 128)" : "the command exited with status \(status)")
        case .notMade(let why):
            return .retry(after: backoff(failures: failures), why: why)
        }
    }

    /// Retry-After as seconds from `now`: a whole number of seconds, or an HTTP date
    /// (`Wed, 21 Oct 2015 07:28:00 GMT`); nil for anything else. A date in the past is 0.
    public static func seconds(retryAfter text: String, now: Double) -> Double? {
        let trimmed = text.trimmingSpaces
        if !trimmed.isEmpty, trimmed.count <= 10, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(trimmed) {
            return Double(value)
        }
        guard let date = httpDate(trimmed) else { return nil }
        return max(0, date - now)
    }

    /// An IMF-fixdate (RFC 9110 §5.6.7) in seconds since the epoch.
    static func httpDate(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let year = Int(parts[3]),
              let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
                .firstIndex(of: String(parts[2])) else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (1...31).contains(day), (1970...9999).contains(year), (0...23).contains(clock[0]),
              (0...59).contains(clock[1]), (0...60).contains(clock[2]) else { return nil }
        var fields = tm()
        fields.tm_year = Int32(year - 1900)
        fields.tm_mon = Int32(month)
        fields.tm_mday = Int32(day)
        fields.tm_hour = Int32(clock[0])
        fields.tm_min = Int32(clock[1])
        fields.tm_sec = Int32(clock[2])
        return Double(timegm(&fields))
    }
}

extension String {
    /// Without spaces and tabs at either end.
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return String(scalars[first...last])
    }
}

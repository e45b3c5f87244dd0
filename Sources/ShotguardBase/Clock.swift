// Clocks as seconds (wall, monotonic, file times) and wall-clock time broken into fields, for
// log lines, report ids and ISO 8601 report times.
import Glibc

/// A `timespec` as seconds.
public func seconds(_ time: timespec) -> Double { Double(time.tv_sec) + Double(time.tv_nsec) / 1e9 }

/// Seconds since the epoch.
public func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return seconds(time)
}

/// Seconds on the monotonic clock, for timers.
public func monotonicNow() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return seconds(time)
}

public struct CalendarTime: Sendable {
    public let year, month, day, hour, minute, second, millisecond: Int

    /// `seconds` since the epoch (now when nil), in local time or UTC.
    public init(_ seconds: Double? = nil, utc: Bool = false) {
        let instant = seconds ?? now()
        var whole = time_t(instant.rounded(.down))
        var parts = tm()
        if utc { gmtime_r(&whole, &parts) } else { localtime_r(&whole, &parts) }
        year = Int(parts.tm_year) + 1900
        month = Int(parts.tm_mon) + 1
        day = Int(parts.tm_mday)
        hour = Int(parts.tm_hour)
        minute = Int(parts.tm_min)
        second = Int(parts.tm_sec)
        millisecond = min(999, Int((instant - Double(whole)) * 1000))
    }

    /// `value` in decimal, zero-padded to `width` digits.
    public static func pad(_ value: Int, _ width: Int = 2) -> String { String(value).leftPadded(to: width) }
}

extension String {
    /// The string with `pad` added on the left up to `length` characters.
    public func leftPadded(to length: Int, with pad: Character = "0") -> String {
        count >= length ? self : String(repeating: pad, count: length - count) + self
    }
}

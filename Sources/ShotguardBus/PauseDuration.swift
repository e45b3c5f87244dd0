// Pause durations as people type them (90s, 10m, 1h, 1h30m) and as they are read back.
import ShotguardBase

public enum PauseDuration {
    /// How long `shotguard pause` pauses when no duration is given: 10 minutes.
    public static let defaultSeconds = 600.0

    /// Seconds for `text`: numbers each followed by `h`, `m` or `s`, added up (`1h30m`), at most
    /// a day; `0`, `0s`, `0m`… are 0, which means until resumed. Nil for anything else (a bare
    /// number other than 0 is refused: seconds or minutes would be a guess).
    public static func seconds(_ text: String) -> Double? {
        if text == "0" { return 0 }
        return DurationText.seconds(text, limit: AgentInterface.longestPause, units: ["h", "m", "s"], allowsZero: true)
    }

    /// `seconds` in words: "90 seconds", "10 minutes", "1 hour 30 minutes".
    public static func describe(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        if whole < 120, whole % 60 != 0 { return whole == 1 ? "1 second" : "\(whole) seconds" }
        let totalMinutes = (whole + 30) / 60
        let hours = totalMinutes / 60
        let minutes = totalMinutes % 60
        var parts: [String] = []
        if hours > 0 { parts.append(hours == 1 ? "1 hour" : "\(hours) hours") }
        if minutes > 0 { parts.append(minutes == 1 ? "1 minute" : "\(minutes) minutes") }
        return parts.isEmpty ? "0 seconds" : parts.joined(separator: " ")
    }
}

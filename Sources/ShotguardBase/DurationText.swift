// Durations as people type them on a command line: 90s, 10m, 12h, 7d, 1h30m.

public enum DurationText {
    /// Seconds for `text`: whole numbers each followed by one of `units` (`d`, `h`, `m`, `s`),
    /// added up, each unit at most once, up to `limit` seconds; a zero total only when
    /// `allowsZero`. Nil for anything else (a bare number is refused: which unit it means would
    /// be a guess).
    public static func seconds(_ text: String, limit: Double = 366 * 86_400, units: Set<Character> = ["d", "h", "m", "s"],
                               allowsZero: Bool = false) -> Double? {
        guard !text.isEmpty, text.utf8.count <= 32 else { return nil }
        var total = 0
        var number: Int?
        var seen: Set<Character> = []
        for character in text {
            if let digit = character.wholeNumberValue, character.isASCII {
                let (grown, overflow) = (number ?? 0).multipliedReportingOverflow(by: 10)
                guard !overflow, grown <= 100_000_000 else { return nil }
                number = grown + digit
                continue
            }
            guard let value = number, units.contains(character), let unit = ["d": 86_400, "h": 3600, "m": 60, "s": 1][character],
                  !seen.contains(character) else {
                return nil
            }
            seen.insert(character)
            let (added, overflow) = value.multipliedReportingOverflow(by: unit)
            guard !overflow else { return nil }
            total += added
            number = nil
        }
        guard number == nil, total > 0 || allowsZero, Double(total) <= limit else { return nil }
        return Double(total)
    }
}

// Payment card numbers: digit groups as cards print them, Luhn-valid, look-alikes folded.

/// Finds card numbers in a line of text.
///
/// A card number is 13 to 19 digits that start with 2 to 6 (the issuer ranges of Visa,
/// Mastercard, American Express, Discover, JCB, Diners and UnionPay) and pass the Luhn check,
/// written as one group or in groups separated by a space (a no-break or thin one
/// too), a dash or a dot: groups of four (OCR may merge two into eight or twelve) with a shorter
/// or longer last group, or American Express's 4-6-5 and Diners' 4-6-4. It starts where its run
/// of digit groups starts: the digits of a longer number (a parcel's tracking number, an
/// account) are no card. Look-alike letters count as digits (see `LookAlikes`). Order numbers,
/// dates and phone numbers have other groupings or too few digits, and a random number in card
/// groups passes Luhn only one time in ten.
enum CardMatcher {
    static let digitCount = 13...19

    static func find(in line: LineText) -> [Range<Int>] {
        var matches: [Range<Int>] = []
        for run in digitRuns(line.scalars) {
            var start = 0
            // A card starts where its digits do, or after an IBAN's start (below).
            var mayStart = true
            while start < run.count {
                // Look-alikes make groups of an IBAN's letters too ("IT97" folds to 1797): each
                // group a number would start at is checked, not only the run's first.
                if followsIBANStart(run[start].range.lowerBound, in: line.scalars) {
                    start += 1
                    continue
                }
                guard mayStart else { break }
                // The longest plausible, valid number that starts at this group.
                var found: Int?
                var total = 0
                for end in start..<run.count {
                    total += run[end].digits.count
                    if total > digitCount.upperBound { break }
                    let groups = run[start...end]
                    if digitCount.contains(total), isPlausible(groups, wholeRun: start == 0 && end == run.count - 1, in: line.scalars),
                       isValid(groups.flatMap(\.digits)) {
                        found = end
                    }
                }
                if let end = found {
                    matches.append(run[start].range.lowerBound..<run[end].range.upperBound)
                    start = end + 1
                } else {
                    start += 1
                    mayStart = false
                }
            }
        }
        return matches
    }

    /// Whether the digits at `start` continue an IBAN: letters, digits and single spaces (the
    /// printed groups, some of which OCR may have joined, or read with a look-alike such as `$`)
    /// back to an IBAN's first group at a word's start ("ES85 4025 4819 5978 3387",
    /// "user=FR48 4639 8335", "IT97T901 6236"), whose digits are no card's.
    static func followsIBANStart(_ start: Int, in scalars: [Unicode.Scalar]) -> Bool {
        // An IBAN is at most 34 characters, 42 with the spaces of its groups.
        let earliest = max(0, start - 42)
        var index = start
        while index > earliest {
            let previous = scalars[index - 1]
            guard isIBANCharacter(previous) || (previous == " " && index >= 2 && scalars[index - 2] != " ") else { return false }
            index -= 1
            guard index + 4 <= start, index == 0 || !isIBANCharacter(scalars[index - 1]) else { continue }
            if startsIBAN(at: index, in: scalars) { return true }
        }
        return false
    }

    /// Symbols OCR reads for a digit of an IBAN's check digits (a `7` read `?`, a `0` read `®`).
    static let checkDigitMarks: Set<Unicode.Scalar> = ["?", "\u{00AE}", "\u{00A9}"]

    private static func isIBANCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCIIAlphanumeric || LookAlikes.digit(scalar) != nil || checkDigitMarks.contains(scalar)
    }

    /// Whether the word at `index` is an IBAN's first group: a registry country code and two
    /// check digits (or what OCR makes of digits), four characters, or a multiple of four (groups
    /// OCR joined) when a check digit was read as a digit or a symbol, not a letter. A word such
    /// as "DEBIT" or "FRIDAY" (a country code and letters that fold to digits) starts none: the
    /// card after it is a card.
    static func startsIBAN(at index: Int, in scalars: [Unicode.Scalar]) -> Bool {
        guard index + 4 <= scalars.count, scalars[index].isASCIIUpper, scalars[index + 1].isASCIIUpper,
              IBANMatcher.lengths[String(Character(scalars[index])) + String(Character(scalars[index + 1]))] != nil else { return false }
        let checkDigits = scalars[(index + 2)...(index + 3)]
        guard checkDigits.allSatisfy({ LookAlikes.digit($0) != nil || checkDigitMarks.contains($0) }) else { return false }
        var end = index
        while end < scalars.count, isIBANCharacter(scalars[end]) { end += 1 }
        let length = end - index
        return length == 4 || length % 4 == 0 && checkDigits.contains { $0.isASCIIDigit || checkDigitMarks.contains($0) }
    }

    /// A group of digits (after folding) and where it is in the line.
    struct Group {
        var digits: [Int]
        var range: Range<Int>
    }

    /// Runs of digit groups joined by one separator each: a space, a dash, or a dash between spaces.
    static func digitRuns(_ scalars: [Unicode.Scalar]) -> [[Group]] {
        var runs: [[Group]] = []
        var current: [Group] = []
        var index = 0
        while index < scalars.count {
            guard LookAlikes.digit(scalars[index]) != nil else {
                index += 1
                continue
            }
            var end = index
            while end < scalars.count, LookAlikes.digit(scalars[end]) != nil { end += 1 }
            // Digits right after a letter are part of a word or code ("BE27050520383526"), not a number.
            let afterLetter = index > 0 && scalars[index - 1].isASCIILetter
            let group = afterLetter ? nil : LookAlikes.foldedDigits(scalars[index..<end]).map { Group(digits: $0, range: index..<end) }
            let joined = current.last.map { isSeparator(scalars[$0.range.upperBound..<index]) } ?? false
            if let group, joined || current.isEmpty {
                current.append(group)
            } else {
                if !current.isEmpty { runs.append(current) }
                current = group.map { [$0] } ?? []
            }
            index = end
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    /// The marks cards are printed with between groups: dashes and dots.
    static let separatorMarks: Set<Unicode.Scalar> = ["-", "\u{2010}", "\u{2011}", "\u{2012}", "\u{2013}", "\u{2014}", ".", "\u{00B7}"]
    /// The spaces cards are printed with between groups: a plain, no-break or thin one.
    static let separatorSpaces: Set<Unicode.Scalar> = [" ", "\u{00A0}", "\u{2009}", "\u{202F}"]

    /// One space (a no-break or thin one too), one dash or dot, or one dash or dot with a space
    /// on either side or both (OCR spaces them).
    private static func isSeparator(_ between: ArraySlice<Unicode.Scalar>) -> Bool {
        let marks = separatorMarks, spaces = separatorSpaces
        let trimmed = between.drop { spaces.contains($0) }.reversed().drop { spaces.contains($0) }
        let spaceCount = between.count - trimmed.count
        switch trimmed.count {
        case 0: return spaceCount == 1
        case 1: return marks.contains(trimmed.first!) && spaceCount <= 2
        default: return false
        }
    }

    /// Whether `groups` are grouped as a card number is printed (`isPlausible`), once the spaces
    /// OCR put inside a group or a number are taken out: pieces of a group between single spaces
    /// are one group where they make four digits at most ("481 7-2719-4300-3618"), or make
    /// American Express's or Diners' 4-6-5 or 4-6-4 ("3447-147 358-50522"), and a run
    /// of two groups of digits between one space is a number printed without spaces that OCR
    /// split ("34583318945 1543", an American Express number).
    static func isPlausible(_ groups: ArraySlice<Group>, wholeRun: Bool, in scalars: [Unicode.Scalar]) -> Bool {
        let lengths = groups.map(\.digits.count)
        if isPlausible(lengths) { return true }
        let spaced = zip(groups, groups.dropFirst()).map { scalars[$0.range.upperBound..<$1.range.lowerBound].elementsEqual([" "]) }
        // (The whole run, read as digits alone: the first groups of a longer run are no number
        // OCR split, and a hex digest's pieces hold letters that fold to digits.)
        if wholeRun, groups.count == 2, spaced[0], groups.allSatisfy({ scalars[$0.range].allSatisfy(\.isASCIIDigit) }) {
            return true
        }
        let join = { (most: Int) in
            var joined = [lengths[0]]
            for (length, space) in zip(lengths.dropFirst(), spaced) {
                if space, joined[joined.count - 1] + length <= most {
                    joined[joined.count - 1] += length
                } else {
                    joined.append(length)
                }
            }
            return joined
        }
        let joined = join(4)
        if joined != lengths && isPlausible(joined) { return true }
        // An American Express or Diners number's six- or five-digit group OCR split ("3447-147
        // 358-50522", "3771-004538-91 601"): theirs start with a 3 (a list of numbers, "5432
        // 443 587 6379", is no card).
        return groups.first?.digits.first == 3 && [[4, 6, 5], [4, 6, 4]].contains(join(6))
    }

    /// Groups of four (or eight or twelve, which OCR gives when it drops a space) before the
    /// last; one group alone; or 4-6-5 / 4-6-4.
    static func isPlausible(_ lengths: [Int]) -> Bool {
        if lengths.count == 1 || lengths == [4, 6, 5] || lengths == [4, 6, 4] { return true }
        return lengths.dropLast().allSatisfy { $0 % 4 == 0 }
    }

    /// An issuer's first digit and the Luhn check. Issuers' exact ranges (Visa's 4, Mastercard's
    /// 51-55 and 2221-2720, JCB's 3528-3589...) would leave out three random numbers in four, but
    /// also a card of a range added since: a missed card costs more than a covered number.
    static func isValid(_ digits: [Int]) -> Bool {
        guard let first = digits.first, (2...6).contains(first) else { return false }
        return luhn(digits)
    }

    /// The Luhn (mod 10) check: every second digit from the right doubled.
    static func luhn(_ digits: [Int]) -> Bool {
        var sum = 0
        for (position, digit) in digits.reversed().enumerated() {
            let value = position % 2 == 1 ? digit * 2 : digit
            sum += value > 9 ? value - 9 : value
        }
        return sum % 10 == 0
    }
}

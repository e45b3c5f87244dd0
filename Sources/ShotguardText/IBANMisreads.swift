// Where OCR may have misread an IBAN: text that starts as one does and is about as long, but fails its check.

extension IBANMatcher {
    /// The letters of a country code that OCR reads as digits ("17" for IT, "8E" for BE).
    static let codeLetterFor: [Unicode.Scalar: Unicode.Scalar] = LookAlikes.letterFor.merging(["7": "T", "4": "A"]) { $1 }

    /// How many characters a misread IBAN may have lost or gained against its country's length.
    static let misreadSlack = 2
    /// The fewest real digits after its first four: every account holds more.
    static let fewestDigits = 8

    /// The ranges of `line` that may be IBANs OCR misread. Each starts a word (or follows a
    /// symbol: "user=IT76…") with a registry country's code, as letters or the digits OCR reads
    /// for them, and two digits or look-alikes (the check digits), a space allowed between the
    /// two ("17 49E4…"); goes on in what OCR may make of an account's characters
    /// (`isAccountCharacter`), with single spaces between groups, to at least the country's IBAN
    /// length less `misreadSlack` (the run stops at that length plus `misreadSlack`); holds
    /// `fewestDigits` digits after the first four; and holds a capital letter (the code's, or an
    /// account's bank code). A card number read after "54" (SA) is digits only, a lower-case
    /// hash has no capital, a UUID's dashes end the run, prose in capitals has too few digits.
    /// `find` matches IBANs read right; these are where a line is read again in case OCR read
    /// one wrong.
    static func possibleMisreads(in line: LineText) -> [Range<Int>] {
        let scalars = line.scalars
        var found: [Range<Int>] = []
        var start = 0
        while start + 3 < scalars.count {
            defer { start += 1 }
            guard start == 0 || !scalars[start - 1].isASCIIAlphanumeric, let length = countryLength(scalars, at: start) else {
                continue
            }
            var characters: [Unicode.Scalar] = []
            var end = start
            while end < scalars.count, characters.count < length + misreadSlack {
                let scalar = scalars[end]
                if scalar == " " {
                    // One space between groups; two end the run, as does a space after the last character.
                    guard end + 1 < scalars.count, isAccountCharacter(scalars[end + 1]) else { break }
                } else if isAccountCharacter(scalar) {
                    characters.append(scalar)
                } else {
                    break
                }
                end += 1
            }
            guard characters.count >= length - misreadSlack, characters.dropFirst(4).filter(\.isASCIIDigit).count >= fewestDigits,
                  characters.contains(where: \.isASCIIUpper),
                  characters[2...3].allSatisfy({ LookAlikes.digit($0) != nil || CardMatcher.checkDigitMarks.contains($0) })
            else { continue }
            found.append(start..<end)
            start = end - 1
        }
        return found
    }

    /// The IBAN length of the country whose code (its letters, or digits OCR reads for them)
    /// starts at `index`.
    private static func countryLength(_ scalars: [Unicode.Scalar], at index: Int) -> Int? {
        let letter = { (scalar: Unicode.Scalar) in scalar.isASCIIUpper ? scalar : codeLetterFor[scalar] }
        guard index + 1 < scalars.count, let first = letter(scalars[index]), let second = letter(scalars[index + 1]) else {
            return nil
        }
        return lengths[String(Character(first)) + String(Character(second))]
    }

    /// The marks that end a run: what joins a UUID's groups, a key's parts, an address or an assignment.
    static let runBreakers: Set<Unicode.Scalar> = ["-", "\u{2013}", "\u{2014}", "_", "=", "@", ",", ";", ":", "(", ")", "'", "\"", "<", ">"]

    /// Anything OCR may make of an account's character: a letter, a digit, or a symbol (`$` for
    /// 5, `?` for 7, `£` for E, a stray `.` or `/`), but no space and no mark in `runBreakers`.
    private static func isAccountCharacter(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.properties.isWhitespace && !runBreakers.contains(scalar)
    }
}

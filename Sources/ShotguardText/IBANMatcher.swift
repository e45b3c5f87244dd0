// International bank account numbers: a known country, its length, and the mod-97 checksum.

/// Finds IBANs in a line of text: a country code, two check digits and the account (BBAN),
/// contiguous or in the groups of four they are printed in, exactly as long as the country's
/// IBANs are, and passing the ISO 13616 mod-97 check. Where a country's accounts are digits
/// only, look-alike letters in them are folded to digits before the check.
enum IBANMatcher {
    static func find(in line: LineText) -> [Range<Int>] {
        let scalars = line.scalars
        var matches: [Range<Int>] = []
        var index = 0
        while index + 1 < scalars.count {
            defer { index += 1 }
            guard index == 0 || !scalars[index - 1].isASCIIAlphanumeric,
                  let country = code(scalars[index], scalars[index + 1]),
                  let length = lengths[country],
                  let (characters, end) = collect(scalars, from: index, count: length),
                  isValid(characters, numeric: numericAccounts.contains(country)) else { continue }
            matches.append(index..<end)
            index = end - 1
        }
        return matches
    }

    private static func code(_ first: Unicode.Scalar, _ second: Unicode.Scalar) -> String? {
        guard first.isASCIIUpper, second.isASCIIUpper else { return nil }
        return String(Character(first)) + String(Character(second))
    }

    /// `count` letters and digits from `start`, allowing one space between them (the printed
    /// groups), followed by something that is not a letter or digit. Returns them upper-cased,
    /// and where they end.
    private static func collect(_ scalars: [Unicode.Scalar], from start: Int,
                                count: Int) -> (characters: [Unicode.Scalar], end: Int)? {
        var characters: [Unicode.Scalar] = []
        var index = start
        while characters.count < count, index < scalars.count {
            let scalar = scalars[index]
            if scalar.isASCIIAlphanumeric {
                characters.append(scalar.isASCIILower ? Unicode.Scalar(scalar.value - 32)! : scalar)
            } else if scalar == " ", !characters.isEmpty, index + 1 < scalars.count, scalars[index + 1].isASCIIAlphanumeric {
                // A space between groups.
            } else {
                return nil
            }
            index += 1
        }
        guard characters.count == count, index == scalars.count || !scalars[index].isASCIIAlphanumeric else { return nil }
        return (characters, index)
    }

    /// The check digits are digits (look-alikes folded) and mod 97 of the rearranged number is 1.
    static func isValid(_ characters: [Unicode.Scalar], numeric: Bool) -> Bool {
        var folded = characters
        for position in 2..<folded.count where position < 4 || numeric {
            guard let digit = LookAlikes.digit(folded[position]) else { return false }
            folded[position] = digit
        }
        return mod97(folded) == 1 || (!numeric && mod97(characters) == 1)
    }

    /// The remainder of the IBAN's number: the first four characters moved to the end, each
    /// letter replaced by its value (A = 10 … Z = 35).
    static func mod97(_ characters: [Unicode.Scalar]) -> Int {
        var remainder = 0
        for scalar in characters.dropFirst(4) + characters.prefix(4) {
            if scalar.isASCIIDigit {
                remainder = (remainder * 10 + scalar.digitValue) % 97
            } else if scalar.isASCIIUpper {
                remainder = (remainder * 100 + Int(scalar.value) - 55) % 97
            } else {
                return -1
            }
        }
        return remainder
    }

    /// IBAN lengths by country (the ISO 13616 registry).
    static let lengths: [String: Int] = [
        "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29,
        "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20, "EG": 29,
        "ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28,
        "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20,
        "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19,
        "MR": 27, "MT": 31, "MU": 30, "NL": 18, "NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29,
        "RO": 24, "RS": 22, "SA": 24, "SC": 31, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "ST": 25, "SV": 28,
        "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
    ]

    /// Countries whose account part is digits only, where a letter can only be a misread digit.
    static let numericAccounts: Set<String> = [
        "AT", "BA", "BE", "CZ", "DE", "DK", "EE", "ES", "FI", "FO", "GL", "HR", "HU", "IL", "IS", "LT", "ME",
        "NO", "PL", "PT", "RS", "SE", "SI", "SK", "TN", "VA", "XK",
    ]
}

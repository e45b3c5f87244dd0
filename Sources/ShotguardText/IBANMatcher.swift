// International bank account numbers: a known country, its length, and the mod-97 checksum.

/// Finds IBANs in a line of text: a country code, two check digits and the account (BBAN),
/// contiguous or in the groups of four they are printed in, exactly as long as the country's
/// IBANs are, and passing the ISO 13616 mod-97 check. Where the registry says a position of a
/// country's account holds a digit, a look-alike letter there is folded to its digit, and
/// where it says a letter, a look-alike digit to its letter (`0` to `O`, `5` to `S`…); a
/// position that may hold either is taken as read.
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
                  isValid(characters, format: format(of: country)) else { continue }
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

    /// The check digits are digits and mod 97 of the rearranged number is 1, after folding
    /// look-alikes by `format` (one of `n`, `a`, `c` per account position).
    static func isValid(_ characters: [Unicode.Scalar], format: [Unicode.Scalar]) -> Bool {
        var folded = characters
        for position in 2..<folded.count {
            let expected: Unicode.Scalar = position < 4 ? "n" : position - 4 < format.count ? format[position - 4] : "c"
            if expected == "n" {
                guard let digit = LookAlikes.digit(folded[position]) else { return false }
                folded[position] = digit
            } else if expected == "a", folded[position].isASCIIDigit {
                guard let letter = LookAlikes.letterFor[folded[position]] else { return false }
                folded[position] = letter
            }
        }
        return mod97(folded) == 1
    }

    /// What each position of `country`'s account holds: `n` a digit, `a` a letter, `c` either.
    static func format(of country: String) -> [Unicode.Scalar] {
        if let known = formats[country] {
            var expanded: [Unicode.Scalar] = []
            for part in known.split(separator: " ") {
                let count = Int(part.dropLast())!
                expanded += Array(repeating: part.unicodeScalars.last!, count: count)
            }
            return expanded
        }
        let length = (lengths[country] ?? 4) - 4
        return Array(repeating: numericAccounts.contains(country) ? "n" : "c", count: length)
    }

    /// The account formats of the registry for countries whose accounts mix letters and digits.
    static let formats: [String: String] = [
        "GB": "4a 14n", "NL": "4a 10n", "IE": "4a 14n", "FR": "10n 11c 2n", "MC": "10n 11c 2n", "IT": "1a 10n 12c",
        "SM": "1a 10n 12c", "CH": "5n 12c", "LI": "5n 12c", "BG": "4a 6n 8c", "RO": "4a 16c", "LV": "4a 13c",
        "HU": "24n", "CY": "8n 16c", "GR": "7n 16c", "LU": "3n 13c", "MT": "4a 5n 18c", "PK": "4a 16c",
        "QA": "4a 21c", "SA": "2n 18c", "AE": "19n", "IS": "22n", "KW": "4a 22c", "BH": "4a 14c",
    ]

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

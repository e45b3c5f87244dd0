// Characters OCR confuses with digits, folded back where a digit is expected.

/// The digit each look-alike stands for where only digits make sense: OCR reads a `0` in some
/// fonts as `O`, a `1` as `l` or `I`, a `5` as `S` ("user5" came back as "userS").
enum LookAlikes {
    static let digitFor: [Unicode.Scalar: Unicode.Scalar] = [
        "O": "0", "o": "0", "Q": "0", "D": "0", "U": "0",
        "I": "1", "l": "1", "i": "1", "|": "1", "!": "1", "L": "1", "]": "1", "[": "1",
        "Z": "2", "z": "2",
        "S": "5", "s": "5", "$": "5",
        "G": "6", "b": "6",
        "T": "7",
        "B": "8",
        "g": "9", "q": "9",
    ]

    /// The letter each look-alike digit stands for where only a letter makes sense (the bank
    /// code of a British or Dutch IBAN).
    static let letterFor: [Unicode.Scalar: Unicode.Scalar] = [
        "0": "O", "1": "I", "2": "Z", "5": "S", "6": "G", "8": "B",
    ]

    /// `scalar` itself when it is a digit, its digit when it is a look-alike, else nil.
    static func digit(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        scalar.isASCIIDigit ? scalar : digitFor[scalar]
    }

    /// `group` as digits, when every scalar is a digit or a look-alike and at least half of them
    /// are real digits: a word of letters that happens to fold ("SOB") is not a number.
    static func foldedDigits<S: Collection>(_ group: S) -> [Int]? where S.Element == Unicode.Scalar {
        var digits: [Int] = []
        var real = 0
        for scalar in group {
            guard let digit = digit(scalar) else { return nil }
            if scalar.isASCIIDigit { real += 1 }
            digits.append(digit.digitValue)
        }
        guard !digits.isEmpty, real * 2 >= digits.count else { return nil }
        return digits
    }
}

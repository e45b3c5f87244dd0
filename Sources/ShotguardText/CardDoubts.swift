// Card numbers OCR was unsure of, held up to the same line read at other scales.
import ShotguardImaging

/// A card number the recogniser may have made by misreading one digit, and what other readings
/// of its line say of it.
///
/// The Luhn check lets one wrong digit in ten through, and in small text (9-11 px) the
/// recogniser reads an `8` as `6` or `9` often enough that a Luhn-invalid number ("4094 0554
/// 8741 7591" read "… 6741 …") passes it. Those misreads leave a trace: the digit read carries
/// the right one as its second choice, at a confidence of 67 to 75. A card whose digits were
/// read without such a doubt stands as read; a doubtful one (or one made by a rereading,
/// `Rereadings`, which is a second choice taken) is looked for in its line read at two other
/// scales, and is dropped only when it was read as digits alone and both readings read, there,
/// digit groups alone that differ from it in one digit, the same digit the same way, and are no
/// card: a reading that finds a card there, or reads other digits, fewer or more, a letter or a
/// mark among them, or nothing, keeps it covered.
enum CardDoubts {
    /// The least confidence of a digit's other choice that makes a card doubtful: the one a
    /// card may be made of by another reading (the misreads seen had 67 to 75).
    static let doubtConfidence = Rereadings.cardConfidence

    /// What one other reading of the line says of a card.
    enum Verdict: Equatable {
        /// It reads a card there too (or digits that pass a card's check).
        case confirms
        /// It reads, as digit groups alone, the card's digits but one, and they are no card:
        /// these digits.
        case refutes([Int])
        /// Anything else.
        case unclear
    }

    /// Whether the recogniser hesitated over a digit of the card `hit` covers: one of its
    /// words' digits (or look-alikes) has another digit as a choice of `doubtConfidence` or
    /// more. `words` are the line's words as read, their boxes in the image's coordinates.
    static func isDoubtful(_ hit: TextHit, in words: [OCRWord]) -> Bool {
        words.contains { word in
            covers(hit, word.word.rect) && word.symbols.contains { symbol in
                guard symbol.text.unicodeScalars.count == 1, let scalar = symbol.text.unicodeScalars.first,
                      let digit = LookAlikes.digit(scalar) else { return false }
                return symbol.alternatives.contains { alternative in
                    guard alternative.confidence >= doubtConfidence, alternative.text.unicodeScalars.count == 1,
                          let other = alternative.text.unicodeScalars.first else { return false }
                    return other.isASCIIDigit && other != digit
                }
            }
        }
    }

    /// The digits of the card `hit` covers in `words` (the words it was matched in), when they
    /// are digit groups alone, as printed, with nothing a look-alike stands for: only such a card
    /// can be settled (one read from letters or marks, `2$91 3583 …`, may be an IBAN's start
    /// OCR misread, and stands).
    static func digits(of hit: TextHit, in words: [TextWord]) -> [Int]? {
        let pieces = groups(of: wordsInside(hit, of: words))
        guard !pieces.isEmpty, pieces.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }) else { return nil }
        let digits = pieces.flatMap { $0.map(\.digitValue) }
        return CardMatcher.digitCount.contains(digits.count) ? digits : nil
    }

    /// What `reading` (the words of the line read at another scale, boxes in the image's
    /// coordinates) says of the card `hit` covers, whose digits are `card`.
    static func verdict(on hit: TextHit, digits card: [Int], by reading: [TextWord]) -> Verdict {
        let inside = wordsInside(hit, of: reading)
        guard !inside.isEmpty else { return .unclear }
        if !LineMatcher.matches(inside, rules: [TextRule(kind: .card, line: 0)]).isEmpty { return .confirms }
        let pieces = groups(of: inside)
        // Digits read as letters in most of a group ("2254 BB5B 5652 2167") make no group for
        // the matcher, but are a card all the same when they pass its check.
        let folded = pieces.flatMap { $0.compactMap { LookAlikes.digit($0)?.digitValue } }
        if folded.count == pieces.reduce(0, { $0 + $1.count }), CardMatcher.isValid(folded) { return .confirms }
        // Only digit groups alone say what the digits are: a word that is no such group (a
        // label glued to the number, a table's border read `|`, a letter for a digit) does not.
        guard !pieces.isEmpty, pieces.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }) else { return .unclear }
        let digits = pieces.flatMap { $0.map(\.digitValue) }
        guard digits.count == card.count, zip(digits, card).filter({ $0 != $1 }).count == 1 else { return .unclear }
        return .refutes(digits)
    }

    /// Whether a doubtful card stands: unless at least two other readings were had and every
    /// one refutes it with the same digits. Two readings that misread the number each its own
    /// way are no evidence against it (in 9 px text a scale of two reads a digit wrong now and
    /// then where the first reading was right); two that agree on digits no card has are.
    static func stands(_ verdicts: [Verdict]) -> Bool {
        guard verdicts.count >= 2, case .refutes(let digits) = verdicts[0] else { return true }
        return verdicts.contains { $0 != .refutes(digits) }
    }

    /// Whether a line read at `scale` is large enough for other readings to settle a card:
    /// text under 8 px high (read at four times its size) that one scale reads right, the
    /// scales beside it misread the same way as often as they read a misread digit right (on
    /// five fresh corpora: five true cards of 9 px text lost against two near-misses, and with
    /// a third reading two against two).
    static func settles(atScale scale: Int) -> Bool {
        scale <= 3
    }

    /// The scales a doubtful card's line is read again at, besides its own `scale`: one smaller
    /// and one larger, or the next two larger when it is read at its own size.
    static func otherScales(than scale: Int) -> [Int] {
        scale > 1 ? [scale - 1, scale + 1] : [scale + 1, scale + 2]
    }

    /// The words of `words` inside the hit, left to right.
    private static func wordsInside(_ hit: TextHit, of words: [TextWord]) -> [TextWord] {
        words.filter { covers(hit, $0.rect) }.sorted { $0.rect.x < $1.rect.x }
    }

    /// `words` split at the marks and spaces cards are printed with, as pieces of scalars; empty
    /// pieces left out.
    private static func groups(of words: [TextWord]) -> [[Unicode.Scalar]] {
        let separators = CardMatcher.separatorMarks.union(CardMatcher.separatorSpaces)
        return words.flatMap { word in Array(word.text.unicodeScalars).split { separators.contains($0) }.map(Array.init) }
    }

    /// Whether a word's box belongs to the hit: its centre is inside the hit's box (which holds
    /// its words with a margin).
    private static func covers(_ hit: TextHit, _ box: Rect) -> Bool {
        let x = box.x + box.width / 2, y = box.y + box.height / 2
        return x >= hit.rect.x && x < hit.rect.maxX && y >= hit.rect.y && y < hit.rect.maxY
    }
}

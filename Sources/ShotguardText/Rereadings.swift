// Other readings of a line OCR was unsure of: a symbol's second choice, a glyph read as two symbols, a lost dot.
import ShotguardImaging

/// One word of a line read another way, and the kinds a match through that word may be.
struct Rereading: Equatable {
    /// The index of the word in its line.
    var word: Int
    /// The word's text in this reading.
    var text: String
    var kinds: Set<TextKind>
}

/// The readings a line's matchers try besides OCR's first one, each differing from it in one
/// symbol of one word:
///
/// - a symbol replaced by one of the recogniser's other choices for it (Tesseract's LSTM keeps
///   them: an `8` in 12 px text read `6` with `8` second, an `L` read `1`, an `@` read `G`);
/// - a glyph read as two symbols dropped to one, where one's other choice is its neighbour
///   (`1` then `I` with `I` second for one `I`; `3` then `9` with `9` second for one `9`).
///
/// Only kinds whose own check rejects a wrong reading take them: card numbers (Luhn) and IBANs
/// (mod 97) from a changed letter or digit — a near-miss changed at one doubtful symbol passes
/// its checksum only by chance, and only where the recogniser itself offered that symbol —
/// and e-mail addresses from an `@` or `.` the recogniser offered in place of another symbol.
/// Keys and patterns have no such check and are matched only as first read.
///
/// How sure the recogniser must have been of the other choice follows the strength of the
/// check: a Luhn-invalid number becomes valid with one digit in ten, so a card takes only
/// choices of `cardConfidence` or more; mod 97 lets one wrong digit in 97 through, so an IBAN
/// takes any of `minimumConfidence` or more.
enum Rereadings {
    /// The least confidence (0-100) of another choice for it to be tried: the second choices
    /// that were right in misread 12 px text had 27 to 83, the noise below them 0 to 10.
    static let minimumConfidence: Float = 20
    /// The least confidence of another choice for a card number: the right ones seen had 54 to
    /// 83; the choices that made a Luhn-invalid number valid 21 to 47.
    static let cardConfidence: Float = 50
    /// The most readings tried for one line, the most confident first.
    static let maximumPerLine = 32

    static func of(_ line: [OCRWord]) -> [Rereading] {
        var found: [(confidence: Float, reading: Rereading)] = []
        for (index, word) in line.enumerated() {
            let symbols = word.symbols.map(\.text)
            // Symbols that do not spell the word cannot be edited in it.
            guard symbols.joined() == word.word.text else { continue }
            for (position, symbol) in word.symbols.enumerated() {
                for alternative in symbol.alternatives where alternative.confidence >= minimumConfidence {
                    guard let kinds = kinds(replacing: symbol.text, with: alternative.text, confidence: alternative.confidence) else {
                        continue
                    }
                    var texts = symbols
                    texts[position] = alternative.text
                    found.append((alternative.confidence, Rereading(word: index, text: texts.joined(), kinds: kinds)))
                }
                guard position + 1 < word.symbols.count else { continue }
                let next = word.symbols[position + 1]
                // The one of the pair whose other choice is its neighbour is the surplus reading;
                // when each one's other choice is the other, either may be ("59" for one "5" or
                // one "9"): both are tried.
                var surplus: [(position: Int, confidence: Float)] = []
                if let choice = symbol.alternatives.first(where: { $0.text == next.text }), choice.confidence >= minimumConfidence {
                    surplus.append((position, choice.confidence))
                }
                if let choice = next.alternatives.first(where: { $0.text == symbol.text }), choice.confidence >= minimumConfidence {
                    surplus.append((position + 1, choice.confidence))
                }
                for surplus in surplus {
                    var texts = symbols
                    texts.remove(at: surplus.position)
                    let kinds: Set<TextKind> = surplus.confidence >= cardConfidence ? [.card, .iban] : [.iban]
                    found.append((surplus.confidence, Rereading(word: index, text: texts.joined(), kinds: kinds)))
                }
            }
        }
        var readings: [Rereading] = []
        for candidate in found.sorted(by: { $0.confidence > $1.confidence }) where !readings.contains(candidate.reading) {
            readings.append(candidate.reading)
            if readings.count == maximumPerLine { break }
        }
        return readings
    }

    /// The kinds a reading with `replacement` (of that confidence) in place of `symbol` may
    /// serve; nil for none.
    static func kinds(replacing symbol: String, with replacement: String, confidence: Float) -> Set<TextKind>? {
        guard replacement.unicodeScalars.count == 1, let scalar = replacement.unicodeScalars.first else { return nil }
        if scalar == "@" || scalar == "." { return [.email] }
        guard scalar.isASCIIAlphanumeric, symbol != "@", symbol != "." else { return nil }
        return confidence >= cardConfidence ? [.card, .iban] : [.iban]
    }

    /// Readings of a line with the dot OCR lost in an e-mail address's domain put back: where a
    /// word holds an `@` (or the recogniser offered one in it) and the next word starts with a
    /// letter, and `hasDot` finds a dot's ink in the gap between their boxes.
    static func lostDots(_ line: [OCRWord], hasDot: (_ left: Rect, _ right: Rect) -> Bool) -> [Rereading] {
        var readings: [Rereading] = []
        for index in line.indices.dropLast() {
            let word = line[index], next = line[index + 1]
            let hasAt = word.word.text.unicodeScalars.contains { $0 == "@" || $0 == "\u{00A9}" }
                || word.symbols.contains { $0.alternatives.contains { $0.text == "@" && $0.confidence >= minimumConfidence } }
            guard hasAt, word.word.text.unicodeScalars.last?.isASCIIAlphanumeric == true,
                  next.word.text.unicodeScalars.first?.isASCIILetter == true, hasDot(word.word.rect, next.word.rect) else { continue }
            readings.append(Rereading(word: index, text: word.word.text + ".", kinds: [.email]))
        }
        return readings
    }
}

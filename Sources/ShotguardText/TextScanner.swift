// The text pass: accessible text first, OCR for the rest, each match a box with its rule's fill.
import ShotguardBase
import ShotguardImaging
import Synchronization

/// What one scan found, and how much of the image it read.
public struct TextScanResult: Sendable {
    /// Every match, in image coordinates, accessible text's first.
    public var hits: [TextHit]
    /// The candidate lines OCR read.
    public var linesRead: Int
    /// The candidate lines left unread when the deadline passed (0 for a complete scan).
    public var linesLeft: Int
    /// The accessible runs matched.
    public var accessibleRuns: Int
    /// The lines read whose words came from an earlier scan of the same pixels (`LineCache`).
    public var linesRemembered = 0
    /// The lines read again at other scales: for an IBAN OCR may have misread (`readAgain`), or a
    /// card number it was unsure of (`CardDoubts`).
    public var linesReadAgain = 0

    /// Whether every candidate line was read: otherwise text may have gone unchecked.
    public var isComplete: Bool { linesLeft == 0 }
}

/// Finds the secrets `text` rules ask for in an image: in the accessible text given (exact
/// boxes), then by OCR in the lines of the rest that could hold text.
///
/// Thread-safe: `scan` may run on any thread, and several scans at once; each takes Tesseract
/// instances from the scanner's pool (one per worker thread, kept for the next scan: loading
/// the model takes about 0.1 s), and what OCR read of each line crop is kept by its pixels
/// (`LineCache`) for the next scans of the same lines.
public final class TextScanner: Sendable {
    public let rules: [TextRule]
    /// The threads one scan runs OCR on (this machine's two cores, by default).
    public let workers: Int
    private let engines: EnginePool
    private let cache: LineCache

    /// The height, in pixels, a line is scaled up to (at least, by a whole factor) before OCR:
    /// Tesseract misreads 12-14 px screen text at its own size. On the corpus of the tests,
    /// scaling to 14 px found 88-98% of secrets per kind, to 24 px 94-100%; 36 px read no
    /// better and took 12% more time (docs/text-rules.md).
    public static let targetLineHeight = 24
    /// The margin around a match's words, in pixels (and a quarter of their height, when more).
    public static let margin = 3

    public init(rules: [TextRule], workers: Int = 2) {
        self.rules = rules
        self.workers = max(1, workers)
        engines = EnginePool()
        cache = LineCache()
    }

    private init(rules: [TextRule], workers: Int, engines: EnginePool, cache: LineCache) {
        self.rules = rules
        self.workers = workers
        self.engines = engines
        self.cache = cache
    }

    /// A scanner for other rules (the same file's rules resolved against another moment's
    /// windows) that shares this one's Tesseract instances, so no model is loaded again, and
    /// what they read.
    public func with(rules: [TextRule]) -> TextScanner {
        TextScanner(rules: rules, workers: workers, engines: engines, cache: cache)
    }

    /// Loads Tesseract and its model now (the first scan would otherwise): throws why OCR
    /// cannot run, so a caller can fail before it has done anything.
    public func prepare() throws(OCRUnavailable) {
        let engine = try takeEngine()
        giveBack(engine)
    }

    /// Loads one Tesseract instance for each worker, in parallel, into the pool the scanners
    /// made by `with(rules:)` share: loading a model takes 0.1-0.2 s, which the first scan
    /// would otherwise spend before reading a line. Throws why OCR cannot run.
    public func prepareWorkers() throws(OCRUnavailable) {
        let missing = workers - engines.idle.withLock { $0.count }
        guard missing > 0 else { return }
        let failure = Mutex<OCRUnavailable?>(nil)
        Workers.run(jobs: missing, workers: missing) { [self] _, _ in
            do throws(OCRUnavailable) {
                giveBack(try OCREngine())
            } catch {
                failure.withLock { $0 = error }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Scans `image`, whose pixels show `origin` on screen.
    ///
    /// - `skipping`: rectangles of the image already covered (rectangle rules); not read.
    /// - `accessibleText`: runs of text from the accessibility bus, in screen coordinates;
    ///   matched as they are, and their bounds are not read by OCR.
    /// - `deadline`: a `monotonicNow()` time after which no further line is started; the
    ///   result then says how many were left (`isComplete` false).
    /// - `stop`: asked before each line; once it says true no further line is started (left, as
    ///   after the deadline).
    /// - `background`: OCR runs on threads of a low priority (`Workers.run`, nice 10): a reading
    ///   ahead of any screenshot gives way to busier threads.
    ///
    /// Throws only when OCR cannot run at all (no Tesseract, no model) and there was something
    /// to read.
    public func scan(_ image: PixelBuffer, origin: Rect, skipping: [Rect] = [], accessibleText: [TextRun] = [],
                     deadline: Double? = nil, stop: (@Sendable () -> Bool)? = nil,
                     background: Bool = false) throws(OCRUnavailable) -> TextScanResult {
        let bounds = image.bounds
        var hits: [TextHit] = []
        var excluded: [Rect] = skipping
        for run in accessibleText {
            let runBounds = run.bounds.offsetBy(dx: -origin.x, dy: -origin.y).intersection(bounds)
            guard !runBounds.isEmpty else { continue }
            excluded.append(runBounds)
            for line in run.lines {
                let words = line.map { TextWord(text: $0.text, rect: $0.rect.offsetBy(dx: -origin.x, dy: -origin.y)) }
                hits += matchHits(words, source: .accessible, origin: origin, bounds: bounds)
            }
        }
        let grey = GreyImage(image)
        let allLines = TextLineFinder.lines(in: grey, excluding: excluded)
        var lines = Self.wideEnough(allLines, for: rules)
        // Rules limited to windows need only the lines in those windows.
        if rules.allSatisfy({ $0.areas != nil }) {
            let areas = rules.flatMap { $0.areas ?? [] }.map { $0.offsetBy(dx: -origin.x, dy: -origin.y) }
            lines = lines.filter { line in areas.contains { !$0.intersection(line).isEmpty } }
        }
        guard !lines.isEmpty else {
            return TextScanResult(hits: hits, linesRead: 0, linesLeft: 0, accessibleRuns: accessibleText.count)
        }
        // Fails here, before any thread starts, when OCR cannot run.
        try prepare()
        let found = Mutex<[[TextHit]]>(Array(repeating: [], count: lines.count))
        let left = Atomic<Int>(0)
        let remembered = Atomic<Int>(0)
        let readAgain = Atomic<Int>(0)
        let candidates = lines
        Workers.run(jobs: lines.count, workers: workers, background: background) { [self] _, job in
            let pastDeadline = deadline.map { monotonicNow() > $0 } ?? false
            guard !pastDeadline, !(stop?() ?? false), let engine = try? takeEngine() else {
                left.add(1, ordering: .relaxed)
                return
            }
            let line = self.read(candidates[job], of: grey, besides: allLines, engine: engine, origin: origin, bounds: bounds,
                                 stop: stop)
            giveBack(engine)
            if line.remembered { remembered.add(1, ordering: .relaxed) }
            if line.readAgain { readAgain.add(1, ordering: .relaxed) }
            found.withLock { $0[job] = line.hits }
        }
        hits += found.withLock { $0 }.flatMap { $0 }
        let unread = left.load(ordering: .relaxed)
        return TextScanResult(hits: Self.bridged(deduplicated(hits)), linesRead: lines.count - unread, linesLeft: unread,
                              accessibleRuns: accessibleText.count, linesRemembered: remembered.load(ordering: .relaxed),
                              linesReadAgain: readAgain.load(ordering: .relaxed))
    }

    /// The lines wide enough to hold a match of one of `rules`' kinds (`narrowestMatch`).
    static func wideEnough(_ lines: [Rect], for rules: [TextRule]) -> [Rect] {
        let narrowest = rules.map { narrowestMatch($0.kind) }.min() ?? 0
        return lines.filter { $0.width * 10 >= narrowest * $0.height }
    }

    /// The narrowest a match of `kind` can be, in tenths of its line's height (the candidate's,
    /// from the top of its tallest letters to the foot of its descenders: 1.0 to 1.3 em): its
    /// fewest characters at their narrowest advance. Card numbers: 13 digits of at least 0.5 em;
    /// IBANs: 15 letters and digits of at least 0.3 em ("I"); keys (`xoxb-` and 10): 15
    /// characters of at least 0.25 em ("l", "i", "-"); e-mail addresses ("a@b.co"): an `@` of
    /// 0.8 em and five more of 0.25 em. A pattern may match anything.
    static func narrowestMatch(_ kind: TextKind) -> Int {
        switch kind {
        case .card: return 50
        case .iban: return 34
        case .key: return 28
        case .email: return 15
        case .pattern: return 0
        }
    }

    /// OCR of one candidate line (see `LineCrop`): read (or remembered from an earlier scan),
    /// and its words matched; whether they were remembered, and whether the line was read again
    /// (`readAgain`: not once `stop` says so, as a reading ahead gives way to a screenshot's,
    /// which reads the line again itself).
    private func read(_ line: Rect, of grey: GreyImage, besides lines: [Rect], engine: OCREngine, origin: Rect,
                      bounds: Rect, stop: (@Sendable () -> Bool)?) -> (hits: [TextHit], remembered: Bool, readAgain: Bool) {
        let crop = LineCrop(line, of: grey, besides: lines, targetHeight: Self.targetLineHeight)
        let background = crop.background
        var hits: [TextHit] = []
        let (read, remembered) = cache.words(in: crop.image, read: { engine.words(in: crop.image) })
        var doubtfulIBAN = false
        var doubtfulCards: [(hit: TextHit, digits: [Int]?)] = []
        for line in read {
            let placed = line.map { TextWord(text: $0.word.text, rect: crop.place($0.word.rect)) }
            let placedLine = zip(line, placed).map { OCRWord(word: $1, symbols: $0.symbols) }
            // Tesseract's word boxes come from its recogniser's character positions, which can
            // fall short of the ink by a character: each box grows to the ink it is part of.
            let grow = { (box: Rect) in Ink.extent(of: box, in: grey, line: crop.reach, background: background) }
            for hit in matchHits(placed, source: .ocr, origin: origin, bounds: bounds, grow: grow) {
                if hit.kind == .card && CardDoubts.isDoubtful(hit, in: placedLine) {
                    doubtfulCards.append((hit, CardDoubts.digits(of: hit, in: placed)))
                } else {
                    hits.append(hit)
                }
            }
            // Where OCR was unsure of a symbol, the recogniser's other readings of it; a card
            // made by one is as doubtful as a card read with a doubt.
            let lostDots = Rereadings.lostDots(placedLine) { left, right in
                Ink.hasDot(between: left, and: right, in: grey, background: background)
            }
            for rereading in Rereadings.of(line) + lostDots {
                var words = placed
                words[rereading.word].text = rereading.text
                for hit in matchHits(words, source: .ocr, origin: origin, bounds: bounds, only: rereading, grow: grow) {
                    if hit.kind == .card {
                        doubtfulCards.append((hit, CardDoubts.digits(of: hit, in: words)))
                    } else {
                        hits.append(hit)
                    }
                }
            }
            doubtfulIBAN = doubtfulIBAN || mayHoldMisreadIBAN(placed, besides: hits)
        }
        // A card found as read stands; a doubtful one is settled by other readings where they
        // can settle it, and stands where they cannot or the scan must stop.
        doubtfulCards.removeAll { hits.contains($0.hit) }
        let settling = doubtfulCards.contains { $0.digits != nil } && CardDoubts.settles(atScale: crop.scale)
        guard doubtfulIBAN || settling, !(stop?() ?? false) else { return (hits + doubtfulCards.map(\.hit), remembered, false) }
        if doubtfulIBAN {
            hits += readAgain(crop, of: grey, besides: lines, engine: engine, origin: origin, bounds: bounds)
        }
        hits += settling ? settled(doubtfulCards, crop, of: grey, besides: lines, engine: engine) : doubtfulCards.map(\.hit)
        return (hits, remembered, true)
    }

    /// The doubtful cards (`CardDoubts`) that other readings of their line leave standing: all
    /// but those read as digits alone that both readings refute alike.
    private func settled(_ cards: [(hit: TextHit, digits: [Int]?)], _ crop: LineCrop, of grey: GreyImage,
                         besides lines: [Rect], engine: OCREngine) -> [TextHit] {
        let readings = CardDoubts.otherScales(than: crop.scale).map { scale in
            reading(crop, at: scale, of: grey, besides: lines, engine: engine).words.flatMap { $0 }
        }
        return cards.filter { card in
            guard let digits = card.digits else { return true }
            return CardDoubts.stands(readings.map { CardDoubts.verdict(on: card.hit, digits: digits, by: $0) })
        }.map(\.hit)
    }

    /// The line of `crop` read at `scale` (or remembered): its lines of words, their boxes in the
    /// image's coordinates, and how a box grows to the ink it is part of at that scale's crop.
    private func reading(_ crop: LineCrop, at scale: Int, of grey: GreyImage, besides lines: [Rect],
                         engine: OCREngine) -> (words: [[TextWord]], grow: (Rect) -> Rect) {
        let other = LineCrop(crop.line, of: grey, besides: lines, scale: scale)
        let grow = { (box: Rect) in Ink.extent(of: box, in: grey, line: other.reach, background: other.background) }
        let read = cache.words(in: other.image, read: { engine.words(in: other.image) }).words
        return (read.map { line in line.map { TextWord(text: $0.word.text, rect: other.place($0.word.rect)) } }, grow)
    }

    /// Whether `words` (one line as read) hold text that may be an IBAN OCR misread
    /// (`IBANMatcher.possibleMisreads`) where no IBAN was found, while an IBAN rule is in force.
    private func mayHoldMisreadIBAN(_ words: [TextWord], besides hits: [TextHit]) -> Bool {
        guard rules.contains(where: { $0.kind == .iban }) else { return false }
        let text = LineText(words)
        return IBANMatcher.possibleMisreads(in: text).contains { range in
            guard let touched = text.words(in: range) else { return false }
            let box = words[touched].map(\.rect).reduce(words[touched.lowerBound].rect) { $0.union($1) }
            return !hits.contains { $0.kind == .iban && !$0.rect.intersection(box).isEmpty }
        }
    }

    /// The IBANs found in a line read again, one scale smaller (unless it is 1) and one larger
    /// than its own (5 at most): OCR misreads a digit or two of small text at one scale that it
    /// reads right at another. Only IBANs, and only as first read: their mod-97 check lets one
    /// wrong reading in 97 through, where a card's Luhn check lets one in ten. On the first set
    /// of five fresh corpora this found 16 of the 31 IBANs missed, on two other sets 10 and 7,
    /// and covered one more near-miss in the three (docs/text-rules.md). The crops read are
    /// remembered like any other (`LineCache`).
    private func readAgain(_ crop: LineCrop, of grey: GreyImage, besides lines: [Rect], engine: OCREngine, origin: Rect,
                           bounds: Rect) -> [TextHit] {
        var hits: [TextHit] = []
        for scale in [crop.scale - 1, crop.scale + 1] where scale >= 1 {
            let (words, grow) = reading(crop, at: scale, of: grey, besides: lines, engine: engine)
            for placed in words {
                hits += matchHits(placed, source: .ocr, origin: origin, bounds: bounds, grow: grow).filter { $0.kind == .iban }
            }
        }
        return hits
    }

    /// The hits of every rule in one line of words (image coordinates): each match's words
    /// boxed together (grown by `grow`) with a margin, kept when its rule applies there. With
    /// `only`, the matches of its kinds through its word alone.
    func matchHits(_ words: [TextWord], source: TextSource, origin: Rect, bounds: Rect, only rereading: Rereading? = nil,
                   grow: (Rect) -> Rect = { $0 }) -> [TextHit] {
        let ruleIndices = rules.indices.filter { rereading?.kinds.contains(rules[$0].kind) ?? true }
        guard !ruleIndices.isEmpty else { return [] }
        return LineMatcher.matches(words, rules: ruleIndices.map { rules[$0] }).compactMap { match in
            if let rereading, !match.words.contains(rereading.word) { return nil }
            let rule = rules[ruleIndices[match.rule]]
            let box = grow(words[match.words].map(\.rect).reduce(words[match.words.lowerBound].rect) { $0.union($1) })
            let margin = max(Self.margin, box.height / 4)
            let rect = Rect(x: box.x - margin, y: box.y - margin, width: box.width + 2 * margin,
                            height: box.height + 2 * margin).intersection(bounds)
            if let areas = rule.areas {
                let onScreen = rect.offsetBy(dx: origin.x, dy: origin.y)
                guard areas.contains(where: { !$0.intersection(onScreen).isEmpty }) else { return nil }
            }
            guard !rect.isEmpty else { return nil }
            return TextHit(kind: rule.kind, line: rule.line, rect: rect, fill: rule.fill, source: source)
        }
    }

    private func takeEngine() throws(OCRUnavailable) -> OCREngine {
        if let engine = engines.idle.withLock({ $0.popLast() }) { return engine }
        return try OCREngine()
    }

    private func giveBack(_ engine: OCREngine) {
        engines.idle.withLock { $0.append(engine) }
    }

    /// Hits of one rule side by side on a row, a space apart, reach each other: the line finder
    /// cuts a line at a monospaced font's wide spaces now and then (a key's prefix, `sk_l ive_`,
    /// in one crop and its groups in the next), and each crop's cover ends a margin past its
    /// ink. The space between them is covered too (a gap of less than half their height).
    static func bridged(_ hits: [TextHit]) -> [TextHit] {
        var hits = hits
        for index in hits.indices {
            let left = hits[index].rect
            let right = hits.indices.filter { other in
                let rect = hits[other].rect
                return other != index && hits[other].line == hits[index].line && rect.x >= left.maxX
                    && rect.x - left.maxX < min(left.height, rect.height) / 2
                    && min(left.maxY, rect.maxY) - max(left.y, rect.y) >= min(left.height, rect.height) / 2
            }.map { hits[$0].rect.x }.min()
            if let right { hits[index].rect = Rect(x: left.x, y: left.y, width: right - left.x, height: left.height) }
        }
        return hits
    }

    private func deduplicated(_ hits: [TextHit]) -> [TextHit] {
        var seen = Set<TextHit>()
        return hits.filter { seen.insert($0).inserted }
    }
}

/// The Tesseract instances not in use, shared by the scanners made with `with(rules:)`.
private final class EnginePool: Sendable {
    let idle = Mutex<[OCREngine]>([])
}



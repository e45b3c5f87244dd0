// Finds a lossless image on the screen: a few of its busiest rows as exact byte runs, then a check.
import CShotguardSys
import Glibc
import ShotguardImaging

enum ExactSearch {
    /// A row found at more places than this says little about where the image is.
    static let maximumHitsPerRow = 16
    /// Places a row may be found at before its partner row is checked at each; more, and the
    /// row is given up (a flat row found at every column of a flat window).
    static let maximumRawHitsPerRow = 256
    /// Rows searched for, at most.
    static let sampledRows = 8

    /// Takes a few of the image's rows with the most changes along them, spread over its height,
    /// finds each as an exact byte run in the root's rows where the next row that differs from
    /// it is found below it too, and compares each hit over the whole image. A row that crosses
    /// the cursor finds nothing and the next is tried.
    static func search(_ image: PixelBuffer, root: PixelBuffer, budget: inout RunningBudget) -> SearchResult {
        guard image.width <= root.width, image.height <= root.height else { return .notFound }
        guard image.width >= 16, image.height >= 8 else { return .indistinct }
        let rows = sampleRows(image)
        guard !rows.isEmpty else { return .indistinct }
        var overBudget = false
        for row in rows {
            guard let hits = hits(of: row, partner: partnerRow(of: row, in: image), in: image, root: root, budget: budget) else {
                if budget.timeIsUp { return .overBudget }
                overBudget = true
                continue
            }
            var found: [Rect] = []
            for (x, y) in hits {
                guard budget.spendVerification() else { return .overBudget }
                let comparison = ImageComparison.compare(image, root: root, x: x, y: y, tolerance: .exact, stopEarly: true)
                if comparison.passes(.exact) { found.append(Rect(x: x, y: y, width: image.width, height: image.height)) }
            }
            if found.count > 1 { return .ambiguous }
            if let rect = found.first { return .found(rect) }
        }
        return overBudget ? .overBudget : .notFound
    }

    /// Up to `count` rows with the most changes from pixel to pixel (rows with none are left
    /// out), a row where the image changes from one row to the next before one where it does
    /// not (the pair pins the height: each row of a bar is the same at every height of the
    /// bar, where it ends is not). Picked an eighth of the image apart first, so that the rows
    /// crossing the cursor (found nowhere on the screen) cannot be all of them; then the best
    /// of the rest.
    static func sampleRows(_ image: PixelBuffer, count: Int = sampledRows) -> [Int] {
        var scored: [(row: Int, changes: Int, edge: Bool)] = []
        let step = max(1, image.height / 64)
        image.pixels.withUnsafeBufferPointer { pixels in
            let width = image.width
            func differsFromNext(_ row: Int) -> Bool { row + 1 < image.height && rowsDiffer(row, row + 1, in: image) }
            for first in stride(from: 0, to: image.height, by: step) {
                // The first row of each step's band that differs from the next, else the band's first.
                let band = first..<min(image.height, first + step)
                let row = band.first(where: differsFromNext) ?? first
                let start = row * width
                var changes = 0
                for column in 1..<width where pixels[start + column] != pixels[start + column - 1] { changes += 1 }
                if changes > 0 { scored.append((row, changes, differsFromNext(row))) }
            }
        }
        let ranked = scored.sorted { ($0.changes, $0.edge ? 1 : 0) > ($1.changes, $1.edge ? 1 : 0) }.map(\.row)
        let apart = max(1, image.height / 8)
        var chosen: [Int] = []
        for row in ranked where chosen.count < count && chosen.allSatisfy({ abs($0 - row) >= apart }) { chosen.append(row) }
        for row in ranked where chosen.count < count && !chosen.contains(row) { chosen.append(row) }
        return chosen
    }

    /// The nearest row below `row` that differs from it, else the nearest above; nil when every
    /// row is the same.
    static func partnerRow(of row: Int, in image: PixelBuffer) -> Int? {
        let differs = { (other: Int) in rowsDiffer(row, other, in: image) }
        return (row + 1..<image.height).first(where: differs) ?? (0..<row).reversed().first(where: differs)
    }

    /// Whether two rows of `image` differ anywhere.
    private static func rowsDiffer(_ one: Int, _ other: Int, in image: PixelBuffer) -> Bool {
        image.pixels.withUnsafeBufferPointer { pixels in
            memcmp(pixels.baseAddress! + one * image.width, pixels.baseAddress! + other * image.width, image.width * 4) != 0
        }
    }

    /// Where `row` of the image could start: the image's top-left for each exact hit whose
    /// `partner` row matches too, or nil when there are more than `maximumHitsPerRow` of them
    /// (or `maximumRawHitsPerRow` of the row alone) or time runs out.
    private static func hits(of row: Int, partner: Int?, in image: PixelBuffer, root: PixelBuffer,
                             budget: RunningBudget) -> [(Int, Int)]? {
        let needleLength = image.width * 4
        let rowLength = root.width * 4
        return image.pixels.withUnsafeBytes { pixels in
            root.pixels.withUnsafeBytes { screen -> [(Int, Int)]? in
                let needle = pixels.baseAddress! + row * needleLength
                let partnerNeedle = partner.map { pixels.baseAddress! + $0 * needleLength }
                var found: [(Int, Int)] = []
                var raw = 0
                for top in 0...(root.height - image.height) {
                    if top % 64 == 0, budget.timeIsUp { return nil }
                    let line = screen.baseAddress! + (top + row) * rowLength
                    var offset = 0
                    while offset + needleLength <= rowLength,
                          let hit = sg_memmem(line + offset, rowLength - offset, needle, needleLength) {
                        let byte = line.distance(to: UnsafeRawPointer(hit))
                        offset = byte + 1
                        guard byte % 4 == 0 else { continue }
                        raw += 1
                        if raw > maximumRawHitsPerRow { return nil }
                        if let partner, let partnerNeedle,
                           memcmp(screen.baseAddress! + (top + partner) * rowLength + byte, partnerNeedle, needleLength) != 0 {
                            continue
                        }
                        found.append((byte / 4, top))
                        if found.count > maximumHitsPerRow { return nil }
                    }
                }
                return found
            }
        }
    }
}

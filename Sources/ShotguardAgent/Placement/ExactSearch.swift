// Finds a lossless image on the screen: a few of its busiest rows as exact byte runs, then a check.
import CShotguardSys
import ShotguardImaging

enum ExactSearch {
    /// A row found at more places than this says little about where the image is.
    static let maximumHitsPerRow = 16

    /// Takes a few of the image's rows with the most changes along them, finds each as an
    /// exact byte run in the root's rows, and compares each hit over the whole image. A row that
    /// crosses the cursor finds nothing and the next is tried.
    static func search(_ image: PixelBuffer, root: PixelBuffer, budget: inout RunningBudget) -> SearchResult {
        guard image.width <= root.width, image.height <= root.height else { return .notFound }
        guard image.width >= 16, image.height >= 8 else { return .indistinct }
        let rows = sampleRows(image)
        guard !rows.isEmpty else { return .indistinct }
        var overBudget = false
        for row in rows {
            guard let hits = hits(of: row, in: image, root: root, budget: budget) else {
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

    /// Up to `count` rows with the most changes from pixel to pixel; rows with none are left out.
    static func sampleRows(_ image: PixelBuffer, count: Int = 6) -> [Int] {
        var scored: [(row: Int, changes: Int)] = []
        let step = max(1, image.height / 64)
        for row in stride(from: 0, to: image.height, by: step) {
            let start = row * image.width
            var changes = 0
            for column in 1..<image.width where image.pixels[start + column] != image.pixels[start + column - 1] {
                changes += 1
            }
            if changes > 0 { scored.append((row, changes)) }
        }
        return scored.sorted { $0.changes > $1.changes }.prefix(count).map(\.row)
    }

    /// Where `row` of the image could start: the image's top-left for each exact hit, or nil
    /// when the row occurs more than `maximumHitsPerRow` times or time runs out.
    private static func hits(of row: Int, in image: PixelBuffer, root: PixelBuffer, budget: RunningBudget) -> [(Int, Int)]? {
        let needleLength = image.width * 4
        let rowLength = root.width * 4
        return image.pixels.withUnsafeBytes { pixels in
            root.pixels.withUnsafeBytes { screen -> [(Int, Int)]? in
                let needle = pixels.baseAddress! + row * needleLength
                var found: [(Int, Int)] = []
                for top in 0...(root.height - image.height) {
                    if top % 64 == 0, budget.timeIsUp { return nil }
                    let line = screen.baseAddress! + (top + row) * rowLength
                    var offset = 0
                    while offset + needleLength <= rowLength,
                          let hit = sg_memmem(line + offset, rowLength - offset, needle, needleLength) {
                        let byte = line.distance(to: UnsafeRawPointer(hit))
                        offset = byte + 1
                        guard byte % 4 == 0 else { continue }
                        found.append((byte / 4, top))
                        if found.count > maximumHitsPerRow { return nil }
                    }
                }
                return found
            }
        }
    }
}

// Finds the parts of a screenshot that could hold lines of text, cheaply, before any OCR.
import ShotguardImaging

/// Text on screen is rows of glyphs: in each pixel row through a line, sharp steps of
/// luminance (stroke edges) follow each other a few pixels apart. The finder marks rows'
/// runs of such steps, joins the runs of neighbouring rows into blocks, splits a block where
/// its rows of steps thin out (the gap between two lines), and keeps blocks of a text line's
/// height. Flat areas, gradients, borders (one step per row) and photos (blocks far taller
/// than a line) give none. Costs one pass over the pixels and a pass over the runs.
enum TextLineFinder {
    /// The smallest luminance step counted as a stroke edge (anti-aliased 12 px text in grey on
    /// white still steps by more than 60).
    static let edgeThreshold: UInt8 = 28
    /// The widest gap between two edges of one run: wider than the space between words, so a
    /// line's words are one run, narrower than most gaps between columns.
    static let joinGap = 9
    /// The fewest edges a run has: a border or a caret has one or two per row.
    static let minimumEdges = 4
    /// The heights a line may have: text smaller than 8 px is not promised (its block is 5 or
    /// 6 px), and a block taller than this is a picture, not a line.
    static let lineHeights = 5...96

    /// One row's run of edges.
    struct Run {
        var y: Int
        var start: Int
        var end: Int
        var edges: Int
    }

    /// The boxes of candidate text lines, in `image`'s pixels, top to bottom. Pixels in
    /// `excluded` (already covered, or read from accessible text) give no edges.
    static func lines(in image: GreyImage, excluding excluded: [Rect]) -> [Rect] {
        let runs = rowRuns(image, excluded: excluded)
        var lines: [Rect] = []
        for block in blocks(runs) {
            lines += split(block, runs: runs)
        }
        return joined(lines).sorted { ($0.y, $0.x) < ($1.y, $1.x) }
    }

    /// Pieces of one line joined: a monospaced font's spaces, an underscore (no edge along
    /// it) or a wide punctuation mark leave gaps wider than `joinGap` between a line's words.
    /// Two pieces are one line when they share at least half the height of the lower one and
    /// the gap between them is at most one and a half times the height of the taller one.
    static func joined(_ pieces: [Rect]) -> [Rect] {
        var lines = pieces.sorted { ($0.x, $0.y) < ($1.x, $1.y) }
        var merged = true
        while merged {
            merged = false
            var index = 0
            while index < lines.count {
                var other = index + 1
                while other < lines.count {
                    let a = lines[index], b = lines[other]
                    let overlap = min(a.maxY, b.maxY) - max(a.y, b.y)
                    let gap = max(a.x, b.x) - min(a.maxX, b.maxX)
                    if overlap * 2 >= min(a.height, b.height), gap * 2 <= 3 * max(a.height, b.height) {
                        let x = min(a.x, b.x), y = min(a.y, b.y)
                        lines[index] = Rect(x: x, y: y, width: max(a.maxX, b.maxX) - x, height: max(a.maxY, b.maxY) - y)
                        lines.remove(at: other)
                        merged = true
                    } else {
                        other += 1
                    }
                }
                index += 1
            }
        }
        return lines
    }

    /// The runs of every row, row by row and left to right within a row.
    static func rowRuns(_ image: GreyImage, excluded: [Rect]) -> [Run] {
        let width = image.width
        var runs: [Run] = []
        var allowed = [Bool](repeating: true, count: width)
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<image.height {
                let rowExclusions = excluded.filter { $0.y <= y && y < $0.maxY }
                if !rowExclusions.isEmpty {
                    for x in 0..<width { allowed[x] = true }
                    for rect in rowExclusions {
                        for x in max(0, rect.x)..<min(width, rect.maxX) { allowed[x] = false }
                    }
                }
                var current: Run?
                let row = y * width
                var x = 0
                while x < width - 1 {
                    let a = pixels[row + x], b = pixels[row + x + 1]
                    let step = a > b ? a - b : b - a
                    if step >= edgeThreshold, rowExclusions.isEmpty || (allowed[x] && allowed[x + 1]) {
                        if var run = current, x - run.end <= joinGap {
                            run.end = x + 1
                            run.edges += 1
                            current = run
                        } else {
                            if let run = current, run.edges >= minimumEdges { runs.append(run) }
                            current = Run(y: y, start: x, end: x + 1, edges: 1)
                        }
                    }
                    x += 1
                }
                if let run = current, run.edges >= minimumEdges { runs.append(run) }
                if !rowExclusions.isEmpty {
                    for x in 0..<width { allowed[x] = true }
                }
            }
        }
        return runs
    }

    /// Runs joined into blocks: two runs of neighbouring rows that overlap are in one block.
    /// Each block is the indices of its runs.
    static func blocks(_ runs: [Run]) -> [[Int]] {
        var parent = Array(runs.indices)
        func root(_ index: Int) -> Int {
            var index = index
            while parent[index] != index {
                parent[index] = parent[parent[index]]
                index = parent[index]
            }
            return index
        }
        // The runs of the previous row, and its y.
        var previous = 0..<0
        var previousY = -2
        var index = 0
        while index < runs.count {
            let y = runs[index].y
            var rowEnd = index
            while rowEnd < runs.count, runs[rowEnd].y == y { rowEnd += 1 }
            if previousY == y - 1 {
                var other = previous.lowerBound
                for current in index..<rowEnd {
                    while other < previous.upperBound, runs[other].end < runs[current].start { other += 1 }
                    var probe = other
                    while probe < previous.upperBound, runs[probe].start <= runs[current].end {
                        parent[root(current)] = root(probe)
                        probe += 1
                    }
                }
            }
            previous = index..<rowEnd
            previousY = y
            index = rowEnd
        }
        var groups: [Int: [Int]] = [:]
        for index in runs.indices { groups[root(index), default: []].append(index) }
        return Array(groups.values)
    }

    /// A block cut into lines at the quietest row of each stretch of rows with few edges inside
    /// it (the gap between two lines that touch), each kept when of a line's height.
    static func split(_ block: [Int], runs: [Run]) -> [Rect] {
        let top = block.map { runs[$0].y }.min()!, bottom = block.map { runs[$0].y }.max()! + 1
        var edges = [Int](repeating: 0, count: bottom - top)
        for index in block { edges[runs[index].y - top] += runs[index].edges }
        let peak = edges.max() ?? 0
        var cuts: [Int] = []
        var row = 0
        while row < edges.count {
            guard edges[row] * 10 <= peak else {
                row += 1
                continue
            }
            var end = row
            while end < edges.count, edges[end] * 10 <= peak { end += 1 }
            if row > 0, end < edges.count, let quietest = (row..<end).min(by: { edges[$0] < edges[$1] }) {
                cuts.append(quietest)
            }
            row = end
        }
        var lines: [Rect] = []
        var bandStart = 0
        for cut in cuts + [edges.count] {
            let band = (top + bandStart)..<(top + cut)
            bandStart = cut + 1
            let members = block.filter { band.contains(runs[$0].y) }
            guard let first = members.map({ runs[$0].y }).min(), let last = members.map({ runs[$0].y }).max(),
                  lineHeights.contains(last - first + 1) else { continue }
            let left = members.map { runs[$0].start }.min()!, right = members.map { runs[$0].end }.max()! + 1
            lines.append(Rect(x: left, y: first, width: right - left, height: last - first + 1))
        }
        return lines
    }
}

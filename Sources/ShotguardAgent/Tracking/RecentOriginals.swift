// Screenshots guard redacted or set aside lately, known by their original bytes and pixels: a copy made before the rewrite is one of them.
import ShotguardImaging

/// An original guard took in: what it was, and the screen it was placed on.
struct RecentOriginal: Sendable {
    /// Its name (a file's path, or "the clipboard image"), for the evidence's phrase.
    let name: String
    /// The screen it was placed on; nil for one that could not be placed (set aside).
    let screen: Snapshot?
    let at: Double
}

/// The last screenshots guard redacted or set aside, by their keys (`bytes:…` of the file or
/// clipboard image as it came, `pixels:…` of its decoded pixels). A file or clipboard image with
/// the same bytes, or the same pixels in another lossless format, seen after is a copy made from
/// the original before guard rewrote it (`cp shot.png elsewhere/` in the milliseconds between
/// the tool's close and the rewrite, or from a file read then): it is guarded as the original
/// was, placed on the original's screen. Bounded: the newest few, for ten minutes.
struct RecentOriginals {
    private var entries: [(keys: Set<String>, original: RecentOriginal)] = []

    static let capacity = 8
    static let lifetime = 600.0
    /// Screens are 8 MB at 1080p: the originals older than the newest few keep none.
    static let screensKept = 3

    mutating func note(keys: Set<String>, _ original: RecentOriginal) {
        entries.removeAll { !$0.keys.isDisjoint(with: keys) || original.at - $0.original.at > Self.lifetime }
        entries.append((keys, original))
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
        for index in entries.indices.dropLast(Self.screensKept) where entries[index].original.screen != nil {
            let old = entries[index].original
            entries[index].original = RecentOriginal(name: old.name, screen: nil, at: old.at)
        }
    }

    var isEmpty: Bool { entries.isEmpty }

    /// The original whose bytes are `bytesKey`, or else whose pixels are `pixelsKey()` (asked
    /// only when some original is known), within its lifetime.
    func original(bytes bytesKey: String, pixels pixelsKey: () -> String?, at now: Double) -> RecentOriginal? {
        let live = entries.filter { now - $0.original.at <= Self.lifetime }
        if let byBytes = live.last(where: { $0.keys.contains(bytesKey) }) { return byBytes.original }
        guard !live.isEmpty, let pixels = pixelsKey() else { return nil }
        return live.last { $0.keys.contains(pixels) }?.original
    }
}

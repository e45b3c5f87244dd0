// What OCR read of line crops seen before, by their pixels: a screen shot again is read once.
import Synchronization

/// The words OCR read in a line crop, kept by the crop's pixels. A screenshot of a screen the
/// agent has read before (the same screen again, a file and its clipboard copy, a terminal that
/// scrolled: every line that was on screen moved, unchanged) needs OCR only for the lines that
/// changed; the words are matched and boxed again in the new image.
///
/// The key is the crop's size and a keyed hash of its pixels (Swift's `Hasher`: SipHash with a
/// seed drawn for each process, so a screen crafted to collide with another line's pixels
/// cannot be made without it). Bounded: at most `capacity` lines, the oldest half dropped when
/// full. It holds the text of lines that were on screen (secrets among them) in the agent's
/// memory, as the screenshots themselves are.
final class LineCache: Sendable {
    private struct Key: Hashable {
        let width: Int
        let height: Int
        let digest: Int
    }

    private struct Store {
        var lines: [Key: [[OCRWord]]] = [:]
        var order: [Key] = []
    }

    static let capacity = 4096
    private let store = Mutex(Store())

    /// What `read` gives for `image`, from the cache when these pixels were read before (then
    /// `remembered` is true).
    func words(in image: GreyImage, read: () -> [[OCRWord]]) -> (words: [[OCRWord]], remembered: Bool) {
        var hasher = Hasher()
        image.pixels.withUnsafeBytes { hasher.combine(bytes: $0) }
        let key = Key(width: image.width, height: image.height, digest: hasher.finalize())
        if let known = store.withLock({ $0.lines[key] }) { return (known, true) }
        let words = read()
        store.withLock { store in
            guard store.lines[key] == nil else { return }
            if store.order.count >= Self.capacity {
                for old in store.order.prefix(Self.capacity / 2) { store.lines[old] = nil }
                store.order.removeFirst(Self.capacity / 2)
            }
            store.lines[key] = words
            store.order.append(key)
        }
        return (words, false)
    }
}

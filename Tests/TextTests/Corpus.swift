// The generated corpus (scripts/text-corpus.py): its images and the truth about what each holds.
import Foundation
import ShotguardBase
import ShotguardImaging

/// One true secret or near-miss drawn in a corpus image, with the box of its ink.
struct CorpusItem {
    /// `card`, `email`, `iban`, `key`, or `near-miss`.
    var kind: String
    /// The kind again for secrets; for near-misses what they are (`luhn-invalid`, `order`, …).
    var what: String
    var text: String
    var box: Rect
}

struct CorpusImage {
    var name: String
    var theme: String
    var image: PixelBuffer
    var items: [CorpusItem]
}

enum Corpus {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")

    /// Every image of the corpus, decoded, with its truth.
    static func load() throws -> [CorpusImage] {
        let truth = try Data(contentsOf: folder.appendingPathComponent("truth.json"))
        guard let root = try JSONSerialization.jsonObject(with: truth) as? [String: Any],
              let images = root["images"] as? [[String: Any]] else { throw CorpusError("truth.json has no images") }
        return try images.map { entry in
            guard let name = entry["image"] as? String, let theme = entry["theme"] as? String,
                  let items = entry["items"] as? [[String: Any]] else { throw CorpusError("a truth entry is incomplete") }
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
            let image = try ImageCodec.decode(bytes, source: name).image
            return CorpusImage(name: name, theme: theme, image: image, items: try items.map { item in
                guard let kind = item["kind"] as? String, let what = item["what"] as? String,
                      let text = item["text"] as? String, let box = item["box"] as? [Int], box.count == 4 else {
                    throw CorpusError("an item of \(name) is incomplete")
                }
                return CorpusItem(kind: kind, what: what, text: text, box: Rect(x: box[0], y: box[1], width: box[2], height: box[3]))
            })
        }
    }
}

struct CorpusError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension Rect {
    /// Whether every pixel of `self` lies in one of `covers`.
    func isCovered(by covers: [Rect]) -> Bool {
        let touching = covers.filter { !$0.intersection(self).isEmpty }
        for y in self.y..<maxY {
            for x in self.x..<maxX where !touching.contains(where: { $0.contains(x: x, y: y) }) { return false }
        }
        return true
    }

    /// The share of `self`'s pixels that lie in one of `covers`.
    func coveredFraction(by covers: [Rect]) -> Double {
        let touching = covers.filter { !$0.intersection(self).isEmpty }
        guard !touching.isEmpty, area > 0 else { return 0 }
        var inside = 0
        for y in self.y..<maxY {
            for x in self.x..<maxX where touching.contains(where: { $0.contains(x: x, y: y) }) { inside += 1 }
        }
        return Double(inside) / Double(area)
    }
}

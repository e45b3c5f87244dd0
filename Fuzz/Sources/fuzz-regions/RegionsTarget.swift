// Fuzzes the regions file: parsing any text, then resolving and applying its rules on a fuzzed screen.
import FuzzSupport
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

/// Input: the regions file's text, then optionally a NUL byte and bytes that lay out the
/// screen and its windows. Seeds are plain regions files and get `standardScreen`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRegions(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let split = input.bytes.firstIndex(of: 0) ?? input.bytes.count
    // As `RegionsFile.load` hands it over; text that is not UTF-8 is refused before parsing,
    // but the parser must cope with what decoding makes of it too.
    let text = String(decoding: input.bytes[..<split], as: UTF8.self)
    let regions: RegionsFile
    do throws(RegionsError) {
        regions = try RegionsFile.parse(text, path: "regions")
    } catch {
        require(error.description.hasPrefix("regions:"), "an error names the file: \(error.description)")
        require(!error.message.isEmpty && !error.description.contains("\n"), "an error is one line: \(error.description)")
        require((error.line ?? 0) >= 1 && (error.column ?? 0) >= 1, "an error has a line and column: \(error.description)")
        return 0
    }
    for rule in regions.rules {
        require(rule.line >= 1, "rule on line \(rule.line)")
        switch rule.target {
        case .window: require(!rule.matches.isEmpty, "a window rule with no match: \(rule.source)")
        case .screen, .monitor: require(rule.matches.isEmpty, "a \(rule.target) rule with window matches: \(rule.source)")
        case .field, .text: break
        }
        require((rule.target == .text) == (rule.text != nil), "a \(rule.target) rule with a text selector: \(rule.source)")
        require((rule.target == .field) == (rule.field != nil), "a \(rule.target) rule with a field selector: \(rule.source)")
        // What a listing shows of a rule must read back as the same rule.
        if let geometry = rule.geometry {
            require((try? Geometry.parse(geometry.description)) == geometry,
                    "geometry '\(geometry)' of '\(rule.source)' does not parse back")
        }
        require((try? Fill.parse(rule.fill.description)) == rule.fill, "fill '\(rule.fill)' does not parse back")
    }

    var layout = FuzzInput(bytes: Array(input.bytes[min(split + 1, input.bytes.count)...]))
    let context = layout.isAtEnd ? standardScreen : screen(from: &layout)
    let hits = regions.hits(against: context)
    for hit in hits {
        require(!hit.rect.isEmpty && hit.rect.intersection(context.bounds) == hit.rect,
                "hit \(hit.rect) of line \(hit.line) is empty or off the \(context.width)x\(context.height) screen")
    }
    // An image of part of the screen, as a placed screenshot is; kept small so each run is quick.
    let origin = Rect(x: layout.int(in: -64...1920), y: layout.int(in: -64...1080),
                      width: layout.int(in: 1...96), height: layout.int(in: 1...64))
    var image = PixelBuffer(width: origin.width, height: origin.height, fill: 0xFF12_3456)
    for hit in image.redact(hits, origin: origin) {
        require(!hit.rect.isEmpty && hit.rect.intersection(image.bounds) == hit.rect,
                "image hit \(hit.rect) is off the \(image.width)x\(image.height) image")
    }
    require(image.pixels.count == origin.width * origin.height, "redaction changed the image size")
    return 0
}

/// Windows whose names the seed files use, so that window rules hit something.
private let names: [(className: String, instance: String, title: String)] = [
    ("firefox", "Navigator", "Inbox (3) — Mozilla Firefox"),
    ("KeePassXC", "keepassxc", "vault.kdbx [Locked] - KeePassXC"),
    ("XTerm", "xterm", "root@host: ~/secrets"),
    ("Slack", "slack", "Slack | #general | 12 items"),
]

private let standardScreen = ScreenContext(width: 1920, height: 1080, windows: names.enumerated().map { index, name in
    let frame = Rect(x: 100 * index - 50, y: 80 * index, width: 800, height: 600)
    return WindowInfo(id: UInt(0x40_0001 + index), className: name.className, instance: name.instance, title: name.title,
                      frame: frame, isViewable: index != 3,
                      outerFrame: Rect(x: frame.x - 2, y: frame.y - 24, width: frame.width + 4, height: frame.height + 26))
})

/// A screen and windows within what X can express: 16-bit signed positions, 16-bit sizes.
private func screen(from layout: inout FuzzInput) -> ScreenContext {
    let width = layout.int(in: 1...16384)
    let height = layout.int(in: 1...16384)
    let windows = (0..<layout.int(in: 0...6)).map { index in
        let name = names[Int(layout.byte()) % names.count]
        let frame = Rect(x: layout.int(in: -32768...32767), y: layout.int(in: -32768...32767),
                         width: layout.int(in: 1...65535), height: layout.int(in: 1...65535))
        let border = layout.int(in: 0...64)
        let outer = Rect(x: frame.x - border, y: frame.y - border * 3, width: frame.width + border * 2,
                         height: frame.height + border * 4)
        return WindowInfo(id: UInt(index + 1), className: name.className, instance: name.instance,
                          title: layout.byte() & 1 == 0 ? name.title : layout.string(), frame: frame,
                          isViewable: layout.byte() & 1 == 0, outerFrame: outer)
    }
    return ScreenContext(width: width, height: height, windows: windows)
}

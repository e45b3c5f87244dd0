// Fuzzes the report JSON writer: whatever strings a report holds, its text parses as JSON and reads back.
import Foundation
import FuzzSupport
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen
// Report and its parts are internal to the agent; `make fuzz` builds with testable imports.
@testable import ShotguardAgent

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReport(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    if input.byte() & 1 == 0 {
        checkReport(&input)
    } else {
        let value = json(from: &input, depth: 0)
        let object = parse(value.text)
        require(matches(value, object), "JSON text \(value.text) reads back as something else")
    }
    return 0
}

/// A report as the agent fills it, with every string from the input (file names, clipboard
/// owners, tool classes, window titles and classes, notes, host name).
private func checkReport(_ input: inout FuzzInput) {
    var report = Report(id: input.string(), time: time(&input))
    for _ in 0..<input.int(in: 0...3) {
        let kind: SignalRecord.Kind = [.file, .clipboard, .toolWindow, .shieldKey][input.int(in: 0...3)]
        report.signals.append(SignalRecord(kind: kind, time: time(&input), detail: input.string()))
    }
    report.source = [.file, .clipboard, .fallback, .none][input.int(in: 0...3)]
    report.original = input.byte() & 1 == 0 ? nil : input.string()
    report.image = input.byte() & 1 == 0 ? nil : PixelBuffer(width: input.int(in: 1...8), height: input.int(in: 1...8))
    let rect = Rect(x: input.int(in: -32768...32767), y: input.int(in: -32768...32767),
                    width: input.int(in: 0...65535), height: input.int(in: 0...65535))
    if input.byte() & 1 == 1 {
        report.alignment = Alignment(method: [.screen, .window, .search, .fallback][input.int(in: 0...3)], rect: rect,
                                     windowID: input.byte() & 1 == 0 ? nil : UInt(input.uint32()))
    }
    for _ in 0..<input.int(in: 0...2) {
        report.redactions.append(RegionHit(line: input.int(in: 1...65535), fill: input.byte() & 1 == 0 ? .black : .solid(input.uint32()),
                                           rect: rect))
    }
    var title = ""
    if input.byte() & 1 == 1 {
        title = input.string()
        report.activeWindow = WindowInfo(id: UInt(input.uint32()), className: input.string(), instance: input.string(),
                                         title: title, frame: rect, isViewable: true)
        report.activeWindowRedacted = input.byte() & 1 == 1
    }
    report.screen = (input.int(in: 0...65535), input.int(in: 0...65535))
    report.notes = (0..<input.int(in: 0...2)).map { _ in input.string() }
    if input.byte() & 1 == 1 {
        report.shield = ShieldRecord(keyTime: time(&input), mappedAfterMs: double(&input), covers: input.int(in: 0...64))
    }
    let imagePath = input.byte() & 1 == 0 ? nil : input.string()
    let host = input.string()
    let version = input.string()

    let text = report.json(imagePath: imagePath, host: host, version: version).text
    guard let object = parse(text) as? [String: Any] else {
        require(false, "a report is not a JSON object: \(text)")
        return
    }
    require(object["id"] as? String == report.id, "the id does not read back")
    require(object["host"] as? String == host && object["shotguard"] as? String == version, "host or version")
    require((object["time"] as? String).map(isTimestamp) == true, "time \(object["time"] ?? "nil") is not ISO 8601 UTC")
    let signals = object["signals"] as? [[String: Any]] ?? []
    require(signals.map { $0["detail"] as? String } == report.signals.map(\.detail), "signal details do not read back")
    require(signals.allSatisfy { ($0["time"] as? String).map(isTimestamp) == true }, "a signal time is not ISO 8601 UTC")
    let image = object["image"] as? [String: Any] ?? [:]
    require(image["original"] as? String == report.original && image["path"] as? String == imagePath,
            "the image paths do not read back")
    if let window = object["activeWindow"] as? [String: Any] {
        require(window["class"] as? String == report.activeWindow?.className, "the window class does not read back")
        if report.activeWindowRedacted {
            require(window["title"] is NSNull, "a withheld title was written: \(text)")
        } else {
            require(window["title"] as? String == title, "the window title does not read back")
        }
    }
    if let shield = report.shield {
        let object = (object["shield"] as? [String: Any]) ?? [:]
        require(matches(.decimal(shield.mappedAfterMs, digits: 3), object["mappedAfterMs"] ?? "missing"),
                "the shield's delay \(shield.mappedAfterMs) was written as \(object["mappedAfterMs"] ?? "nothing")")
    }
    let note = report.notes.isEmpty ? nil : report.notes.joined(separator: "; ")
    require(object["note"] as? String == note, "the note does not read back")
}

/// A report time: any moment from 1970 to about 2200, the reach of a 64-bit `time_t` and more.
private func time(_ input: inout FuzzInput) -> Double {
    Double(input.uint32()) * 2 + Double(input.uint16()) / 65536
}

/// Any double, infinities and NaNs included.
private func double(_ input: inout FuzzInput) -> Double {
    Double(bitPattern: UInt64(input.uint32()) << 32 | UInt64(input.uint32()))
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ`.
private func isTimestamp(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    let digits = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22]
    return bytes.count == 24 && digits.allSatisfy { bytes[$0] >= 48 && bytes[$0] <= 57 }
        && Array("--T::.Z".utf8) == [4, 7, 10, 13, 16, 19, 23].map { bytes[$0] }
}

/// Any JSON value the writer can hold, nested a few levels.
private func json(from input: inout FuzzInput, depth: Int) -> JSON {
    switch input.byte() % (depth < 4 ? 7 : 5) {
    case 0: return .string(input.string())
    case 1: return .number(Int(Int64(bitPattern: UInt64(input.uint32()) << 32 | UInt64(input.uint32()))))
    case 2: return .bool(input.byte() & 1 == 1)
    case 3: return .null
    case 4: return .decimal(double(&input), digits: input.int(in: 0...6))
    case 5: return .array((0..<input.int(in: 0...4)).map { _ in json(from: &input, depth: depth + 1) })
    default: return .object((0..<input.int(in: 0...4)).map { _ in (input.string(), json(from: &input, depth: depth + 1)) })
    }
}

/// The text parsed by Foundation, which is what a consumer of the reports would use; stops the
/// run when it does not parse.
private func parse(_ text: String) -> Any {
    do {
        return try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    } catch {
        require(false, "writer output is not JSON (\(error)): \(text)")
        return NSNull()
    }
}

/// Whether `object` (as Foundation parsed it) holds the same value as `value`. Object members
/// compare by key (the last of a repeated key wins in Foundation, so repeated keys are skipped).
private func matches(_ value: JSON, _ object: Any) -> Bool {
    switch value {
    case .string(let string): return object as? String == string
    case .number(let number): return (object as? NSNumber)?.int64Value == Int64(number)
    case .decimal(let number, let digits):
        // Rounded to `digits` decimals; not a number is null.
        guard number.isFinite else { return object is NSNull }
        guard let read = (object as? NSNumber)?.doubleValue else { return false }
        // Foundation reads large numbers through Decimal, which is off in the last digits.
        return abs(read - number) <= 0.5 / pow(10, Double(digits)) + abs(number) * 1e-12
    case .bool(let bool): return (object as? NSNumber)?.boolValue == bool
    case .null: return object is NSNull
    case .array(let items):
        guard let array = object as? [Any], array.count == items.count else { return false }
        return zip(items, array).allSatisfy { matches($0, $1) }
    case .object(let members):
        guard let dictionary = object as? [String: Any] else { return false }
        let keys = members.map(\.0)
        return members.allSatisfy { key, member in
            keys.filter { $0 == key }.count > 1 || dictionary[key].map { matches(member, $0) } == true
        }
    }
}

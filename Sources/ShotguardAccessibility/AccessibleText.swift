// The text applications expose on screen (AT-SPI2 Text), word by word with exact screen boxes, for `text` rules.
import CAtspiLoader
import ShotguardBase
import ShotguardImaging
import ShotguardText

/// How much of the desktop one text query may read: applications expose their whole text
/// (a text view's full document), and a hostile or huge one must not make the query unbounded.
public struct AccessibleTextLimits: Sendable {
    /// The most objects read, over every application.
    public var objects: Int
    /// The most characters read of one object (the start of its text).
    public var charactersPerObject: Int
    /// The most words whose extents are asked for, over every object.
    public var words: Int
    /// The time after which no further object is read, in seconds.
    public var seconds: Double

    public init(objects: Int = 400, charactersPerObject: Int = 4096, words: Int = 4000, seconds: Double = 1.5) {
        self.objects = objects
        self.charactersPerObject = charactersPerObject
        self.words = words
        self.seconds = seconds
    }

    public static let standard = AccessibleTextLimits()
}

/// What one text query read.
public struct AccessibleTextRuns: Sendable {
    /// One run per showing object with text, its words in screen coordinates.
    public var runs: [TextRun]
    /// Whether a limit stopped the query before every object was read: text left unread is
    /// then read by OCR, as any text outside the runs is.
    public var truncated: Bool
}

extension AccessibilityBus {
    /// The roles whose objects carry text people read: labels, entries, text views, terminals,
    /// paragraphs, headings, table cells, list items, captions, static text.
    static let textRoles: [AtspiRole] = [
        ATSPI_ROLE_LABEL, ATSPI_ROLE_TEXT, ATSPI_ROLE_ENTRY, ATSPI_ROLE_PARAGRAPH, ATSPI_ROLE_TERMINAL,
        ATSPI_ROLE_TABLE_CELL, ATSPI_ROLE_STATIC, ATSPI_ROLE_HEADING, ATSPI_ROLE_DOCUMENT_TEXT, ATSPI_ROLE_LIST_ITEM,
        ATSPI_ROLE_CAPTION,
    ]

    /// The text of every showing object with a text role, in every application on the bus:
    /// one Collection query per application, then per object its text and the screen extents
    /// of each word (one D-Bus call each). Words outside the object's extents (scrolled away)
    /// are left out. Bounded by `limits`; each call by `callTimeout`. Password fields are not
    /// asked (their text is hidden on screen).
    public func textRuns(limits: AccessibleTextLimits = .standard) -> AccessibleTextRuns {
        let deadline = monotonicNow() + limits.seconds
        guard let desktop = sg_atspi_get_desktop(0) else { return AccessibleTextRuns(runs: [], truncated: false) }
        defer { atspiRelease(desktop) }
        guard let rule = textMatchRule() else { return AccessibleTextRuns(runs: [], truncated: false) }
        defer { atspiRelease(rule) }
        var budget = TextBudget(limits: limits, deadline: deadline)
        var runs: [TextRun] = []
        let count = atspiResult { sg_atspi_accessible_get_child_count(desktop, $0) } ?? 0
        for index in 0..<max(count, 0) where !budget.isSpent {
            guard let app = atspiResult({ sg_atspi_accessible_get_child_at_index(desktop, index, $0) }) ?? nil else { continue }
            defer { atspiRelease(app) }
            guard let collection = sg_atspi_accessible_get_collection_iface(app) else { continue }
            defer { atspiRelease(collection) }
            guard let found = atspiResult({
                sg_atspi_collection_get_matches(collection, rule, ATSPI_Collection_SORT_ORDER_CANONICAL, 0, 1, $0)
            }) ?? nil else { continue }
            defer { sg_g_array_unref(found) }
            let objects = UnsafeMutableRawPointer(found.pointee.data)!.bindMemory(to: OpaquePointer?.self, capacity: Int(found.pointee.len))
            for index in 0..<Int(found.pointee.len) {
                guard let object = objects[index] else { continue }
                defer { atspiRelease(object) }
                guard !budget.isSpent else { continue }
                budget.objects += 1
                if let run = textRun(object, budget: &budget) { runs.append(run) }
            }
        }
        return AccessibleTextRuns(runs: runs, truncated: budget.isSpent)
    }

    /// One object's visible words with their extents; nil when it has no text or no extents.
    private func textRun(_ object: OpaquePointer, budget: inout TextBudget) -> TextRun? {
        guard let component = sg_atspi_accessible_get_component_iface(object) else { return nil }
        defer { atspiRelease(component) }
        guard let extents = atspiResult({ sg_atspi_component_get_extents(component, ATSPI_COORD_TYPE_SCREEN, $0) }) ?? nil else {
            return nil
        }
        let bounds = Rect(x: Int(extents.pointee.x), y: Int(extents.pointee.y),
                          width: Int(extents.pointee.width), height: Int(extents.pointee.height))
        sg_g_free(extents)
        guard !bounds.isEmpty, let text = sg_atspi_accessible_get_text_iface(object) else { return nil }
        defer { atspiRelease(text) }
        let length = min(Int(atspiResult { sg_atspi_text_get_character_count(text, $0) } ?? 0), budget.limits.charactersPerObject)
        guard length > 0, let characters = atspiResult({ sg_atspi_text_get_text(text, 0, Int32(length), $0) }) ?? nil else {
            return nil
        }
        let scalars = Array(String(cString: characters).unicodeScalars)
        sg_g_free(characters)
        var words: [TextWord] = []
        for range in wordRanges(scalars) {
            guard budget.words < budget.limits.words, monotonicNow() < budget.deadline else { break }
            budget.words += 1
            guard let box = atspiResult({
                sg_atspi_text_get_range_extents(text, Int32(range.lowerBound), Int32(range.upperBound), ATSPI_COORD_TYPE_SCREEN, $0)
            }) ?? nil else { continue }
            let rect = Rect(x: Int(box.pointee.x), y: Int(box.pointee.y), width: Int(box.pointee.width), height: Int(box.pointee.height))
            sg_g_free(box)
            // A word scrolled out of the object, or one the toolkit gives no box, is not on screen.
            guard !rect.isEmpty, !rect.intersection(bounds).isEmpty else { continue }
            var word = ""
            word.unicodeScalars.append(contentsOf: scalars[range])
            words.append(TextWord(text: word, rect: rect))
        }
        return words.isEmpty ? nil : TextRun(words: words, bounds: bounds)
    }

    /// The character ranges of the words of `scalars` (runs of non-whitespace).
    private func wordRanges(_ scalars: [Unicode.Scalar]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start: Int?
        for (index, scalar) in scalars.enumerated() {
            let blank = scalar.properties.isWhitespace
            if !blank, start == nil { start = index }
            if blank, let first = start {
                ranges.append(first..<index)
                start = nil
            }
        }
        if let first = start { ranges.append(first..<scalars.count) }
        return ranges
    }

    /// Showing objects of the text roles.
    private func textMatchRule() -> OpaquePointer? {
        guard let states = sg_atspi_state_set_new(nil) else { return nil }
        defer { atspiRelease(states) }
        sg_atspi_state_set_add(states, ATSPI_STATE_SHOWING)
        guard let roleArray = sg_g_array_new(0, 0, UInt32(MemoryLayout<AtspiRole>.size)) else { return nil }
        defer { sg_g_array_unref(roleArray) }
        for role in Self.textRoles {
            var value = role
            sg_g_array_append_vals(roleArray, &value, 1)
        }
        return sg_atspi_match_rule_new(states, ATSPI_Collection_MATCH_ALL, nil, ATSPI_Collection_MATCH_ALL,
                                       roleArray, ATSPI_Collection_MATCH_ANY, nil, ATSPI_Collection_MATCH_ALL, 0)
    }
}

/// What a text query has spent of its limits.
private struct TextBudget {
    let limits: AccessibleTextLimits
    let deadline: Double
    var objects = 0
    var words = 0

    var isSpent: Bool { objects >= limits.objects || words >= limits.words || monotonicNow() >= deadline }
}

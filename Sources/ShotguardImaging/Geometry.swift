// X geometry syntax (`WxH+X+Y`), extended with percentages, resolved against a target rectangle.

/// A length in a geometry: pixels, or a percentage of the target's width or height.
public enum Length: Hashable, Sendable {
    case pixels(Int)
    case percent(Double)
}

/// One offset of a geometry: from the left/top edge (`+N`) or from the right/bottom edge (`-N`).
public struct Offset: Hashable, Sendable {
    public var length: Length
    public var fromFarEdge: Bool

    public init(_ length: Length, fromFarEdge: Bool = false) {
        self.length = length
        self.fromFarEdge = fromFarEdge
    }
}

/// `WxH+X+Y` in the syntax of `xwininfo`, `slop` and `maim -g`: a `-X` or `-Y` offset counts
/// from the right or bottom edge, and any part may be a percentage of the target (`25%x100%+0+0`).
public struct Geometry: Hashable, Sendable, CustomStringConvertible {
    public var width: Length
    public var height: Length
    public var x: Offset
    public var y: Offset

    public init(width: Length, height: Length, x: Offset = Offset(.pixels(0)), y: Offset = Offset(.pixels(0))) {
        self.width = width
        self.height = height
        self.x = x
        self.y = y
    }

    /// The rectangle this geometry names inside `target`, clipped to `target`. With
    /// percentages the exact edges may fall between pixels; both edges round outward, so a
    /// redaction never comes out a pixel short on either side.
    public func resolve(in target: Rect) -> Rect {
        let (left, right) = Self.span(size: width, offset: x, extent: target.width)
        let (top, bottom) = Self.span(size: height, offset: y, extent: target.height)
        return Rect(x: target.x + left, y: target.y + top, width: right - left, height: bottom - top).intersection(target)
    }

    private static func span(size: Length, offset: Offset, extent: Int) -> (Int, Int) {
        func exact(_ length: Length) -> Double {
            switch length {
            case .pixels(let value): return Double(value)
            case .percent(let value): return Double(extent) * value / 100
            }
        }
        let start = offset.fromFarEdge ? Double(extent) - exact(offset.length) - exact(size) : exact(offset.length)
        return (Int(start.rounded(.down)), Int((start + exact(size)).rounded(.up)))
    }

    public var description: String {
        func text(_ length: Length) -> String {
            switch length {
            case .pixels(let value): return String(value)
            case .percent(let value):
                return value == value.rounded() ? "\(Int(value))%" : "\(value)%"
            }
        }
        return "\(text(width))x\(text(height))\(x.fromFarEdge ? "-" : "+")\(text(x.length))"
            + "\(y.fromFarEdge ? "-" : "+")\(text(y.length))"
    }
}

/// A geometry that does not parse; `offset` is the 0-based position of the trouble in the text.
public struct GeometrySyntaxError: Error, Equatable, Sendable {
    public var message: String
    public var offset: Int

    public static let expectedForm = "WxH+X+Y, e.g. 300x28-0+0 or 25%x100%+0+0"
}

extension Geometry {
    /// Parses `WxH`, `WxH+X+Y`, `WxH-X-Y` (and mixes), with an optional leading `=`.
    public static func parse(_ text: String) throws(GeometrySyntaxError) -> Geometry {
        var scanner = GeometryScanner(Array(text.utf8))
        scanner.skip("=")
        let width = try scanner.length(what: "a width")
        guard scanner.skip("x") || scanner.skip("X") else {
            throw scanner.error("expected 'x' after the width")
        }
        let height = try scanner.length(what: "a height")
        var geometry = Geometry(width: width, height: height)
        if !scanner.atEnd {
            geometry.x = try scanner.offset(what: "an x offset")
            geometry.y = try scanner.offset(what: "a y offset")
        }
        guard scanner.atEnd else { throw scanner.error("unexpected text after the geometry") }
        return geometry
    }
}

private struct GeometryScanner {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { position == bytes.count }

    func error(_ message: String) -> GeometrySyntaxError {
        GeometrySyntaxError(message: "\(message) (a geometry is \(GeometrySyntaxError.expectedForm))", offset: position)
    }

    @discardableResult
    mutating func skip(_ character: Character) -> Bool {
        guard !atEnd, bytes[position] == character.asciiValue else { return false }
        position += 1
        return true
    }

    mutating func length(what: String) throws(GeometrySyntaxError) -> Length {
        let start = position
        while !atEnd, bytes[position] >= 48, bytes[position] <= 57 { position += 1 }
        var end = position
        if skip(".") {
            while !atEnd, bytes[position] >= 48, bytes[position] <= 57 { position += 1 }
            end = position
            guard !atEnd, bytes[position] == UInt8(ascii: "%") else {
                position = start
                throw error("expected \(what); fractions are allowed only in percentages")
            }
        }
        guard end > start else { throw error("expected \(what)") }
        let digits = String(decoding: bytes[start..<end], as: UTF8.self)
        if skip("%") {
            guard let value = Double(digits), value <= 100 else {
                position = start
                throw error("\(what) percentage must be between 0% and 100%")
            }
            return .percent(value)
        }
        guard digits.count <= 7, let value = Int(digits) else {
            position = start
            throw error("\(what) is too large")
        }
        return .pixels(value)
    }

    mutating func offset(what: String) throws(GeometrySyntaxError) -> Offset {
        if skip("+") {
            // `+-N`: a position left of or above the near edge, as XParseGeometry and xwininfo write it.
            let negative = skip("-")
            let value = try length(what: what)
            guard negative else { return Offset(value) }
            guard case .pixels(let pixels) = value else { throw error("\(what) below zero must be in pixels") }
            return Offset(.pixels(-pixels))
        }
        if skip("-") { return Offset(try length(what: what), fromFarEdge: true) }
        throw error("expected '+' or '-' before \(what)")
    }
}

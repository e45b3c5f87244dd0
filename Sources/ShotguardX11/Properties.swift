// Reading window properties: format-32 lists (as C longs), strings, WM_CLASS and titles.
import CX11
import Glibc

extension Display {
    /// One piece of a property, copied out of Xlib's buffer. Xlib hands format-32 data back as
    /// C `long`, 8 bytes per item on x86-64 and sign-extended, whatever the 32 in the name says;
    /// `items` holds the 32-bit values that were sent, `bytes` the same as little-endian bytes.
    struct PropertyChunk {
        let type: Atom
        let format: Int32
        let items: [UInt32]
        let bytes: [UInt8]
        let remaining: Int
    }

    /// `length` 32-bit units of `property` from `offset` (also in 32-bit units); nil when the
    /// window or the property is missing, the request fails or the reply makes no sense.
    func propertyChunk(_ property: Atom, of window: Window, offset: Int = 0, length: Int,
                       type: Atom = Atom(AnyPropertyType)) -> PropertyChunk? {
        var actualType: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var remaining: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let (status, error) = trap {
            XGetWindowProperty(handle, window, property, offset, length, 0, type,
                               &actualType, &format, &count, &remaining, &data)
        }
        defer { if let data { XFree(data) } }
        guard status == Success, error == nil, actualType != 0, let data,
              let size = PropertyDecoding.xlibBufferSize(format: format, count: count, requestedUnits: length),
              let value = PropertyDecoding.xlibValue(format: format, buffer: UnsafeRawBufferPointer(start: data, count: size))
        else { return nil }
        return PropertyChunk(type: actualType, format: format, items: value.items, bytes: value.bytes,
                             remaining: Int(clamping: remaining))
    }

    /// The atoms of `names`, in their order, interned in one request round; Xlib keeps them,
    /// so asking again costs nothing.
    func atoms(_ names: [String]) -> [Atom] {
        var atoms = [Atom](repeating: 0, count: names.count)
        var pointers = names.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        _ = pointers.withUnsafeMutableBufferPointer { buffer in
            XInternAtoms(handle, buffer.baseAddress, Int32(names.count), 0, &atoms)
        }
        return atoms
    }

    /// A format-32 property as a list of values.
    public func cardinals(_ property: String, of window: Window, type: Atom = Atom(AnyPropertyType)) -> [UInt32]? {
        guard let chunk = propertyChunk(atom(property), of: window, length: 4096, type: type), chunk.format == 32 else { return nil }
        return chunk.items
    }

    /// A property's raw bytes, for format-8 text; at most twice `PropertyDecoding.maximumTextBytes`
    /// (room for both halves of `WM_CLASS`).
    func bytes(_ property: String, of window: Window, type: Atom) -> [UInt8]? {
        let length = 2 * PropertyDecoding.maximumTextBytes / 4
        guard let chunk = propertyChunk(atom(property), of: window, length: length, type: type), chunk.format == 8 else {
            return nil
        }
        return chunk.bytes
    }

    /// `WM_CLASS` as (instance, class); empty strings when the window has none.
    func classHint(of window: Window) -> (instance: String, className: String) {
        guard let bytes = bytes("WM_CLASS", of: window, type: XA_STRING) else { return ("", "") }
        return PropertyDecoding.wmClass(bytes)
    }

    /// The title: `_NET_WM_NAME` (UTF-8), else `WM_NAME` in whatever encoding it was set.
    /// At most `PropertyDecoding.maximumTextBytes` of it are read.
    func title(of window: Window) -> String {
        if let utf8 = bytes("_NET_WM_NAME", of: window, type: atom("UTF8_STRING")), !utf8.isEmpty {
            return PropertyDecoding.utf8Text(utf8)
        }
        guard let chunk = propertyChunk(XA_WM_NAME, of: window, length: PropertyDecoding.maximumTextBytes / 4),
              chunk.format == 8 else { return "" }
        return text(chunk.bytes, type: chunk.type)
    }

    /// Text of a format-8 property: `STRING` is Latin-1, `UTF8_STRING` UTF-8, and anything
    /// else (`COMPOUND_TEXT`) goes through Xlib's converter, which asks nothing of the server.
    func text(_ bytes: [UInt8], type: Atom) -> String {
        if type == XA_STRING { return PropertyDecoding.latin1Text(bytes) }
        if type == atom("UTF8_STRING") { return PropertyDecoding.utf8Text(bytes) }
        var value = bytes + [0]
        return value.withUnsafeMutableBufferPointer { buffer -> String in
            var property = XTextProperty(value: buffer.baseAddress, encoding: type, format: 8,
                                         nitems: UInt(bytes.count))
            var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
            var count: Int32 = 0
            guard Xutf8TextPropertyToTextList(handle, &property, &list, &count) >= Success, let list, count > 0 else {
                return PropertyDecoding.utf8Text(bytes)
            }
            defer { XFreeStringList(list) }
            return list[0].map { PropertyDecoding.utf8Text(UnsafeBufferPointer(start: UnsafeRawPointer($0)
                .assumingMemoryBound(to: UInt8.self), count: strlen($0))) } ?? ""
        }
    }
}

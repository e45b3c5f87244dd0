// Reading window properties: format-32 lists (as C longs), strings, WM_CLASS and titles.
import CX11

extension Display {
    /// One piece of a property, copied out of Xlib's buffer. Xlib hands format-32 data back as
    /// C `long`, 8 bytes per item on x86-64, whatever the 32 in the name says; `bytes` holds
    /// such items as the 4 little-endian bytes that were sent, and `items` as numbers.
    struct PropertyChunk {
        let type: Atom
        let format: Int32
        let items: [UInt]
        let bytes: [UInt8]
        let remaining: Int
    }

    /// `length` 32-bit units of `property` from `offset` (also in 32-bit units); nil when the
    /// window or the property is missing or the request fails.
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
        guard status == Success, error == nil, actualType != 0, let data else { return nil }
        let items: [UInt]
        var bytes: [UInt8] = []
        if format == 32 {
            items = data.withMemoryRebound(to: UInt.self, capacity: Int(count)) { Array(UnsafeBufferPointer(start: $0, count: Int(count))) }
            bytes.reserveCapacity(items.count * 4)
            for item in items { withUnsafeBytes(of: UInt32(truncatingIfNeeded: item).littleEndian) { bytes += $0 } }
        } else {
            items = []
            bytes = Array(UnsafeBufferPointer(start: data, count: Int(count) * Int(format) / 8))
        }
        return PropertyChunk(type: actualType, format: format, items: items, bytes: bytes, remaining: Int(remaining))
    }

    /// A format-32 property as a list of values.
    func cardinals(_ property: String, of window: Window, type: Atom = Atom(AnyPropertyType)) -> [UInt]? {
        guard let chunk = propertyChunk(atom(property), of: window, length: 4096, type: type), chunk.format == 32 else { return nil }
        return chunk.items
    }

    /// A property's raw bytes, for format-8 text.
    func bytes(_ property: String, of window: Window, type: Atom) -> [UInt8]? {
        guard let chunk = propertyChunk(atom(property), of: window, length: 65536, type: type), chunk.format == 8 else { return nil }
        return chunk.bytes
    }

    /// `WM_CLASS` as (instance, class); empty strings when the window has none.
    func classHint(of window: Window) -> (instance: String, className: String) {
        var hint = XClassHint()
        let (status, error) = trap { XGetClassHint(handle, window, &hint) }
        defer {
            if let name = hint.res_name { XFree(name) }
            if let name = hint.res_class { XFree(name) }
        }
        guard status != 0, error == nil else { return ("", "") }
        return (hint.res_name.map { String(cString: $0) } ?? "", hint.res_class.map { String(cString: $0) } ?? "")
    }

    /// The title: `_NET_WM_NAME` (UTF-8), else `WM_NAME` in whatever encoding it was set.
    func title(of window: Window) -> String {
        if let utf8 = bytes("_NET_WM_NAME", of: window, type: atom("UTF8_STRING")), !utf8.isEmpty {
            return String(decoding: utf8, as: UTF8.self)
        }
        var property = XTextProperty()
        let (status, error) = trap { XGetWMName(handle, window, &property) }
        defer { if let value = property.value { XFree(value) } }
        guard status != 0, error == nil, property.value != nil else { return "" }
        var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        var count: Int32 = 0
        guard Xutf8TextPropertyToTextList(handle, &property, &list, &count) >= Success, let list, count > 0 else {
            return String(decoding: UnsafeBufferPointer(start: property.value, count: Int(property.nitems)), as: UTF8.self)
        }
        defer { XFreeStringList(list) }
        return list[0].map { String(cString: $0) } ?? ""
    }
}

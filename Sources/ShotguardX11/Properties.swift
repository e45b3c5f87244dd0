// Reading window properties: format-32 lists (as C longs), strings, WM_CLASS and titles.
import CX11

extension Display {
    /// A format-32 property as a list of values. Xlib hands format-32 data back as C `long`,
    /// 8 bytes per item on x86-64, whatever the 32 in the name says.
    func cardinals(_ property: String, of window: Window, type: Atom = Atom(AnyPropertyType)) -> [UInt]? {
        var actualType: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var remaining: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let (status, error) = trap {
            XGetWindowProperty(handle, window, atom(property), 0, 4096, 0, type,
                               &actualType, &format, &count, &remaining, &data)
        }
        defer { if let data { XFree(data) } }
        guard status == Success, error == nil, format == 32, let data else { return nil }
        return data.withMemoryRebound(to: UInt.self, capacity: Int(count)) { Array(UnsafeBufferPointer(start: $0, count: Int(count))) }
    }

    /// A property's raw bytes, for format-8 text.
    func bytes(_ property: String, of window: Window, type: Atom) -> [UInt8]? {
        var actualType: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var remaining: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let (status, error) = trap {
            XGetWindowProperty(handle, window, atom(property), 0, 65536, 0, type,
                               &actualType, &format, &count, &remaining, &data)
        }
        defer { if let data { XFree(data) } }
        guard status == Success, error == nil, format == 8, let data else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: Int(count)))
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

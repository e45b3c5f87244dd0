// RECORD's and X-Resource's libraries, loaded when capture sensing first needs them (CX11's sg_x_sensing.h says why).
import CX11

enum SensingLibraries {
    /// Nil once libXtst and libXRes are loaded, else why not ("cannot load …"). Loaded at the
    /// first read of this, once per process.
    static let failure: String? = {
        var message = [CChar](repeating: 0, count: 512)
        guard sg_x_sensing_load(&message, message.count) != 0 else { return nil }
        return String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()
}

// One RECORD context's data connection, read with xcb: never blocks, never writes after the start.
import CX11
import CXCB
import Glibc

/// A connection of its own that enables one RECORD context and receives its recorded
/// elements, a stream of replies to that one request. Read only through
/// `xcb_poll_for_reply`: it takes what the socket holds and never waits or writes, so a flood
/// of recorded requests can slow the reader, never stop it. Not thread-safe.
final class RecordStream {
    private let connection: OpaquePointer
    private var sequence: UInt32 = 0
    /// The server said the context ended (its end of data), or refused it.
    private(set) var ended = false
    /// Replies waiting in xcb after the last `read`, which stopped at its bound.
    private(set) var hasPending = false

    /// The most replies one `read` handles (each holds up to about a kilobyte of elements): a
    /// flood is handled in turns, and the sentinel's other work goes on between them.
    static let repliesPerRead = 2048

    /// Connects to `name` (an X display name).
    init(name: String) throws(X11Error) {
        var screen: Int32 = 0
        guard let connection = xcb_connect(name, &screen) else {
            throw X11Error(.unsupported, "cannot connect to the X server '\(name)' for RECORD's data")
        }
        guard xcb_connection_has_error(connection) == 0 else {
            xcb_disconnect(connection)
            throw X11Error(.unsupported, "cannot connect to the X server '\(name)' for RECORD's data")
        }
        self.connection = connection
    }

    deinit { xcb_disconnect(connection) }

    /// The connection's resource base: the requests it makes are its own, never recorded.
    var clientBase: UInt32 { xcb_get_setup(connection).map { $0.pointee.resource_id_base } ?? 0 }

    var fileDescriptor: Int32 { xcb_get_file_descriptor(connection) }

    /// Whether the connection broke (the server went away).
    var isLost: Bool { xcb_connection_has_error(connection) != 0 }

    /// Sends EnableContext for `context` (RECORD's major opcode `major`); its replies, from the
    /// start of data on, come to `read`.
    func enable(_ context: XRecordContext, major: UInt8) {
        sequence = sg_xcb_record_enable_context(connection, major, UInt32(truncatingIfNeeded: context))
        xcb_flush(connection)
    }

    /// Hands each element that arrived to `body`, at most `repliesPerRead` replies; false when
    /// a reply was malformed or the server refused the context (an X error).
    @discardableResult
    func read(_ body: (XRecordInterceptData) -> Void) -> Bool {
        hasPending = false
        guard sequence != 0, !ended else { return true }
        var wellFormed = true
        for _ in 0..<Self.repliesPerRead {
            var reply: UnsafeMutableRawPointer?
            var error: UnsafeMutablePointer<xcb_generic_error_t>?
            guard xcb_poll_for_reply(connection, sequence, &reply, &error) != 0 else { return wellFormed }
            if let error {
                free(error)
                ended = true
                return false
            }
            guard let reply else {
                // The request is complete: no reply will follow.
                ended = true
                return wellFormed
            }
            defer { free(reply) }
            let units = reply.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
            let bytes = UnsafeRawBufferPointer(start: reply, count: RecordReply.headerSize + Int(units) * 4)
            if Int32(bytes[1]) == XRecordEndOfData { ended = true }
            wellFormed = RecordReply.elements(of: bytes, body) && wellFormed
        }
        hasPending = true
        return wellFormed
    }
}

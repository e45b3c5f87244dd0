// One RECORD context's data connection, read with xcb element by element: never written after the start, never waiting on the server for long.
import CX11
import CXCB
import Glibc

/// A connection of its own that enables one RECORD context and receives its recorded
/// elements, a stream of replies to that one request, read through `xcb_poll_for_reply`: it
/// takes what the socket holds and never writes (Xlib's async reply handler was left waiting
/// inside `XPending` under a flood of recorded copies). It waits only for the rest of a reply
/// whose start has arrived, which the server is writing. Read as a cursor (`peek`, `advance`)
/// so that the source can merge its two contexts element by element in the server's order.
/// Not thread-safe.
final class RecordStream {
    private let connection: OpaquePointer
    private var sequence: UInt32 = 0
    /// The reply being read and where its next element starts (nil: none is held).
    private var reply: UnsafeMutableRawPointer?
    private var replySize = 0
    private var index: Int?
    /// The next element, peeked and not yet taken.
    private var peeked: XRecordInterceptData?
    private var repliesThisTurn = 0
    /// The server ended the context (its end of data) or refused it (an X error).
    private(set) var ended = false
    /// This turn stopped at its bound: more replies may wait in xcb or the socket.
    private(set) var hasPending = false

    /// The most replies one turn reads (each holds up to about a kilobyte of elements): a
    /// flood is handled in turns, and the sentinel's other work goes on between them.
    static let repliesPerTurn = 2048

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

    deinit {
        free(reply)
        xcb_disconnect(connection)
    }

    /// The connection's resource base: the requests it makes are its own, never recorded.
    var clientBase: UInt32 { xcb_get_setup(connection).map { $0.pointee.resource_id_base } ?? 0 }

    var fileDescriptor: Int32 { xcb_get_file_descriptor(connection) }

    /// Whether the connection broke (the server went away).
    var isLost: Bool { xcb_connection_has_error(connection) != 0 }

    /// Sends EnableContext for `context` (RECORD's major opcode `major`); its replies, from the
    /// start of data on, come through `peek`.
    func enable(_ context: XRecordContext, major: UInt8) {
        sequence = sg_xcb_record_enable_context(connection, major, UInt32(truncatingIfNeeded: context))
        xcb_flush(connection)
    }

    /// A new turn: up to `repliesPerTurn` replies more may be read.
    func beginTurn() {
        repliesThisTurn = 0
        hasPending = false
    }

    /// The next element that arrived, left in place until `advance`; its data lives until then.
    /// Nil when none waits now, or this turn read its bound of replies (`hasPending`).
    func peek() -> XRecordInterceptData? {
        if let peeked { return peeked }
        while true {
            if let reply, let start = index {
                switch RecordReply.element(of: UnsafeRawBufferPointer(start: reply, count: replySize), at: start) {
                case .element(let element, let next):
                    index = next
                    peeked = element
                    return element
                case .malformed:
                    // What a reply holds past an element longer than the reply is dropped.
                    index = nil
                }
            }
            guard fetch() else { return nil }
        }
    }

    /// Takes the element `peek` gave.
    func advance() { peeked = nil }

    /// Frees the reply read (none of its elements is held) and reads the next one; false when
    /// none waits or the turn's bound is reached.
    private func fetch() -> Bool {
        free(reply)
        reply = nil
        index = nil
        guard sequence != 0, !ended else { return false }
        guard repliesThisTurn < Self.repliesPerTurn else {
            hasPending = true
            return false
        }
        var next: UnsafeMutableRawPointer?
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        guard xcb_poll_for_reply(connection, sequence, &next, &error) != 0 else { return false }
        if let error {
            free(error)
            ended = true
            return false
        }
        guard let next else {
            // The request is complete: no reply will follow.
            ended = true
            return false
        }
        repliesThisTurn += 1
        let units = next.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
        reply = next
        replySize = RecordReply.headerSize + Int(units) * 4
        index = 0
        if Int32(next.load(fromByteOffset: 1, as: UInt8.self)) == XRecordEndOfData { ended = true }
        return true
    }
}

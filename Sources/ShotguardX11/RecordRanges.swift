// The request ranges of the screen-read source's two RECORD contexts.
import CX11

/// RECORD ranges allocated by libXtst (`XRecordAllocRange`), freed with this value. A range
/// holds one run of core requests and one extension's run of minors; the server hooks a
/// recorded client's whole major opcode and filters minors after, so what a range costs is
/// its majors.
final class RecordRanges {
    private var ranges: [UnsafeMutablePointer<XRecordRange>?] = []

    private init() {}

    deinit { ranges.forEach { XFree($0) } }

    /// The context of every client: `GetImage` with the notices of a client's start and end,
    /// `SetSelectionOwner`, MIT-SHM's `ShmGetImage` and `ShmCreatePixmap`, Composite's
    /// redirections and `NameWindowPixmap`, DAMAGE's `DamageCreate` and `DamageDestroy`.
    static func screenReads(_ opcodes: RecordedOpcodes) throws(X11Error) -> RecordRanges {
        let list = RecordRanges()
        let core = try list.add()
        core.pointee.core_requests = XRecordRange8(first: RecordedRequest.getImageOpcode, last: RecordedRequest.getImageOpcode)
        core.pointee.client_started = 1
        core.pointee.client_died = 1
        let selection = try list.add()
        selection.pointee.core_requests = XRecordRange8(first: RecordedRequest.setSelectionOwnerOpcode,
                                                        last: RecordedRequest.setSelectionOwnerOpcode)
        try list.extensionRange(opcodes.sharedMemory, RecordedRequest.shmGetImageMinor, RecordedRequest.shmCreatePixmapMinor)
        try list.extensionRange(opcodes.composite, RecordedRequest.redirectWindowMinor, RecordedRequest.nameWindowPixmapMinor)
        try list.extensionRange(opcodes.damage, RecordedRequest.damageCreateMinor, RecordedRequest.damageDestroyMinor)
        return list
    }

    /// The copy context: `CopyArea`, `CopyPlane`, `FreePixmap`, RENDER's `CreatePicture`,
    /// `FreePicture` and `Composite` (not `ChangePicture`, which text drawing sends by the thousand).
    static func copies(_ opcodes: RecordedOpcodes) throws(X11Error) -> RecordRanges {
        let list = RecordRanges()
        let copies = try list.add()
        copies.pointee.core_requests = XRecordRange8(first: RecordedRequest.copyAreaOpcode, last: RecordedRequest.copyPlaneOpcode)
        let free = try list.add()
        free.pointee.core_requests = XRecordRange8(first: RecordedRequest.freePixmapOpcode, last: RecordedRequest.freePixmapOpcode)
        try list.extensionRange(opcodes.render, RecordedRequest.createPictureMinor, RecordedRequest.createPictureMinor)
        try list.extensionRange(opcodes.render, RecordedRequest.freePictureMinor, RecordedRequest.compositeMinor)
        return list
    }

    /// Calls `body` with the C array of ranges and its count.
    func withPointers<T>(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<XRecordRange>?>?, Int32) -> T) -> T {
        ranges.withUnsafeMutableBufferPointer { body($0.baseAddress, Int32($0.count)) }
    }

    private func add() throws(X11Error) -> UnsafeMutablePointer<XRecordRange> {
        guard let range = sg_XRecordAllocRange() else { throw X11Error(.unsupported, "out of memory for a RECORD range") }
        ranges.append(range)
        return range
    }

    /// Minors `first` to `last` of the extension with major opcode `major` (none without it).
    private func extensionRange(_ major: UInt8?, _ first: UInt8, _ last: UInt8) throws(X11Error) {
        guard let major else { return }
        let range = try add()
        range.pointee.ext_requests = XRecordExtRange(ext_major: XRecordRange8(first: major, last: major),
                                                     ext_minor: XRecordRange16(first: UInt16(first), last: UInt16(last)))
    }
}

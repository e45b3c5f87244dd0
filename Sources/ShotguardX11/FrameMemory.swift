// Private memory for one grabbed frame.
import CShotguardSys
import Glibc

/// Anonymous memory for a frame the strips of a capture are copied into; the copy maps each
/// strip's pages in one call first (`SharedMemoryImage.grabStrips`). Transparent huge pages
/// were tried for it: once the memory behind them has been used, a 2 MiB page maps in 0.18 ms
/// against 0.55 ms for the same memory in 4 KiB pages; but a huge page of memory the virtual
/// machine's host has not yet backed took 4.5 ms, and made one 4K bench run 60 % slower
/// (docs/performance.md), so they are not asked for.
enum FrameMemory {
    /// Calls `body` with `size` bytes of fresh memory, and with what to call once the memory is
    /// read no more, to unmap it on a thread of its own while the caller goes on (a capture
    /// waiting for fsync); unmapped when `body` returns otherwise. Nil, without calling `body`,
    /// when there is no memory.
    static func with<T>(size: Int, _ body: (UnsafeMutableRawPointer, _ release: () -> Void) throws(X11Error) -> T)
        throws(X11Error) -> T? {
        guard let memory = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              memory != MAP_FAILED else { return nil }
        var released = false
        defer { if !released { munmap(memory, size) } }
        return try body(memory) {
            guard !released else { return }
            released = true
            sg_unmap_in_background(memory, size)
        }
    }
}

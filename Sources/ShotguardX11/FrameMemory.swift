// Private memory for one grabbed frame, asked for in transparent huge pages.
import Glibc

/// Anonymous memory for a frame the strips of a capture are copied into. A fresh page costs the
/// kernel an allocation, a clearing and a page-table entry, and a 1080p frame is 2,025 pages of
/// 4 KiB: in 2 MiB huge pages it is 4, which halves the time to map it (docs/performance.md).
/// The mapping is aligned to 2 MiB so that every huge page can be used; where the kernel gives
/// none (transparent huge pages off, or no free 2 MiB block), the pages are 4 KiB as usual.
/// 2 MiB is the huge page of x86-64 with 4 KiB pages; where it is larger (arm64 with 64 KiB
/// pages) the advice finds no whole huge page and changes nothing. With the kernel's default
/// `defrag` setting, a fault here may wait for memory to be compacted into a free 2 MiB block.
enum FrameMemory {
    private static let hugePage = 2 << 20

    /// Calls `body` with `size` bytes of fresh memory, unmapped when it returns; nil, without
    /// calling it, when there is no memory.
    static func with<T>(size: Int, _ body: (UnsafeMutableRawPointer) throws(X11Error) -> T) throws(X11Error) -> T? {
        let rounded = (size + hugePage - 1) & ~(hugePage - 1)
        // One huge page more than needed, to start on a huge page's boundary inside it.
        let mappedSize = rounded + hugePage
        guard let mapping = mmap(nil, mappedSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              mapping != MAP_FAILED else { return nil }
        defer { munmap(mapping, mappedSize) }
        let misalignment = Int(bitPattern: mapping) & (hugePage - 1)
        let base = mapping + (misalignment == 0 ? 0 : hugePage - misalignment)
        _ = madvise(base, rounded, MADV_HUGEPAGE)
        return try body(base)
    }
}

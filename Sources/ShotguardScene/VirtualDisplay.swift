// A private Xvfb server: for the demo and the tests, where there is no desktop.
import CX11
import Glibc
import ShotguardBase
import ShotguardX11

/// An Xvfb started by this process on a free display number, stopped by its pid.
public final class VirtualDisplay {
    public let name: String
    private let server: ChildProcess
    private var windowManager: ChildProcess?

    /// Starts `Xvfb -displayfd` (which picks a free display and writes its number back),
    /// `-noreset` (else the screen is cleared when the last client leaves) and `-nolisten tcp`.
    /// `withoutSharedMemory` turns MIT-SHM off, as on a remote display; `withoutExtensions`
    /// turns off others by name (`RECORD`, `X-Resource`), as some servers ship. `listensOnTCP`
    /// takes clients over TCP too (`127.0.0.1:N`), whose process the server cannot tell, as for
    /// a client on another machine.
    public init(width: Int = 1280, height: Int = 800, depth: Int = 24,
                withoutSharedMemory: Bool = false, withoutExtensions: [String] = [], listensOnTCP: Bool = false) throws(X11Error) {
        guard programExists("Xvfb") else {
            throw X11Error(.unsupported, "Xvfb is not installed (Debian package 'xvfb')")
        }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw X11Error(.unsupported, "cannot create a pipe for Xvfb: \(String(cString: strerror(errno)))")
        }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        var arguments = ["-displayfd", String(fds[1]), "-screen", "0", "\(width)x\(height)x\(depth)",
                         listensOnTCP ? "-listen" : "-nolisten", "tcp", "-noreset"]
        if withoutSharedMemory { arguments += ["-extension", "MIT-SHM"] }
        for name in withoutExtensions { arguments += ["-extension", name] }
        let server: ChildProcess
        do throws(SystemError) {
            server = try ChildProcess("Xvfb", arguments, keepDescriptors: [fds[1]])
        } catch {
            close(fds[0])
            close(fds[1])
            throw X11Error(.unsupported, error.description)
        }
        close(fds[1])
        defer { close(fds[0]) }
        var text = ""
        var byte: UInt8 = 0
        while read(fds[0], &byte, 1) == 1, byte != UInt8(ascii: "\n") { text.append(Character(UnicodeScalar(byte))) }
        guard let number = Int(text) else {
            server.stop()
            throw X11Error(.noDisplay, "Xvfb did not start (no display number on -displayfd)")
        }
        self.server = server
        name = ":\(number)"
    }

    /// Starts openbox on this display when it is installed; returns whether it runs. Waits until
    /// it manages windows, bounded to about 5 s: `_NET_SUPPORTING_WM_CHECK` is set early in its
    /// start-up, while a window mapped before start-up ends can be dropped (seen with openbox
    /// 3.6), so a probe window is mapped until the manager maps it. `configFile` is an
    /// `rc.xml` of its own (the shield's tests bind Print to scrot there).
    @discardableResult
    public func startWindowManager(configFile: String? = nil) -> Bool {
        guard programExists("openbox"), let display = try? Display(name: name) else { return false }
        let configuration = configFile.map { ["--config-file", $0] } ?? []
        guard let manager = try? ChildProcess("env", ["DISPLAY=\(name)", "openbox", "--sm-disable"] + configuration) else { return false }
        windowManager = manager
        XSelectInput(display.handle, display.root, PropertyChangeMask)
        let check = display.atom("_NET_SUPPORTING_WM_CHECK")
        let announced = display.cardinals("_NET_SUPPORTING_WM_CHECK", of: display.root) != nil
            || display.waitForEvent(on: display.root, mask: PropertyChangeMask, seconds: 5) { $0.xproperty.atom == check }
        return announced && !manager.hasExited && waitUntilManaging(display, manager: manager)
    }

    private func waitUntilManaging(_ display: Display, manager: ChildProcess) -> Bool {
        var attributes = XSetWindowAttributes()
        attributes.event_mask = StructureNotifyMask
        let probe = XCreateWindow(display.handle, display.root, 0, 0, 1, 1, 0, 0, UInt32(InputOnly), nil,
                                  UInt(CWEventMask), &attributes)
        defer {
            XDestroyWindow(display.handle, probe)
            display.sync()
        }
        // Mapped again every 250 ms: a request that arrives mid start-up may be dropped.
        for _ in 0..<20 where !manager.hasExited {
            XMapWindow(display.handle, probe)
            display.flush()
            if display.waitForEvent(on: probe, mask: StructureNotifyMask, seconds: 0.25, { $0.type == MapNotify }) { return true }
        }
        return false
    }

    public func stop() {
        windowManager?.stop()
        server.stop()
    }

    deinit { stop() }
}

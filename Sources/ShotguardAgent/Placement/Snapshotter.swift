// Grabs the screen and reads its windows at a signal: the snapshots every placement is tried on.
import ShotguardBase
import ShotguardImaging
import ShotguardScreen
import ShotguardX11

/// Takes snapshots: the screen's pixels first (a screenshot tool may paint over them any
/// moment), then the window list. What the screen model holds that X does not (the fields of
/// `field` rules) and what the agent shows itself (the shield's covers) are put in and left
/// out by `adjust`, which the agent sets once its parts exist.
final class Snapshotter {
    private let display: Display
    private let grabber: ScreenGrabber
    private let log: Log
    private let clock: any AgentClock
    /// Puts the fields in and takes the agent's own windows out of a context just read.
    var adjust: (inout ScreenContext) -> Void = { _ in }

    init(display: Display, useSharedMemory: Bool, log: Log, clock: any AgentClock) {
        self.display = display
        grabber = ScreenGrabber(display: display, allowSharedMemory: useSharedMemory)
        self.log = log
        self.clock = clock
    }

    /// How the screen is grabbed, for the start-up line.
    var method: String { grabber.method.rawValue }

    /// The screen and its windows now; nil (logged) when the screen cannot be grabbed.
    func take() -> Snapshot? {
        guard !display.isLost else { return nil }
        do throws(X11Error) {
            let started = clock.now()
            let root = try grabber.captureScreen()
            let grabbed = clock.now()
            let context = self.context()
            let read = clock.now()
            log.verbose("snapshot: screen grabbed in \(milliseconds(grabbed.monotonic - started.monotonic)), "
                + "\(context.windows.count) windows read in \(milliseconds(read.monotonic - grabbed.monotonic))")
            return Snapshot(root: root, context: context, time: started)
        } catch {
            log.error("cannot capture the screen: \(error.message)")
            return nil
        }
    }

    /// The screen's pixels now, without its windows.
    func pixels() throws(X11Error) -> PixelBuffer {
        try grabber.captureScreen()
    }

    /// The windows on screen now, as rules see them.
    func context() -> ScreenContext {
        var context = display.screenContext()
        adjust(&context)
        return context
    }
}

/// `seconds` as milliseconds with one decimal, for log lines.
func milliseconds(_ seconds: Double) -> String { JSON.fixed(seconds * 1000, digits: 1) + " ms" }

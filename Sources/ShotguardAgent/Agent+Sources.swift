// Turning source events into signals of a capture event (and opening the event at the first).
import Glibc
import ShotguardImaging
import ShotguardX11

extension Agent {
    /// How long a file or clipboard image already seen stays a duplicate.
    static let duplicateWindow = 5.0

    func handleFiles(_ paths: [BytePath]) {
        for path in paths {
            if path.isInside(BytePath(spool.folder)) { continue }  // our own reports
            switch ScreenshotFileClassifier.classify(path, now: now()) {
            case .failure(let reason):
                log.verbose("ignored \(path): \(reason)")
            case .success(let file):
                let key = "file:\(path):\(file.modified)"
                guard !isDuplicate(key) else {
                    log.verbose("ignored \(path): already seen")
                    continue
                }
                let weak = file.strength == .weak
                log.verbose("\(weak ? "image" : "screenshot") file \(path)\(weak ? " (counts if found on screen)" : "")")
                signal(SignalRecord(kind: .file, time: now(), detail: path.description), counted: !weak,
                       candidate: Candidate(source: .file, png: file.png, path: path, isWeak: weak, key: key))
            }
        }
    }

    func handleDesktop(_ signals: [DesktopSignal]) {
        for desktopSignal in signals {
            switch desktopSignal {
            case .clipboardImage(let png, let owner, let incremental):
                let key = "clipboard:\(png.count):\(fnv1a(png))"
                guard !isDuplicate(key) else {
                    log.verbose("ignored the clipboard image from \(owner): the same image was just seen")
                    continue
                }
                log.verbose("clipboard image (\(png.count) bytes\(incremental ? ", INCR" : "")) from \(owner)")
                signal(SignalRecord(kind: .clipboard, time: now(), detail: owner), counted: true,
                       candidate: Candidate(source: .clipboard, png: png, path: nil, isWeak: false, key: key))
            case .clipboardFailed(let reason):
                log.warning("clipboard: \(reason)")
            case .toolWindowOpened(let id, let tool):
                // The screen is grabbed now, before the tool paints over it; the event counts
                // only once the window is mapped (a tray daemon's hidden windows never are).
                log.verbose("screenshot tool window \(hexID(id)) (\(tool)) created")
                signal(SignalRecord(kind: .toolWindow, time: now(), detail: tool), counted: false, candidate: nil)
            case .toolWindowMapped(let id, let tool):
                log.verbose("screenshot tool window \(hexID(id)) (\(tool)) shown")
                if event == nil || !(event?.signals.contains { $0.kind == .toolWindow } ?? false) {
                    signal(SignalRecord(kind: .toolWindow, time: now(), detail: tool), counted: false, candidate: nil)
                }
                event?.openToolWindows.insert(id)
                event?.count(now: monotonicNow())
            case .toolWindowClosed(let id):
                guard let event, event.openToolWindows.remove(id) != nil else { continue }
                event.lastSignal = monotonicNow()
            }
        }
    }

    /// Adds a signal to the open event, opening one (context and screen grabbed now) if none is.
    func signal(_ record: SignalRecord, counted: Bool, candidate: Candidate?) {
        if let candidate { seen[candidate.key] = monotonicNow() }
        if event == nil { event = open() }
        event?.add(record, counted: counted, candidate: candidate, now: monotonicNow())
    }

    private func open() -> CaptureEvent? {
        do throws(X11Error) {
            // The pixels first: a screenshot tool may paint over them any moment, while the
            // window list (about 0.5 ms a window) changes far less quickly.
            let root = try grabber.captureScreen()
            let context = display.screenContext()
            let event = CaptureEvent(id: Self.reportID(), now: monotonicNow(), wallNow: now(), context: context, root: root)
            log.verbose("capture event \(event.id): \(context.windows.count) windows, fallback \(event.fallbackRect)")
            return event
        } catch {
            log.error("cannot capture the screen: \(error.message)")
            return nil
        }
    }

    func isDuplicate(_ key: String) -> Bool {
        let current = monotonicNow()
        seen = seen.filter { current - $0.value < Self.duplicateWindow }
        return seen[key] != nil
    }

    /// `20261129-140703-120`: local time to the millisecond, unique enough for one user's screen.
    static func reportID() -> String {
        let t = CalendarTime()
        let pad = CalendarTime.pad
        return "\(pad(t.year, 4))\(pad(t.month, 2))\(pad(t.day, 2))-\(pad(t.hour, 2))\(pad(t.minute, 2))\(pad(t.second, 2))-"
            + pad(t.millisecond, 3)
    }
}

/// FNV-1a 64: a quick fingerprint to recognise the same clipboard image offered again.
func fnv1a(_ bytes: [UInt8]) -> String {
    var value: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes {
        value ^= UInt64(byte)
        value = value &* 0x100_0000_01B3
    }
    return String(value, radix: 16)
}

// Turning source events into signals of a capture event (and opening the event at the first).
import CShotguardSys
import Glibc
import ShotguardBase
import ShotguardImaging
import ShotguardX11
import ShotguardRegions
import ShotguardScreen

extension Agent {
    /// A fresher screen is taken for a later signal only when the last one is older than this.
    static let snapshotInterval = 0.25

    func handleFiles(_ paths: [BytePath]) {
        for path in paths {
            if path.isInside(BytePath(spool.folder)) { continue }  // our own reports
            switch ScreenshotFileClassifier.classify(path, now: now()) {
            case .failure(let reason):
                log.verbose("ignored \(path): \(reason)")
            case .success(let file):
                let key = Self.fileKey(file.identity)
                if ownRewrites[key] != nil {
                    log.verbose("ignored \(path): guard's own rewrite")
                    continue
                }
                guard !seen.contains(key, now: monotonicNow()) else {
                    log.verbose("ignored \(path): already seen")
                    continue
                }
                let weak = file.strength == .weak
                screenshotSettledForShield()
                log.verbose("\(weak ? "image" : "screenshot") file \(path)\(weak ? " (counts if found on screen)" : "")")
                signal(SignalRecord(kind: .file, time: now(), detail: path.description), counted: !weak, freshScreen: true,
                       candidate: Candidate(source: .file, path: path, bytes: nil, isWeak: weak, key: key))
            }
        }
    }

    func handleDesktop(_ signals: [DesktopSignal]) {
        for desktopSignal in signals {
            switch desktopSignal {
            case .clipboardImage(let bytes, let offered, let owner, let incremental):
                log.verbose("clipboard image (\(offered.first ?? "image"), \(bytes.count) bytes\(incremental ? ", INCR" : "")) from \(owner)")
                if ownOutputs.contains("bytes:" + fnv1a(bytes), now: monotonicNow()) {
                    log.verbose("ignored the clipboard image from \(owner): guard's own redacted image")
                    continue
                }
                let key = "clipboard:\(bytes.count):\(fnv1a(bytes))"
                if seen.contains(key, now: monotonicNow()), !mayGuardAgain(key, owner: owner) { continue }
                takeOverClipboardIfRulesHit()
                screenshotSettledForShield()
                seen.insert(key, now: monotonicNow())
                signal(SignalRecord(kind: .clipboard, time: now(), detail: owner), counted: true, freshScreen: true,
                       candidate: Candidate(source: .clipboard, path: nil, bytes: bytes, isWeak: false, key: key,
                                            clipboardTargets: offered))
            case .clipboardFailed(let reason):
                log.warning("clipboard: \(reason)")
            case .toolWindowOpened(let id, let tool):
                // The screen is grabbed now, before the tool paints over it; the event counts
                // only once the window is mapped (a tray daemon's hidden windows never are).
                log.verbose("screenshot tool window \(hexID(id)) (\(tool)) created")
                signal(SignalRecord(kind: .toolWindow, time: now(), detail: tool), counted: false, freshScreen: false,
                       candidate: nil)
            case .toolWindowMapped(let id, let tool):
                log.verbose("screenshot tool window \(hexID(id)) (\(tool)) shown")
                if event == nil || !(event?.signals.contains { $0.kind == .toolWindow } ?? false) {
                    signal(SignalRecord(kind: .toolWindow, time: now(), detail: tool), counted: false, freshScreen: false,
                           candidate: nil)
                }
                event?.openToolWindows.insert(id)
                event?.count(now: monotonicNow())
            case .shieldKey(let readAt, let mappedAt):
                shieldRaised(readAt: readAt, mappedAt: mappedAt)
            case .windowsChanged:
                refreshShield()
            case .toolWindowClosed(let id):
                screenshotSettledForShield()
                guard let event, event.openToolWindows.remove(id) != nil else { continue }
                event.lastSignal = monotonicNow()
                // Tools that show a window first and capture when it goes (shutter, a delay
                // timer) read the screen now, not when the event opened.
                takeFreshSnapshot(for: event, always: true)
                event.toolWindowClosedSinceSnapshot = true
            }
        }
    }

    /// Guard takes CLIPBOARD right after reading the original, before placing and redacting it,
    /// whenever any rule covers something on the screen: pastes then wait for the redacted
    /// image instead of getting the original meanwhile.
    private func takeOverClipboardIfRulesHit() {
        guard options.guarding, let clipboardGuardian, let regions else { return }
        let context = event?.snapshots.last?.context ?? screenContext()
        guard !regions.hits(against: context).isEmpty else { return }
        if !clipboardGuardian.takeOver() {
            log.error("guard: could not take over the clipboard")
        }
    }

    /// Adds a signal to the open event, opening one (context and screen grabbed now) if none is.
    /// A signal that may carry a different screen than the event's first adds a fresh snapshot.
    func signal(_ record: SignalRecord, counted: Bool, freshScreen: Bool, candidate: Candidate?) {
        if let candidate { seen.insert(candidate.key, now: monotonicNow()) }
        if let event {
            if freshScreen {
                takeFreshSnapshot(for: event, always: event.toolWindowClosedSinceSnapshot)
                event.toolWindowClosedSinceSnapshot = false
            }
        } else {
            event = open()
        }
        event?.add(record, counted: counted, candidate: candidate, now: monotonicNow())
    }

    private func open() -> CaptureEvent? {
        guard let snapshot = takeSnapshot() else { return nil }
        let event = CaptureEvent(id: Self.reportID(), now: monotonicNow(), snapshot: snapshot)
        log.verbose("capture event \(event.id): \(snapshot.context.windows.count) windows, fallback \(event.fallbackRect)")
        return event
    }

    /// Adds the screen as it is now to `event`; for file and clipboard signals only when the
    /// last one is older than `snapshotInterval` (a burst of files is one screen).
    func takeFreshSnapshot(for event: CaptureEvent, always: Bool = false) {
        guard let last = event.snapshots.last, always || now() - last.wallTime >= Self.snapshotInterval,
              let snapshot = takeSnapshot() else { return }
        event.addSnapshot(snapshot)
        log.verbose("capture event \(event.id): fresh screen \(event.snapshots.count) of \(CaptureEvent.maximumSnapshots)")
    }

    /// The screen and its windows now. The pixels first: a screenshot tool may paint over them
    /// any moment, while the window list changes far less quickly.
    private func takeSnapshot() -> Snapshot? {
        guard !display.isLost else { return nil }
        do throws(X11Error) {
            let started = monotonicNow()
            let root = try grabber.captureScreen()
            let grabbed = monotonicNow()
            let context = screenContext()
            let read = monotonicNow()
            log.verbose("snapshot: screen grabbed in \(String(format1: (grabbed - started) * 1000)) ms, "
                + "\(context.windows.count) windows read in \(String(format3: (read - grabbed) * 1000)) ms")
            return Snapshot(root: root, context: context, wallTime: now())
        } catch {
            log.error("cannot capture the screen: \(error.message)")
            return nil
        }
    }

    /// A file's identity as a key: the same file signalled twice is one screenshot.
    static func fileKey(_ identity: FileIdentity) -> String {
        "file:\(identity.device):\(identity.inode):\(identity.size):\(identity.modified.tv_sec).\(identity.modified.tv_nsec)"
    }

    /// `20261129-140703-120`: local time to the millisecond, unique enough for one user's screen.
    static func reportID() -> String {
        let t = CalendarTime()
        let pad = CalendarTime.pad
        return "\(pad(t.year, 4))\(pad(t.month, 2))\(pad(t.day, 2))-\(pad(t.hour, 2))\(pad(t.minute, 2))\(pad(t.second, 2))-"
            + pad(t.millisecond, 3)
    }
}

/// FNV-1a 64: a quick fingerprint to recognise the same image offered again.
func fnv1a(_ bytes: [UInt8]) -> String {
    var value: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes {
        value ^= UInt64(byte)
        value = value &* 0x100_0000_01B3
    }
    return String(value, radix: 16)
}

/// A fingerprint of an image's pixels (its content, whatever the file format or encoder).
func pixelFingerprint(_ image: PixelBuffer) -> String {
    var value: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(image.width) << 32 ^ UInt64(image.height)
    image.pixels.withUnsafeBufferPointer { pixels in
        for pixel in pixels {
            value = (value ^ UInt64(pixel | 0xFF00_0000)) &* 0x100_0000_01B3
        }
    }
    return String(value, radix: 16)
}

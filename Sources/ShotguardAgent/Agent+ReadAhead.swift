// Reading the screen's text ahead of a screenshot, while nobody takes one (text rules only).
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen
import ShotguardX11

extension Agent {
    /// Whether the screen is read ahead now: text rules in force and not paused, no screenshot
    /// in hand (its own passes come first), and no reading already on its way.
    var readsAhead: Bool {
        guard options.readAhead, let passes = handler.textPasses, !passes.readingAhead, !handler.textPassesRunning,
              tracker.event == nil, !rules.isPaused, !inputs.display.isLost, let regions = rules.inForce else { return false }
        return regions.hasTextRules
    }

    /// When the screen is next looked at; nil when it is not read ahead now.
    var readAheadDeadline: Double? { readsAhead ? readAhead.nextLook : nil }

    /// Looks at the screen when due, and reads it (off the loop) when it changed since it was
    /// last read.
    func readAheadIfDue() {
        let now = inputs.clock.now().monotonic
        guard readsAhead, readAhead.isDue(at: now), let passes = handler.textPasses, let regions = rules.inForce else { return }
        let image: PixelBuffer
        do throws(X11Error) {
            image = try screen.pixels()
        } catch {
            log.verbose("read ahead: cannot grab the screen: \(error.message)")
            readAhead.missed(at: now)
            return
        }
        // The windows are read only for rules limited to some (`in …`): a look stays a grab.
        let rules = regions.scannerRules(against: regions.hasWindowLimitedTextRules ? screen.context()
                                                    : ScreenContext(width: image.width, height: image.height, windows: []))
        guard readAhead.looked(at: now, digest: ReadAheadSchedule.digest(of: image, rules: rules)) else { return }
        passes.readAhead(image, rules: rules, for: readAhead.allowance(at: now))
    }

    /// A reading of the screen ended (ahead of a screenshot, or as one began): said, and after
    /// a reading ahead the next look scheduled.
    func screenRead(_ reading: ScreenReading) {
        if reading.ahead { readAhead.read(reading, endedAt: inputs.clock.now().monotonic) }
        let what = reading.ahead ? "read ahead" : "read as a screenshot began"
        if let failure = reading.failure {
            log.verbose("\(what): OCR cannot run: \(failure)")
        } else {
            log.verbose("\(what): \(reading.linesRead) lines, \(reading.linesRemembered) of them remembered, "
                + "\(reading.linesLeft) left, in \(milliseconds(reading.seconds))")
        }
        log.events.say("text-read", [("ahead", .bool(reading.ahead)), ("lines", .number(reading.linesRead)),
                                     ("remembered", .number(reading.linesRemembered)), ("left", .number(reading.linesLeft)),
                                     ("failure", reading.failure.map(JSON.string) ?? .null)])
    }
}

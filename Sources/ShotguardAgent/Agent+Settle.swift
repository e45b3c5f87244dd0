// Settling a capture event: the bounded look, choosing and aligning the image, redacting, reporting.
import Glibc
import ShotguardImaging
import ShotguardRegions

extension Agent {
    /// Called when the event's quiet period is over (or at shutdown, `final`).
    func settle(final: Bool = false) {
        guard let event else { return }
        if !final, event.hasCountedSignal, !event.hasRealImage, lookForFile(event) { return }
        self.event = nil
        var report = Report(id: event.id, time: event.wallStart)
        report.signals = event.signals
        report.screen = (event.context.width, event.context.height)
        report.activeWindow = event.context.windows.first { $0.id == event.context.activeWindowID }

        var placed: (image: PixelBuffer, alignment: Alignment, candidate: Candidate)?
        for candidate in event.candidates.sorted(by: { !$0.isWeak && $1.isWeak }) where placed == nil {
            switch place(candidate, in: event) {
            case .success(let result): placed = (result.0, result.1, candidate)
            case .failure(let reason):
                if candidate.isWeak {
                    log.verbose("ignored \(candidate.path ?? "image"): \(reason)")
                } else {
                    report.notes.append("\(candidate.path ?? "the clipboard image") \(reason); reported the fallback instead")
                }
            }
        }
        guard event.hasCountedSignal || placed != nil else {
            log.verbose("capture event \(event.id) had no screenshot: no report")
            return
        }
        var image: PixelBuffer
        if let placed {
            image = placed.image
            report.source = placed.candidate.source
            report.original = placed.candidate.path
            report.alignment = placed.alignment
        } else {
            image = event.root.cropped(to: event.fallbackRect)
            image.hasAlpha = false
            report.source = .fallback
            report.alignment = Alignment(method: .fallback, rect: event.fallbackRect, windowID: event.context.activeWindowID)
        }
        let origin = report.alignment!.rect
        if let regions {
            var hits = regions.hits(against: event.context)
            report.redactions = image.redact(hits, origin: origin)
            if report.alignment?.verified == false {
                // A screen-sized image that is not the screen as it was at the event: it may
                // show the windows as they are now, so their rules apply too.
                let current = regions.hits(against: display.screenContext())
                report.redactions += image.redact(current, origin: origin)
                hits += current
                report.notes.append("the image differs from the screen at the event; rules were applied for the windows then and now")
            }
            let hitWindows = Set(hits.compactMap(\.windowID))
            report.activeWindowRedacted = event.context.activeWindowID.map(hitWindows.contains) ?? false
        }
        report.image = image
        deliver(report)
    }

    /// The bounded look for a file when the signals brought no image: the newest
    /// screenshot-like file since 5 s before the event, now and once more 750 ms later.
    /// Returns true while the event should stay open for the second look.
    private func lookForFile(_ event: CaptureEvent) -> Bool {
        guard let files, event.looks < 2 else { return false }
        event.looks += 1
        if let path = files.newestScreenshot(since: event.wallStart - ScreenshotFileClassifier.maximumAge),
           case .success(let file) = ScreenshotFileClassifier.classify(path, now: now()) {
            let key = "file:\(path):\(file.modified)"
            if !isDuplicate(key) {
                seen[key] = monotonicNow()
                log.verbose("found \(path) for capture event \(event.id)")
                event.candidates.append(Candidate(source: .file, png: file.png, path: path, isWeak: false, key: key))
                return false
            }
        }
        guard event.looks < 2 else { return false }
        event.lastSignal = monotonicNow()
        event.lastCountedSignal = monotonicNow() - CaptureEvent.debounce
        return true
    }

    /// Decodes a candidate and finds it on the event-time screen.
    private func place(_ candidate: Candidate, in event: CaptureEvent) -> Result<(PixelBuffer, Alignment), PlaceError> {
        guard let png = candidate.png else { return .failure(PlaceError("is not a PNG, JPEG or WebP image")) }
        let decoded: DecodedImage
        do throws(ImagingError) {
            decoded = try ImageCodec.decode(png, source: candidate.path ?? "clipboard")
        } catch {
            return .failure(PlaceError("could not be decoded: \(error.message)"))
        }
        let image = decoded.image
        guard let alignment = Aligner.align(image, root: event.root, context: event.context, verify: candidate.isWeak,
                                            tolerance: .forImage(decoded)) else {
            return .failure(PlaceError("was not found on the screen as it was at \(Log.iso8601(event.wallStart))"))
        }
        // Not the screen at the event: placed only if rules (windows then and now) cover all it shows differently.
        if !alignment.verified, let box = alignment.difference {
            let rects = (regions.map { $0.hits(against: event.context) + $0.hits(against: display.screenContext()) } ?? []).map(\.rect)
            guard alignment.differenceIsCovered(by: rects) else { return .failure(PlaceError("differs from the screen at the event in \(box), which no rule covers")) }
        }
        return .success((image, alignment))
    }

    struct PlaceError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Encodes the image, writes the report folder, prints JSON, runs --exec.
    private func deliver(_ report: Report) {
        let paths = spool.paths(for: report.id)
        let png: [UInt8]?
        do throws(ImagingError) {
            let options = EncodeOptions(compressionLevel: spool.compressionLevel, filter: EncodeOptions.fast.filter)
            png = try report.image.map { image throws(ImagingError) in try PNGEncoder.encode(image, options: options, destination: paths.image) }
        } catch {
            log.error("report \(report.id) not written: \(error.description)")
            return
        }
        let json = report.json(imagePath: png == nil ? nil : paths.image, host: host, version: options.version).text
        do throws(ImagingError) {
            let written = try spool.write(png, json: json, id: report.id)
            reported += 1
            log.info("report \(report.id): \(report.source.rawValue) image, \(report.redactions.count) rectangles redacted"
                + (report.notes.isEmpty ? "" : " (\(report.notes.joined(separator: "; ")))") + " -> \(paths.folder)")
            if options.printJSON { printLine(json) }
            exec?.submit(image: written.image, report: written.report)
        } catch {
            log.error("report \(report.id) not written: \(error.description)")
        }
    }

    private func printLine(_ text: String) {
        var bytes = Array((text + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes { write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return }
            offset += count
        }
    }
}

// A window's own image (maim -i of a window moved half off the screen, or half under another): placed by what shows of it, the rest covered from the protected windows' frames.
import Testing
@testable import ShotguardAgent
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

@Suite struct WindowOwnImageTests {
    static let width = 1280, height = 800
    /// 400x300 at 1100,600: 180x200 of it shows, the rest lies past the right and bottom edges.
    static let offFrame = Rect(x: 1100, y: 600, width: 400, height: 300)
    static let notes = WindowInfo(id: 5, className: "Notes", instance: "notes", title: "Notes", frame: offFrame, isViewable: true)
    /// The vault, on the screen, far from the notes.
    static let vault = WindowInfo(id: 9, className: "Vault", instance: "vault", title: "Vault",
                                  frame: Rect(x: 100, y: 100, width: 320, height: 200), isViewable: true)

    /// A window's own pixels, all of them (what `maim -i` writes), and the screen showing the
    /// part of it on the screen.
    static func window(seed: Int) -> PixelBuffer {
        var own = PixelBuffer(width: offFrame.width, height: offFrame.height)
        SyntheticScreen.drawWindow(&own, frame: own.bounds, title: "WINDOW \(seed)", seed: seed)
        return own
    }

    static func screen(showing own: PixelBuffer) -> PixelBuffer {
        var screen = SyntheticScreen.desktop(width: width, height: height)
        SyntheticScreen.drawWindow(&screen, frame: vault.frame, title: "VAULT", seed: 9)
        let showing = screen.bounds.intersection(offFrame)
        for y in showing.y..<showing.maxY {
            for x in showing.x..<showing.maxX { screen[x, y] = own[x - offFrame.x, y - offFrame.y] }
        }
        return screen
    }

    /// Examines `image` as the file a reader of protected pixels wrote (`maim -i ID f.png`), or
    /// with `read: false` as a clipboard image nothing ties to a read.
    private func examine(_ image: PixelBuffer, screen: PixelBuffer, windows: [WindowInfo], rules: String,
                         read: Bool = true, ofProtectedWindow: Bool = false) throws -> Examination {
        let now = Moment(monotonic: 10, wall: 1_800_000_000)
        var evidence = Evidence()
        if read {
            evidence.screenRead = (ScreenReadRecord(request: "RenderComposite", program: "maim", pid: 1, area: nil,
                                                    time: Moment(monotonic: 9, wall: 0), client: 1,
                                                    protected: [RegionHit(line: 1, fill: .black, rect: Self.vault.frame)]), .writer)
            evidence.screenRead?.read.ofProtectedWindow = ofProtectedWindow
        }
        let candidate = read ? Candidate.file(BytePath("/tmp/w.png"), naming: .weak, key: "k", evidence: evidence, at: now)
            : Candidate.clipboard(ClipboardOffer(image: [], imageTargets: ["image/png"], targets: [],
                                                 owner: ClipboardOwner(window: 0x600001, description: "viewer", selectionTime: 7)),
                                  key: "k", evidence: evidence, at: now)
        let context = ScreenContext(width: Self.width, height: Self.height, windows: windows)
        return Examiner.examine(ExaminationInput(
            image: image, tolerance: .exact, candidate: candidate, evidence: evidence, sensing: true,
            screens: [Snapshot(root: screen, context: context, time: now)], contextNow: context,
            rules: try RegionsFile.parse(rules, path: "regions"), reads: ReadHistory(), now: now))
    }

    private func placed(_ examination: Examination) -> Alignment? {
        guard case .placed(let alignment, _) = examination.place else { return nil }
        return alignment
    }

    /// Regression: `maim -i` of the protected window moved half off the screen was set aside
    /// (not found on the screen). It is placed at the window, and covered whole: on the screen
    /// by the rule, off it from the window's frame.
    @Test func aProtectedWindowHalfOffTheScreenIsCoveredWhole() throws {
        let own = Self.window(seed: 3)
        let vault = WindowInfo(id: 9, className: "Vault", instance: "vault", title: "Vault", frame: Self.offFrame, isViewable: true)
        let examination = try examine(own, screen: Self.screen(showing: own), windows: [vault], rules: "window class=Vault\n")
        let alignment = try #require(placed(examination))
        #expect(alignment.method == .window && alignment.rect == Self.offFrame && alignment.windowID == 9)
        #expect(examination.action == .redact)
        let redacted = try #require(examination.redacted)
        #expect(redacted.pixels.allSatisfy { $0 & 0xFF_FFFF == 0 }, "every pixel of the vault's own image is covered")
    }

    /// Another window's image half off the screen, the vault far from it: placed, and nothing
    /// of it is covered, on the screen or off it.
    @Test func anUnprotectedWindowHalfOffTheScreenKeepsItsPixels() throws {
        let own = Self.window(seed: 4)
        let examination = try examine(own, screen: Self.screen(showing: own), windows: [Self.vault, Self.notes],
                                      rules: "window class=Vault\n")
        let alignment = try #require(placed(examination))
        #expect(alignment.rect == Self.offFrame && alignment.windowID == 5)
        #expect(examination.hits.isEmpty)
        #expect(try #require(examination.redacted).pixels.map { $0 & 0xFF_FFFF } == own.pixels.map { $0 & 0xFF_FFFF })
    }

    /// The vault half off the screen, under the notes' part off the screen: what of the notes'
    /// image lies on the vault's frame off the screen is covered (a frame, not a visible part:
    /// nothing off the screen shows what is above what).
    @Test func theVaultsFrameOffTheScreenIsCoveredInAnotherWindowsImage() throws {
        let own = Self.window(seed: 4)
        let vaultFrame = Rect(x: 1200, y: 750, width: 300, height: 200)
        let vault = WindowInfo(id: 9, className: "Vault", instance: "vault", title: "Vault", frame: vaultFrame, isViewable: true)
        var screen = Self.screen(showing: own)
        screen.fillRect(screen.bounds.intersection(vaultFrame), colour: 0x101010)
        var image = own
        // What shows of the vault on the screen shows in the notes' image too (maim's read of
        // the screen there); the rest of the image is the notes' own.
        image.fillRect(screen.bounds.intersection(vaultFrame).offsetBy(dx: -Self.offFrame.x, dy: -Self.offFrame.y), colour: 0x101010)
        let examination = try examine(image, screen: screen, windows: [Self.notes, vault], rules: "window class=Vault\n")
        #expect(try #require(placed(examination)).rect == Self.offFrame)
        let redacted = try #require(examination.redacted)
        let vaultInImage = vaultFrame.offsetBy(dx: -Self.offFrame.x, dy: -Self.offFrame.y).intersection(own.bounds)
        var wrong: [String] = []
        for y in 0..<own.height {
            for x in 0..<own.width where own[x, y] & 0xFF_FFFF != 0 {
                let covered = vaultInImage.contains(x: x, y: y)
                if (redacted[x, y] & 0xFF_FFFF == 0) != covered { wrong.append("\(x),\(y) should be covered: \(covered)") }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) pixels wrong, first \(wrong.prefix(3))")
    }

    /// With a `field` rule, whatever lies off the screen may hold a field that has no place on
    /// the screen to be found at: the whole part off the screen is covered.
    @Test func aFieldRuleCoversEverythingOffTheScreen() throws {
        let own = Self.window(seed: 4)
        let examination = try examine(own, screen: Self.screen(showing: own), windows: [Self.vault, Self.notes],
                                      rules: "field role=password\n")
        #expect(try #require(placed(examination)).rect == Self.offFrame)
        let redacted = try #require(examination.redacted)
        let showing = Rect(x: 0, y: 0, width: Self.width - Self.offFrame.x, height: Self.height - Self.offFrame.y)
        var wrong: [String] = []
        for y in 0..<own.height {
            for x in 0..<own.width {
                let expected = showing.contains(x: x, y: y) ? own[x, y] & 0xFF_FFFF : 0
                if redacted[x, y] & 0xFF_FFFF != expected { wrong.append("\(x),\(y)") }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) pixels wrong, first \(wrong.prefix(3))")
    }

    // Half under another window, on the screen: 400x300 at 300,200.
    static let middle = Rect(x: 300, y: 200, width: 400, height: 300)

    /// The screen with `below`'s own pixels at `middle` and, above it, `above` (drawn as a
    /// window at `over`).
    static func screen(below: PixelBuffer, over: Rect) -> PixelBuffer {
        var screen = SyntheticScreen.desktop(width: width, height: height)
        for y in 0..<below.height { for x in 0..<below.width { screen[middle.x + x, middle.y + y] = below[x, y] } }
        SyntheticScreen.drawWindow(&screen, frame: over, title: "ABOVE", seed: 11)
        return screen
    }

    /// Whether every pixel of `image` is `own`'s but inside `covered` (image coordinates), where it is black.
    private func expectCovered(_ image: PixelBuffer, own: PixelBuffer, covered: [Rect]) {
        var wrong: [String] = []
        for y in 0..<own.height {
            for x in 0..<own.width {
                let expected = covered.contains { $0.contains(x: x, y: y) } ? 0 : own[x, y] & 0xFF_FFFF
                if image[x, y] & 0xFF_FFFF != expected { wrong.append("\(x),\(y)") }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) pixels wrong, first \(wrong.prefix(3))")
    }

    /// Regression: `maim -i` of the notes half under the vault writes the notes' own pixels
    /// there, which the screen never showed: set aside as not found on the screen. Placed by
    /// what shows; where the vault lay over it, it is covered, as the screen showed the vault
    /// there; the rest is the notes' own.
    @Test func aWindowHalfUnderTheVaultIsCoveredWhereTheVaultWas() throws {
        let own = Self.window(seed: 4)
        let over = Rect(x: 550, y: 350, width: 300, height: 250)
        let notes = WindowInfo(id: 5, className: "Notes", instance: "notes", title: "Notes", frame: Self.middle, isViewable: true)
        let vault = WindowInfo(id: 9, className: "Vault", instance: "vault", title: "Vault", frame: over, isViewable: true)
        let examination = try examine(own, screen: Self.screen(below: own, over: over), windows: [notes, vault],
                                      rules: "window class=Vault\n")
        let alignment = try #require(placed(examination))
        #expect(alignment.method == .window && alignment.rect == Self.middle && alignment.windowID == 5)
        expectCovered(try #require(examination.redacted), own: own,
                      covered: [over.intersection(Self.middle).offsetBy(dx: -Self.middle.x, dy: -Self.middle.y)])
        // The same under a window no rule protects: nothing covered.
        let other = WindowInfo(id: 7, className: "XTerm", instance: "xterm", title: "shell", frame: over, isViewable: true)
        let free = try examine(own, screen: Self.screen(below: own, over: over), windows: [Self.vault, notes, other],
                               rules: "window class=Vault\n")
        #expect(try #require(placed(free)).rect == Self.middle)
        #expect(free.hits.isEmpty)
        // Copied to the clipboard with no read behind it, a picture that size is left.
        #expect(try examine(own, screen: Self.screen(below: own, over: over), windows: [notes, vault],
                            rules: "window class=Vault\n", read: false).action == .leave)
    }

    /// The vault's own image, half under another window: what shows is covered by the rule, and
    /// what lay under the other window, the vault's own pixels, from its frame.
    @Test func theVaultHalfUnderAnotherWindowIsCoveredWhole() throws {
        let own = Self.window(seed: 3)
        let over = Rect(x: 550, y: 350, width: 300, height: 250)
        let vault = WindowInfo(id: 9, className: "Vault", instance: "vault", title: "Vault", frame: Self.middle, isViewable: true)
        let other = WindowInfo(id: 7, className: "XTerm", instance: "xterm", title: "shell", frame: over, isViewable: true)
        let examination = try examine(own, screen: Self.screen(below: own, over: over), windows: [vault, other],
                                      rules: "window class=Vault\n")
        #expect(try #require(placed(examination)).rect == Self.middle)
        #expect(try #require(examination.redacted).pixels.allSatisfy { $0 & 0xFF_FFFF == 0 })
    }

    /// A rule naming a part of the vault that lies wholly past the edge names nothing on the
    /// screen (its rectangle is dropped there): that part, and everything else of the vault past
    /// the edge, is covered from the vault's frame.
    @Test func aRulesPartOfTheVaultWhollyPastTheEdgeIsCovered() throws {
        let own = Self.window(seed: 3)
        let vault = WindowInfo(id: 9, className: "Vault", instance: "vault", title: "Vault", frame: Self.offFrame, isViewable: true)
        let examination = try examine(own, screen: Self.screen(showing: own), windows: [vault],
                                      rules: "window class=Vault 200x80+200+210\n")
        #expect(try #require(placed(examination)).rect == Self.offFrame)
        let showing = Rect(x: 0, y: 0, width: Self.width - Self.offFrame.x, height: Self.height - Self.offFrame.y)
        expectCovered(try #require(examination.redacted), own: own, covered: own.bounds.subtracting(showing))
    }

    /// The vault's own image, hidden where the vault is (under another window), as large as the
    /// notes half off the screen and with the same pixels where the notes show: it may be
    /// either's, and is not placed at the notes (whose rules cover nothing of it).
    @Test func anImageAsLargeAsAHiddenProtectedWindowIsNotPlacedAtAnother() throws {
        let notesOwn = Self.window(seed: 4)
        var vaultOwn = notesOwn
        SyntheticScreen.drawPopup(&vaultOwn, at: Rect(x: 220, y: 220, width: 160, height: 60), text: "PIN 4321")
        let hidden = WindowInfo(id: 9, className: "Vault", instance: "vault", title: "Vault",
                                frame: Rect(x: 100, y: 100, width: 400, height: 300), isViewable: true)
        let above = WindowInfo(id: 7, className: "XTerm", instance: "xterm", title: "shell",
                               frame: Rect(x: 90, y: 90, width: 420, height: 320), isViewable: true)
        let examination = try examine(vaultOwn, screen: Self.screen(showing: notesOwn), windows: [hidden, above, Self.notes],
                                      rules: "window class=Vault\n", ofProtectedWindow: true)
        #expect(placed(examination) == nil)
        #expect(examination.action == .setAside)
    }

    /// What shows of a window is a flat colour: any picture with that colour there matches, so
    /// nothing is placed by it.
    @Test func aWindowShowingOnlyAFlatColourPlacesNothing() throws {
        var own = PixelBuffer(width: Self.offFrame.width, height: Self.offFrame.height)
        own.fillRect(own.bounds, colour: 0x204060)
        SyntheticScreen.drawPopup(&own, at: Rect(x: 220, y: 220, width: 160, height: 60), text: "PIN 4321")
        let examination = try examine(own, screen: Self.screen(showing: own), windows: [Self.vault, Self.notes],
                                      rules: "window class=Vault\n")
        #expect(placed(examination) == nil)
    }

    /// A photo shown 1:1 in a viewer half off the screen, copied to the clipboard: the same
    /// pixels as the viewer's own image, but nothing ties them to a read. With a `field` rule
    /// in force its part past the edge would be covered: it is not placed, and left.
    @Test func aPhotoAsLargeAsAViewerHalfOffTheScreenIsLeftWithoutARead() throws {
        let own = Self.window(seed: 4)
        let examination = try examine(own, screen: Self.screen(showing: own), windows: [Self.vault, Self.notes],
                                      rules: "field role=password\n", read: false)
        #expect(placed(examination) == nil)
        #expect(examination.action == .leave)
        // Nor with a rule naming part of the screen where it lies under another window: its
        // pixels there were never compared with the screen's.
        let over = Rect(x: 550, y: 350, width: 300, height: 250)
        let notes = WindowInfo(id: 5, className: "Notes", instance: "notes", title: "Notes", frame: Self.middle, isViewable: true)
        let other = WindowInfo(id: 7, className: "XTerm", instance: "xterm", title: "shell", frame: over, isViewable: true)
        let under = try examine(own, screen: Self.screen(below: own, over: over), windows: [notes, other],
                                rules: "screen 100x100+600+400\n", read: false)
        #expect(placed(under) == nil)
        #expect(under.action == .leave)
    }

    /// A picture of the window's size whose part on the screen is not the screen (a photo), or
    /// a window that shows too little of itself to be compared, is not placed by the window.
    @Test func aPictureOfTheWindowsSizeOrAWindowThatBarelyShowsIsNotPlaced() throws {
        var photo = PixelBuffer(width: Self.offFrame.width, height: Self.offFrame.height)
        var state: UInt32 = 99
        for index in photo.pixels.indices {
            state = state &* 1_103_515_245 &+ 12345
            photo.pixels[index] = 0xFF00_0000 | (state >> 8)
        }
        let own = Self.window(seed: 4)
        #expect(placed(try examine(photo, screen: Self.screen(showing: own), windows: [Self.vault, Self.notes],
                                   rules: "window class=Vault\n")) == nil)
        // 4 of its 300 rows show: under a tenth of the window.
        let corner = Rect(x: 1000, y: 796, width: 400, height: 300)
        let barely = WindowInfo(id: 5, className: "Notes", instance: "notes", title: "Notes", frame: corner, isViewable: true)
        var screen = SyntheticScreen.desktop(width: Self.width, height: Self.height)
        for y in 796..<800 { for x in 1000..<1280 { screen[x, y] = own[x - 1000, y - 796] } }
        #expect(placed(try examine(own, screen: screen, windows: [barely], rules: "window class=Vault\n"))?.method != .window)
    }
}

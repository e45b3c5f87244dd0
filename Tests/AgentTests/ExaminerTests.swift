// The examiner without X: a screenshot placed despite something moving far from the rules, a photo left alone.
import Testing
@testable import ShotguardAgent
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

@Suite struct ExaminerTests {
    static let screen = SyntheticScreen.desktop(width: 1280, height: 800)
    /// A protected window at 700,100 (320x200) and the rule that covers it.
    static let vault = WindowInfo(id: 9, className: "Vault", instance: "vault", title: "Vault",
                                  frame: Rect(x: 700, y: 100, width: 320, height: 200), isViewable: true)
    static let context = ScreenContext(width: 1280, height: 800, windows: [vault])
    var rules: RegionsFile { try! RegionsFile.parse("window class=Vault\n", path: "regions") }

    private func examine(_ image: PixelBuffer, naming: Naming = .strong, evidence: Evidence = .none, sensing: Bool = true,
                         protectedMeanwhile: [RegionHit] = []) -> Examination {
        let now = Moment(monotonic: 10, wall: 1_800_000_000)
        let candidate = Candidate.file(BytePath("/shots/s.png"), naming: naming, key: "k", evidence: evidence, at: now)
        return Examiner.examine(ExaminationInput(
            image: image, tolerance: .exact, candidate: candidate, evidence: evidence, sensing: sensing,
            screens: [Snapshot(root: Self.screen, context: Self.context, time: now)], contextNow: Self.context, rules: rules,
            protectedMeanwhile: protectedMeanwhile, reads: ReadHistory(), now: now))
    }

    /// Regression: a protected pop-up (a code in a notification) on screen when the screenshot
    /// was taken, gone when the agent grabbed the screen, passed as "something moving" far from
    /// every rule, and its pixels stayed in the file. A rectangle protected at any time since
    /// the capture began is covered where it was, and the tolerance never applies there.
    @Test func aProtectedPopUpGoneBeforeTheGrabIsCoveredWhereItWas() throws {
        var image = Self.screen
        let popup = Rect(x: 60, y: 520, width: 100, height: 80)
        SyntheticScreen.drawPopup(&image, at: popup, text: "CODE 1234")
        let hit = RegionHit(line: 2, fill: .black, rect: popup, windowID: 77)
        let examination = examine(image, protectedMeanwhile: [hit])
        #expect(examination.facts.placement == .differsUnderRules)
        #expect(examination.action == .redact)
        #expect(Set(examination.hits.map(\.rect)) == [Self.vault.frame, popup])
        let redacted = try #require(examination.redacted)
        for y in popup.y..<popup.maxY { for x in popup.x..<popup.maxX { #expect(redacted[x, y] & 0xFF_FFFF == 0) } }
        // A rectangle protected meanwhile where the image is the screen adds nothing.
        #expect(examine(Self.screen, protectedMeanwhile: [hit]).hits.map(\.rect) == [Self.vault.frame])
    }

    @Test func theScreenItselfIsRedacted() throws {
        let examination = examine(Self.screen)
        #expect(examination.facts.placement == .matched)
        #expect(examination.action == .redact)
        #expect(examination.hits.map(\.rect) == [Self.vault.frame])
        let redacted = try #require(examination.redacted)
        #expect(redacted[800, 200] & 0xFF_FFFF == 0)
    }

    /// A 320x180 video playing far from the vault while the screenshot was taken: the image is
    /// the screen but for that area, which cannot hide the vault's pixels.
    @Test func aVideoFarFromEveryRuleIsTolerated() {
        var image = Self.screen
        SyntheticScreen.drawPopup(&image, at: Rect(x: 60, y: 520, width: 320, height: 180), text: "FRAME 17")
        let examination = examine(image)
        #expect(examination.facts.placement == .matched)
        #expect(examination.action == .redact)
        #expect(examination.notes.first?.contains("far from every rule") ?? false)
    }

    /// The same change next to the vault could be the vault's own pixels: not placed.
    @Test func aChangeNextToARuleIsNotTolerated() {
        var image = Self.screen
        SyntheticScreen.drawPopup(&image, at: Rect(x: 640, y: 310, width: 120, height: 80), text: "PIN 4321")
        let examination = examine(image)
        guard case .unplaced = examination.place else { Issue.record("placed: \(examination.notes)"); return }
        #expect(examination.action == .leave, "no evidence and a strong name with sensing: not set aside")
        var read = Evidence()
        read.screenRead = (ScreenReadRecord(request: "GetImage", program: "scrot", pid: 1, area: nil, time: Moment(monotonic: 9, wall: 0),
                                            client: 1, protected: [RegionHit(line: 1, fill: .black, rect: Self.vault.frame)]), .writer)
        #expect(examine(image, evidence: read).action == .setAside, "with the reading program behind it, set aside")
    }

    @Test func aLargeChangeIsNotTolerated() {
        var image = Self.screen
        SyntheticScreen.drawPopup(&image, at: Rect(x: 10, y: 10, width: 600, height: 500), text: "ANOTHER APP")
        guard case .unplaced = examine(image).place else { Issue.record("placed"); return }
    }

    /// A photo is nowhere on the screen: left exactly as it was, whatever its name says, unless
    /// something ties it to a capture.
    @Test func aPhotoIsLeftAlone() {
        var photo = PixelBuffer(width: 500, height: 400)
        var state: UInt32 = 12345
        for index in photo.pixels.indices {
            state = state &* 1_103_515_245 &+ 12345
            photo.pixels[index] = 0xFF00_0000 | (state >> 8)
        }
        #expect(examine(photo, naming: .weak).action == .leave)
        #expect(examine(photo, naming: .strong, sensing: true).action == .leave)
        #expect(examine(photo, naming: .strong, sensing: false).action == .setAside, "without sensing, the name decides")
    }

    /// The screen made `step` times smaller by a triangle filter twice as wide as a step
    /// (ImageMagick's kind of resize; the agent averages each step's pixels alone).
    private func triangleShrink(_ screen: PixelBuffer, step: Int) -> PixelBuffer {
        var small = PixelBuffer(width: screen.width / step, height: screen.height / step)
        for y in 0..<small.height {
            for x in 0..<small.width {
                var sums = [0, 0, 0], total = 0
                let (centreX, centreY) = (x * step + step / 2, y * step + step / 2)
                for sourceY in max(0, centreY - step)..<min(screen.height, centreY + step) {
                    for sourceX in max(0, centreX - step)..<min(screen.width, centreX + step) {
                        let weight = (step - abs(sourceX - centreX)) * (step - abs(sourceY - centreY))
                        let pixel = screen[sourceX, sourceY]
                        for channel in 0..<3 { sums[channel] += weight * Int(pixel >> UInt32(16 - 8 * channel) & 0xFF) }
                        total += weight
                    }
                }
                small[x, y] = 0xFF00_0000 | UInt32(sums[0] / total) << 16 | UInt32(sums[1] / total) << 8 | UInt32(sums[2] / total)
            }
        }
        return small
    }

    /// `scrot -t 25`'s thumbnail and a screenshot through `convert -resize 50%`: the whole screen
    /// made smaller, by a filter that is not the agent's. Placed as the screen made small,
    /// redacted over the vault made as small and a few pixels more, with its writer's read.
    @Test(arguments: [2, 4])
    func aSmallerCopyOfTheScreenIsCoveredWhereTheRulesAreMadeAsSmall(step: Int) throws {
        let small = triangleShrink(Self.screen, step: step)
        var written = Evidence()
        written.screenRead = (ScreenReadRecord(request: "GetImage", program: "scrot", pid: 7, area: Self.screen.bounds,
                                               time: Moment(monotonic: 9.9, wall: 1_799_999_999.9), client: 1,
                                               protected: [RegionHit(line: 1, fill: .black, rect: Self.vault.frame, windowID: 9)]),
                              .writer)
        let examination = examine(small, naming: .weak, evidence: written)
        guard case .placed(let alignment, _) = examination.place else { Issue.record("unplaced: \(examination.place)"); return }
        #expect(alignment.method == .scaled)
        #expect(alignment.rect == Self.screen.bounds)
        #expect(examination.action == .redact)
        let vault = Self.vault.frame
        let margin = ScaledScreen.margin
        #expect(examination.hits.map(\.rect) == [Rect(x: vault.x / step - margin, y: vault.y / step - margin,
                                                      width: vault.width / step + 2 * margin, height: vault.height / step + 2 * margin)])
        let redacted = try #require(examination.redacted)
        for y in (vault.y / step - margin)..<(vault.maxY / step + margin) {
            for x in (vault.x / step - margin)..<(vault.maxX / step + margin) { #expect(redacted[x, y] & 0xFF_FFFF == 0) }
        }
        #expect(redacted[10, 10] == small[10, 10], "the rest is as it was")
    }

    /// Pictures of the screen's shape that are not the screen: a photo, and a picture of the
    /// desktop's own colour. Left as they were, even with a screenshot program's read beside them.
    @Test func aPictureOfTheScreensShapeThatIsNotTheScreenIsLeft() {
        var photo = PixelBuffer(width: 640, height: 400)
        for y in 0..<photo.height {
            for x in 0..<photo.width { photo[x, y] = 0xFF00_0000 | UInt32((x * 7 + y * 3) % 256) << 16 | UInt32((x ^ y) % 256) << 8 | 0x40 }
        }
        let flat = PixelBuffer(width: 640, height: 400, fill: Self.screen[2, 2])
        for picture in [photo, flat] {
            #expect(!ScaledScreen.isSmallerCopy(picture, of: Self.screen))
            let examination = examine(picture, naming: .weak)
            #expect(examination.action == .leave)
            guard case .unplaced = examination.place else { Issue.record("placed"); continue }
        }
    }

    /// A smaller copy of the screen that nothing ties to a read of it (a photo shown full
    /// screen and saved smaller looks the same): not taken for the screen's, left as it was.
    @Test func aSmallerCopyWithNoReadTiedToItIsNotTakenForTheScreens() {
        let small = triangleShrink(Self.screen, step: 2)
        let examination = examine(small, naming: .weak)
        #expect(examination.action == .leave)
        guard case .unplaced = examination.place else { Issue.record("placed: \(examination.place)"); return }
    }
}

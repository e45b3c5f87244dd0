// Placement of screen-sized images: verified only when they differ by one small cluster at most.
import Testing
@testable import ShotguardAgent
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

@Suite struct ScreenAlignmentTests {
    let root = SyntheticScreen.desktop()
    var context: ScreenContext { ScreenContext(width: root.width, height: root.height, windows: []) }

    @Test func theSameScreenIsVerifiedWithNoDifference() throws {
        let alignmentResult = Aligner.align(root, root: root, context: context, verify: true)
        let alignment = try #require(alignmentResult)
        #expect(alignment.method == .screen)
        #expect(alignment.verified)
        #expect(alignment.difference == nil)
    }

    @Test func aCursorIsAllowedAndReported() throws {
        var image = root
        SyntheticScreen.drawCursor(&image, x: 300, y: 200)
        let alignmentResult = Aligner.align(image, root: root, context: context, verify: true)
        let alignment = try #require(alignmentResult)
        #expect(alignment.verified)
        let box = try #require(alignment.difference)
        #expect(Rect(x: 300, y: 200, width: 12, height: 19).intersection(box) == box)
    }

    @Test func aCaretIsAllowed() throws {
        var image = root
        image.fillRect(Rect(x: 120, y: 60, width: 1, height: 14), colour: 0x000000)
        let alignmentResult = Aligner.align(image, root: root, context: context, verify: true)
        let alignment = try #require(alignmentResult)
        #expect(alignment.verified)
        #expect(alignment.difference == Rect(x: 120, y: 60, width: 1, height: 14))
    }

    /// The old check let ~1024 + area/200 differing pixels pass anywhere: a 100×80 pop-up
    /// that was up when the tool read the screen but gone at the event passed as verified.
    @Test func aPopupGoneAtTheEventIsNotVerified() throws {
        let root = SyntheticScreen.desktop(width: 1920, height: 1080)
        let context = ScreenContext(width: 1920, height: 1080, windows: [])
        var image = root
        let popup = Rect(x: 1400, y: 650, width: 100, height: 80)
        SyntheticScreen.drawPopup(&image, at: popup)
        #expect(Aligner.align(image, root: root, context: context, verify: true).map(\.rect) == nil)
        let alignmentResult = Aligner.align(image, root: root, context: context, verify: false)
        let alignment = try #require(alignmentResult)
        #expect(!alignment.verified)
        let box = try #require(alignment.difference)
        #expect(box.intersection(popup) == box)
        #expect(alignment.differenceIsCovered(by: [popup]))
        #expect(!alignment.differenceIsCovered(by: [Rect(x: 1400, y: 650, width: 100, height: 40)]))
    }

    @Test func aPopupThatAppearedAfterTheEventIsNotVerified() throws {
        var later = root
        SyntheticScreen.drawPopup(&later, at: Rect(x: 60, y: 40, width: 100, height: 80))
        // The image is the screen without the pop-up; the event-time screen had it.
        let alignmentResult = Aligner.align(root, root: later, context: context, verify: false)
        let alignment = try #require(alignmentResult)
        #expect(!alignment.verified)
    }

    /// A tool that showed its window and captured after it went: the event-time screen shows the
    /// window (the image differs there), a later one does not; the later, exact match wins.
    @Test func aLaterScreenTheImageMatchesExactlyWinsOverTheEventTimeOne() throws {
        var withWindow = root
        SyntheticScreen.drawPopup(&withWindow, at: Rect(x: 60, y: 40, width: 100, height: 80))
        let screens = [(withWindow, context), (root, context)]
        let chosen = try #require(Aligner.alignOnBest(root, screens: screens, verify: false))
        #expect(chosen.screen == 1)
        #expect(chosen.alignment.verified)
        // On the event-time screen alone it is found, but not verified.
        let alone = try #require(Aligner.alignOnBest(root, screens: [(withWindow, context)], verify: false))
        #expect(alone.screen == 0)
        #expect(!alone.alignment.verified)
    }

    @Test func scatteredPixelsAreNotACluster() throws {
        var image = root
        for index in 0..<40 { image[(index * 97) % image.width, (index * 61) % image.height] ^= 0x0000_00FF }
        let alignmentResult = Aligner.align(image, root: root, context: context, verify: false)
        let alignment = try #require(alignmentResult)
        #expect(!alignment.verified)
    }

    @Test func aCursorAndAFarCaretTogetherAreNotOneCluster() throws {
        var image = root
        SyntheticScreen.drawCursor(&image, x: 20, y: 20)
        image.fillRect(Rect(x: 600, y: 380, width: 1, height: 14), colour: 0x000000)
        let alignmentResult = Aligner.align(image, root: root, context: context, verify: false)
        let alignment = try #require(alignmentResult)
        #expect(!alignment.verified)
    }

    @Test func aScreenShiftedByOnePixelIsNotVerified() throws {
        let shifted = root.cropped(to: Rect(x: 1, y: 0, width: root.width - 1, height: root.height))
        var image = root
        for y in 0..<root.height { for x in 0..<(root.width - 1) { image[x, y] = shifted[x, y] } }
        let exactResult = Aligner.align(image, root: root, context: context, verify: false)
        let exact = try #require(exactResult)
        #expect(!exact.verified)
        let jpeg = try SyntheticScreen.throughJPEG(image)
        let lossy = Aligner.align(jpeg.image, root: root, context: context, verify: false, tolerance: .forImage(jpeg))
        #expect(lossy?.verified == false)
    }

    @Test(arguments: [75, 90])
    func aJPEGOfTheScreenIsVerified(quality: Int) throws {
        let jpeg = try SyntheticScreen.throughJPEG(root, quality: quality)
        #expect(jpeg.isLossy)
        let alignment = Aligner.align(jpeg.image, root: root, context: context, verify: true, tolerance: .forImage(jpeg))
        #expect(alignment?.verified == true)
        #expect(alignment?.difference == nil)
    }

    @Test func aLossyWebPOfTheScreenIsVerified() throws {
        let webp = try SyntheticScreen.throughWebP(root)
        #expect(webp.isLossy)
        let alignment = Aligner.align(webp.image, root: root, context: context, verify: true, tolerance: .forImage(webp))
        #expect(alignment?.verified == true)
    }

    @Test func aJPEGWithAPopupIsNotVerified() throws {
        var image = root
        let popup = Rect(x: 400, y: 250, width: 100, height: 80)
        SyntheticScreen.drawPopup(&image, at: popup)
        let jpeg = try SyntheticScreen.throughJPEG(image)
        let alignment = Aligner.align(jpeg.image, root: root, context: context, verify: false, tolerance: .forImage(jpeg))
        #expect(alignment?.verified == false)
        let box = try #require(alignment?.difference)
        // Block-sized rounding: the box stays within a block of the pop-up.
        #expect(box.intersection(popup.insetBy(-8)) == box)
        #expect(box.width >= 90 && box.height >= 70)
    }

    @Test func aWindowSizedImageWithAPopupIsNotPlacedOnTheWindow() throws {
        let frame = Rect(x: 320, y: 50, width: 256, height: 240)
        let window = WindowInfo(id: 7, className: "w", instance: "w", title: "W", frame: frame, isViewable: true)
        var image = root.cropped(to: frame)
        SyntheticScreen.drawPopup(&image, at: Rect(x: 60, y: 60, width: 100, height: 80))
        let placed = Aligner.align(image, root: root, context: ScreenContext(width: root.width, height: root.height, windows: [window]), verify: true)
        #expect(placed == nil)
        let cleanResult = Aligner.align(root.cropped(to: frame), root: root,
                                               context: ScreenContext(width: root.width, height: root.height, windows: [window]), verify: true)
        let clean = try #require(cleanResult)
        #expect(clean.method == .window && clean.rect == frame)
    }
}

extension Rect {
    /// This rectangle grown by `amount` on every side (shrunk when negative).
    func insetBy(_ amount: Int) -> Rect {
        Rect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
    }
}

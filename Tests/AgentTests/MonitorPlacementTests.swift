// Placement of monitor-sized images (scrot -M, flameshot screen): tried at each monitor first.
import Testing
@testable import ShotguardAgent
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

@Suite struct MonitorPlacementTests {
    let root = SyntheticScreen.desktop(width: 640, height: 400)
    /// Two monitors of the same size side by side: only the pixels tell them apart.
    let monitors = [
        MonitorInfo(name: "LEFT", frame: Rect(x: 0, y: 0, width: 320, height: 400), isPrimary: true),
        MonitorInfo(name: "RIGHT", frame: Rect(x: 320, y: 0, width: 320, height: 400)),
    ]
    var context: ScreenContext { ScreenContext(width: root.width, height: root.height, windows: [], monitors: monitors) }

    @Test func aMonitorSizedImageIsPlacedAtTheMonitorItShows() throws {
        for monitor in monitors {
            let image = root.cropped(to: monitor.frame)
            let alignment = try #require(Aligner.align(image, root: root, context: context, verify: true))
            #expect(alignment.method == .monitor)
            #expect(alignment.rect == monitor.frame)
            #expect(alignment.verified)
        }
    }

    /// With no search budget at all, only the monitor step can place it.
    @Test func theMonitorStepComesBeforeTheSearch() throws {
        let image = root.cropped(to: monitors[1].frame)
        let located = Aligner.locate(image, root: root, context: context, verify: true, budget: SearchBudget(verifications: 0, candidates: 0, seconds: 0))
        #expect(located.alignment?.method == .monitor)
        #expect(located.search == nil)
    }

    @Test func aMonitorSizedImageThatShowsSomethingElseIsSearchedFor() throws {
        var image = root.cropped(to: monitors[1].frame)
        image.fillRect(Rect(x: 10, y: 10, width: 200, height: 200), colour: 0xFF00FF)
        let alignment = Aligner.align(image, root: root, context: context, verify: true)
        #expect(alignment == nil)
    }

    @Test func withoutMonitorsTheImageIsFoundBySearch() throws {
        let image = root.cropped(to: monitors[1].frame)
        let bare = ScreenContext(width: root.width, height: root.height, windows: [])
        let alignment = try #require(Aligner.align(image, root: root, context: bare, verify: true))
        #expect(alignment.method == .search)
        #expect(alignment.rect == monitors[1].frame)
    }
}

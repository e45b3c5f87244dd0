// Rectangle subtraction: exact pieces, disjoint and covering what is left, and a bounded count.

import XCTest
import ShotguardImaging
import ShotguardScreen
import ShotguardTestSupport

final class DisjointRectsTests: XCTestCase {
    private let base = Rect(x: 10, y: 20, width: 100, height: 80)

    func testSubtractingGivesTheBandsThenTheSides() {
        XCTAssertEqual(base.subtracting(Rect(x: 40, y: 50, width: 20, height: 10)), [
            Rect(x: 10, y: 20, width: 100, height: 30),  // above
            Rect(x: 10, y: 60, width: 100, height: 40),  // below
            Rect(x: 10, y: 50, width: 30, height: 10),   // left
            Rect(x: 60, y: 50, width: 50, height: 10),   // right
        ])
        XCTAssertEqual(base.subtracting(Rect(x: 0, y: 0, width: 5, height: 5)), [base], "apart")
        XCTAssertEqual(base.subtracting(Rect(x: 0, y: 0, width: 500, height: 500)), [], "all of it")
        XCTAssertEqual(base.subtracting(Rect(x: 90, y: 0, width: 50, height: 500)), [Rect(x: 10, y: 20, width: 80, height: 80)],
                       "a strip off the right side")
        XCTAssertEqual(Rect(x: 0, y: 0, width: 0, height: 5).subtracting(base), [], "an empty rectangle has nothing left")
    }

    /// Random cuts: the pieces never overlap, and a pixel is in them exactly when it is in the
    /// rectangle and in no hole (checked pixel by pixel on a small grid).
    func testRandomCutsLeaveExactlyTheUncoveredPixels() {
        var generator = SplitMix64(seed: 21)
        for _ in 0..<300 {
            let whole = Rect(x: Int.random(in: 0..<8, using: &generator), y: Int.random(in: 0..<8, using: &generator),
                             width: Int.random(in: 1..<24, using: &generator), height: Int.random(in: 1..<24, using: &generator))
            var area = DisjointRects(whole, limit: 1000)
            var holes: [Rect] = []
            for _ in 0..<Int.random(in: 0..<7, using: &generator) {
                let hole = Rect(x: Int.random(in: 0..<30, using: &generator), y: Int.random(in: 0..<30, using: &generator),
                                width: Int.random(in: 0..<12, using: &generator), height: Int.random(in: 0..<12, using: &generator))
                XCTAssertTrue(area.subtract(hole))
                holes.append(hole)
            }
            for y in 0..<32 {
                for x in 0..<32 {
                    let expected = whole.contains(x: x, y: y) && !holes.contains { $0.contains(x: x, y: y) }
                    let count = area.rects.filter { $0.contains(x: x, y: y) }.count
                    XCTAssertEqual(count, expected ? 1 : 0, "(\(x),\(y)) of \(whole) less \(holes): \(area.rects)")
                }
            }
            XCTAssertFalse(area.rects.contains(where: \.isEmpty))
        }
    }

    func testNeighboursThatShareAnEdgeAreJoined() {
        var area = DisjointRects(Rect(x: 0, y: 0, width: 30, height: 30))
        area.subtract(Rect(x: 10, y: 10, width: 10, height: 10))
        area.subtract(Rect(x: 10, y: 10, width: 20, height: 10))  // the right side goes too
        XCTAssertEqual(area.rects.count, 3, "above, below and left: \(area.rects)")
        XCTAssertEqual(area.area, 900 - 200)
    }

    /// A cut that would split the area into more pieces than the limit is not made: the area
    /// stays larger (more is covered), and later cuts that fit are still made.
    func testTheLimitKeepsMoreCoveredNeverLess() {
        var area = DisjointRects(Rect(x: 0, y: 0, width: 100, height: 100), limit: 4)
        XCTAssertTrue(area.subtract(Rect(x: 40, y: 40, width: 20, height: 20)))
        XCTAssertEqual(area.rects.count, 4)
        XCTAssertFalse(area.subtract(Rect(x: 10, y: 10, width: 5, height: 5)), "five or more pieces: not made")
        XCTAssertEqual(area.area, 100 * 100 - 400)
        XCTAssertTrue(area.subtract(Rect(x: 0, y: 0, width: 100, height: 40)), "the band above goes whole")
        XCTAssertEqual(area.area, 100 * 60 - 400)
        XCTAssertTrue(area.subtract(Rect(x: 500, y: 500, width: 5, height: 5)), "a hole outside changes nothing")
    }

    /// Fifty windows scattered over one cover: the count stays within the default limit, and
    /// what is left always holds every pixel no hole covers (more may stay covered, never less).
    func testFiftyHolesStayWithinTheDefaultLimitAndNeverUncoverTooMuch() {
        let whole = Rect(x: 0, y: 0, width: 200, height: 200)
        var area = DisjointRects(whole)
        var holes: [Rect] = []
        for index in 0..<50 {
            let hole = Rect(x: 37 * index % 190, y: 53 * index % 190, width: 12, height: 10)
            area.subtract(hole)
            holes.append(hole)
        }
        XCTAssertLessThanOrEqual(area.rects.count, DisjointRects.defaultLimit)
        XCTAssertLessThan(area.area, whole.area, "some windows were cut out")
        for y in 0..<200 {
            for x in 0..<200 where !holes.contains(where: { $0.contains(x: x, y: y) }) {
                XCTAssertTrue(area.rects.contains { $0.contains(x: x, y: y) }, "(\(x),\(y)) shows, so it stays covered")
            }
        }
    }
}

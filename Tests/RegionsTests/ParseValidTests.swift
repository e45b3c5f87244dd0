// Every valid form of a regions file line parses to the rule it says.

import XCTest
import ShotguardImaging
import ShotguardRegions

final class ParseValidTests: XCTestCase {
    func testDesignExampleParses() throws {
        let text = """
            # target  matches...                     geometry          fill
            window    class=KeePassXC                                              # the whole window
            window    class=firefox title~"(?i)bank"  360x48+20+140    fill=black
            window    instance=slack                  25%x100%+0+0     fill=pixelate:24
            screen                                    300x28-0+0                   # top-right corner
            """
        let file = try parse(text)
        XCTAssertEqual(file.path, "regions")
        XCTAssertEqual(file.rules.map(\.line), [2, 3, 4, 5])
        XCTAssertEqual(file.rules.map(\.target), [.window, .window, .window, .screen])
        XCTAssertEqual(file.rules.map { $0.matches.map(\.description) },
                       [["class=KeePassXC"], ["class=firefox", "title~(?i)bank"], ["instance=slack"], []])
        XCTAssertEqual(file.rules.map { $0.geometry?.description },
                       [nil, "360x48+20+140", "25%x100%+0+0", "300x28-0+0"])
        XCTAssertEqual(file.rules.map(\.fill), [.black, .black, .pixelate(blockSize: 24), .black])
        XCTAssertEqual(file.rules[1].source, "window    class=firefox title~\"(?i)bank\"  360x48+20+140    fill=black")
        XCTAssertEqual(file.rules[0].source, "window    class=KeePassXC")
        XCTAssertEqual(file.windowRules.map(\.line), [2, 3, 4])
        XCTAssertEqual(file.screenRules.map(\.line), [5])
    }

    func testEmptyAndCommentOnlyFilesHaveNoRules() throws {
        XCTAssertEqual(try parse("").rules.count, 0)
        XCTAssertEqual(try parse("\n   \n\t\n# only a comment\n   # indented comment\n").rules.count, 0)
    }

    func testLineNumbersCountBlankAndCommentLines() throws {
        let file = try parse("\n# comment\n\nscreen\r\n\r\nwindow class=a\n")
        XCTAssertEqual(file.rules.map(\.line), [4, 6])
    }

    func testQuotedValuesKeepSpaces() throws {
        let parsed = try rule(#"window class="Google Chrome" instance="google chrome" title="My Bank""#)
        XCTAssertEqual(parsed.matches.map(\.description),
                       [#"class="Google Chrome""#, #"instance="google chrome""#, #"title="My Bank""#])
        guard case .className(let name) = parsed.matches[0] else { return XCTFail("not a class match") }
        XCTAssertEqual(name, "Google Chrome")
    }

    func testEscapesInsideQuotes() throws {
        let parsed = try rule(#"window title="say \"hi\" \\ now""#)
        guard case .title(let title) = parsed.matches[0] else { return XCTFail("not a title match") }
        XCTAssertEqual(title, #"say "hi" \ now"#)
    }

    func testOtherBackslashesAreKeptForRegularExpressions() throws {
        let parsed = try rule(#"window title~"\d+ new \(mail\)""#)
        guard case .titlePattern(let pattern) = parsed.matches[0] else { return XCTFail("not a pattern") }
        XCTAssertEqual(pattern.source, #"\d+ new \(mail\)"#)
        XCTAssertTrue(pattern.matches("Inbox - 12 new (mail)"))
        XCTAssertFalse(pattern.matches("Inbox - no new (mail)"))
    }

    func testQuotesMayCoverPartOfAWord() throws {
        let parsed = try rule(#"window class=Google" "Chrome"#)
        XCTAssertEqual(parsed.matches.map(\.description), [#"class="Google Chrome""#])
    }

    func testHashOnlyStartsACommentAtTheStartOfAWord() throws {
        let parsed = try rule(#"window title=a#b title="c # d" fill=#ff0000 # real comment fill=black"#)
        XCTAssertEqual(parsed.matches.map(\.description), ["title=a#b", #"title="c # d""#])
        XCTAssertEqual(parsed.fill, .solid(0xFF0000))
        XCTAssertEqual(parsed.source, #"window title=a#b title="c # d" fill=#ff0000"#)
    }

    func testCommentRightAfterTheTarget() throws {
        let parsed = try rule("screen #comment")
        XCTAssertEqual(parsed.source, "screen")
        XCTAssertNil(parsed.geometry)
    }

    func testTabsSeparateWords() throws {
        let parsed = try rule("\twindow\tclass=a\t\t10x10+1+2\tfill=pixelate\t# tabbed")
        XCTAssertEqual(parsed.matches.map(\.description), ["class=a"])
        XCTAssertEqual(parsed.geometry?.description, "10x10+1+2")
        XCTAssertEqual(parsed.fill, .pixelate(blockSize: Fill.defaultBlockSize))
        XCTAssertEqual(parsed.source, "window\tclass=a\t\t10x10+1+2\tfill=pixelate")
    }

    func testWordsComeInAnyOrder() throws {
        let parsed = try rule("window 10x10+0+0 fill=pixelate:8 title=x class=y instance=z title~^x$")
        XCTAssertEqual(parsed.matches.map(\.description), ["title=x", "class=y", "instance=z", "title~^x$"])
        XCTAssertEqual(parsed.geometry, Geometry(width: .pixels(10), height: .pixels(10)))
        XCTAssertEqual(parsed.fill, .pixelate(blockSize: 8))
    }

    func testFills() throws {
        XCTAssertEqual(try rule("screen fill=black").fill, .black)
        XCTAssertEqual(try rule("screen fill=#1e1e1e").fill, .solid(0x1E1E1E))
        XCTAssertEqual(try rule("screen fill=\"#1e1e1e\"").fill, .solid(0x1E1E1E))
        XCTAssertEqual(try rule("screen fill=pixelate").fill, .pixelate(blockSize: 16))
        XCTAssertEqual(try rule("screen fill=pixelate:24").fill, .pixelate(blockSize: 24))
        XCTAssertEqual(try rule("screen").fill, .black)
    }

    func testGeometries() throws {
        XCTAssertNil(try rule("screen").geometry)
        XCTAssertEqual(try rule("screen 300x28-0+0").geometry,
                       Geometry(width: .pixels(300), height: .pixels(28),
                                x: Offset(.pixels(0), fromFarEdge: true), y: Offset(.pixels(0))))
        XCTAssertEqual(try rule("screen 25%x100%+0+0").geometry,
                       Geometry(width: .percent(25), height: .percent(100)))
        XCTAssertEqual(try rule("screen 12.5%x10-5-7").geometry,
                       Geometry(width: .percent(12.5), height: .pixels(10),
                                x: Offset(.pixels(5), fromFarEdge: true), y: Offset(.pixels(7), fromFarEdge: true)))
        XCTAssertEqual(try rule("screen =10x20+1+2").geometry,
                       Geometry(width: .pixels(10), height: .pixels(20), x: Offset(.pixels(1)), y: Offset(.pixels(2))))
        XCTAssertEqual(try rule("screen 10x20").geometry, Geometry(width: .pixels(10), height: .pixels(20)))
    }

    func testDuplicateMatchesAreAllKept() throws {
        XCTAssertEqual(try rule("window class=a class=b").matches.map(\.description), ["class=a", "class=b"])
    }

    func testMatchDescriptionsQuoteWhatWouldNotReadBack() throws {
        XCTAssertEqual(Match.title("").description, #"title="""#)
        XCTAssertEqual(Match.title(#"a"b\c"#).description, #"title="a\"b\\c""#)
        XCTAssertEqual(Match.title("#1").description, ##"title="#1""##)
        XCTAssertEqual(Match.instance("x#1").description, "instance=x#1")
        let reparsed = try rule("window " + Match.title(#"a "b" \ #c"#).description)
        guard case .title(let title) = reparsed.matches[0] else { return XCTFail("not a title match") }
        XCTAssertEqual(title, #"a "b" \ #c"#)
    }

    func testDefaultPath() {
        XCTAssertEqual(RegionsFile.defaultPath(xdgConfigHome: "/xdg", home: "/home/u"), "/xdg/shotguard/regions")
        XCTAssertEqual(RegionsFile.defaultPath(xdgConfigHome: nil, home: "/home/u"),
                       "/home/u/.config/shotguard/regions")
        XCTAssertEqual(RegionsFile.defaultPath(xdgConfigHome: "", home: "/home/u"),
                       "/home/u/.config/shotguard/regions")
        XCTAssertEqual(RegionsFile.defaultPath(xdgConfigHome: "relative", home: "/home/u"),
                       "/home/u/.config/shotguard/regions")
        XCTAssertTrue(RegionsFile.defaultPath.hasSuffix("/shotguard/regions"))
    }
}

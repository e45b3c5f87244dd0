// swift-tools-version:6.0
// shotguard: notices screenshots on an X11 desktop and redacts them before they leave.
import PackageDescription

let package = Package(
    name: "shotguard",
    products: [
        // Libraries for packages that build on shotguard's layers (the fuzz targets in Fuzz/).
        .library(name: "ShotguardImaging", targets: ["ShotguardImaging"]),
        .library(name: "ShotguardRegions", targets: ["ShotguardRegions"]),
        .library(name: "ShotguardX11", targets: ["ShotguardX11"]),
        .library(name: "ShotguardAgent", targets: ["ShotguardAgent"]),
    ],
    targets: [
        // C shims: only what Swift cannot call directly.
        .target(
            name: "CShotguardPNG",
            // libdeflate compresses and inflates PNG data; libpng reads any PNG; zlib joins checksums.
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("deflate"), .linkedLibrary("z"), .linkedLibrary("pthread")]
        ),
        .systemLibrary(name: "CX11", pkgConfig: "x11 xext xfixes xrandr xi"),
        // XCB on Xlib's connection: many requests, then their replies, in one round trip.
        .systemLibrary(name: "CXCB", pkgConfig: "xcb x11-xcb"),
        .target(name: "CShotguardSys"),
        // PCRE2 for title~ patterns: its match limits bound the time a hostile title can cost.
        .systemLibrary(name: "CPCRE2", pkgConfig: "libpcre2-8"),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg"),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp"),
        // AT-SPI2 for `field` rules: the accessible fields applications show, with their extents.
        .systemLibrary(name: "CAtspi", pkgConfig: "atspi-2"),

        // Pure Swift, no X: pixels, PNG, JPEG, WebP, geometry, fills; the regions file.
        .target(name: "ShotguardImaging", dependencies: ["CShotguardPNG", "CTurboJPEG", "CWebP"], linkerSettings: [.linkedLibrary("m")]),
        .target(name: "ShotguardRegions", dependencies: ["ShotguardImaging", "CPCRE2"]),

        // The X11 layer: display, windows, capture.
        .target(name: "ShotguardX11", dependencies: ["CX11", "CXCB", "CShotguardSys", "ShotguardImaging", "ShotguardRegions"]),

        // The accessibility layer: AT-SPI2 queries for `field` rules, over D-Bus, no X.
        .target(name: "ShotguardAccessibility", dependencies: ["CAtspi", "ShotguardRegions", "ShotguardImaging"]),

        // The background agent: event loop, sources, alignment, reporters.
        .target(name: "ShotguardAgent", dependencies: ["ShotguardX11", "ShotguardRegions", "ShotguardImaging", "CShotguardSys",
                                                       "ShotguardAccessibility"]),

        // The command-line tool.
        .executableTarget(
            name: "shotguard",
            dependencies: ["ShotguardImaging", "ShotguardRegions", "ShotguardX11", "ShotguardAgent", "ShotguardAccessibility"]
        ),

        .testTarget(name: "ImagingTests", dependencies: ["ShotguardImaging"], exclude: ["Fixtures"]),
        .testTarget(name: "RegionsTests", dependencies: ["ShotguardRegions"]),
        .testTarget(name: "CLITests", dependencies: ["ShotguardImaging", "ShotguardX11"]),
        .testTarget(name: "X11Tests", dependencies: ["ShotguardX11", "ShotguardImaging", "ShotguardRegions"]),
        .testTarget(name: "AgentTests", dependencies: ["ShotguardAgent", "ShotguardImaging", "ShotguardRegions", "ShotguardX11"]),
        .testTarget(name: "DocsTests"),
        // The agent's file handling (folders, names as bytes, private folders, the spool), no X.
        .testTarget(name: "AgentFileTests", dependencies: ["ShotguardAgent", "ShotguardImaging"]),
    ]
)

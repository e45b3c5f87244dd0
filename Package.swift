// swift-tools-version:6.0
// shotguard: notices screenshots on an X11 desktop and redacts them before they leave.
import PackageDescription

/// Every Swift target: a member is used only where its module is imported (SE-0444), so the
/// imports say what each file really depends on.
let strict: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

let package = Package(
    name: "shotguard",
    products: [
        // Libraries for packages that build on shotguard's layers (the fuzz targets in Fuzz/).
        .library(name: "ShotguardBase", targets: ["ShotguardBase"]),
        .library(name: "ShotguardImaging", targets: ["ShotguardImaging"]),
        .library(name: "ShotguardScreen", targets: ["ShotguardScreen"]),
        .library(name: "ShotguardRegions", targets: ["ShotguardRegions"]),
        .library(name: "ShotguardText", targets: ["ShotguardText"]),
        .library(name: "ShotguardX11", targets: ["ShotguardX11"]),
        .library(name: "ShotguardAgent", targets: ["ShotguardAgent"]),
        .library(name: "ShotguardDelivery", targets: ["ShotguardDelivery"]),
    ],
    targets: [
        // C shims: only what Swift cannot call directly.
        .target(
            name: "CShotguardPNG",
            // libdeflate compresses and inflates PNG data; libpng reads any PNG; zlib joins checksums.
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("deflate"), .linkedLibrary("z"), .linkedLibrary("pthread")]
        ),
        // libXtst for RECORD (who reads the screen), libXRes for X-Resource (which process a client
        // is): loaded (dlopen) when capture sensing starts, not linked, so a C target; every other
        // command paid for loading them at start-up (include/sg_x_sensing.h).
        .target(name: "CX11", dependencies: ["CLibraryLoader"]),
        // XCB on Xlib's connection: many requests, then their replies, in one round trip
        // (SHAPE's too: a shaped window hides nothing under its rectangle).
        .systemLibrary(name: "CXCB", pkgConfig: "xcb x11-xcb xcb-shape"),
        .target(name: "CShotguardSys"),
        // PCRE2 for title~ patterns: its match limits bound the time a hostile title can cost.
        .systemLibrary(name: "CPCRE2", pkgConfig: "libpcre2-8"),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg"),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp"),
        // giflib's memory reading and writing (its I/O is function pointers; its errors are
        // return codes): linked, as it is one small library with no dependencies of its own.
        .target(name: "CShotguardGIF", linkerSettings: [.linkedLibrary("gif")]),
        // libtiff and libavif for TIFF and AVIF, loaded (dlopen) when such a file is first read
        // or written: linked, they made every command load their codecs (libjpeg, liblzma,
        // libzstd, libjbig, libLerc; aom, dav1d, rav1e, SVT-AV1, libgav1, libyuv) at start-up.
        .target(name: "CShotguardTIFF", dependencies: ["CLibraryLoader"]),
        .target(name: "CShotguardAVIF", dependencies: ["CLibraryLoader"]),
        // AT-SPI2 for `field` rules: the accessible fields applications show, with their extents.
        // libatspi is loaded (dlopen) when a field rule first needs it, not linked: linking it
        // made every command load GLib, GObject, libdbus and their dependencies at start-up.
        // dlopen and dlsym for the libraries loaded on first use below, written once.
        .target(name: "CLibraryLoader"),
        .target(name: "CAtspiLoader", dependencies: ["CLibraryLoader"]),
        // sd-bus for the agent's session-bus service, its client and desktop notifications: it
        // hands over a descriptor, the events to wait for and a deadline, so it fits a poll loop.
        // libsystemd is loaded (dlopen) when the first connection is made, not linked: linking it
        // made every command load it, liblzma, libzstd, liblz4, libcap and libgcrypt at start-up.
        .target(name: "CSystemdBus", dependencies: ["CLibraryLoader"]),
        // Tesseract's C API for `text` rules, loaded (dlopen) when a text rule first needs OCR:
        // linking it would load some fifty libraries into every command at start-up.
        .target(name: "CTesseract", dependencies: ["CLibraryLoader"]),
        // libcurl for the reporters' uploads (HTTPS, proxies from the environment, HTTP/2), loaded
        // (dlopen) at the first upload: linking it made every command load OpenSSL, nghttp2 and
        // some thirty more libraries at start-up. Its multi interface fits the agent's poll loop.
        .target(name: "CCurl", dependencies: ["CLibraryLoader"]),

        // The base layer, under every other: files, child processes, clocks, JSON, XDG folders,
        // the errno path of system calls.
        .target(name: "ShotguardBase", dependencies: ["CShotguardSys"], swiftSettings: strict),

        // Pure Swift, no X: pixels, the image formats (ImageFormat lists them), geometry, fills.
        .target(name: "ShotguardImaging", dependencies: ["ShotguardBase", "CShotguardPNG", "CTurboJPEG", "CWebP", "CShotguardGIF",
                                                         "CShotguardTIFF", "CShotguardAVIF"],
                swiftSettings: strict, linkerSettings: [.linkedLibrary("m")]),
        // The screen model: windows, monitors and fields at one moment, as the X11 and
        // accessibility layers read them and the rules consume them.
        .target(name: "ShotguardScreen", dependencies: ["ShotguardImaging"], swiftSettings: strict),
        // Text rules' matching (cards, e-mails, IBANs, keys, patterns) and the OCR pass: pure
        // Swift over pixels, with Tesseract loaded at run time. No X, no rules engine.
        .target(name: "ShotguardText", dependencies: ["ShotguardBase", "ShotguardImaging", "CPCRE2", "CTesseract"],
                swiftSettings: strict),
        .target(name: "ShotguardRegions", dependencies: ["ShotguardBase", "ShotguardImaging", "ShotguardScreen", "CPCRE2",
                                                         "ShotguardText"],
                swiftSettings: strict),

        // The X11 layer: display, windows, capture.
        .target(name: "ShotguardX11", dependencies: ["CX11", "CXCB", "CShotguardSys", "ShotguardBase", "ShotguardImaging",
                                                     "ShotguardScreen"], swiftSettings: strict),

        // Windows painted with known pixels on a private X server: the demo's scene, the tests' desktops.
        .target(name: "ShotguardScene", dependencies: ["CX11", "ShotguardBase", "ShotguardImaging", "ShotguardX11"],
                swiftSettings: strict),

        // The accessibility layer: AT-SPI2 queries for `field` rules, over D-Bus, no X.
        .target(name: "ShotguardAccessibility", dependencies: ["CAtspiLoader", "ShotguardBase", "ShotguardScreen",
                                                               "ShotguardImaging", "ShotguardText"], swiftSettings: strict),

        // The session bus: the agent's service (status, pause, resume, reload, signals), the
        // client that the status, pause and resume commands use, and desktop notifications. No X.
        .target(name: "ShotguardBus", dependencies: ["CSystemdBus", "ShotguardBase"], swiftSettings: strict),

        // Report delivery: the queue on disk, Sentry envelopes, webhooks and commands, retried with
        // backoff over libcurl's multi interface. No X: it takes report files and hands them on.
        .target(name: "ShotguardDelivery", dependencies: ["ShotguardBase", "ShotguardImaging", "CCurl"], swiftSettings: strict),

        // The background agent: event loop, sources, alignment, reporters.
        .target(name: "ShotguardAgent", dependencies: ["ShotguardBase", "ShotguardX11", "ShotguardRegions", "ShotguardImaging",
                                                       "ShotguardScreen", "CShotguardSys", "ShotguardAccessibility", "ShotguardBus",
                                                       "ShotguardText", "ShotguardDelivery"],
                swiftSettings: strict),

        // The command-line tool.
        .executableTarget(
            name: "shotguard",
            dependencies: ["ShotguardBase", "ShotguardImaging", "ShotguardRegions", "ShotguardX11", "ShotguardScene",
                           "ShotguardAgent", "ShotguardAccessibility", "ShotguardScreen", "ShotguardBus", "ShotguardText",
                           "ShotguardDelivery"],
            swiftSettings: strict
        ),

        // What the test targets share: private X servers and desktops of known pixels, runs of the
        // built binary and of outside tools, temporary folders, pixel checks.
        .target(name: "ShotguardTestSupport", dependencies: ["ShotguardBase", "ShotguardImaging", "ShotguardX11", "ShotguardScene"],
                path: "Tests/Support", swiftSettings: strict),
        // The screen-read source's loop alone, for measuring what capture sensing costs (scripts/bench-sensing.py).
        // The optional hold helper (root): fanotify permission events hold other programs' opens
        // of a screenshot until the agent has redacted it.
        .executableTarget(name: "shotguard-hold", dependencies: ["CShotguardSys", "ShotguardBase"], swiftSettings: strict),
        .executableTarget(name: "sensing-probe", dependencies: ["ShotguardBase", "ShotguardImaging", "ShotguardX11"],
                          path: "Sources/SensingProbe", swiftSettings: strict),

        .testTarget(name: "BaseTests", dependencies: ["ShotguardBase"], swiftSettings: strict),
        .testTarget(name: "ImagingTests", dependencies: ["ShotguardBase", "ShotguardImaging", "ShotguardTestSupport"], exclude: ["Fixtures"],
                    swiftSettings: strict),
        .testTarget(name: "RegionsTests", dependencies: ["ShotguardRegions", "ShotguardScreen", "ShotguardImaging", "ShotguardText",
                                                         "ShotguardTestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "CLITests", dependencies: ["ShotguardBase", "ShotguardImaging", "ShotguardX11", "ShotguardScene",
                                                     "CAtspiLoader", "ShotguardScreen", "ShotguardTestSupport", "ShotguardAccessibility",
                                                     "ShotguardText"], swiftSettings: strict),
        .testTarget(name: "X11Tests", dependencies: ["ShotguardBase", "ShotguardX11", "ShotguardScene", "ShotguardImaging",
                                                     "ShotguardRegions", "ShotguardScreen", "ShotguardTestSupport"], swiftSettings: strict),
        .testTarget(name: "AgentTests", dependencies: ["ShotguardBase", "ShotguardAgent", "ShotguardImaging", "ShotguardRegions",
                                                       "ShotguardX11", "ShotguardScene", "ShotguardScreen", "ShotguardTestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "DocsTests", dependencies: ["ShotguardTestSupport"], swiftSettings: strict),
        // The agent's decisions (tracker, policy, queue, recent keys, reports), with no X server.
        .testTarget(name: "AgentDecisionTests", dependencies: ["ShotguardAgent", "ShotguardImaging", "ShotguardRegions",
                                                               "ShotguardScreen", "ShotguardX11", "ShotguardBase", "ShotguardBus",
                                                               "ShotguardText", "ShotguardTestSupport"],
                    swiftSettings: strict),
        // The session-bus service, client and notifications against a private dbus-daemon.
        .testTarget(name: "BusTests", dependencies: ["ShotguardBus", "ShotguardBase", "ShotguardTestSupport"], swiftSettings: strict),
        // Text rules: the matchers, the OCR pass on the generated corpus in Corpus/, the loader.
        .testTarget(name: "TextTests", dependencies: ["ShotguardBase", "ShotguardImaging", "ShotguardText", "CTesseract",
                                                  "ShotguardTestSupport"],
                    exclude: ["Corpus"], swiftSettings: strict),
        // Report delivery: DSNs, envelopes, retries, bounds, the queue on disk, and uploads to a local
        // HTTP server (Tests/Scripts/report-server.py).
        .testTarget(name: "DeliveryTests", dependencies: ["ShotguardBase", "ShotguardDelivery", "ShotguardTestSupport"],
                    swiftSettings: strict),
        // The agent's file handling (folders, names as bytes, private folders, the spool), no X.
        .testTarget(name: "AgentFileTests", dependencies: ["ShotguardBase", "ShotguardAgent", "ShotguardImaging", "ShotguardScreen",
                                                           "ShotguardTestSupport"], swiftSettings: strict),
    ]
)

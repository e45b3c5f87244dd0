// swift-tools-version:6.0
// libFuzzer targets for shotguard's parsers of hostile input; built only by `make fuzz`, with
// `swift build --sanitize=fuzzer --sanitize=address`, so the main build never compiles them.
import PackageDescription

let package = Package(
    name: "shotguard-fuzz",
    dependencies: [.package(name: "shotguard", path: "..")],
    targets: [
        // Reading fields out of the fuzzer's bytes, and failing loudly when a property breaks.
        .target(name: "FuzzSupport", dependencies: [.product(name: "ShotguardImaging", package: "shotguard")]),

        // One executable per target: libFuzzer supplies `main`, each calls its
        // `LLVMFuzzerTestOneInput` with one input at a time.
        .executableTarget(name: "fuzz-png", dependencies: [
            "FuzzSupport", .product(name: "ShotguardImaging", package: "shotguard"),
        ]),
        .executableTarget(name: "fuzz-jpeg", dependencies: [
            "FuzzSupport", .product(name: "ShotguardImaging", package: "shotguard"),
        ]),
        .executableTarget(name: "fuzz-webp", dependencies: [
            "FuzzSupport", .product(name: "ShotguardImaging", package: "shotguard"),
        ]),
        .executableTarget(name: "fuzz-bmp", dependencies: [
            "FuzzSupport", .product(name: "ShotguardImaging", package: "shotguard"),
        ]),
        // The formats of the registry after those four: each decoder, then a round trip in its own format.
        .executableTarget(name: "fuzz-gif", dependencies: [
            "FuzzSupport", .product(name: "ShotguardImaging", package: "shotguard"),
        ]),
        .executableTarget(name: "fuzz-tiff", dependencies: [
            "FuzzSupport", .product(name: "ShotguardImaging", package: "shotguard"),
        ]),
        .executableTarget(name: "fuzz-pnm", dependencies: [
            "FuzzSupport", .product(name: "ShotguardImaging", package: "shotguard"),
        ]),
        .executableTarget(name: "fuzz-xwd", dependencies: [
            "FuzzSupport", .product(name: "ShotguardImaging", package: "shotguard"),
        ]),
        .executableTarget(name: "fuzz-ico", dependencies: [
            "FuzzSupport", .product(name: "ShotguardImaging", package: "shotguard"),
        ]),
        .executableTarget(name: "fuzz-avif", dependencies: [
            "FuzzSupport", .product(name: "ShotguardImaging", package: "shotguard"),
        ]),
        .executableTarget(name: "fuzz-properties", dependencies: [
            "FuzzSupport", .product(name: "ShotguardX11", package: "shotguard"),
            .product(name: "ShotguardImaging", package: "shotguard"),
        ]),
        .executableTarget(name: "fuzz-regions", dependencies: [
            "FuzzSupport", .product(name: "ShotguardRegions", package: "shotguard"),
            .product(name: "ShotguardScreen", package: "shotguard"),
            .product(name: "ShotguardImaging", package: "shotguard"),
        ]),
        .executableTarget(name: "fuzz-clipboard", dependencies: [
            "FuzzSupport", .product(name: "ShotguardX11", package: "shotguard"),
        ]),
        // The PNG encoder (whole, to a descriptor, streamed with covers) and the band join.
        .executableTarget(name: "fuzz-encoder", dependencies: [
            "FuzzSupport", .product(name: "ShotguardImaging", package: "shotguard"),
            .product(name: "ShotguardBase", package: "shotguard"),
        ]),
        // zlib's inflate, the reference for the joined streams (inflateInit2 is a macro).
        .target(name: "CFuzzInflate", linkerSettings: [.linkedLibrary("z")]),
        .executableTarget(name: "fuzz-bandjoin", dependencies: [
            "FuzzSupport", "CFuzzInflate", .product(name: "ShotguardImaging", package: "shotguard"),
        ]),
        .executableTarget(name: "fuzz-report", dependencies: [
            "FuzzSupport", .product(name: "ShotguardAgent", package: "shotguard"),
            .product(name: "ShotguardBase", package: "shotguard"),
            .product(name: "ShotguardRegions", package: "shotguard"),
            .product(name: "ShotguardScreen", package: "shotguard"),
            .product(name: "ShotguardImaging", package: "shotguard"),
        ]),
    ]
)

// swift-tools-version: 6.1
// live-player: Core Animation's model on Linux/X11, rendered in software.
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
]

let package = Package(
    name: "live-player",
    products: [
        .library(name: "DisplayClock", targets: ["DisplayClock"]),
        .library(name: "Raster", targets: ["Raster"]),
        .library(name: "LiveLayers", targets: ["LiveLayers"]),
        .library(name: "Lottie", targets: ["Lottie"]),
        .library(name: "X11Presenter", targets: ["X11Presenter"]),
        .library(name: "LayerHost", targets: ["LayerHost"]),
        .executable(name: "live-player", targets: ["live-player"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // C corners: module maps and shim headers only.
        .systemLibrary(
            name: "CX11",
            pkgConfig: "x11",
            providers: [.apt(["libx11-dev", "libxext-dev", "libxpresent-dev", "libxfixes-dev", "libxrandr-dev", "libx11-xcb-dev", "libxcb-present-dev"])]
        ),
        .systemLibrary(name: "CLinux"),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev", "zlib1g-dev"])]
        ),
        // libjpeg-turbo's decompressor (Lottie's JPEG images); errors longjmp inside the shim only.
        .systemLibrary(
            name: "CJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"])]
        ),
        // fontconfig's pkg-config brings FreeType's flags with it.
        .systemLibrary(
            name: "CFreeType",
            pkgConfig: "fontconfig",
            providers: [.apt(["libfreetype-dev", "libfontconfig-dev", "fonts-dejavu-core"])]
        ),
        // HarfBuzz shapes text runs: ligatures and GPOS kerning.
        .systemLibrary(
            name: "CHarfBuzz",
            pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"])]
        ),

        // Monotonic ticks, frame-drop accounting, frame statistics. No X11, no layers.
        .target(name: "DisplayClock", dependencies: ["CLinux"], swiftSettings: strict),

        // Paths, anti-aliased fill and stroke, compositing, bitmaps, PNG, JPEG (read), text. No X11.
        .target(
            name: "Raster",
            dependencies: ["CPNG", "CJPEG", "CFreeType", "CHarfBuzz", "CLinux"],
            swiftSettings: strict
        ),

        // Layers, model/presentation, animations, transactions, damage.
        .target(name: "LiveLayers", dependencies: ["Raster", "CLinux"], swiftSettings: strict),

        // Lottie (Bodymovin JSON, dotLottie) animations decoded into layer trees with keyframe
        // animations; zlib (through CPNG) inflates dotLottie archives.
        .target(name: "Lottie", dependencies: ["LiveLayers", "Raster", "CPNG"], swiftSettings: strict),

        // The X11 window: Present or MIT-SHM blit, vblanks, events. The only Swift code that imports CX11.
        .target(name: "X11Presenter", dependencies: ["CX11", "Raster"], swiftSettings: strict),

        // A layer tree in a window or off-screen: the one frame loop (link, render, present, events).
        .target(
            name: "LayerHost",
            dependencies: ["DisplayClock", "LiveLayers", "Raster", "X11Presenter"],
            swiftSettings: strict
        ),

        .executableTarget(
            name: "live-player",
            dependencies: [
                "DisplayClock", "Raster", "LiveLayers", "Lottie", "X11Presenter", "LayerHost",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),

        // Golden-image comparison shared by every test target.
        .target(name: "RasterTestSupport", dependencies: ["Raster"], path: "Tests/RasterTestSupport", swiftSettings: strict),

        // Starts a private Xvfb on a free display for the window tests, and plays the user and
        // the window manager there (X11TestClient). Test-only: no product ships it.
        .target(
            name: "X11TestSupport",
            dependencies: ["CX11", "CLinux", "Raster", "X11Presenter"],
            path: "Tests/X11TestSupport",
            swiftSettings: strict
        ),

        .testTarget(name: "DisplayClockTests", dependencies: ["DisplayClock"], swiftSettings: strict),
        .testTarget(
            name: "RasterTests",
            dependencies: ["Raster", "RasterTestSupport"],
            resources: [.copy("Goldens")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LiveLayersTests",
            dependencies: ["LiveLayers", "Raster", "RasterTestSupport"],
            resources: [.copy("Goldens")],
            swiftSettings: strict
        ),
        .testTarget(name: "LayerHostTests", dependencies: ["LayerHost", "LiveLayers", "Raster", "DisplayClock", "X11Presenter", "X11TestSupport"], swiftSettings: strict),
        // The Lottie corpus's scoring rule and an in-process renderer of its cases.
        .target(name: "LottieConformance", dependencies: ["Lottie", "LiveLayers", "Raster"], path: "Tests/LottieConformance", swiftSettings: strict),
        .testTarget(name: "LottieTests", dependencies: ["Lottie", "LiveLayers", "Raster", "LottieConformance"], swiftSettings: strict),
        .testTarget(name: "X11PresenterTests", dependencies: ["X11Presenter", "Raster", "DisplayClock", "X11TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "LivePlayerTests",
            dependencies: ["live-player", "Raster", "RasterTestSupport", "X11Presenter", "X11TestSupport"],
            resources: [.copy("Goldens")],
            swiftSettings: strict
        ),
    ]
)

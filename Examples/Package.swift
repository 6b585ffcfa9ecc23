// swift-tools-version: 6.1
// Examples of LiveLayers apps on LayerHost; each runs in a window, or headless with
// --headless --frames N --screenshot FILE.
import PackageDescription

let package = Package(
    name: "Examples",
    dependencies: [
        .package(name: "live-player", path: ".."),
    ],
    targets: [
        // The command line every example shares, and its windowed and headless runs.
        .target(
            name: "ExampleSupport",
            dependencies: [
                .product(name: "LayerHost", package: "live-player"),
                .product(name: "LiveLayers", package: "live-player"),
                .product(name: "Raster", package: "live-player"),
                .product(name: "X11Presenter", package: "live-player"),
                .product(name: "DisplayClock", package: "live-player"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(name: "Clock", dependencies: ["ExampleSupport"], swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(name: "Interactive", dependencies: ["ExampleSupport"], swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)

// swift-tools-version: 6.1
// Benchmarks for live-player: a sub-package, so the product's manifest carries no benchmark
// dependency. Peers (cairo) are linked here only, never into the product.
import PackageDescription

let package = Package(
    name: "live-player-benchmarks",
    dependencies: [
        .package(name: "live-player", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Real-time DisplayLink wake-up lateness against DispatchSourceTimer and Foundation Timer.
        .executableTarget(
            name: "clock-benchmark",
            dependencies: [.product(name: "DisplayClock", package: "live-player")],
            path: "Sources/clock-benchmark",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // cairo, the peer renderer (libcairo2-dev).
        .systemLibrary(
            name: "CCairo",
            path: "Sources/CCairo",
            pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"])]
        ),
        // Blend2D, the other peer: from PyPI's blend2d-python 1.0.0, unpacked by
        // peers/install-blend2d.sh into .peers/ (gitignored); found via PKG_CONFIG_PATH.
        .systemLibrary(name: "CBlend2D", path: "Sources/CBlend2D", pkgConfig: "blend2d-peer"),
        // The player's arrow frame drawn by Blend2D and cairo, for arrow-peers.sh (C, no Swift in the loop).
        .executableTarget(name: "arrow-peers", dependencies: ["CBlend2D", "CCairo"], path: "Sources/arrow-peers"),
        // The whole 1080p frame sent with XShmPutImage + XSync in a loop, for window-blit.sh (C).
        .executableTarget(
            name: "blit-benchmark",
            path: "Sources/blit-benchmark",
            linkerSettings: [.linkedLibrary("X11"), .linkedLibrary("Xext")]
        ),
        .executableTarget(
            name: "RasterBenchmarks",
            dependencies: [
                .product(name: "Raster", package: "live-player"),
                "CCairo",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/RasterBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "TextGradientBenchmarks",
            dependencies: [
                .product(name: "Raster", package: "live-player"),
                "CCairo",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/TextGradientBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The player's real scenes (a symlink to their sources) through LayerHost: the
        // per-frame allocation gate and the scaling tables (BENCHMARKS.md).
        .executableTarget(
            name: "SceneBenchmarks",
            dependencies: [
                .product(name: "LayerHost", package: "live-player"),
                .product(name: "LiveLayers", package: "live-player"),
                .product(name: "Lottie", package: "live-player"),
                .product(name: "DisplayClock", package: "live-player"),
                .product(name: "Raster", package: "live-player"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/SceneBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "LayersBenchmarks",
            dependencies: [
                .product(name: "LiveLayers", package: "live-player"),
                .product(name: "Raster", package: "live-player"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/LayersBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)

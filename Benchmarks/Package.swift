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

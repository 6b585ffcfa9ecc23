// LayersBenchmarks: presentation evaluation and tree rendering per frame (issue 4).
import Benchmark
import LiveLayers
import Raster

let benchmarks: @Sendable () -> Void = {
    Benchmark("placeholder") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Point(x: 1, y: 2)) }
    }
}

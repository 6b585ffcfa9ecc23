// RasterBenchmarks: the arrow fill and composite, ours against cairo, per frame (issue 3).
import Benchmark
import CCairo
import Raster

let benchmarks: @Sendable () -> Void = {
    Benchmark("bitmap clear 800x600") { benchmark in
        let bitmap = try Bitmap(width: 800, height: 600)
        for _ in benchmark.scaledIterations { bitmap.clear(to: 0xFF20_2020) }
        blackHole(bitmap[0, 0])
    }
}

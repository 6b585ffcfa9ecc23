// LineScene: the CADisplayLink post's frame-counted line beside a time-driven one.

import LiveLayers
import Raster

/// White background; a black 1 px line from (0, 0) to (p, p), p growing by one pixel per
/// delivered tick and the link's work stopping when p reaches the width (the seed's
/// frame-counted approach). Beside it, 20 px lower, a second line whose length follows elapsed
/// media time at 60 px/s. When frames drop, the black line lags behind the time-driven one.
/// Go restarts from p = 0; reverse runs the line back toward 0, a pixel per tick.
@MainActor
final class LineScene: Scene {
    let root = Layer()
    var onCycleComplete: (() -> Void)?
    private let counted = ShapeLayer()
    private let timed = ShapeLayer()
    private let hint: Hint
    private var size: Size
    /// The frame-counted length, in pixels.
    private var p = 0.0
    /// +1 growing, −1 shrinking, 0 stopped (the seed invalidates its link).
    private var direction = 0.0
    /// The media time go was pressed, and the length the timed line starts from.
    private var timedStart: (time: Double, length: Double)?
    private var timedDirection = 1.0
    private var timedEnd = 0.0
    private static let speed = 60.0

    init(setup: SceneSetup) {
        size = setup.size
        hint = Hint(in: setup.size, color: Color(white: 0.3))
        root.backgroundColor = .white
        for (layer, color) in [(counted, Color.black), (timed, Color(rgb: 0xD03030))] {
            layer.fillColor = nil
            layer.strokeColor = color
            layer.lineWidth = 1
            layer.lineCap = .square
            root.addSublayer(layer)
        }
        legend = imageLayer(textBitmap("black: +1 px per tick    red: 60 px/s of media time", color: Color(white: 0.35)), at: .zero)
        root.addSublayer(legend)
        root.addSublayer(hint.layer)
        resize(to: setup.size)
    }

    private let legend: Layer

    func resize(to size: Size) {
        self.size = size
        withoutActions {
            root.bounds = Rect(origin: .zero, size: size)
            root.position = Point(x: size.width / 2, y: size.height / 2)
            legend.position = Point(x: (8 + legend.bounds.width / 2).rounded(), y: (size.height - 48).rounded())
            for (layer, offset) in [(counted, 0.0), (timed, 20.0)] {
                layer.bounds = Rect(origin: .zero, size: size)
                layer.position = Point(x: size.width / 2, y: size.height / 2)
                layer.path = diagonal(length: size.width, offset: offset)
            }
        }
        hint.layout(in: size)
        updatePaths()
    }

    var needsFrames: Bool { direction != 0 || timedStart != nil }

    func go() {
        p = 0
        direction = 1
        timedStart = (LayerClock.currentTime, 0)
        timedDirection = 1
        hint.isVisible = false
        updatePaths()
    }

    func reverse() {
        guard p > 0 || timedLength(at: LayerClock.currentTime) > 0 else { return }
        direction = -1
        timedStart = (LayerClock.currentTime, timedLength(at: LayerClock.currentTime))
        timedDirection = -1
        hint.isVisible = false
    }

    /// One delivered tick: the counted line grows (or shrinks) by a pixel.
    func frameDelivered(at mediaTime: Double) {
        guard needsFrames else { return }
        if direction != 0 {
            p = min(size.width, max(0, p + direction))
            if p >= size.width || p <= 0 { direction = 0 }
        }
        updatePaths(at: mediaTime)
    }

    /// The time-driven length at media time `t`, clamped to 0...width.
    private func timedLength(at t: Double) -> Double {
        guard let start = timedStart else { return timedEnd }
        return min(size.width, max(0, start.length + timedDirection * (t - start.time) * Self.speed))
    }

    private func updatePaths(at now: Double = LayerClock.currentTime) {
        let length = timedLength(at: now)
        if timedStart != nil, (timedDirection > 0 && length >= size.width) || (timedDirection < 0 && length <= 0) {
            timedEnd = length
            timedStart = nil
        }
        if direction == 0 && timedStart == nil && !hint.isVisible {
            hint.isVisible = true
            onCycleComplete?()
        }
        // The paths span the whole width and strokeEnd shows the part drawn so far, as a
        // CAShapeLayer user would: a Double per tick instead of a new path (no allocation).
        let full = max(size.width, 1)
        withoutActions {
            counted.strokeEnd = p / full
            timed.strokeEnd = length / full
        }
    }

    private func diagonal(length: Double, offset: Double) -> Path {
        var path = Path()
        path.move(to: Point(x: 0.5, y: 0.5 + offset))
        path.addLine(to: Point(x: 0.5 + length, y: 0.5 + offset + length))
        return path
    }
}

// RaysScene: hero rays turning forever, and a container that resizes with the rays centred.

import LiveLayers
import Raster
#if canImport(Glibc)
import Glibc
#endif

/// Sixteen slices around the centre, every second one drawn (8 rays), of radius
/// sqrt(cx² + cy²) so they cover the window: a ray colour with a stroke over a secondary
/// background. They turn clockwise by 2π every 12 s forever (`transform.rotation.z`, repeat
/// count infinity), from when the scene appears. Go turns them clockwise from the current angle,
/// reverse counter-clockwise, without a jump. Keys 1-6 animate the container's size
/// (1 = smallest, 6 = full) while the rays stay centred, in step with it every frame.
@MainActor
final class RaysScene: Scene {
    let root = Layer()
    var onCycleComplete: (() -> Void)?
    private let container = Layer()
    private let rays = ShapeLayer()
    private let hint: Hint
    private var size: Size
    private var containerFraction = 1.0
    private var clockwise = true
    private static let key = "spin"
    static let background = Color(rgb: 0x17324D)
    static let secondary = Color(rgb: 0x24507A)
    static let rayColor = Color(rgb: 0x3B7FBF)
    static let strokeColor = Color(rgb: 0x8CC4F2)

    init(setup: SceneSetup) {
        size = setup.size
        hint = Hint(in: setup.size, text: "g/r turn, 1-6 resize")
        root.backgroundColor = Self.background
        container.backgroundColor = Self.secondary
        rays.fillColor = Self.rayColor
        rays.strokeColor = Self.strokeColor
        rays.lineWidth = 2
        rays.lineJoin = .round
        container.masksToBounds = true
        container.addSublayer(rays)
        root.addSublayer(container)
        root.addSublayer(hint.layer)
        layout()
        spin(clockwise: true)
    }

    private func layout() {
        withoutActions {
            root.bounds = Rect(origin: .zero, size: size)
            root.position = Point(x: size.width / 2, y: size.height / 2)
            let bounds = containerBounds(containerFraction)
            container.bounds = bounds
            container.position = Point(x: size.width / 2, y: size.height / 2)
            let (path, side) = Self.raysPath(for: size)
            rays.bounds = Rect(x: 0, y: 0, width: side, height: side)
            rays.path = path
            rays.position = Point(x: bounds.width / 2, y: bounds.height / 2)
            hint.layout(in: size)
        }
    }

    private func containerBounds(_ fraction: Double) -> Rect {
        Rect(x: 0, y: 0, width: (size.width * fraction).rounded(), height: (size.height * fraction).rounded())
    }

    func resize(to size: Size) {
        self.size = size
        layout()
    }

    func go() { if !clockwise { spin(clockwise: true) } }
    func reverse() { spin(clockwise: !clockwise) }

    /// Keys 1-6: the container goes to 50 % ... 100 % of the window over 1 s; the rays' position
    /// animates in the same transaction with the same timing, so they stay centred every frame.
    func choose(_ digit: Int) {
        guard (1...6).contains(digit) else { return }
        containerFraction = 0.5 + 0.1 * Double(digit - 1)
        let bounds = containerBounds(containerFraction)
        Transaction.begin()
        Transaction.animationDuration = 1
        Transaction.animationTimingFunction = .easeInEaseOut
        container.bounds = bounds
        rays.position = Point(x: bounds.width / 2, y: bounds.height / 2)
        Transaction.commit()
    }

    /// Turns the rays a full turn every 12 s, forever, starting from the angle on screen now.
    private func spin(clockwise: Bool) {
        self.clockwise = clockwise
        let angle = (rays.presentation()?.presentationValue(forKeyPath: "transform.rotation.z") as? Double)
            ?? (rays.value(forKeyPath: "transform.rotation.z") as? Double) ?? 0
        withoutActions { rays.transform = Transform(rotationAngle: angle) }
        let turn = BasicAnimation(keyPath: "transform.rotation.z")
        turn.fromValue = angle
        turn.toValue = angle + (clockwise ? 2 : -2) * .pi
        turn.duration = 12
        turn.repeatCount = .infinity
        turn.timingFunction = .linear
        rays.add(turn, forKey: Self.key)
    }

    /// Eight rays (every second of sixteen slices) of radius sqrt(cx² + cy²), in the coordinates
    /// of the square they fill, and that square's side. They are geometry, not a picture: each
    /// frame fills and strokes them at the frame's angle (a rotated picture would be resampled,
    /// every pixel of the frame, every frame).
    private static func raysPath(for size: Size) -> (Path, side: Double) {
        let diagonal = (size.width * size.width + size.height * size.height).squareRoot()
        let side = diagonal.rounded(.up) + 2
        let radius = diagonal / 2
        let c = Point(x: side / 2, y: side / 2)
        let slice = 2 * Double.pi / 16
        var path = Path()
        for i in stride(from: 0, to: 16, by: 2) {
            let a0 = Double(i) * slice, a1 = a0 + slice
            path.move(to: c)
            path.addLine(to: Point(x: c.x + radius * cos(a0), y: c.y + radius * sin(a0)))
            path.addLine(to: Point(x: c.x + radius * cos(a1), y: c.y + radius * sin(a1)))
            path.closeSubpath()
        }
        return (path, side)
    }
}

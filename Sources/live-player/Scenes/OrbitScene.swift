// OrbitScene: an arrow sprite flies along an arc to one of six buttons (the Korean post).

import LiveLayers
import Raster
#if canImport(Glibc)
import Glibc
#endif

/// Six buttons on a circle of radius 0.35·min(W, H). An arrow sprite (a layer whose contents is
/// a bitmap) starts at angle 1.5π (the top) and moves along the arc to the chosen button with a
/// keyframe animation on `position`: path = the arc, ease-in-ease-out, 1 s, rotation mode auto
/// when moving clockwise and auto-reverse counter-clockwise, fill mode forwards, not removed, so
/// it always points along the path. Buttons 1...6 sit clockwise from the top; 6 is at the top.
@MainActor
final class OrbitScene: Scene {
    let root = Layer()
    var onCycleComplete: (() -> Void)?
    private lazy var generation = TransactionGeneration { [weak self] _ in
        guard let self else { return }
        self.hint.isVisible = true
        self.onCycleComplete?()
    }
    /// The flight, set up again for each go: adding copies it, so one object serves.
    private let flight: KeyframeAnimation = {
        let flight = KeyframeAnimation(keyPath: "position")
        flight.duration = 1
        flight.timingFunction = .easeInEaseOut
        flight.fillMode = .forwards
        flight.isRemovedOnCompletion = false
        return flight
    }()
    private var buttons: [Layer] = []
    private let sprite: Layer
    private let hint: Hint
    private var size: Size
    /// The button the sprite is at or flying to, 1...6.
    private var current = 6
    private static let key = "orbit"

    init(setup: SceneSetup) {
        size = setup.size
        hint = Hint(in: setup.size, text: "press g, r or 1-6")
        root.backgroundColor = Color(rgb: 0x1B2233)
        sprite = imageLayer(Self.arrowSprite(), at: .zero)
        for n in 1...6 {
            let button = imageLayer(Self.buttonBitmap(n), at: .zero)
            buttons.append(button)
            root.addSublayer(button)
        }
        root.addSublayer(sprite)
        root.addSublayer(hint.layer)
        layout()
    }

    private var center: Point { Point(x: size.width / 2, y: size.height / 2) }
    private var radius: Double { 0.35 * min(size.width, size.height) }

    /// The angle of button `n`: 1.5π (the top) plus n sixths of a turn, clockwise on screen.
    private func angle(ofButton n: Int) -> Double { 1.5 * .pi + Double(n) * .pi / 3 }

    private func point(at angle: Double) -> Point {
        Point(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
    }

    private func layout() {
        withoutActions {
            root.bounds = Rect(origin: .zero, size: size)
            root.position = center
            for (i, button) in buttons.enumerated() { button.position = point(at: angle(ofButton: i + 1)) }
            sprite.removeAnimation(forKey: Self.key)
            sprite.position = point(at: angle(ofButton: current))
            sprite.transform = Transform(rotationAngle: angle(ofButton: current) + .pi / 2)
            hint.layout(in: size)
        }
    }

    func resize(to size: Size) {
        self.size = size
        layout()
    }

    func go() { fly(to: current % 6 + 1, clockwise: true) }
    func reverse() { fly(to: (current + 4) % 6 + 1, clockwise: false) }

    func choose(_ digit: Int) {
        guard (1...6).contains(digit), digit != current else { return }
        let steps = (digit - current + 6) % 6
        fly(to: digit, clockwise: steps <= 3)
    }

    private func fly(to target: Int, clockwise: Bool) {
        // Start from where the sprite is on screen now, so a change of course mid-flight never jumps.
        let from = sprite.presentation()?.position ?? sprite.position
        var start = atan2(from.y - center.y, from.x - center.x)
        var end = angle(ofButton: target)
        if clockwise { while end <= start + 1e-9 { end += 2 * .pi } } else { while end >= start - 1e-9 { end -= 2 * .pi } }
        if clockwise, end - start > 2 * .pi { start += 2 * .pi }
        // Built in the storage of the last flight's path (the added copy keeps its own).
        var path = flight.path ?? Path()
        flight.path = nil
        path.removeAll()
        path.addArc(center: center, radius: radius, startAngle: start, endAngle: end, clockwise: !clockwise)

        // Rotation mode turns the sprite on top of its model transform, so that one is plain.
        withoutActions {
            sprite.transform = .identity
            sprite.position = point(at: end)
        }
        hint.isVisible = false
        Transaction.begin()
        generation.setCompletion()
        flight.path = path
        flight.rotationMode = clockwise ? .auto : .autoReverse
        sprite.add(flight, forKey: Self.key)
        Transaction.commit()
        current = target
    }

    /// A 44×28 arrow pointing right (+x), which rotation mode auto turns along the path.
    private static func arrowSprite() -> Bitmap {
        let bitmap = try! Bitmap(width: 44, height: 28)
        let context = GraphicsContext(bitmap: bitmap)
        var arrow = Path()
        arrow.move(to: Point(x: 2, y: 10))
        arrow.addLine(to: Point(x: 24, y: 10))
        arrow.addLine(to: Point(x: 24, y: 2))
        arrow.addLine(to: Point(x: 42, y: 14))
        arrow.addLine(to: Point(x: 24, y: 26))
        arrow.addLine(to: Point(x: 24, y: 18))
        arrow.addLine(to: Point(x: 2, y: 18))
        arrow.closeSubpath()
        context.setFillColor(Color(rgb: 0xFFB000))
        context.fill(arrow)
        return bitmap
    }

    /// A 48×48 round button with its number.
    private static func buttonBitmap(_ n: Int) -> Bitmap {
        let bitmap = try! Bitmap(width: 48, height: 48)
        let context = GraphicsContext(bitmap: bitmap)
        context.setFillColor(Color(rgb: 0x3A7BD5))
        context.addEllipse(in: Rect(x: 2, y: 2, width: 44, height: 44))
        context.fillPath()
        let label = "\(n)"
        let textSize = PixelFont.standard.size(of: label, scale: 3)
        PixelFont.standard.draw(label, into: bitmap, at: Point(x: ((48 - textSize.width) / 2).rounded(), y: ((48 - textSize.height) / 2).rounded()), scale: 3, color: .white)
        return bitmap
    }
}

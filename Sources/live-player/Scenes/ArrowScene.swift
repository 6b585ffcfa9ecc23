// ArrowScene: an image in the largest centred square, masked by the seed's circular arrow.

import LiveLayers
import Raster

/// The seed's ArrowLayer answer: an image fills the largest centred square (side S) and its
/// layer's mask is an ``ArrowLayer`` with frame = the image's bounds, outer radius S/2,
/// thickness 60·S/600, start −π/2, head π/16, white fill. The background (#202020) shows
/// wherever the masked image does not. Go sweeps `lengthRadians` from 0 to 2π, linear, 2 s,
/// autoreversing, in a transaction whose completion block shows the "press g" hint again.
@MainActor
final class ArrowScene: Scene {
    let root = Layer()
    var onCycleComplete: (() -> Void)?
    private let imageLayer = Layer()
    private let arrow = ArrowLayer()
    private let hint: Hint
    private let picture: Bitmap
    private lazy var generation = TransactionGeneration { [weak self] completesCycle in
        guard let self else { return }
        self.hint.isVisible = true
        if completesCycle { self.onCycleComplete?() }
    }
    /// The sweep, set up again for each go or reverse: adding copies it, so one object serves.
    private let sweepAnimation = BasicAnimation(keyPath: "lengthRadians")
    private static let key = "sweep"

    init(setup: SceneSetup) {
        picture = setup.image ?? Self.builtInPicture()
        hint = Hint(in: setup.size)
        root.backgroundColor = Color(rgb: 0x202020)
        imageLayer.contentsGravity = .resize
        arrow.startRadians = -.pi / 2
        arrow.headLengthRadians = .pi / 16
        arrow.fillColor = .white
        arrow.lengthRadians = 0
        imageLayer.mask = arrow
        root.addSublayer(imageLayer)
        root.addSublayer(hint.layer)
        resize(to: setup.size)
    }

    func resize(to size: Size) {
        let side = max(1, min(size.width, size.height).rounded(.down))
        withoutActions {
            root.bounds = Rect(origin: .zero, size: size)
            root.position = Point(x: size.width / 2, y: size.height / 2)
            // The picture is scaled to the square once here, and the square sits on whole pixels,
            // so each frame composites it 1:1 instead of resampling it.
            imageLayer.contents = Self.scaled(picture, toSide: Int(side))
            imageLayer.bounds = Rect(x: 0, y: 0, width: side, height: side)
            let origin = Point(x: ((size.width - side) / 2).rounded(.down), y: ((size.height - side) / 2).rounded(.down))
            imageLayer.position = Point(x: origin.x + side / 2, y: origin.y + side / 2)
            arrow.frame = imageLayer.bounds
            arrow.thickness = 60 * side / 600
            arrow.setNeedsDisplay()
        }
        hint.layout(in: size)
    }

    /// The seed's animation, from the start.
    func go() {
        sweep(from: 0, to: 2 * .pi, duration: 2, autoreverses: true, completesCycle: true)
    }

    /// Turns a running sweep back from where it is; when idle, sweeps backwards from 2π to 0.
    func reverse() {
        if let running = arrow.animation(forKey: Self.key) as? BasicAnimation, running.autoreverses == false,
           arrow.reverseAnimation(forKey: Self.key) != nil {
            return
        }
        if arrow.animation(forKey: Self.key) != nil {
            // In flight (the autoreversing sweep): back to 0 from the value on screen, at the same speed.
            let now = arrow.presentation()?.lengthRadians ?? arrow.lengthRadians
            sweep(from: now, to: 0, duration: 2 * abs(now) / (2 * .pi), autoreverses: false, completesCycle: false)
        } else {
            sweep(from: 2 * .pi, to: 0, duration: 2, autoreverses: false, completesCycle: false)
        }
    }

    private func sweep(from: Double, to: Double, duration: Double, autoreverses: Bool, completesCycle: Bool) {
        hint.isVisible = false
        Transaction.begin()
        generation.setCompletion(flag: completesCycle)
        let animation = sweepAnimation
        animation.fromValue = from
        animation.toValue = to
        animation.duration = max(duration, 1.0 / 60)
        animation.timingFunction = .linear
        animation.autoreverses = autoreverses
        arrow.add(animation, forKey: Self.key)
        Transaction.commit()
    }

    /// `image` resampled (bilinear) to `side`×`side`.
    static func scaled(_ image: Bitmap, toSide side: Int) -> Bitmap {
        guard image.width != side || image.height != side, let out = try? Bitmap(width: side, height: side) else { return image }
        GraphicsContext(bitmap: out).draw(image, in: Rect(x: 0, y: 0, width: Double(side), height: Double(side)))
        return out
    }

    /// The built-in picture: a 512×512 sunset of gradients and circles, deterministic.
    static func builtInPicture() -> Bitmap {
        let side = 512
        let bitmap = try! Bitmap(width: side, height: side)
        let context = GraphicsContext(bitmap: bitmap)
        let sky = Gradient(stops: [(0, Color(rgb: 0x1D2B64)), (0.55, Color(rgb: 0xF8696B)), (1, Color(rgb: 0xFFD56B))])
        context.setFillPaint(.linearGradient(sky, start: Point(x: 0, y: 0), end: Point(x: 0, y: Double(side))))
        context.fill(Rect(x: 0, y: 0, width: Double(side), height: Double(side)))
        context.setFillColor(Color(rgb: 0xFFF2B0))
        context.addEllipse(in: Rect(x: 176, y: 220, width: 160, height: 160))
        context.fillPath()
        let sea = Gradient(stops: [(0, Color(rgb: 0x0E4D64)), (1, Color(rgb: 0x06202B))])
        context.setFillPaint(.linearGradient(sea, start: Point(x: 0, y: 330), end: Point(x: 0, y: Double(side))))
        var hills = Path()
        hills.move(to: Point(x: 0, y: 340))
        hills.addCurve(to: Point(x: 256, y: 330), control1: Point(x: 80, y: 300), control2: Point(x: 170, y: 360))
        hills.addCurve(to: Point(x: 512, y: 320), control1: Point(x: 340, y: 300), control2: Point(x: 430, y: 350))
        hills.addLine(to: Point(x: 512, y: 512))
        hills.addLine(to: Point(x: 0, y: 512))
        hills.closeSubpath()
        context.fill(hills)
        return bitmap
    }
}

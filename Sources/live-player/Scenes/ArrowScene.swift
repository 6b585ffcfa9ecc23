// ArrowScene: an image in the largest centred square, masked by the seed's circular arrow.
// Interim: the ArrowLayer mask arrives with LiveLayers' ArrowLayer.

import LiveLayers
import Raster

@MainActor
final class ArrowScene: Scene {
    let root = Layer()
    var onCycleComplete: (() -> Void)?
    private let imageLayer = Layer()
    private let hint: Hint
    private let picture: Bitmap

    init(setup: SceneSetup) {
        picture = setup.image ?? Self.builtInPicture()
        hint = Hint(in: setup.size)
        root.backgroundColor = Color(rgb: 0x202020)
        imageLayer.contents = picture
        imageLayer.contentsGravity = .resize
        root.addSublayer(imageLayer)
        root.addSublayer(hint.layer)
        resize(to: setup.size)
    }

    func resize(to size: Size) {
        let side = min(size.width, size.height)
        withoutActions {
            root.bounds = Rect(origin: .zero, size: size)
            root.position = Point(x: size.width / 2, y: size.height / 2)
            imageLayer.bounds = Rect(x: 0, y: 0, width: side, height: side)
            imageLayer.position = Point(x: size.width / 2, y: size.height / 2)
        }
        hint.layout(in: size)
    }

    func go() {}
    func reverse() {}

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

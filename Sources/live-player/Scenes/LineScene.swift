// LineScene: interim, until LiveLayers' ShapeLayer and custom drawing land: background and hint only.

import LiveLayers
import Raster

@MainActor
final class LineScene: Scene {
    let root = Layer()
    var onCycleComplete: (() -> Void)?
    private let hint: Hint

    init(setup: SceneSetup) {
        hint = Hint(in: setup.size, color: Color(white: 0.3))
        root.backgroundColor = .white
        root.addSublayer(hint.layer)
        resize(to: setup.size)
    }

    func resize(to size: Size) {
        withoutActions {
            root.bounds = Rect(origin: .zero, size: size)
            root.position = Point(x: size.width / 2, y: size.height / 2)
        }
        hint.layout(in: size)
    }

    func go() {}
    func reverse() {}
}

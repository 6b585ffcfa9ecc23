// FillModesScene: four squares, one per fill mode, sliding 3 s after go (the Chinese post).

import LiveLayers
import Raster

/// Four 50×50 squares animate `position.x` from 25 to 300 (pixels at 640 wide, scaled with the
/// width) over 5 s, beginning 3 s after go, ease-in-ease-out, not removed on completion; one per
/// fill mode. The model position is halfway (162.5), and an outline marks it, so the four states
/// show apart: before the begin, backwards and both hold 25 while removed and forwards sit at the
/// model; after the end, forwards and both hold 300 while removed and backwards return to it.
@MainActor
final class FillModesScene: Scene {
    let root = Layer()
    var onCycleComplete: (() -> Void)?
    private lazy var generation = TransactionGeneration { [weak self] completesCycle in
        guard let self else { return }
        self.hint.isVisible = true
        if completesCycle { self.onCycleComplete?() }
    }
    /// Each square's slide, set up again for each go or reverse: adding copies it, so one
    /// object per square serves.
    private var slides: [BasicAnimation] = []
    private let modes: [(FillMode, String)] = [(.removed, "removed"), (.forwards, "forwards"), (.backwards, "backwards"), (.both, "both")]
    private var squares: [Layer] = []
    private var outlines: [Layer] = []
    private var labels: [Layer] = []
    private let hint: Hint
    private var size: Size
    private static let key = "slide"
    private static let colors = [Color(rgb: 0xE04F5F), Color(rgb: 0x4FA3E0), Color(rgb: 0x5FC46A), Color(rgb: 0xE0B44F)]

    init(setup: SceneSetup) {
        size = setup.size
        hint = Hint(in: setup.size, color: Color(white: 0.2))
        root.backgroundColor = Color(rgb: 0xF2F2F2)
        for (i, (_, name)) in modes.enumerated() {
            let label = imageLayer(textBitmap(name, scale: setup.size.width >= 480 ? 2 : 1, color: Color(white: 0.15)), at: .zero)
            let outline = Layer()
            outline.borderWidth = 1
            outline.borderColor = Color(white: 0.1)
            let square = Layer()
            square.backgroundColor = Self.colors[i]
            root.addSublayer(label)
            root.addSublayer(square)
            root.addSublayer(outline)
            labels.append(label)
            outlines.append(outline)
            squares.append(square)
            let slide = BasicAnimation(keyPath: "position.x")
            slide.timingFunction = .easeInEaseOut
            slide.fillMode = modes[i].0
            slide.isRemovedOnCompletion = false
            slides.append(slide)
        }
        root.addSublayer(hint.layer)
        layout()
    }

    private var scale: Double { size.width / 640 }
    private func startX() -> Double { 25 * scale }
    private func endX() -> Double { 300 * scale }
    private func modelX() -> Double { 162.5 * scale }

    private func layout() {
        withoutActions {
            root.bounds = Rect(origin: .zero, size: size)
            root.position = Point(x: size.width / 2, y: size.height / 2)
            let side = 50 * scale
            for i in squares.indices {
                let y = size.height * (0.17 + 0.19 * Double(i))
                let labelSize = labels[i].bounds.size
                labels[i].position = Point(x: (8 + labelSize.width / 2).rounded(), y: (y - side / 2 - 4 - labelSize.height / 2).rounded())
                for layer in [squares[i], outlines[i]] {
                    layer.bounds = Rect(x: 0, y: 0, width: side, height: side)
                    layer.position = Point(x: modelX(), y: y)
                }
            }
            hint.layout(in: size)
        }
    }

    func resize(to size: Size) {
        self.size = size
        layout()
    }

    func go() {
        hint.isVisible = false
        Transaction.begin()
        generation.setCompletion(flag: true)
        for (i, square) in squares.enumerated() {
            let slide = slides[i]
            slide.fromValue = startX()
            slide.toValue = endX()
            slide.duration = 5
            slide.beginTime = square.convertTime(LayerClock.currentTime, from: nil) + 3
            square.add(slide, forKey: Self.key)
        }
        Transaction.commit()
    }

    /// Plays each square back to its start from where it is now: the running animation is
    /// reversed in place; a finished or waiting one is replaced by a slide back from the
    /// presentation value, as long as the way back.
    func reverse() {
        hint.isVisible = false
        Transaction.begin()
        generation.setCompletion(flag: false)
        for (i, square) in squares.enumerated() {
            if square.reverseAnimation(forKey: Self.key) != nil { continue }
            let x = (square.presentation()?.position.x ?? square.position.x)
            guard abs(x - startX()) > 0.01 else { continue }
            // Removed and backwards squares show the model once done; they slide back from there.
            let back = slides[i]
            back.fromValue = x
            back.toValue = startX()
            back.duration = 5 * abs(x - startX()) / (endX() - startX())
            back.beginTime = 0
            square.add(back, forKey: Self.key)
        }
        Transaction.commit()
    }
}

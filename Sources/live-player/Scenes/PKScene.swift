// PKScene: two vote bars meeting at a slanted edge, animated by progress (the Chinese post).

import LiveLayers
import Raster

/// Two vote bars (``VoteBarLayer``) across 80 % of the width. Go animates the left bar from
/// 0.5 to 0.7 and the right from 0.5 to 0.3 over 3 s, ease-in-ease-out, fill mode forwards, not
/// removed; reverse goes back to 0.5 / 0.5 from wherever the bars are.
@MainActor
final class PKScene: Scene {
    let root = Layer()
    var onCycleComplete: (() -> Void)?
    private lazy var generation = TransactionGeneration { [weak self] completesCycle in
        guard let self else { return }
        self.hint.isVisible = true
        if completesCycle { self.onCycleComplete?() }
    }
    /// Each bar's vote, set up again for each change: adding copies it, so one object serves.
    private let votes = [BasicAnimation(keyPath: "progress"), BasicAnimation(keyPath: "progress")]
    private let left = VoteBarLayer()
    private let right = VoteBarLayer()
    private let labels: [Layer]
    private let hint: Hint
    private static let key = "vote"

    init(setup: SceneSetup) {
        hint = Hint(in: setup.size, color: Color(white: 0.3))
        root.backgroundColor = Color(rgb: 0xFAFAFA)
        left.barColor = Color(rgb: 0xE8453C)
        right.barColor = Color(rgb: 0x3C7BE8)
        right.growsFromRight = true
        labels = [imageLayer(textBitmap("RED", scale: 2, color: Color(rgb: 0xE8453C)), at: .zero),
                  imageLayer(textBitmap("BLUE", scale: 2, color: Color(rgb: 0x3C7BE8)), at: .zero)]
        for layer in [left, right] + labels { root.addSublayer(layer) }
        root.addSublayer(hint.layer)
        resize(to: setup.size)
    }

    func resize(to size: Size) {
        let width = (size.width * 0.8).rounded()
        withoutActions {
            root.bounds = Rect(origin: .zero, size: size)
            root.position = Point(x: size.width / 2, y: size.height / 2)
            for bar in [left, right] {
                bar.bounds = Rect(x: 0, y: 0, width: width, height: VoteBarLayer.barHeight + 4)
                bar.position = Point(x: size.width / 2, y: (size.height / 2).rounded())
                bar.setNeedsDisplay()
            }
            let x0 = (size.width - width) / 2, labelY = (size.height / 2 - 40).rounded()
            labels[0].position = Point(x: (x0 + labels[0].bounds.width / 2).rounded(), y: labelY)
            labels[1].position = Point(x: (x0 + width - labels[1].bounds.width / 2).rounded(), y: labelY)
        }
        hint.layout(in: size)
    }

    func go() { vote(left: 0.7, right: 0.3, completesCycle: true) }
    func reverse() { vote(left: 0.5, right: 0.5, completesCycle: false) }

    /// Go from the even start; from where go ends (which a second go leaves alone), back to the
    /// start as a cycle of its own.
    func autoplayNext() {
        let leftNow = left.presentation()?.progress ?? left.progress
        if abs(leftNow - 0.7) < 1e-6 {
            vote(left: 0.5, right: 0.5, completesCycle: true)
        } else {
            go()
        }
    }

    private func vote(left leftTarget: Double, right rightTarget: Double, completesCycle: Bool) {
        let leftNow = left.presentation()?.progress ?? left.progress
        let rightNow = right.presentation()?.progress ?? right.progress
        let distance = max(abs(leftTarget - leftNow), abs(rightTarget - rightNow))
        guard distance > 1e-6 else { return }
        hint.isVisible = false
        Transaction.begin()
        generation.setCompletion(flag: completesCycle)
        for (animation, bar, from, to) in [(votes[0], left, leftNow, leftTarget), (votes[1], right, rightNow, rightTarget)] {
            animation.fromValue = from
            animation.toValue = to
            // Three seconds for the whole 0.2 swing; a partial way back takes its share.
            animation.duration = 3 * distance / 0.2
            animation.timingFunction = .easeInEaseOut
            animation.fillMode = .forwards
            animation.isRemovedOnCompletion = false
            bar.add(animation, forKey: Self.key)
        }
        Transaction.commit()
    }
}

// Clock: an analog clock whose hands are custom layers, turned by the display link each frame.
import ExampleSupport

/// A hand: a rounded bar drawn by the layer itself, turned about its bottom centre.
final class HandLayer: Layer {
    @LayerProperty var color: Color = .white
    override class func needsDisplay(forKey key: String) -> Bool { key == "color" || super.needsDisplay(forKey: key) }
    override func draw(in context: GraphicsContext) {
        var bar = Path()
        bar.addRoundedRect(in: bounds, cornerWidth: bounds.width / 2, cornerHeight: bounds.width / 2)
        context.setFillColor(color)
        context.fill(bar)
    }
}

let root = Layer(), dial = Layer()
root.frame = Rect(x: 0, y: 0, width: 240, height: 240)
root.backgroundColor = Color(white: 0.12)
dial.frame = Rect(x: 20, y: 20, width: 200, height: 200)
(dial.cornerRadius, dial.borderWidth, dial.borderColor) = (100, 4, Color(white: 0.85))
root.addSublayer(dial)
let hands = [(6.0, 60.0, Color(white: 0.9)), (4, 85, Color(white: 0.9)), (2, 92, Color(red: 1, green: 0.3, blue: 0.2))].map { width, length, color in
    let hand = HandLayer()
    hand.color = color
    (hand.bounds, hand.anchorPoint, hand.position) = (Rect(x: 0, y: 0, width: width, height: length), Point(x: 0.5, y: 1), Point(x: 120, y: 120))
    root.addSublayer(hand)
    return hand
}
// Headless runs show 10:08:30, so their screenshots are always the same.
let start = isHeadlessRun ? 36_510 : secondsSinceMidnight()
var firstTimestamp: Double?
runExample(title: "Clock", width: 240, height: 240, root: root, onFrame: { frame in
    let seconds = start + frame.targetTimestamp - (firstTimestamp ?? frame.targetTimestamp)
    if firstTimestamp == nil { firstTimestamp = frame.targetTimestamp }
    Transaction.perform(disableActions: true) {
        for (hand, period) in zip(hands, [43_200.0, 3600, 60]) { hand.transform = Transform(rotationAngle: seconds / period * 2 * .pi) }
    }
})

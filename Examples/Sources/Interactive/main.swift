// Interactive: drag the ball and it springs home; click it to play its colours, again to reverse them.
import ExampleSupport

let root = Layer(), ball = Layer()
root.frame = Rect(x: 0, y: 0, width: 320, height: 240)  // at the origin: window pixels are its coordinates
root.backgroundColor = Color(white: 0.12)
ball.frame = Rect(x: 130, y: 90, width: 60, height: 60)
(ball.cornerRadius, ball.backgroundColor) = (30, Color(red: 0.2, green: 0.5, blue: 1))
root.addSublayer(ball)
let home = ball.position, colors = [Color(red: 0.2, green: 0.5, blue: 1), Color(red: 1, green: 0.6, blue: 0.1), Color(red: 0.3, green: 0.9, blue: 0.4)]
var grab: Point?, dragged = false, forward = false, keyframesBegan = -Double.infinity

runExample(title: "Interactive", width: 320, height: 240, root: root, onEvent: { event in
    switch event {
    case let .pointerDown(pointer) where pointer.button == .primary && ball.frame.contains(pointer.location):
        (grab, dragged) = (pointer.location - ball.position, false)
    case let .pointerMoved(pointer):
        guard let grab else { return }
        dragged = true
        Transaction.perform(disableActions: true) { ball.position = pointer.location - grab }
    case .pointerUp where grab != nil && dragged:
        grab = nil
        let spring = SpringAnimation(keyPath: "position")
        (spring.fromValue, spring.toValue, spring.damping) = (ball.position, home, 8)
        spring.duration = spring.settlingDuration
        Transaction.perform(disableActions: true) { ball.position = home }
        ball.add(spring, forKey: "spring")
    case .pointerUp where grab != nil:
        // A click: the colours run the other way from where they are now (begun that long ago).
        grab = nil
        let now = LayerClock.currentTime, played = min(1.2, now - keyframesBegan)
        forward.toggle()
        let cycle = KeyframeAnimation(keyPath: "backgroundColor")
        (cycle.values, cycle.duration, cycle.fillMode, cycle.isRemovedOnCompletion) = (forward ? colors : colors.reversed(), 1.2, .forwards, false)
        (cycle.beginTime, keyframesBegan) = (now - (1.2 - played), now - (1.2 - played))
        ball.add(cycle, forKey: "colors")
    default: break
    }
})

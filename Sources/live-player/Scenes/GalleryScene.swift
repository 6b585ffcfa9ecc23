// GalleryScene: the rest of the layer kit animating side by side: text, gradients, a replicator,
// shadows, group opacity and blend modes.

import LiveLayers
import Raster

/// Six tiles, each animating one part of the kit, all repeating forever from the start:
/// a clock in a ``TextLayer`` (updated once a second), a gradient sweep (`locations`), a conic
/// gradient turning, the classic replicator spinner (`instanceDelay`), a card whose shadow
/// moves, and a strip of blend modes (`compositingFilter`) sliding over a gradient, with a
/// group-opacity pair. Go restarts them all (and completes a cycle after 4 s, for --autoplay);
/// reverse restarts them too.
@MainActor
final class GalleryScene: Scene {
    let root = Layer()
    var onCycleComplete: (() -> Void)?
    var animatesForever: Bool { true }
    private lazy var generation = TransactionGeneration { [weak self] _ in self?.onCycleComplete?() }
    private var size: Size
    private var tiles: [Layer] = []
    private var titles: [TextLayer] = []
    private let clock = TextLayer()
    private var shownSecond = -1
    private let sweep = GradientLayer()
    private let conic = GradientLayer()
    private let spinner = ReplicatorLayer()
    private let dot = Layer()
    private let card = Layer()
    private let strip = Layer()
    private let stripBackdrop = GradientLayer()
    private let group = Layer()
    private static let names = ["TextLayer", "GradientLayer", "conic gradient", "ReplicatorLayer", "shadow", "blend modes"]
    private static let modes: [BlendFunction] = [.multiply, .screen, .overlay, .darken, .lighten, .colorDodge, .colorBurn,
                                                 .hardLight, .softLight, .difference, .exclusion, .hue, .saturation, .color, .luminosity]

    init(setup: SceneSetup) {
        size = setup.size
        root.backgroundColor = Color(rgb: 0xECEFF3)
        for name in Self.names {
            let tile = Layer()
            tile.backgroundColor = .white
            tile.cornerRadius = 10
            tile.masksToBounds = name != "shadow"
            let title = TextLayer()
            title.string = name
            title.foregroundColor = Color(white: 0.35)
            title.alignmentMode = .center
            root.addSublayer(tile)
            root.addSublayer(title)
            tiles.append(tile)
            titles.append(title)
        }
        tiles[4].backgroundColor = nil
        clock.foregroundColor = Color(rgb: 0x1D2B3A)
        clock.alignmentMode = .center
        tiles[0].addSublayer(clock)

        sweep.colors = [Color(rgb: 0x5B6B7C), Color(rgb: 0xF4F7FA), Color(rgb: 0x5B6B7C)]
        sweep.locations = [0, 0.1, 0.2]
        sweep.startPoint = Point(x: 0, y: 0.3)
        sweep.endPoint = Point(x: 1, y: 0.7)
        tiles[1].addSublayer(sweep)

        conic.type = .conic
        conic.colors = [Color(rgb: 0xFF5E62), Color(rgb: 0xFFC371), Color(rgb: 0x47CF73), Color(rgb: 0x3C7BE8), Color(rgb: 0xFF5E62)]
        conic.startPoint = Point(x: 0.5, y: 0.5)
        conic.endPoint = Point(x: 0.5, y: 0)
        tiles[2].addSublayer(conic)

        dot.backgroundColor = Color(rgb: 0x3C7BE8)
        spinner.instanceCount = 12
        spinner.instanceTransform = Transform(rotationAngle: 2 * .pi / 12)
        spinner.instanceDelay = 1.0 / 12
        spinner.instanceGreenOffset = -0.04
        spinner.addSublayer(dot)
        tiles[3].addSublayer(spinner)

        card.backgroundColor = .white
        card.cornerRadius = 12
        card.shadowOpacity = 0.4
        card.shadowRadius = 10
        card.shadowOffset = Size(width: 0, height: 8)
        let accent = Layer()
        accent.backgroundColor = Color(rgb: 0xFF5E62)
        accent.cornerRadius = 12
        accent.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMinYCorner]
        card.addSublayer(accent)
        tiles[4].addSublayer(card)

        stripBackdrop.colors = [Color(rgb: 0x1E3C72), Color(rgb: 0xE0C040), Color(rgb: 0x802040)]
        stripBackdrop.startPoint = Point(x: 0, y: 0.5)
        stripBackdrop.endPoint = Point(x: 1, y: 0.5)
        tiles[5].addSublayer(stripBackdrop)
        for (i, mode) in Self.modes.enumerated() {
            let swatch = Layer()
            swatch.backgroundColor = Color(red: Double(i % 5) / 4, green: 0.55, blue: Double(i / 5) / 2, alpha: 0.9)
            swatch.compositingFilter = mode
            strip.addSublayer(swatch)
        }
        tiles[5].addSublayer(strip)
        group.opacity = 0.5
        for color in [Color(rgb: 0x3C7BE8), Color(rgb: 0xFF5E62)] {
            let square = Layer()
            square.backgroundColor = color
            group.addSublayer(square)
        }
        tiles[5].addSublayer(group)

        layout()
        startAnimations()
    }

    private func layout() {
        withoutActions {
            root.bounds = Rect(origin: .zero, size: size)
            root.position = Point(x: size.width / 2, y: size.height / 2)
            let margin = (min(size.width, size.height) * 0.03).rounded()
            let titleSize = max(9, (min(size.width, size.height) / 32).rounded())
            let w = ((size.width - 4 * margin) / 3).rounded(.down)
            let h = ((size.height - 3 * margin) / 2 - titleSize * 1.5).rounded(.down)
            for (i, tile) in tiles.enumerated() {
                let x = margin + Double(i % 3) * (w + margin)
                let y = margin + Double(i / 3) * (h + margin + titleSize * 1.5)
                tile.frame = Rect(x: x, y: y, width: w, height: max(1, h))
                titles[i].fontSize = titleSize
                titles[i].frame = Rect(x: x, y: y + h + 2, width: w, height: titleSize * 1.4)
            }
            let inner = Rect(x: 0, y: 0, width: w, height: max(1, h))
            clock.fontSize = (min(w, h) / 4).rounded()
            clock.frame = Rect(x: 0, y: (h - clock.fontSize * 1.2) / 2, width: w, height: clock.fontSize * 1.3)
            sweep.frame = inner
            let side = min(w, h) * 0.8
            conic.frame = Rect(x: (w - side) / 2, y: (h - side) / 2, width: side, height: side)
            conic.cornerRadius = side / 2
            conic.masksToBounds = true
            spinner.frame = Rect(x: (w - side) / 2, y: (h - side) / 2, width: side, height: side)
            let dotSide = max(2, (side / 9).rounded())
            dot.frame = Rect(x: (side - dotSide) / 2, y: side * 0.05, width: dotSide, height: dotSide)
            dot.cornerRadius = dotSide / 2
            card.frame = Rect(x: w * 0.2, y: h * 0.2, width: w * 0.6, height: h * 0.55)
            card.sublayers.first?.frame = Rect(x: 0, y: 0, width: w * 0.6, height: h * 0.15)
            stripBackdrop.frame = inner
            let swatch = (w / 8).rounded(.down)
            strip.frame = Rect(x: 0, y: h * 0.1, width: swatch * Double(Self.modes.count), height: h * 0.4)
            for (i, s) in strip.sublayers.enumerated() {
                s.frame = Rect(x: Double(i) * swatch + 1, y: 0, width: swatch - 2, height: h * 0.4)
                s.cornerRadius = swatch / 3
            }
            group.frame = Rect(x: w * 0.3, y: h * 0.58, width: w * 0.4, height: h * 0.36)
            for (i, square) in group.sublayers.enumerated() {
                square.frame = Rect(x: Double(i) * w * 0.13, y: Double(i) * h * 0.1, width: w * 0.27, height: h * 0.26)
            }
        }
    }

    /// An animation that loops forever.
    private static func forever(_ keyPath: String, from: any Interpolatable, to: any Interpolatable, duration: Double,
                                autoreverses: Bool = false) -> BasicAnimation {
        let a = BasicAnimation(keyPath: keyPath)
        a.fromValue = from
        a.toValue = to
        a.duration = duration
        a.repeatCount = .infinity
        a.autoreverses = autoreverses
        a.timingFunction = autoreverses ? .easeInEaseOut : .linear
        return a
    }

    /// The looping animations and the layers they run on, made once: adding copies them, so
    /// each go adds the same objects again. The strip's end points follow the layout.
    private lazy var loops: [(BasicAnimation, Layer)] = [
        (Self.forever("locations", from: [-0.2, -0.1, 0.0], to: [1.0, 1.1, 1.2], duration: 1.6), sweep),
        (Self.forever("transform.rotation.z", from: 0.0, to: 2 * Double.pi, duration: 4), conic),
        (Self.forever("opacity", from: 1.0, to: 0.15, duration: 1), dot),
        (Self.forever("shadowOffset", from: Size(width: -14, height: 4), to: Size(width: 14, height: 14), duration: 2,
                      autoreverses: true), card),
        (Self.forever("shadowRadius", from: 4.0, to: 14.0, duration: 2, autoreverses: true), card),
        (Self.forever("position.x", from: 0.0, to: 0.0, duration: 6, autoreverses: true), strip),
    ]

    /// A four-second pulse of the clock's colour, which marks a go cycle.
    private let pulse: BasicAnimation = {
        let pulse = BasicAnimation(keyPath: "foregroundColor")
        pulse.fromValue = Color(rgb: 0x3C7BE8)
        pulse.toValue = Color(rgb: 0x1D2B3A)
        pulse.duration = 4
        return pulse
    }()

    private func startAnimations() {
        let travel = max(0, strip.bounds.width - tiles[5].bounds.width)
        for (animation, layer) in loops {
            if layer === strip {
                animation.fromValue = strip.position.x
                animation.toValue = strip.position.x - travel
            }
            layer.add(animation, forKey: animation.keyPath)
        }
    }

    func resize(to size: Size) {
        self.size = size
        layout()
        startAnimations()
    }

    func frameDelivered(at mediaTime: Double) {
        let second = Int(max(0, mediaTime).rounded(.down))
        guard second != shownSecond else { return }
        shownSecond = second
        withoutActions { clock.string = Self.clockText(second) }
    }

    /// "mm:ss" for a number of seconds.
    static func clockText(_ seconds: Int) -> String {
        let m = seconds / 60 % 100, s = seconds % 60
        return (m < 10 ? "0" : "") + String(m) + ":" + (s < 10 ? "0" : "") + String(s)
    }

    func go() {
        Transaction.begin()
        // The tiles repeat forever, so they are added before the completion block is set: as in
        // Core Animation, the block waits only for animations added after it, here the pulse.
        startAnimations()
        generation.setCompletion()
        // The pulse marks the cycle, for --autoplay.
        clock.add(pulse, forKey: "pulse")
        Transaction.commit()
    }

    func reverse() { go() }
}

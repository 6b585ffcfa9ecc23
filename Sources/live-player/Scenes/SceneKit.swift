// SceneKit: small pieces the scenes share: text bitmaps, the "press g" hint, model updates.

import LiveLayers
import Raster

/// A transparent bitmap with `text` drawn in the pixel font, for a layer's contents.
func textBitmap(_ text: String, scale: Int = 1, color: Color = .white) -> Bitmap {
    let size = PixelFont.standard.size(of: text, scale: scale)
    let bitmap = try! Bitmap(width: max(1, Int(size.width.rounded(.up))), height: max(1, Int(size.height.rounded(.up))))
    PixelFont.standard.draw(text, into: bitmap, at: .zero, scale: scale, color: color)
    return bitmap
}

/// A layer showing `bitmap` at its natural size, centred on `position`.
@MainActor
func imageLayer(_ bitmap: Bitmap, at position: Point) -> Layer {
    let layer = Layer()
    layer.bounds = Rect(x: 0, y: 0, width: Double(bitmap.width), height: Double(bitmap.height))
    layer.position = position
    layer.contents = bitmap
    return layer
}

/// Changes model values without implicit animations.
@MainActor
func withoutActions(_ body: () -> Void) {
    Transaction.begin()
    Transaction.disableActions = true
    body()
    Transaction.commit()
}

/// Numbers a scene's go and reverse transactions so that a completion block acts only for the
/// latest one. A replaced animation's completion still runs (it stopped unfinished, as in Core
/// Animation), and must neither show the hint over the animation that replaced it nor start
/// another `--autoplay` cycle.
struct TransactionGeneration {
    private var latest = 0

    /// A new number for a transaction that supersedes the earlier ones.
    mutating func next() -> Int {
        latest &+= 1
        return latest
    }

    /// Whether no transaction has started since the one numbered `number`.
    func isLatest(_ number: Int) -> Bool { number == latest }
}

/// The "press g" hint at the bottom of a scene: hidden while the scene runs, shown again by the
/// go transaction's completion block.
@MainActor
final class Hint {
    let layer: Layer

    init(in size: Size, color: Color = .white, text: String = "press g to go, r to reverse") {
        layer = imageLayer(textBitmap(text, scale: 2, color: color), at: .zero)
        layout(in: size)
    }

    func layout(in size: Size) {
        withoutActions { layer.position = Point(x: (size.width / 2).rounded(), y: (size.height - 20).rounded()) }
    }

    var isVisible: Bool {
        get { !layer.isHidden }
        set { withoutActions { layer.isHidden = !newValue } }
    }
}

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
///
/// The completion blocks are made once and reused, each by one transaction at a time: a block
/// that captured its transaction's number would allocate its context at every go.
@MainActor
final class TransactionGeneration {
    /// A reusable completion block, and the number and flag of the transaction it was last
    /// given to. (A struct around it: a function stored as an array's element directly is
    /// held in the array's generic form, and each read of it made a new wrapper closure.)
    private struct Slot {
        var number = 0
        var flag = false
        let block: @MainActor () -> Void
    }

    private var latest = 0
    /// What the latest transaction's completion does, given the flag it was opened with.
    private let onLatest: @MainActor (Bool) -> Void
    private var slots: [Slot] = []
    /// The slots whose transaction has completed.
    private var idle: [Int] = []

    init(onLatest: @escaping @MainActor (Bool) -> Void) {
        self.onLatest = onLatest
        // A go that replaces a running one has two blocks out; room for a few more, so that
        // the lists do not grow during the first cycles.
        slots.reserveCapacity(4)
        idle.reserveCapacity(4)
    }

    /// Numbers the open transaction as the latest and sets its completion block, which calls
    /// `onLatest(flag)` when it completes, unless another transaction was numbered since.
    func setCompletion(flag: Bool = true) {
        latest &+= 1
        let index = idle.popLast() ?? makeSlot()
        slots[index].number = latest
        slots[index].flag = flag
        Transaction.completionBlock = slots[index].block
    }

    private func makeSlot() -> Int {
        let index = slots.count
        slots.append(Slot { [weak self] in self?.completed(index) })
        return index
    }

    private func completed(_ index: Int) {
        idle.append(index)
        if slots[index].number == latest { onLatest(slots[index].flag) }
    }
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

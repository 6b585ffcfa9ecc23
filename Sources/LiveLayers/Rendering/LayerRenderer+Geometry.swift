// LayerRenderer+Geometry: sublayerTransform, zPosition ordering, maskedCorners and contentsRect/contentsCenter.

import Raster

extension LayerRenderer {
    /// The transform from a sublayer's superlayer space to device space: the layer's
    /// `sublayerTransform` about its anchor point, then the layer's own device transform.
    static func sublayerDeviceTransform(of shown: Layer, deviceTransform: Transform) -> Transform {
        let s = shown.state.effectsBox.value.sublayerTransform
        guard !s.isIdentity else { return deviceTransform }
        let b = shown.state.bounds
        let ax = b.minX + shown.state.anchorPoint.x * b.width, ay = b.minY + shown.state.anchorPoint.y * b.height
        return Transform(translationX: -ax, y: -ay).concatenating(s).concatenating(Transform(translationX: ax, y: ay))
            .concatenating(deviceTransform)
    }

    /// Sorts the sublayers into `record.drawOrder` by `zPosition` (stable: equal values keep
    /// their order) when any is non-zero; empties it otherwise. Insertion sort into the kept
    /// array: no allocation once warm.
    /// `anyZ` tells whether some sublayer's zPosition is non-zero.
    func orderByZ(_ layer: Layer, record: RenderRecord, anyZ: Bool) {
        guard anyZ || !record.drawOrder.isEmpty else { return }
        // Sorted in a local copy, moved out and back: changing the stored array in place
        // would cost every layer's read of it (drawing, occlusion) a dynamic exclusivity check.
        var order = record.drawOrder
        record.drawOrder = []
        order.removeAll(keepingCapacity: true)
        if anyZ {
            for s in layer.sublayerStorage {
                let z = s.record(in: self).shown.state.effects.zPosition
                var i = order.count
                order.append(s)
                while i > 0 && order[i - 1].record(in: self).shown.state.effects.zPosition > z {
                    order[i] = order[i - 1]
                    i -= 1
                }
                order[i] = s
            }
        }
        record.drawOrder = order
    }

    /// `rect` with `radius` on the corners in `corners`, into `path` (cleared first).
    static func addRoundedRect(_ rect: Rect, radius: Double, corners: CornerMask, to path: inout Path) {
        let r = rect.standardized
        let rr = max(0, min(radius, r.width / 2, r.height / 2))
        guard rr > 0, corners != [] else { path.addRect(r); return }
        if corners == .all { path.addRoundedRect(in: r, cornerWidth: rr, cornerHeight: rr); return }
        let k = 0.5522847498307936 * rr
        let (x0, y0, x1, y1) = (r.minX, r.minY, r.maxX, r.maxY)
        let tl = corners.contains(.layerMinXMinYCorner) ? rr : 0, tr = corners.contains(.layerMaxXMinYCorner) ? rr : 0
        let bl = corners.contains(.layerMinXMaxYCorner) ? rr : 0, br = corners.contains(.layerMaxXMaxYCorner) ? rr : 0
        func kk(_ c: Double) -> Double { c > 0 ? k : 0 }
        path.move(to: Point(x: x0 + tl, y: y0))
        path.addLine(to: Point(x: x1 - tr, y: y0))
        if tr > 0 { path.addCurve(to: Point(x: x1, y: y0 + tr), control1: Point(x: x1 - tr + kk(tr), y: y0), control2: Point(x: x1, y: y0 + tr - kk(tr))) }
        path.addLine(to: Point(x: x1, y: y1 - br))
        if br > 0 { path.addCurve(to: Point(x: x1 - br, y: y1), control1: Point(x: x1, y: y1 - br + kk(br)), control2: Point(x: x1 - br + kk(br), y: y1)) }
        path.addLine(to: Point(x: x0 + bl, y: y1))
        if bl > 0 { path.addCurve(to: Point(x: x0, y: y1 - bl), control1: Point(x: x0 + bl - kk(bl), y: y1), control2: Point(x: x0, y: y1 - bl + kk(bl))) }
        path.addLine(to: Point(x: x0, y: y0 + tl))
        if tl > 0 { path.addCurve(to: Point(x: x0 + tl, y: y0), control1: Point(x: x0, y: y0 + tl - kk(tl)), control2: Point(x: x0 + tl - kk(tl), y: y0)) }
        path.closeSubpath()
    }

    /// Draws `contents` as `contentsRect`, `contentsCenter` and `contentsGravity` say.
    func drawContents(_ contents: Bitmap, state: LayerState, in context: GraphicsContext) {
        let fx = state.effects
        let unit = Rect(x: 0, y: 0, width: 1, height: 1)
        let w = Double(contents.width), h = Double(contents.height)
        guard fx.contentsRect != unit || fx.contentsCenter != unit else {
            context.draw(contents, in: state.contentsGravity.rect(forContentsOf: Size(width: w, height: h), in: state.bounds))
            return
        }
        // The part of the image shown, in image pixels.
        let cr = fx.contentsRect.standardized
        let crop = Rect(x: cr.minX * w, y: cr.minY * h, width: cr.width * w, height: cr.height * h)
        guard crop.width > 0, crop.height > 0 else { return }
        let dest = state.contentsGravity.rect(forContentsOf: Size(width: crop.width, height: crop.height), in: state.bounds)
        let cc = fx.contentsCenter.standardized
        // Columns and rows of the nine slices: source edges in image pixels, destination edges
        // in layer coordinates (the outer slices keep their size, shrunk together if too big).
        let sx = [crop.minX, crop.minX + cc.minX * crop.width, crop.minX + cc.maxX * crop.width, crop.maxX]
        let sy = [crop.minY, crop.minY + cc.minY * crop.height, crop.minY + cc.maxY * crop.height, crop.maxY]
        func edges(_ s: [Double], _ start: Double, _ length: Double) -> [Double] {
            let a = s[1] - s[0], b = s[3] - s[2]
            let f = a + b > length && a + b > 0 ? length / (a + b) : 1
            return [start, start + a * f, start + length - b * f, start + length]
        }
        let isNine = cc != unit
        let dx = isNine ? edges(sx, dest.minX, dest.width) : [dest.minX, dest.minX, dest.maxX, dest.maxX]
        let dy = isNine ? edges(sy, dest.minY, dest.height) : [dest.minY, dest.minY, dest.maxY, dest.maxY]
        let sxs = isNine ? sx : [crop.minX, crop.minX, crop.maxX, crop.maxX]
        let sys = isNine ? sy : [crop.minY, crop.minY, crop.maxY, crop.maxY]
        for j in 0..<3 {
            for i in 0..<3 {
                let dw = dx[i + 1] - dx[i], dh = dy[j + 1] - dy[j]
                // Each slice samples only its own pixels (a view of them), so the bilinear
                // filter never bleeds a neighbouring slice in; slices are whole image pixels.
                let x0 = Int(sxs[i].rounded()), x1 = Int(sxs[i + 1].rounded())
                let y0 = Int(sys[j].rounded()), y1 = Int(sys[j + 1].rounded())
                guard x1 > x0, y1 > y0, dw > 0, dh > 0,
                      let slice = effects.view(of: contents, IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)) else { continue }
                context.draw(slice, in: Rect(x: dx[i], y: dy[j], width: dw, height: dh))
            }
        }
    }
}

extension LayerRenderer {
    /// Rewrites the alpha of a rendered mask over `region` for an inverted or luminance mask.
    static func convertMask(_ mask: Bitmap, in region: IntRect, mode: MaskMode) {
        mask.withRows(in: region) { _, row in
            for i in 0..<row.count {
                let p = row[i]
                var a: UInt32
                switch mode {
                case .alpha, .invertedAlpha:
                    a = p >> 24
                case .luminance, .invertedLuminance:
                    // Premultiplied channels give luminance times alpha: black or clear hide.
                    let r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
                    a = (r * 77 + g * 151 + b * 28 + 128) >> 8
                }
                if mode == .invertedAlpha || mode == .invertedLuminance { a = 255 - a }
                row[i] = a << 24
            }
        }
    }
}

// GraphicsContext: a CGContext-shaped drawing API over a Bitmap.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Draws anti-aliased paths, images and gradients into a ``Bitmap``, shaped like `CGContext`.
///
/// The context keeps a current path, built in user space and transformed by the current
/// transform (CTM) as each piece is added, and a stack of graphics states (transform, paint,
/// line style, alpha, blend mode, clip). Drawing a path consumes it, as in Core Graphics. All
/// scratch memory is owned by the context and reused, so drawing allocates nothing once warm;
/// use one context per thread.
///
/// Coordinates: y grows downward, one unit is one pixel under the identity transform, and a
/// pixel's centre is at (x + 0.5, y + 0.5).
public final class GraphicsContext {
    /// The bitmap drawn into.
    public let bitmap: Bitmap

    // Unchecked exclusivity: a context is used on one thread, and no access to the state or
    // the stack is held across a call that could reach them (none is passed inout). A dynamic
    // check on each save, restore and read of the state by a fill cost about 80 instructions
    // apiece: 3,900 a frame of the arrow.
    @exclusivity(unchecked) var state: GraphicsState
    @exclusivity(unchecked) var stack: [GraphicsState] = []
    /// When set, solid fills are recorded here instead of drawn (``init(recordingInto:clip:)``).
    var recording: FillRecording?
    /// The current path, in device space.
    var path = Path()
    private var userScratch = Path()
    let rasterizer = Rasterizer()
    /// Rasterizes a stroke alongside the fill in ``fillAndStroke(_:rule:strokeFrom:to:)``.
    let strokeRasterizer = Rasterizer()
    let sourceRow: ScratchArray<UInt32>
    let coverageRow: ScratchArray<UInt8>
    let gradientTable = ScratchArray<UInt32>(capacity: 256)
    /// A solid colour over a held-back background at each coverage (BackgroundFusingSink).
    let fusedBlends = ScratchArray<UInt32>(capacity: 256)
    private var maskPool: [AlphaMask] = []
    /// Pixels blended with a blend function, by source and backdrop (made on first use).
    lazy var blendMemo = BlendMemo()
    /// Stroke outlines are built here, reusing buffers from frame to frame.
    var pathStroker = PathStroker()
    /// A device path mapped back to user space for stroking.
    var strokeSource = Path()
    private var rectScratch = Path()
    /// A pending rectangle clip's path: it is rasterized inside a fill that may still hold
    /// `rectScratch` (`fill(_: Rect)`), where reusing that buffer would copy it.
    private var clipRectScratch = Path()
    /// An opaque fill held back until what is drawn over it (GraphicsContext+PendingFill).
    var pendingFill: PendingFill?

    /// Whether an opaque, pixel-aligned rectangle fill drawn inside a saved state
    /// (``saveGState()``) may be held back and written together with the next fill drawn over
    /// it, which then stores each pixel once instead of twice. The pixels come out the same.
    /// While a fill is held back the bitmap lacks it: it is written at the latest when the state
    /// it was drawn in is restored, or by ``flush()``. Off by default; a renderer that always
    /// draws between a save and a restore turns it on.
    public var defersOpaqueFills = false {
        didSet { if !defersOpaqueFills { flushPendingFill() } }
    }

    /// Whether compositors may run the AVX2 loops (CLinux), on a CPU that has AVX2. Tests turn it
    /// off to compare them with the portable Swift loops, which give the same pixels.
    var usesAVX2Kernels = Kernels.hasAVX2 {
        didSet {
            rasterizer.usesAVX2 = usesAVX2Kernels
            strokeRasterizer.usesAVX2 = usesAVX2Kernels
        }
    }

    /// Creates a context drawing into `bitmap`, clipped to the whole bitmap, with the identity transform.
    public init(bitmap: Bitmap) {
        self.bitmap = bitmap
        state = GraphicsState(clipBounds: bitmap.bounds)
        sourceRow = ScratchArray(capacity: bitmap.width + 2)
        coverageRow = ScratchArray(capacity: bitmap.width + 2)
        stack.reserveCapacity(16)
        path.reserveCapacity(64)
    }

    // MARK: State

    /// Pushes a copy of the graphics state; ``restoreGState()`` returns to it.
    public func saveGState() { stack.append(state) }

    /// Pops the graphics state saved last; does nothing if none is saved.
    public func restoreGState() {
        if let p = pendingFill, stack.count <= p.depth { flushPendingFill() }
        guard let saved = stack.popLast() else { return }
        if state.ownsClipMask, let mask = state.clipMask, mask !== saved.clipMask { maskPool.append(mask) }
        state = saved
    }

    /// The current transform from user space to device pixels. Setting it replaces the transform
    /// exactly (the clip, in device space, stays): undoing a transform by concatenating its
    /// inverse leaves rounding behind, so what is drawn next would depend on what came before.
    public var ctm: Transform {
        get { state.ctm }
        set { state.ctm = newValue }
    }

    /// Moves the user-space origin by (x, y).
    public func translateBy(x: Double, y: Double) { state.ctm = state.ctm.translatedBy(x: x, y: y) }
    /// Scales user space by (x, y).
    public func scaleBy(x: Double, y: Double) { state.ctm = state.ctm.scaledBy(x: x, y: y) }
    /// Rotates user space by `angle` radians (clockwise on screen for positive angles).
    public func rotate(by angle: Double) { state.ctm = state.ctm.rotated(by: angle) }
    /// Applies `transform` to user space before the current transform.
    public func concatenate(_ transform: Transform) { state.ctm = transform.concatenating(state.ctm) }

    /// Sets the fill to a solid colour.
    public func setFillColor(_ color: Color) { state.fillPaint = .solid(color) }
    /// Sets the colour strokes are drawn with.
    public func setStrokeColor(_ color: Color) { state.strokeColor = color }
    /// Sets what fills are painted with: a colour, a gradient or an image.
    public func setFillPaint(_ paint: Paint) { state.fillPaint = paint }
    /// Sets the stroke width in user-space units.
    public func setLineWidth(_ width: Double) { state.lineWidth = width }
    /// Sets how stroked segments join.
    public func setLineJoin(_ join: LineJoin) { state.lineJoin = join }
    /// Sets how open stroked subpaths end.
    public func setLineCap(_ cap: LineCap) { state.lineCap = cap }
    /// Sets the miter limit (10 by default, as in Core Graphics).
    public func setMiterLimit(_ limit: Double) { state.miterLimit = limit }
    /// Sets the dash pattern; empty `lengths` means solid lines.
    public func setLineDash(phase: Double, lengths: [Double]) {
        state.dashPhase = phase
        state.dashLengths = lengths
    }
    /// Sets the global alpha (clamped to 0...1) that multiplies everything drawn.
    public func setAlpha(_ alpha: Double) { state.alpha = alpha.isNaN ? 0 : min(1, max(0, alpha)) }
    /// Sets how drawing combines with the bitmap.
    public func setBlendMode(_ mode: BlendMode) { state.blendMode = mode }

    /// Writes everything drawn so far into the bitmap (a fill held back by
    /// ``defersOpaqueFills``); drawing otherwise writes at once.
    public func flush() { flushPendingFill() }

    // MARK: Current path

    /// Discards the current path.
    public func beginPath() { path.removeAll() }
    /// Starts a new subpath at `point` (user space).
    public func move(to point: Point) { path.move(to: point.applying(state.ctm)) }
    /// Adds a line to `point`.
    public func addLine(to point: Point) { path.addLine(to: point.applying(state.ctm)) }
    /// Adds a quadratic Bézier curve to `point`.
    public func addQuadCurve(to point: Point, control: Point) {
        path.addQuadCurve(to: point.applying(state.ctm), control: control.applying(state.ctm))
    }
    /// Adds a cubic Bézier curve to `point`.
    public func addCurve(to point: Point, control1: Point, control2: Point) {
        path.addCurve(to: point.applying(state.ctm), control1: control1.applying(state.ctm), control2: control2.applying(state.ctm))
    }
    /// Adds an arc with `CGContextAddArc` semantics (see ``Path/addArc(center:radius:startAngle:endAngle:clockwise:)``):
    /// a line joins the current point to the arc's start.
    public func addArc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool) {
        userScratch.removeAll()
        userScratch.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
        appendUserScratch(connecting: true)
    }
    /// Adds a closed rectangle.
    public func addRect(_ rect: Rect) { path.addPath(rectPath(rect), transform: state.ctm) }
    /// Adds a closed ellipse inscribed in `rect`.
    public func addEllipse(in rect: Rect) {
        userScratch.removeAll()
        userScratch.addEllipse(in: rect)
        appendUserScratch(connecting: false)
    }
    /// Adds `other`, mapped by the current transform.
    public func addPath(_ other: Path) { path.addPath(other, transform: state.ctm) }
    /// Closes the current subpath.
    public func closePath() { path.closeSubpath() }

    private func appendUserScratch(connecting: Bool) {
        for (i, element) in userScratch.elements.enumerated() {
            let e = element.applying(state.ctm)
            if i == 0, connecting, case let .move(p) = e, let current = path.currentPoint {
                if p != current { path.addLine(to: p) }
            } else {
                path.append(e)
            }
        }
    }

    /// `rect` as a path, built in a reused buffer (valid until the next call).
    func rectPath(_ rect: Rect) -> Path {
        rectScratch.removeAll()
        rectScratch.addRect(rect)
        return rectScratch
    }

    // MARK: Drawing

    /// Fills the current path with the fill paint, then discards the path.
    public func fillPath(using rule: FillRule = .winding) {
        fillDevicePath(path, rule: rule, paint: state.fillPaint)
        path.removeAll()
    }

    /// Draws the current path as `mode` says, then discards it.
    public func drawPath(using mode: PathDrawingMode) {
        switch mode {
        case .fill: fillDevicePath(path, rule: .winding, paint: state.fillPaint)
        case .eoFill: fillDevicePath(path, rule: .evenOdd, paint: state.fillPaint)
        case .stroke: strokeDevicePath(path)
        case .fillStroke:
            fillDevicePath(path, rule: .winding, paint: state.fillPaint)
            strokeDevicePath(path)
        case .eoFillStroke:
            fillDevicePath(path, rule: .evenOdd, paint: state.fillPaint)
            strokeDevicePath(path)
        }
        path.removeAll()
    }

    /// Strokes the current path with the stroke colour and line style, then discards it.
    public func strokePath() {
        strokeDevicePath(path)
        path.removeAll()
    }

    /// Fills `path` (user space) without touching the current path.
    public func fill(_ path: Path, rule: FillRule = .winding) {
        fill(path, transform: state.ctm, rule: rule, paint: state.fillPaint)
    }

    /// Strokes `path` (user space) without touching the current path.
    public func stroke(_ path: Path) {
        stroke(path, from: 0, to: 1)
    }

    /// Fills `rect` (user space) with the fill paint.
    public func fill(_ rect: Rect) {
        if recording != nil { fill(rectPath(rect), transform: state.ctm, rule: .winding, paint: state.fillPaint); return }
        // Axis-aligned first: it covers whole pixels exactly as the aligned path does, and
        // costs less to rule out than the aligned path's corner mapping.
        if fillAxisAlignedRect(rect, paint: state.fillPaint) || fillAlignedRect(rect) { return }
        fill(rectPath(rect), transform: state.ctm, rule: .winding, paint: state.fillPaint)
    }

    /// Strokes the outline of `rect`.
    public func stroke(_ rect: Rect) {
        if recording != nil { stroke(rectPath(rect)); return }
        if strokeAxisAlignedRect(rect) { return }
        stroke(rectPath(rect))
    }

    /// Makes `rect` (user space) transparent, within the clip (CGContextClearRect).
    public func clear(_ rect: Rect) {
        if refusedByRecording() { return }
        // Clearing ignores the global alpha, as CGContextClearRect does.
        let (savedMode, savedAlpha) = (state.blendMode, state.alpha)
        state.blendMode = .clear
        state.alpha = 1
        defer { state.blendMode = savedMode; state.alpha = savedAlpha }
        if fillAxisAlignedRect(rect, paint: .solid(.black)) || fillAlignedRect(rect) { return }
        fill(rectPath(rect), transform: state.ctm, rule: .winding, paint: .solid(.black))
    }

    /// Draws `image` scaled to fill `rect` (user space), sampled bilinearly.
    ///
    /// When the image lands on whole device pixels at its own size, its rows are composited
    /// directly, with no rasterization and no resampling.
    public func draw(_ image: Bitmap, in rect: Rect) {
        if refusedByRecording() { return }
        let r = rect.standardized
        guard r.width > 0, r.height > 0, r.width.isFinite, r.height.isFinite else { return }
        let toUser = Transform(a: r.width / Double(image.width), b: 0, c: 0, d: r.height / Double(image.height), tx: r.minX, ty: r.minY)
        let paint = Paint.image(image, transform: toUser)
        if fillAlignedRect(rect, paint: paint) || fillAxisAlignedRect(rect, paint: paint) { return }
        fill(rectPath(rect), transform: state.ctm, rule: .winding, paint: paint)
    }

    /// Draws `image` with its top-left corner at `origin` (user space), at its own size, through
    /// `mask`: the mask's coverage (device pixels, top-left at the bitmap's origin) multiplies it.
    ///
    /// The same as clipping to the mask and drawing the image, for the common case of a layer
    /// masked by a shape filled each frame.
    public func draw(_ image: Bitmap, at origin: Point = .zero, through mask: AlphaMask) {
        if refusedByRecording() { return }
        saveGState()
        clip(toMask: mask)
        draw(image, in: Rect(x: origin.x, y: origin.y, width: Double(image.width), height: Double(image.height)))
        restoreGState()
    }

    // MARK: Clipping

    /// Intersects the clip with the current path's interior under `rule`, then discards the path.
    public func clip(using rule: FillRule = .winding) {
        if refusedByRecording() { path.removeAll(); return }
        settleRectClip()
        clipToPath(path, transform: .identity, rule: rule)
        path.removeAll()
    }

    /// Intersects the clip with `rect` (user space).
    public func clip(to rect: Rect) {
        if refusedByRecording() { return }
        // A rectangle inside the pending one (a layer's bounds inside its parent's) leaves it
        // nothing to clip: where the new mask is not zero, the pending one would be 255.
        if let p = state.rectClip, !p.isRasterized, alignedDeviceRect(rect) == nil,
           let inner = Self.deviceBounds(of: rectPath(rect), transform: state.ctm),
           Self.rect(p.rect, under: p.ctm, holds: inner.intersection(state.clipBounds)) {
            state.rectClip = nil
        }
        settleRectClip()
        if let pixels = alignedDeviceRect(rect) {
            state.clipBounds = state.clipBounds.intersection(pixels)
            return
        }
        // A rectangle around the whole clip changes nothing; another is rasterized only when a
        // drawing reaches past its inside (a layer's bounds clip the content they hold).
        if Self.rect(rect, under: state.ctm, holds: state.clipBounds) { return }
        // The clip under the rectangle stays as it is while this state lives when it is no mask,
        // a borrowed one, or one a saved state holds; fills inside the rectangle keep using it
        // once the rectangle is rasterized for others.
        let outer = state.clipMask
        let outerStays = outer == nil || !state.ownsClipMask || stack.contains(where: { $0.clipMask === outer })
        state.rectClip = RectClip(rect: rect, ctm: state.ctm, depth: stack.count, isRasterized: false,
                                  outerBounds: state.clipBounds, outerMask: outerStays ? outer : nil, outerStays: outerStays)
    }

    /// Rasterizes a pending rectangle clip into the clip mask.
    @inline(__always)
    func applyPendingClip() {
        guard let p = state.rectClip, !p.isRasterized else { return }
        rasterizeRectClip(p)
    }

    /// Rasterizes a pending rectangle clip and forgets the rectangle (before another clip).
    @inline(__always)
    func settleRectClip() {
        applyPendingClip()
        state.rectClip = nil
    }

    private func rasterizeRectClip(_ p: RectClip) {
        let old = state.clipMask, ownedOld = state.ownsClipMask
        var done = p
        done.isRasterized = true
        let kept: RectClip? = p.outerStays ? done : nil
        state.rectClip = nil
        clipRectScratch.removeAll()
        clipRectScratch.addRect(p.rect)
        clipToPath(clipRectScratch, transform: p.ctm, rule: .winding)
        state.rectClip = kept
        guard p.depth < stack.count else { return }
        // The states saved since the clip was made hold it pending, with the same clip under it
        // (any other clip would have rasterized it first): they take the mask, which the next
        // sublayer drawn after a restore would otherwise rasterize again.
        for i in p.depth..<stack.count where stack[i].rectClip != nil {
            stack[i].rectClip = kept
            stack[i].clipMask = state.clipMask
            stack[i].clipBounds = state.clipBounds
            stack[i].ownsClipMask = true
        }
        if ownedOld, let old, !stack.contains(where: { $0.clipMask === old }) { maskPool.append(old) }
    }

    /// Whether every pixel a fill of `path` mapped by `transform` can touch inside the clip under
    /// the rectangle clip lies inside the rectangle, where the rectangle's mask is 255.
    func rectClipHolds(_ path: Path, transform: Transform) -> Bool {
        guard let p = state.rectClip, let bounds = Self.deviceBounds(of: path, transform: transform) else { return false }
        return Self.rect(p.rect, under: p.ctm, holds: bounds.intersection(p.outerBounds))
    }

    /// Runs `draw` with the clip under the rectangle clip when the rectangle holds all of
    /// `path` (and `other`), else with the rectangle rasterized into the clip. Before the
    /// fill's rasterization: the rectangle is rasterized with the same rasterizer.
    @inline(__always)
    func withRectClipSettled(for path: Path, and other: Path? = nil, transform: Transform, _ draw: () -> Void) {
        guard let p = state.rectClip else { return draw() }
        guard rectClipHolds(path, transform: transform), other.map({ rectClipHolds($0, transform: transform) }) ?? true else {
            applyPendingClip()
            return draw()
        }
        // Not rasterized yet, the clip in effect is the clip under the rectangle.
        guard p.isRasterized else { return draw() }
        let saved = (state.clipBounds, state.clipMask)
        state.clipBounds = p.outerBounds
        state.clipMask = p.outerMask
        draw()
        state.clipBounds = saved.0
        state.clipMask = saved.1
    }

    /// The pixels holding `path`'s points and control points mapped by `transform` (a curve lies
    /// inside its control points' hull, and so do its flattened points); nil for a path that does
    /// not start with a move or lies far outside any bitmap.
    static func deviceBounds(of path: Path, transform t: Transform) -> IntRect? {
        guard case .move = path.elements.first else { return path.elements.isEmpty ? IntRect(x: 0, y: 0, width: 0, height: 0) : nil }
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        @inline(__always) func add(_ p: Point) {
            let q = p.applying(t)
            x0 = min(x0, q.x); y0 = min(y0, q.y); x1 = max(x1, q.x); y1 = max(y1, q.y)
        }
        for element in path.elements {
            switch element {
            case let .move(p), let .line(p): add(p)
            case let .quadCurve(p, c): add(p); add(c)
            case let .curve(p, c1, c2): add(p); add(c1); add(c2)
            case .closeSubpath: break
            }
        }
        // Also false for NaN.
        guard x0 > -1e9, y0 > -1e9, x1 < 1e9, y1 < 1e9 else { return nil }
        let left = x0.rounded(.down), top = y0.rounded(.down)
        return IntRect(x: Int(left), y: Int(top), width: Int(x1.rounded(.up) - left) + 1, height: Int(y1.rounded(.up) - top) + 1)
    }

    /// Whether every pixel of `pixels` lies inside `rect` mapped by `t`, at least 1/16 px from
    /// its sides. The rasterizer gives such a pixel coverage 255: no edge crosses it, and the
    /// edges left of it add up to a winding of 1 but for float rounding (far below the 1/510 that
    /// would round to 254). The margin is far above the rounding of the corners to float.
    static func rect(_ rect: Rect, under t: Transform, holds pixels: IntRect) -> Bool {
        if pixels.isEmpty { return true }
        let r = rect.standardized
        let det = t.a * t.d - t.b * t.c
        guard r.width > 0, r.height > 0, det != 0 else { return false }
        let orientation: Double = det > 0 ? 1 : -1
        let corners = (Point(x: r.minX, y: r.minY).applying(t), Point(x: r.maxX, y: r.minY).applying(t),
                       Point(x: r.maxX, y: r.maxY).applying(t), Point(x: r.minX, y: r.maxY).applying(t))
        let px0 = Double(pixels.x), py0 = Double(pixels.y), px1 = Double(pixels.maxX), py1 = Double(pixels.maxY)
        @inline(__always) func inside(_ a: Point, _ b: Point) -> Bool {
            let ex = b.x - a.x, ey = b.y - a.y
            let margin = (ex * ex + ey * ey).squareRoot() / 16
            // The pixel rectangle's corners on the inner side of the edge a -> b (false for NaN).
            @inline(__always) func holds(_ x: Double, _ y: Double) -> Bool { (ex * (y - a.y) - ey * (x - a.x)) * orientation >= margin }
            return margin > 0 && holds(px0, py0) && holds(px1, py0) && holds(px0, py1) && holds(px1, py1)
        }
        return inside(corners.0, corners.1) && inside(corners.1, corners.2) && inside(corners.2, corners.3)
            && inside(corners.3, corners.0)
    }

    /// Intersects the clip with the alpha of `mask` stretched over `rect` (user space): the mask's
    /// alpha multiplies everything drawn afterwards, and outside `rect` nothing is drawn.
    public func clip(toMask mask: Bitmap, in rect: Rect) {
        if refusedByRecording() { return }
        settleRectClip()
        let r = rect.standardized
        guard r.width > 0, r.height > 0, r.width.isFinite, r.height.isFinite else {
            state.clipBounds = IntRect(x: 0, y: 0, width: 0, height: 0)
            return
        }
        let toUser = Transform(a: r.width / Double(mask.width), b: 0, c: 0, d: r.height / Double(mask.height), tx: r.minX, ty: r.minY)
        let shader = Shader(.image(mask, transform: toUser), ctm: state.ctm, table: gradientTable.base)
        let newMask = takeMask()
        rasterizer.begin(clip: state.clipBounds, targetWidth: bitmap.width)
        rasterizer.add(rectPath(rect), transform: state.ctm)
        var sink = AlphaWriter(mask: newMask, shader: shader, scratch: sourceRow.base, avx2: usesAVX2Kernels)
        rasterizer.render(rule: .winding, into: &sink)
        installClipMask(newMask, covered: sink.covered)
    }

    /// Intersects the clip with `mask`'s coverage, in device pixels with the mask's top-left at the
    /// bitmap's. The mask is used, not copied: keep it unchanged while this clip is in effect.
    public func clip(toMask mask: AlphaMask) {
        if refusedByRecording() { return }
        settleRectClip()
        let covered = mask.coveredBounds
        if state.clipMask == nil {
            state.clipMask = mask
            state.ownsClipMask = false
            state.clipBounds = state.clipBounds.intersection(covered).intersection(IntRect(x: 0, y: 0, width: mask.width, height: mask.height))
            return
        }
        let newMask = takeMask()
        let r = state.clipBounds.intersection(covered)
        if !r.isEmpty {
            for y in r.y..<r.maxY { (newMask.row(y) + r.x).update(from: mask.row(y) + r.x, count: r.width) }
        }
        installClipMask(newMask, covered: r)
    }

    // MARK: Internals

    /// Fills a device-space path.
    func fillDevicePath(_ devicePath: Path, rule: FillRule, paint: Paint) {
        fill(devicePath, transform: .identity, rule: rule, paint: paint)
    }

    /// Rasterizes `path` mapped by `transform` and composites `paint` through its coverage.
    func fill(_ path: Path, transform: Transform, rule: FillRule, paint: Paint) {
        if recordFill(path, transform: transform, rule: rule, paint: paint) { return }
        if state.rectClip != nil {
            withRectClipSettled(for: path, transform: transform) { fillClipped(path, transform: transform, rule: rule, paint: paint) }
            return
        }
        fillClipped(path, transform: transform, rule: rule, paint: paint)
    }

    /// ``fill(_:transform:rule:paint:)`` with the clip settled.
    private func fillClipped(_ path: Path, transform: Transform, rule: FillRule, paint: Paint) {
        guard !state.clipBounds.isEmpty, state.alpha > 0 || state.blendMode != .normal else { return }
        rasterizer.begin(clip: state.clipBounds, targetWidth: bitmap.width)
        rasterizer.add(path, transform: transform)
        guard !rasterizer.isEmpty else { return }
        let shader = Shader(paint, ctm: state.ctm, table: gradientTable.base)
        if var fused = fusedCompositor(shader: shader) {
            rasterizer.render(rule: rule, into: &fused)
            fused.finish()
            return
        }
        var sink = compositor(shader: shader)
        rasterizer.render(rule: rule, into: &sink)
    }

    /// Fills `path` mapped by `transform` with one premultiplied colour (a replayed fill).
    func fillSolid(_ path: Path, transform: Transform, rule: FillRule, pixel: UInt32) {
        if state.rectClip != nil {
            withRectClipSettled(for: path, transform: transform) { fillSolidClipped(path, transform: transform, rule: rule, pixel: pixel) }
            return
        }
        fillSolidClipped(path, transform: transform, rule: rule, pixel: pixel)
    }

    private func fillSolidClipped(_ path: Path, transform: Transform, rule: FillRule, pixel: UInt32) {
        guard !state.clipBounds.isEmpty, state.alpha > 0 || state.blendMode != .normal else { return }
        rasterizer.begin(clip: state.clipBounds, targetWidth: bitmap.width)
        rasterizer.add(path, transform: transform)
        guard !rasterizer.isEmpty else { return }
        if var fused = fusedCompositor(shader: .solid(pixel)) {
            rasterizer.render(rule: rule, into: &fused)
            fused.finish()
            return
        }
        var sink = compositor(shader: .solid(pixel))
        rasterizer.render(rule: rule, into: &sink)
    }

    /// The global alpha as the compositors use it, 0...255.
    var compositingAlpha: UInt32 { UInt32((state.alpha * 255).rounded()) }

    func compositor(for paint: Paint) -> Compositor {
        compositor(shader: Shader(paint, ctm: state.ctm, table: gradientTable.base))
    }

    func compositor(shader: Shader) -> Compositor {
        flushPendingFill()
        sourceRow.reserve(bitmap.width + 2)
        coverageRow.reserve(bitmap.width + 2)
        return Compositor(
            pixels: bitmap.pixels, stride: bitmap.stride,
            shader: shader,
            alpha: compositingAlpha,
            mode: state.blendMode,
            mask: state.clipMask?.values, maskStride: state.clipMask?.width ?? 0,
            sourceScratch: sourceRow.base, coverageScratch: coverageRow.base, usesAVX2: usesAVX2Kernels)
    }

    /// The device pixel rectangle `rect` covers exactly, if the CTM maps it onto whole pixels.
    private func alignedDeviceRect(_ rect: Rect) -> IntRect? {
        let t = state.ctm
        guard abs(t.b) < Shader.snapTolerance, abs(t.c) < Shader.snapTolerance else { return nil }
        let d = rect.applying(t)
        let x0 = d.minX.rounded(), y0 = d.minY.rounded(), x1 = d.maxX.rounded(), y1 = d.maxY.rounded()
        guard abs(d.minX - x0) < 1e-9, abs(d.minY - y0) < 1e-9, abs(d.maxX - x1) < 1e-9, abs(d.maxY - y1) < 1e-9,
              abs(x0) < 1e9, abs(y0) < 1e9, abs(x1) < 1e9, abs(y1) < 1e9 else { return nil }
        return IntRect(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0))
    }

    /// Fills a pixel-aligned rectangle as full-coverage spans, without rasterizing; false if `rect`
    /// is not pixel-aligned under the CTM.
    private func fillAlignedRect(_ rect: Rect, paint: Paint? = nil) -> Bool {
        guard let pixels = alignedDeviceRect(rect) else { return false }
        applyPendingClip()
        let r = pixels.intersection(state.clipBounds)
        guard !r.isEmpty else { return true }
        var sink = compositor(for: paint ?? state.fillPaint)
        for y in r.y..<r.maxY { sink.span(y: y, x: r.x, count: r.width, coverage: 255) }
        return true
    }

    /// Strokes a device-space path with the current line style (stroked in user space, so the
    /// line width scales with the transform as in Core Graphics), between the fractions
    /// `strokeStart` and `strokeEnd` of its length.
    func strokeDevicePath(_ devicePath: Path, strokeStart: Double = 0, strokeEnd: Double = 1) {
        guard let inverse = state.ctm.inverted() else { return }
        strokeSource.removeAll()
        strokeSource.addPath(devicePath, transform: inverse)
        let outline = strokeOutline(of: strokeSource, strokeStart: strokeStart, strokeEnd: strokeEnd)
        fill(outline, transform: state.ctm, rule: .winding, paint: .solid(state.strokeColor))
    }

    /// Intersects the clip with `path` mapped by `transform` (to device space).
    private func clipToPath(_ path: Path, transform: Transform, rule: FillRule) {
        let newMask = takeMask()
        rasterizer.begin(clip: state.clipBounds, targetWidth: bitmap.width)
        rasterizer.add(path, transform: transform)
        var sink = MaskWriter(values: newMask.values, stride: newMask.width)
        rasterizer.render(rule: rule, into: &sink)
        let covered = sink.maxX >= sink.minX
            ? IntRect(x: sink.minX, y: sink.minY, width: sink.maxX - sink.minX + 1, height: sink.maxY - sink.minY + 1)
            : IntRect(x: 0, y: 0, width: 0, height: 0)
        installClipMask(newMask, covered: covered)
    }

    /// Makes `newMask` (written within `covered`) the clip, multiplied by the previous clip mask.
    private func installClipMask(_ newMask: AlphaMask, covered: IntRect) {
        newMask.noteWritten(covered)
        if let old = state.clipMask {
            let r = covered.intersection(state.clipBounds)
            if !r.isEmpty {
                for y in r.y..<r.maxY {
                    PixelMath.mul(newMask.row(y) + r.x, by: old.row(y) + r.x, count: r.width, avx2: usesAVX2Kernels)
                }
            }
        }
        if state.ownsClipMask, let old = state.clipMask, !stack.contains(where: { $0.clipMask === old }) {
            maskPool.append(old)
        }
        state.clipMask = newMask
        state.ownsClipMask = true
        state.clipBounds = state.clipBounds.intersection(covered)
    }

    /// A cleared mask the size of the bitmap, from the pool when one is free.
    private func takeMask() -> AlphaMask {
        if let m = maskPool.popLast() { m.clear(); return m }
        // The bitmap's size is valid, so the mask's is.
        return try! AlphaMask(width: bitmap.width, height: bitmap.height)
    }
}

/// Writes coverage times a shader's alpha into a mask (for clipping to a bitmap's alpha).
struct AlphaWriter: CoverageSink {
    let mask: AlphaMask
    let shader: Shader
    let scratch: UnsafeMutablePointer<UInt32>
    let avx2: Bool
    var covered = IntRect(x: 0, y: 0, width: 0, height: 0)

    mutating func span(y: Int, x: Int, count: Int, coverage: UInt8) {
        let src = shader.row(x: x, y: y, count: count, scratch: scratch)
        let d = mask.row(y) + x
        if coverage == 255 {
            PixelMath.alphas(of: src, count: count, into: d, avx2: avx2)
        } else {
            for i in 0..<count { d[i] = UInt8(PixelMath.mul(src[i] >> 24, UInt32(coverage))) }
        }
        let r = IntRect(x: x, y: y, width: count, height: 1)
        covered = covered.isEmpty ? r : covered.union(r)
    }

    mutating func cells(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
        let src = shader.row(x: x, y: y, count: coverage.count, scratch: scratch)
        let d = mask.row(y) + x
        for i in 0..<coverage.count { d[i] = UInt8(PixelMath.mul(src[i] >> 24, UInt32(coverage[i]))) }
        let r = IntRect(x: x, y: y, width: coverage.count, height: 1)
        covered = covered.isEmpty ? r : covered.union(r)
    }
}

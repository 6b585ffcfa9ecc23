// LottieAnimation: a decoded Bodymovin file, and the layer tree that plays it.

import Foundation
import LiveLayers
import Raster

/// A Lottie animation (Bodymovin JSON, as exported from After Effects), decoded.
///
/// ``makeLayer()`` turns it into a tree of layers with whole-duration keyframe animations, the
/// way lottie-ios's Core Animation rendering engine does: playing it is then a matter of
/// setting the time of the root (``AnimationLayer/currentFrame``).
public struct LottieAnimation: Sendable {
    let model: CompositionModel
    /// The folder of the JSON file, where images referenced by name are read from.
    public let directory: String?

    /// The composition's width and height, in its own units.
    public var size: Size { Size(width: model.width, height: model.height) }
    /// Frames per second.
    public var frameRate: Double { model.frameRate }
    /// The first frame shown.
    public var inPoint: Double { model.inPoint }
    /// The frame at which the animation ends (not shown).
    public var outPoint: Double { model.outPoint }
    /// How many frames are shown: `outPoint - inPoint`.
    public var frameCount: Double { model.outPoint - model.inPoint }
    /// The length in seconds.
    public var duration: Double { frameCount / model.frameRate }

    /// The largest file read, in bytes.
    public static let maximumFileSize = 256 << 20
    /// The largest side of a composition.
    public static let maximumSide = 16384.0
    /// The longest composition, in frames.
    public static let maximumFrames = 1_000_000.0

    /// Decodes Bodymovin JSON; `directory` is where images referenced by file name live.
    public init(json: Data, directory: String? = nil) throws(LottieError) {
        guard json.count <= Self.maximumFileSize else { throw .tooLarge("the file is over \(Self.maximumFileSize >> 20) MB") }
        do {
            model = try JSONDecoder().decode(CompositionModel.self, from: json)
        } catch let error as DecodingError {
            throw LottieError(error)
        } catch {
            throw .malformed(path: "$", reason: "\(error)")
        }
        self.directory = directory
        try validate()
    }

    /// Reads and decodes the Bodymovin JSON file at `path`.
    public init(contentsOfFile path: String) throws(LottieError) {
        let data: Data
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            if let size = attributes[.size] as? Int, size > Self.maximumFileSize {
                throw LottieError.tooLarge("the file is over \(Self.maximumFileSize >> 20) MB")
            }
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let error as LottieError {
            throw error
        } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
        let folder = (path as NSString).deletingLastPathComponent
        try self.init(json: data, directory: folder.isEmpty ? "." : folder)
    }

    private func validate() throws(LottieError) {
        let m = model
        guard m.width > 0, m.height > 0, m.width <= Self.maximumSide, m.height <= Self.maximumSide else {
            throw .tooLarge("size \(m.width)x\(m.height); each side must be 0<...\(Int(Self.maximumSide))")
        }
        guard m.frameRate > 0, m.frameRate <= 1000 else { throw .malformed(path: "$.fr", reason: "frame rate \(m.frameRate) is not in 0<...1000") }
        guard m.inPoint.isFinite, m.outPoint.isFinite, m.outPoint > m.inPoint else {
            throw .malformed(path: "$.op", reason: "the out point \(m.outPoint) must follow the in point \(m.inPoint)")
        }
        guard m.outPoint - m.inPoint <= Self.maximumFrames else { throw .tooLarge("\(m.outPoint - m.inPoint) frames; at most \(Int(Self.maximumFrames))") }
    }

    /// Builds the layer tree. Features this player does not draw are listed in
    /// ``AnimationLayer/unsupportedFeatures``, and the rest still plays.
    @MainActor
    public func makeLayer() throws(LottieError) -> AnimationLayer {
        let root = AnimationLayer()
        root.frameRate = model.frameRate
        root.anchorPoint = .zero
        root.bounds = Rect(x: 0, y: 0, width: model.width, height: model.height)
        root.masksToBounds = true
        let budget = WorkBudget(limit: 20_000_000)
        let builder = CompositionBuilder(model: model, directory: directory, budget: budget)
        let timeline = Timeline(frameRate: model.frameRate, remap: nil, contextRange: model.inPoint...model.outPoint)
        try builder.build(model.layers, into: root, timeline: timeline, range: model.inPoint...model.outPoint, depth: 0)
        root.unsupportedFeatures = builder.unsupported
        root.currentFrame = model.inPoint
        return root
    }
}

/// The root of a built Lottie animation: its sublayers' animations run in the composition's
/// frames, and ``currentFrame`` says which one is shown (the root's time is paused there, the
/// pause idiom of Technical Q&A QA1673).
public final class AnimationLayer: Layer {
    /// Frames per second of the composition.
    public internal(set) var frameRate = 60.0
    /// What the file uses that is not drawn, one line per feature with the first layer using it.
    public internal(set) var unsupportedFeatures: [String] = []

    /// Creates an empty animation layer; use ``LottieAnimation/makeLayer()``.
    public required init() {
        super.init()
        speed = 0
    }

    /// The composition frame shown (fractional frames interpolate).
    public var currentFrame: Double {
        get { timeOffset * frameRate }
        set { timeOffset = newValue / frameRate }
    }
}

// LottieAnimation: a decoded Bodymovin file, and the layer tree that plays it.

import Foundation
import LiveLayers
import Raster
#if canImport(Glibc)
import Glibc
#endif

/// A Lottie animation (Bodymovin JSON, as exported from After Effects), decoded.
///
/// ``makeLayer()`` turns it into a tree of layers with whole-duration keyframe animations, the
/// way lottie-ios's Core Animation rendering engine does: playing it is then a matter of
/// setting the time of the root (``AnimationLayer/currentFrame``).
public struct LottieAnimation: Sendable {
    let model: CompositionModel
    /// Where images come from: data URLs, files in the JSON's folder, or the dotLottie archive.
    let images: ImageSource
    /// The folder of the JSON file, where images referenced by name are read from.
    public var directory: String? { images.directory }

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
        try self.init(json: json, images: ImageSource(directory: directory))
    }

    private init(json: Data, images: ImageSource) throws(LottieError) {
        guard json.count <= Self.maximumFileSize else { throw .tooLarge("the file is over \(Self.maximumFileSize >> 20) MB") }
        do {
            model = try JSONDecoder().decode(CompositionModel.self, from: json)
        } catch let error as DecodingError {
            throw LottieError(error)
        } catch {
            throw .malformed(path: "$", reason: "\(error)")
        }
        self.images = images
        try validate()
    }

    /// Decodes a dotLottie archive (a zip of a `manifest.json`, animations and images): the
    /// first animation its manifest lists (or, without one, the first JSON file in
    /// `animations/` or `a/`), with its images read from the archive.
    /// - Throws: ``LottieError/malformed(path:reason:)`` with `zip` or the entry's name in the
    ///   path when the archive is damaged, hostile or has no animation.
    public init(dotLottie data: Data) throws(LottieError) {
        guard data.count <= Self.maximumFileSize else { throw .tooLarge("the file is over \(Self.maximumFileSize >> 20) MB") }
        let archive = try ZipArchive(data: [UInt8](data))
        struct Manifest: Decodable {
            struct Entry: Decodable { var id: String }
            var animations: [Entry]?
        }
        var candidates: [String] = []
        if let manifest = archive["manifest.json"] {
            do {
                let decoded = try JSONDecoder().decode(Manifest.self, from: Data(manifest))
                for entry in decoded.animations ?? [] { candidates += ["animations/\(entry.id).json", "a/\(entry.id).json"] }
            } catch {
                throw .malformed(path: "manifest.json", reason: "not a dotLottie manifest (\(error))")
            }
        }
        candidates += archive.names.filter { ($0.hasPrefix("animations/") || $0.hasPrefix("a/")) && $0.hasSuffix(".json") }
        guard let name = candidates.first(where: { archive[$0] != nil }), let json = archive[name] else {
            throw .malformed(path: "zip", reason: "no animation in the archive (animations/*.json or a/*.json)")
        }
        var files: [String: [UInt8]] = [:]
        for file in archive.names { files[file] = archive[file] }
        do {
            try self.init(json: Data(json), images: ImageSource(directory: nil, archive: files))
        } catch {
            guard case let .malformed(path, reason) = error else { throw error }
            throw .malformed(path: "\(name): \(path)", reason: reason)
        }
    }

    /// Reads and decodes the Lottie file at `path`: Bodymovin JSON, or a dotLottie archive (told
    /// by its zip signature, whatever its name).
    public init(contentsOfFile path: String) throws(LottieError) {
        let data: Data
        do {
            var info = stat()
            // A FIFO or a device would block or never end: only regular files are read.
            if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
                throw LottieError.unreadable(path: path, reason: "not a regular file")
            }
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
        if data.starts(with: [0x50, 0x4B, 0x03, 0x04]) || data.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
            try self.init(dotLottie: data)
            return
        }
        // A damaged archive named .lottie would otherwise be reported as bad JSON.
        let opening = data.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }  // past spaces and a BOM
        if path.lowercased().hasSuffix(".lottie"), opening != UInt8(ascii: "{") {
            throw .malformed(path: "zip", reason: "a .lottie file is a zip archive, and this one does not start with a zip signature")
        }
        let folder = (path as NSString).deletingLastPathComponent
        try self.init(json: data, directory: folder.isEmpty ? "." : folder)
    }

    private func validate() throws(LottieError) {
        let m = model
        // An empty canvas is a broken file, not one too large to play: say which.
        guard m.width > 0, m.height > 0 else {
            throw .malformed(path: "$.w", reason: "size \(m.width)x\(m.height); each side must be more than 0")
        }
        guard m.width <= Self.maximumSide, m.height <= Self.maximumSide else {
            throw .tooLarge("size \(m.width)x\(m.height); each side must be at most \(Int(Self.maximumSide))")
        }
        guard m.frameRate > 0, m.frameRate <= 1000 else {
            throw .malformed(path: "$.fr", reason: "frame rate \(m.frameRate); it must be more than 0 and at most 1000")
        }
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
        let builder = CompositionBuilder(model: model, images: images, budget: budget)
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

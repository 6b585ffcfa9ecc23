// LottieCorpus: the cases of ../shared/lottie, rendered in process and scored.

import Foundation
import LiveLayers
import Lottie
import Raster

/// The Lottie corpus beside the package (`../shared/lottie`): its cases, read from `cases.json`.
public struct LottieCorpus: Sendable {
    /// One file and the frames it is checked at.
    public struct Case: Decodable, Sendable {
        public struct Frame: Decodable, Sendable {
            public var t: Double
            public var frame: Double
            public var refs: [String: String]
        }
        public var id: String
        public var file: String
        public var w: Int
        public var h: Int
        public var fr: Double
        public var ip: Double
        public var op: Double
        public var frames: [Frame]
    }

    private struct Listing: Decodable { var cases: [Case] }

    /// The corpus folder.
    public let folder: String
    public let cases: [Case]

    /// The corpus at `../shared/lottie` relative to the package root, or `nil` when the folder is missing.
    public static func beside(packageRoot: String) throws -> LottieCorpus? {
        let folder = URL(fileURLWithPath: packageRoot).deletingLastPathComponent().appendingPathComponent("shared/lottie").path
        guard FileManager.default.fileExists(atPath: folder + "/cases.json") else { return nil }
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/cases.json"))
        return LottieCorpus(folder: folder, cases: try JSONDecoder().decode(Listing.self, from: data).cases)
    }

    /// The verdict on one case.
    public struct Verdict: Sendable {
        public var id: String
        public var passes: Bool
        /// One line per frame: the time, then each reference's bad percentage and IoU.
        public var details: [String]
    }

    /// Renders each frame of `item` as `live-player play` does at the composition's own size
    /// (transparent background), or says why it cannot.
    @MainActor
    public func render(_ item: Case) -> Result<[PixelImage], CaseFailure> {
        do {
            let animation = try LottieAnimation(contentsOfFile: folder + "/" + item.file)
            let root = try animation.makeLayer()
            let bitmap = try Bitmap(width: item.w, height: item.h)
            let renderer = LayerRenderer()
            renderer.isDamageTrackingEnabled = false
            return .success(item.frames.map { frame in
                root.currentFrame = min(animation.inPoint + frame.t * animation.frameRate, animation.outPoint - 1)
                bitmap.clear()
                _ = renderer.render(root, at: LayerClock.currentTime, into: bitmap)
                return PixelImage(bitmap)
            })
        } catch {
            return .failure(CaseFailure(reason: "\(error)"))
        }
    }

    /// Why a case could not be rendered.
    public struct CaseFailure: Error, Sendable { public var reason: String }

    /// Scores the rendered frames of `item` against its references.
    public func score(_ item: Case, rendered: Result<[PixelImage], CaseFailure>) -> Verdict {
        let images: [PixelImage]
        switch rendered {
        case let .success(list): images = list
        case let .failure(failure): return Verdict(id: item.id, passes: false, details: [failure.reason])
        }
        var passes = true
        var details: [String] = []
        for (frame, image) in zip(item.frames, images) {
            var framePasses = false
            var line = "t=\(frame.t)"
            for (library, path) in frame.refs.sorted(by: { $0.key < $1.key }) {
                guard let reference = try? Bitmap(pngFile: folder + "/" + path) else { line += " \(library): unreadable"; continue }
                let score = ConformanceRule.score(image, against: PixelImage(reference))
                framePasses = framePasses || score.passes
                line += " \(library): bad \(String(format: "%.2f", score.badFraction * 100))% IoU \(String(format: "%.3f", score.inkIoU))"
                if framePasses { break }
            }
            passes = passes && framePasses
            details.append(line + (framePasses ? " ok" : " FAIL"))
        }
        return Verdict(id: item.id, passes: passes, details: details)
    }
}

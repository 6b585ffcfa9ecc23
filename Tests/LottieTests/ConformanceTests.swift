// ConformanceTests: the Lottie corpus (../shared/lottie) scored with its rule; fails on a regression.

import Foundation
import LiveLayers
import Lottie
import LottieConformance
import Raster
import Testing

/// Where the corpus is: `../shared/lottie` beside the package root.
private let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path
private let corpus = try? LottieCorpus.beside(packageRoot: packageRoot)

@Suite("Lottie corpus conformance")
struct ConformanceTests {
    /// The cases that passed when this count was last raised; fewer is a regression.
    static let recordedPassCount = 132

    @Test(.enabled(if: corpus != nil, "../shared/lottie (the Lottie corpus) is missing beside the package; conformance not checked"))
    func corpusPassCountDoesNotRegress() async throws {
        let corpus = try #require(corpus)
        var passed: [String] = [], failed: [String] = []
        let only = ProcessInfo.processInfo.environment["LOTTIE_CASES"]?.split(separator: ",").map(String.init)
        for item in corpus.cases where only == nil || only!.contains(item.id) {
            // Each case holds the main actor (the layer tree's) only while it renders.
            let rendered = await corpus.render(item)
            let verdict = corpus.score(item, rendered: rendered)
            if verdict.passes { passed.append(item.id) } else { failed.append("\(item.id): \(verdict.details.joined(separator: "; "))") }
        }
        print("lottie corpus: \(passed.count)/\(corpus.cases.count) cases pass (recorded: \(Self.recordedPassCount))")
        if ProcessInfo.processInfo.environment["LOTTIE_VERBOSE"] != nil { for line in failed { print("failed: \(line)") } }
        #expect(passed.count >= Self.recordedPassCount,
                "lottie corpus: \(passed.count)/\(corpus.cases.count) pass, below the recorded \(Self.recordedPassCount)")
    }

    /// The Swift rule reproduces the corpus's own figures for its two references against each other.
    @Test(.enabled(if: corpus != nil, "../shared/lottie (the Lottie corpus) is missing beside the package"))
    func ruleMatchesTheCorpusFiguresForItsReferences() throws {
        let corpus = try #require(corpus)
        let data = try Data(contentsOf: URL(fileURLWithPath: corpus.folder + "/cases.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let cases = try #require(json["cases"] as? [[String: Any]])
        var checked = 0
        for item in cases.prefix(40) {
            for frame in (item["frames"] as? [[String: Any]] ?? []) {
                guard let refs = frame["refs"] as? [String: String], let r = refs["rlottie"], let t = refs["thorvg"],
                      let figures = frame["rlottie_vs_thorvg"] as? [String: Double],
                      let bad = figures["bad_percent"], let iou = figures["ink_iou"] else { continue }
                let score = ConformanceRule.score(try Bitmap(pngFile: corpus.folder + "/" + r),
                                                  against: try Bitmap(pngFile: corpus.folder + "/" + t))
                #expect(abs(score.badFraction * 100 - bad) < 0.05, "\(r): bad \(score.badFraction * 100)% vs \(bad)%")
                #expect(abs(score.inkIoU - iou) < 0.002, "\(r): IoU \(score.inkIoU) vs \(iou)")
                checked += 1
                if checked >= 12 { return }
            }
        }
    }
}

@Suite("Scoring rule")
struct ConformanceRuleTests {
    private func image(_ width: Int, _ height: Int, _ body: (Int, Int) -> UInt32) throws -> Bitmap {
        let bitmap = try Bitmap(width: width, height: height)
        for y in 0..<height { for x in 0..<width { bitmap[x, y] = body(x, y) } }
        return bitmap
    }

    @Test func identicalImagesPass() throws {
        let a = try image(20, 20) { x, _ in x < 10 ? 0xFF00_0000 : 0 }
        let score = ConformanceRule.score(a, against: a)
        #expect(score.badFraction == 0 && score.inkIoU == 1 && score.passes)
    }

    @Test func aOnePixelShiftIsForgivenButAMissingLineIsNot() throws {
        let block = try image(40, 40) { x, y in (10..<30).contains(x) && (10..<30).contains(y) ? 0xFFFF_0000 : 0 }
        let shifted = try image(40, 40) { x, y in (11..<31).contains(x) && (10..<30).contains(y) ? 0xFFFF_0000 : 0 }
        #expect(ConformanceRule.score(shifted, against: block).badFraction == 0)
        let line = try image(40, 40) { x, _ in x == 5 ? 0xFF00_00FF : 0 }
        let empty = try image(40, 40) { _, _ in 0 }
        #expect(ConformanceRule.score(empty, against: line).badFraction == 40.0 / 1600)
        #expect(!ConformanceRule.score(empty, against: line).passes)
    }
}

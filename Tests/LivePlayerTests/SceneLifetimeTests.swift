import DisplayClock
import Foundation
import Testing
@testable import live_player
@testable import LiveLayers
import Raster

/// Weak references to every layer of a tree (sublayers and masks).
@MainActor
final class WeakLayers {
    private struct Entry { weak var layer: Layer? }
    private var entries: [Entry] = []

    init(tree root: Layer) { add(root) }

    private func add(_ layer: Layer) {
        entries.append(Entry(layer: layer))
        if let mask = layer.mask { add(mask) }
        for sublayer in layer.sublayers { add(sublayer) }
    }

    var count: Int { entries.count }
    var alive: Int { entries.filter { $0.layer != nil }.count }
}

/// Scenes at every size the player accepts, and what a scene costs once it is gone.
@MainActor
@Suite(.serialized) struct SceneLifetimeTests {
    /// A pipeline on a virtual clock, as the windowed player drives it. The layer runtime is
    /// reset here, in the test's body: a suite's `init` and its test can be separated by another
    /// suite's main-actor test.
    func pipeline(_ kind: SceneKind, width: Int = 160, height: Int = 120) throws -> FramePipeline {
        LayerRuntime.shared.reset()
        let link = DisplayLink(refreshRate: 60, clock: VirtualClock(now: 0), start: 0)
        return try FramePipeline(kind: kind, setup: SceneSetup(size: Size(width: Double(width), height: Double(height)), image: nil),
                                 link: link, overlay: nil, logCapacity: 16)
    }

    /// Tab through every scene many times: each scene left behind is freed, however its
    /// animations were going (rays turn forever; pk, orbit and fill modes keep a fill), so N
    /// switches cost no more memory than one.
    @Test func everySceneSwitchedAwayIsFreed() throws {
        let player = try pipeline(.rays)
        var time = 0.0
        func frames(_ n: Int) {
            for _ in 0..<n {
                time += 1.0 / 60
                player.produceFrame(mediaTime: time, into: player.sceneBitmap)
                player.finishFrame(blit: 0)
            }
        }
        for _ in 0..<3 {
            for _ in SceneKind.allCases {
                player.scene.go()
                frames(3)
                let left = WeakLayers(tree: player.scene.root)
                let leftKind = player.kind
                player.switchScene(to: player.kind.next)
                frames(3)
                #expect(left.alive == 0, "\(left.alive) of the \(leftKind) scene's \(left.count) layers outlived the switch away from it")
            }
        }
    }

    /// Rays fill the window whatever its size: a frame whose diagonal is beyond the largest
    /// bitmap side renders, and the player exits 0.
    @Test func raysRenderAtTheWidestFrame() throws {
        let result = try PlayerProcess.run(["rays", "--headless", "--size", "16384x100", "--frames", "2"], timeout: 120)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let summary = RunSummary(in: result.stdout)
        #expect(summary?.width == 16384 && summary?.height == 100 && summary?.frames == 2, "stdout: \(result.stdout)")
    }

    /// Another client may resize the window to anything the server accepts (12000x12000):
    /// the scene lays out again and renders.
    @Test func raysRenderAfterAResizeTo12000Square() throws {
        LayerRuntime.shared.reset()
        let scene = RaysScene(setup: SceneSetup(size: Size(width: 320, height: 240), image: nil))
        LayerClock.advance(to: 0)
        scene.resize(to: Size(width: 12000, height: 12000))
        LayerClock.advance(to: 1)
        // The window's top-left corner, at the rays' full radius from the centre.
        let corner = try Bitmap(width: 64, height: 64)
        LayerRenderer().render(scene.root, at: 1, into: corner)
        #expect(corner[32, 32] >> 24 == 0xFF, "the scene does not cover its corner: \(String(corner[32, 32], radix: 16))")
    }
}

extension SceneLifetimeTests {
    /// The rays are geometry turned to the frame's angle: at 1 s (a twelfth of a clockwise turn,
    /// 30°), every pixel 3 px or more inside a wedge's edges is the ray colour, and every pixel
    /// 3 px or more outside it (in the gap before it) is the background, out to the frame's edge;
    /// the wedges' edges lie at 2π·k/16 + 30°.
    @Test func raysWedgeEdgesLieAtTheFramesAngle() throws {
        // The turn starts at the layer clock's time when the scene commits: 0, whatever tests
        // of other suites (which may run between this suite's init and this body) left it at.
        LayerRuntime.shared.reset()
        let scene = RaysScene(setup: SceneSetup(size: Size(width: 320, height: 240), image: nil))
        let frame = try Bitmap(width: 320, height: 240)
        let renderer = LayerRenderer()
        renderer.render(scene.root, at: 0, into: frame)
        renderer.render(scene.root, at: 1, into: frame)
        let turn = Double.pi / 6, slice = 2 * Double.pi / 16
        var checked = 0
        for wedge in stride(from: 0, to: 16, by: 2) {
            let a0 = Double(wedge) * slice + turn, a1 = a0 + slice
            for r in stride(from: 25.0, through: 190, by: 15) {
                let inset = asin(3 / r)
                for (angle, expected, name) in [(a0 + inset, RaysScene.rayColor, "inside, after"), (a1 - inset, RaysScene.rayColor, "inside, before"),
                                                (a0 - inset, RaysScene.secondary, "outside, before")] {
                    let x = Int((160 + r * cos(angle)).rounded(.down)), y = Int((120 + r * sin(angle)).rounded(.down))
                    guard (0..<320).contains(x), (0..<200).contains(y) else { continue }   // the hint is at the bottom
                    #expect(frame[x, y] == expected.premultipliedPixel,
                            "wedge \(wedge), \(name) its edge, r \(r): pixel (\(x), \(y)) is \(String(frame[x, y], radix: 16))")
                    checked += 1
                }
            }
        }
        #expect(checked > 100)
    }
}

// LottieModifierTests: round corners and merge paths change the shapes above them.

import Foundation
import LiveLayers
import Lottie
import Raster
import Testing

@MainActor
private func render(_ data: Data, frame: Double = 0) throws -> Bitmap {
    let root = try LottieAnimation(json: data).makeLayer()
    root.currentFrame = frame
    let bitmap = try Bitmap(width: Int(root.bounds.width), height: Int(root.bounds.height))
    _ = LayerRenderer().render(root, at: LayerClock.currentTime, into: bitmap)
    return bitmap
}

private let redFill = #"{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}"#

private func rect(x: Double, y: Double, width: Double, height: Double) -> String {
    #"{"ty":"rc","p":{"a":0,"k":[\#(x + width / 2),\#(y + height / 2)]},"s":{"a":0,"k":[\#(width),\#(height)]},"r":{"a":0,"k":0}}"#
}

private func ellipse(x: Double, y: Double, diameter: Double) -> String {
    #"{"ty":"el","p":{"a":0,"k":[\#(x + diameter / 2),\#(y + diameter / 2)]},"s":{"a":0,"k":[\#(diameter),\#(diameter)]}}"#
}

@Suite("Lottie modifiers")
@MainActor
struct LottieModifierTests {
    /// A 60x60 square (20...80) with its corners rounded by 20: each corner becomes a quarter
    /// circle of radius 20 about (40, 40), (60, 40), ... (analytic: lottie-web's 0.5519 handles
    /// are the circle's cubic, within 0.03 px).
    @Test func roundCornersCutSharpCornersToQuarterCircles() throws {
        func square(radius: Double, animated: Bool = false) throws -> Bitmap {
            let r = animated ? #"{"a":1,"k":[{"t":0,"s":[0],"o":{"x":0,"y":0},"i":{"x":1,"y":1}},{"t":10,"s":[\#(2 * radius)]}]}"#
                : #"{"a":0,"k":\#(radius)}"#
            return try render(composition(layers: shapeLayer(rect(x: 20, y: 20, width: 60, height: 60) + #",{"ty":"rd","r":\#(r)},"# + redFill)),
                              frame: animated ? 5 : 0)
        }
        let sharp = try square(radius: 0)
        #expect(sharp[21, 21] == 0xFFFF_0000)
        for image in [try square(radius: 20), try square(radius: 20, animated: true)] {
            // Pixel (24, 24): its centre is 21.9 from the arc's centre (40, 40), outside; (27, 27): 17.7, inside.
            for (x, y) in [(24, 24), (75, 24), (24, 75), (75, 75), (21, 21)] { #expect(image[x, y] == 0, "(\(x), \(y))") }
            for (x, y) in [(27, 27), (72, 27), (27, 72), (72, 72), (50, 21), (21, 50), (50, 50)] {
                #expect(image[x, y] == 0xFFFF_0000, "(\(x), \(y))")
            }
        }
        // A radius beyond half an edge stops at half: the square becomes a circle of radius 30.
        let round = try square(radius: 100)
        #expect(round[50, 21] == 0xFFFF_0000 && round[26, 26] == 0 && round[31, 31] == 0xFFFF_0000)
    }

    /// A repeater whose count animates 0 → 5 over frames 0...10 (linearly), each copy 20 px
    /// right of the one before, opacity 100 % → 50 % across the copies shown: whole copies are
    /// shown (2.5 → 2, as ThorVG and rlottie count them), and the last one shown is at 50 %.
    @Test func animatedRepeaterCopiesShowWholeCopiesAsTheCountChanges() throws {
        let copies = #"{"a":1,"k":[{"t":0,"s":[0],"o":{"x":0,"y":0},"i":{"x":1,"y":1}},{"t":10,"s":[5]}]}"#
        let repeater = #"{"ty":"rp","c":\#(copies),"o":{"a":0,"k":0},"m":1,"tr":{"ty":"tr","p":{"a":0,"k":[20,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"so":{"a":0,"k":100},"eo":{"a":0,"k":50}}}"#
        let data = composition(layers: shapeLayer([rect(x: 0, y: 45, width: 10, height: 10), redFill, repeater].joined(separator: ",")))
        func alphas(at frame: Double) throws -> [UInt32] {
            let image = try render(data, frame: frame)
            return (0..<5).map { image[20 * $0 + 5, 50] >> 24 }
        }
        #expect(try alphas(at: 0) == [0, 0, 0, 0, 0])
        #expect(try alphas(at: 2.4) == [255, 0, 0, 0, 0])
        let half = try alphas(at: 5)
        #expect(half[0] == 255 && abs(Int(half[1]) - 128) <= 1 && half[2...] == [0, 0, 0], "\(half)")
        let all = try alphas(at: 10)
        #expect(all[0] == 255 && abs(Int(all[4]) - 128) <= 1 && all[1] > all[2] && all[2] > all[3] && all[3] > all[4], "\(all)")
    }

    /// An ellipse has no sharp corner: round corners leave it as it is.
    @Test func roundCornersLeaveCurvesAlone() throws {
        let plain = try render(composition(layers: shapeLayer(ellipse(x: 10, y: 10, diameter: 80) + "," + redFill)))
        let rounded = try render(composition(layers: shapeLayer(ellipse(x: 10, y: 10, diameter: 80) + #",{"ty":"rd","r":{"a":0,"k":30}},"# + redFill)))
        #expect(plain.hasSamePixels(as: rounded))
    }

    /// Two overlapping squares, A (10...60, 20...70) above B (40...90, 30...80), merged by
    /// `mode`, filled red: each region is drawn or not as the mode says (analytic, at pixel
    /// centres at least 5 px from any edge). B turns the other way, so filling the paths
    /// together (mode 1) leaves the overlap empty and add cannot be the non-zero rule alone.
    @Test(arguments: [
        (1, [true, false, true]),   // merge: the paths filled together (B turns the other way: a hole)
        (2, [true, true, true]),    // add
        (3, [true, false, false]),  // subtract: A − B
        (4, [false, true, false]),  // intersect
        (5, [true, false, true]),   // exclude intersections
    ])
    func mergePathsCombineTheShapesAbove(mode: Int, expected: [Bool]) throws {
        let a = rect(x: 10, y: 20, width: 50, height: 50)
        let b = #"{"ty":"rc","d":3,"p":{"a":0,"k":[65,55]},"s":{"a":0,"k":[50,50]},"r":{"a":0,"k":0}}"#
        let merge = #"{"ty":"mm","mm":\#(mode)}"#
        let image = try render(composition(layers: shapeLayer([a, b, merge, redFill].joined(separator: ","))))
        let onlyA = image[20, 40], both = image[50, 50], onlyB = image[80, 60]
        for (pixel, drawn, name) in [(onlyA, expected[0], "A only"), (both, expected[1], "both"), (onlyB, expected[2], "B only")] {
            #expect(pixel == (drawn ? 0xFFFF_0000 : 0), "mode \(mode), \(name): \(String(pixel, radix: 16))")
        }
        #expect(image[20, 75] == 0 && image[80, 25] == 0, "mode \(mode): drawn outside both")
        // A gradient fill (red to red) covers the same regions.
        let gradient = #"{"ty":"gf","o":{"a":0,"k":100},"r":1,"s":{"a":0,"k":[0,0]},"e":{"a":0,"k":[100,0]},"t":1,"g":{"p":2,"k":{"a":0,"k":[0,1,0,0,1,1,0,0]}}}"#
        let shaded = try render(composition(layers: shapeLayer([a, b, merge, gradient].joined(separator: ","))))
        for (x, y, drawn) in [(20, 40, expected[0]), (50, 50, expected[1]), (80, 60, expected[2])] {
            #expect((shaded[x, y] >> 24 == 0xFF) == drawn && (shaded[x, y] == 0) == !drawn, "mode \(mode), gradient at (\(x), \(y))")
        }
        // Inside a group whose transform moves everything 5 px right, the merge moves with it.
        let grouped = #"{"ty":"gr","it":[\#(a),\#(b),\#(merge),\#(redFill),{"ty":"tr","p":{"a":0,"k":[5,0]}}]}"#
        let moved = try render(composition(layers: shapeLayer(grouped)))
        #expect(moved[25, 40] == onlyA && moved[55, 50] == both && moved[85, 60] == onlyB, "mode \(mode) in a moved group")
    }

    /// A merge's fill with half opacity is half red once, also where the operands overlap.
    @Test func mergedFillsKeepTheirOpacityOverOverlaps() throws {
        let a = rect(x: 10, y: 20, width: 50, height: 50), b = rect(x: 40, y: 30, width: 50, height: 50)
        let fill = #"{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":50}}"#
        let image = try render(composition(layers: shapeLayer([a, b, #"{"ty":"mm","mm":2}"#, fill].joined(separator: ","))))
        #expect(image[20, 40] == image[50, 50], "\(String(image[20, 40], radix: 16)) vs \(String(image[50, 50], radix: 16))")
        #expect((image[50, 50] >> 24) == 0x80 || (image[50, 50] >> 24) == 0x7F)
    }

    /// A trim after a merge trims each merged path, as it trims plain paths (not the merge as one).
    @Test func trimsAfterAMergeTrimEachPath() throws {
        func line(y: Int) -> String {
            #"{"ty":"sh","ks":{"a":0,"k":{"c":false,"v":[[0,\#(y)],[100,\#(y)]],"i":[[0,0],[0,0]],"o":[[0,0],[0,0]]}}}"#
        }
        let trim = #"{"ty":"tm","s":{"a":0,"k":0},"e":{"a":0,"k":50},"o":{"a":0,"k":0},"m":1}"#
        let stroke = #"{"ty":"st","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":10},"lc":1,"lj":1}"#
        let image = try render(composition(layers: shapeLayer([line(y: 30), line(y: 70), #"{"ty":"mm","mm":2}"#, trim, stroke].joined(separator: ","))))
        #expect(image[25, 30] == 0xFFFF_0000 && image[25, 70] == 0xFFFF_0000)
        #expect(image[75, 30] == 0 && image[75, 70] == 0)
    }
}

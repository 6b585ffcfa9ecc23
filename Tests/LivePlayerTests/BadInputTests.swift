import Foundation
import Testing

/// Bad input the first tries missed (issue 11, minor items): each is a clear message naming
/// what is wrong and why, status 64, and never a hang.
@Suite struct BadInputTests {
    func expectUsageError(_ arguments: [String], mentions texts: [String], without absent: String? = nil) throws {
        let result = try PlayerProcess.run(arguments, timeout: 30)
        #expect(result.status == 64, "\(arguments): status \(String(describing: result.status)), stderr \(result.stderr)")
        for text in texts { #expect(result.stderr.contains(text), "\(arguments): stderr was \(result.stderr)") }
        if let absent { #expect(!result.stderr.contains(absent), "\(arguments): stderr was \(result.stderr)") }
    }

    /// A temporary folder, removed after `body`.
    func inTemporaryFolder(_ body: (String) throws -> Void) throws {
        let folder = PlayerProcess.temporaryPath("bad-input")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(folder)
    }

    /// A FIFO (or any file that is not a regular file) would block the read forever.
    @Test func aFIFOGivenAsTheImageIsRefusedAtOnce() throws {
        try inTemporaryFolder { folder in
            let fifo = folder + "/picture.png"
            #expect(mkfifo(fifo, 0o600) == 0)
            try expectUsageError(["arrow", "--headless", "--frames", "1", "--image", fifo], mentions: [fifo, "not a regular file"])
        }
    }

    /// libpng's bare "Read Error" said neither which file nor why.
    @Test func unreadableImagesSayWhichFileAndWhy() throws {
        try inTemporaryFolder { folder in
            try expectUsageError(["arrow", "--headless", "--image", folder], mentions: [folder, "a directory"], without: "Read Error")
            let truncated = folder + "/truncated.png"
            let whole = try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens/pk-320x240-at-1.5.png"))
            try whole.prefix(200).write(to: URL(fileURLWithPath: truncated))
            try expectUsageError(["arrow", "--headless", "--image", truncated], mentions: [truncated, "truncated"], without: "Read Error")
            try expectUsageError(["arrow", "--headless", "--image", folder + "/missing.png"], mentions: [folder + "/missing.png", "No such file or directory"])
        }
    }

    /// A negative number is a value out of range, not a missing one.
    @Test(arguments: [
        ["--frames", "-3"], ["--fps", "-3"], ["--at", "-1"], ["--size", "-3x4"], ["--size", "4x-3"],
    ])
    func negativeNumbersAreOutOfRange(_ option: [String]) throws {
        try expectUsageError(["pk", "--headless"] + option, mentions: [option[0], "out of range"], without: "Missing value")
    }

    /// A frame costs memory in proportion to its pixels: above the stated limit the player
    /// refuses with what it would cost, before allocating anything.
    @Test func aFrameAboveThePixelLimitIsRefusedWithItsCost() throws {
        try expectUsageError(["arrow", "--headless", "--frames", "1", "--size", "16384x16384"], mentions: ["16384x16384", "268435456 pixels", "GB"])
    }

    /// One row past the limit: rounded to megapixels the size and the limit read the same (67.1).
    @Test func aFrameJustPastThePixelLimitSaysByHowMuch() throws {
        try expectUsageError(["arrow", "--headless", "--frames", "1", "--size", "8193x8192"],
                             mentions: ["8193x8192", "67117056 pixels", "the limit is 67108864 pixels"])
    }
}

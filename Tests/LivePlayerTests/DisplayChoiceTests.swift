import Foundation
import Testing

/// Which display the player uses (issue 11, defect 9): headless only when no display was
/// asked for; a display asked for (`--display` or `$DISPLAY`) that cannot be reached is an
/// error with its reason, status 69 (EX_UNAVAILABLE), never a silent headless run.
@Suite struct DisplayChoiceTests {
    /// A local display number with no server: no socket and no lock file.
    func unusedDisplay() -> String {
        var number = 900 + Int(getpid() % 50)
        while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") || FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") {
            number += 1
        }
        return ":\(number)"
    }

    @Test func anUnreachableDisplayOptionIsAnError() throws {
        let display = unusedDisplay()
        let result = try PlayerProcess.run(["pk", "--size", "64x48", "--frames", "2", "--display", display], timeout: 30)
        #expect(result.status == 69, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("cannot open the X display '\(display)'"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("no X server"), "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("running headless"))
        #expect(!result.stdout.contains("headless"), "stdout: \(result.stdout)")
    }

    @Test func anUnreachableDisplayVariableIsAnError() throws {
        let display = unusedDisplay()
        let result = try PlayerProcess.run(["pk", "--size", "64x48", "--frames", "2"], display: display, timeout: 30)
        #expect(result.status == 69, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("cannot open the X display '\(display)'"), "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("running headless"))
    }

    /// Nothing asked for (DISPLAY unset or empty, no --display): the headless player, said so.
    @Test func noDisplayAskedForRunsHeadless() throws {
        let result = try PlayerProcess.run(["pk", "--size", "64x48", "--frames", "2"], display: nil, timeout: 30)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("running headless"))
        #expect(RunSummary(in: result.stdout).map { ($0.mode, $0.frames) } ?? ("", 0) == ("headless", 2), "stdout: \(result.stdout)")
    }

    @Test func anEmptyDisplayOptionIsAUsageError() throws {
        let result = try PlayerProcess.run(["pk", "--display", ""], timeout: 30)
        #expect(result.status == 64, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("--display"), "stderr: \(result.stderr)")
    }
}

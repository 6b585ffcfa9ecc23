import Foundation
import Testing

/// Bad input gets a clear message and exit code 64 (EX_USAGE), never a crash or a hang.
@Suite struct CommandLineTests {
    func expectUsageError(_ arguments: [String], mentions text: String) throws {
        let result = try PlayerProcess.run(arguments, timeout: 30)
        #expect(result.status == 64, "\(arguments): status \(String(describing: result.status)), stderr \(result.stderr)")
        #expect(result.stderr.contains(text), "\(arguments): stderr was \(result.stderr)")
    }

    @Test func unknownScene() throws { try expectUsageError(["spiral"], mentions: "unknown scene 'spiral'") }
    @Test func zeroSize() throws { try expectUsageError(["arrow", "--size", "0x100"], mentions: "each side must be 1...16384") }
    @Test func oversizedSize() throws { try expectUsageError(["arrow", "--size", "16385x10"], mentions: "each side must be 1...16384") }
    @Test func malformedSize() throws { try expectUsageError(["arrow", "--size", "big"], mentions: "--size must be WxH") }
    @Test func zeroFPS() throws { try expectUsageError(["arrow", "--fps", "0"], mentions: "--fps must be") }
    @Test func unreadableImage() throws {
        let path = PlayerProcess.temporaryPath("not.png")
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        try expectUsageError(["arrow", "--headless", "--image", path], mentions: "cannot read the image")
        try expectUsageError(["arrow", "--headless", "--image", "/nonexistent/picture.png"], mentions: "cannot read the image")
    }
    @Test func unwritablePaths() throws {
        try expectUsageError(["arrow", "--headless", "--screenshot", "/nonexistent/shot.png"], mentions: "--screenshot")
        try expectUsageError(["arrow", "--headless", "--frames", "1", "--stats", NSTemporaryDirectory()], mentions: "--stats")
        try expectUsageError(["arrow", "--headless", "--frames", "1", "--screenshot", "/nonexistent/folder/shot.png"], mentions: "folder")
    }

    /// Ctrl-C ends a run like q: the summary is printed, --stats written, and the status is 130.
    @Test func interruptEndsAHeadlessRunCleanly() throws {
        let stats = PlayerProcess.temporaryPath("interrupted.json")
        defer { try? FileManager.default.removeItem(atPath: stats) }
        let player = try PlayerProcess.start(["arrow", "--headless", "--realtime", "--autoplay", "--frames", "1000000",
                                              "--size", "64x64", "--stats", stats])
        defer { player.kill(SIGKILL) }
        #expect(PlayerProcess.eventually { PlayerProcess.catches(SIGINT, pid: player.pid) || !player.isRunning })
        player.kill(SIGINT)
        #expect(player.wait(timeout: 30) == 130, "stderr: \(player.standardError)")
        #expect(player.standardOutput.contains("arrow 64x64 headless:"))
        #expect(FileManager.default.fileExists(atPath: stats))
    }

    /// SIGQUIT (Ctrl-\\) ends a run like SIGTERM: summary, --stats, status 131; no backtrace.
    @Test func quitSignalEndsAHeadlessRunCleanly() throws {
        let stats = PlayerProcess.temporaryPath("quit.json")
        defer { try? FileManager.default.removeItem(atPath: stats) }
        let player = try PlayerProcess.start(["arrow", "--headless", "--realtime", "--autoplay", "--frames", "1000000",
                                              "--size", "64x64", "--stats", stats])
        defer { player.kill(SIGKILL) }
        #expect(PlayerProcess.eventually { PlayerProcess.catches(SIGQUIT, pid: player.pid) && PlayerProcess.catches(SIGTERM, pid: player.pid) || !player.isRunning })
        player.kill(SIGQUIT)
        #expect(player.wait(timeout: 30) == 131, "stderr: \(player.standardError)")
        #expect(player.standardOutput.contains("arrow 64x64 headless:"))
        #expect(!player.standardError.contains("Backtrace"), "stderr: \(player.standardError)")
        #expect(FileManager.default.fileExists(atPath: stats))
    }

    @Test func badPriority() throws {
        try expectUsageError(["arrow", "--priority", "urgent"], mentions: "--priority must be normal or realtime")
        try expectUsageError(["arrow", "--priority", "realtime", "--fps", "max"], mentions: "needs a throttled rate")
    }

    /// A run at real-time priority works (granted as root; refused elsewhere, with a message),
    /// and its frames are still paced at the target rate: on the virtual clock, every frame's
    /// media time is exactly one 1/30 s period after the last.
    @Test func realtimePriorityRunsPaced() throws {
        let result = try PlayerProcess.run(["pk", "--headless", "--realtime", "--priority", "realtime", "--frames", "6", "--size", "64x48"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(RunSummary(in: result.stdout)?.frames == 6, "\(result.stdout)")
        if getuid() == 0 { #expect(!result.stderr.contains("refused SCHED_FIFO")) }

        let stats = PlayerProcess.temporaryPath("paced.json")
        defer { try? FileManager.default.removeItem(atPath: stats) }
        let paced = try PlayerProcess.run(["pk", "--headless", "--priority", "realtime", "--fps", "30", "--frames", "12", "--size", "64x48", "--stats", stats])
        #expect(paced.status == 0, "stderr: \(paced.stderr)")
        let summary = try #require(RunSummary(in: paced.stdout), "\(paced.stdout)")
        #expect(summary.frames == 12)
        #expect(summary.drops == 0)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as? [String: Any]
        let times = try #require((json?["frames"] as? [[String: Any]])?.compactMap { $0["mediaTime"] as? Double })
        #expect(times.count == 12)
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(abs(later - earlier - 1.0 / 30) < 1e-9, "media times \(times)")
        }
    }

    @Test func listNamesEveryScene() throws {
        let result = try PlayerProcess.run(["--list"])
        #expect(result.status == 0)
        for scene in ["arrow", "line", "rays", "orbit", "pk", "fillmodes", "gallery"] {
            #expect(result.stdout.contains(scene))
        }
    }

    @Test func noDisplayRunsHeadlessWithASummary() throws {
        let stats = PlayerProcess.temporaryPath("stats.json")
        defer { try? FileManager.default.removeItem(atPath: stats) }
        let result = try PlayerProcess.run(["pk", "--size", "160x120", "--frames", "5", "--stats", stats], display: nil)
        #expect(result.status == 0)
        #expect(result.stderr.contains("running headless"))
        let summary = try #require(RunSummary(in: result.stdout), "\(result.stdout)")
        #expect(summary.scene == "pk" && summary.width == 160 && summary.height == 120 && summary.mode == "headless")
        #expect(summary.frames == 5)
        #expect(summary.drops == 0)
        #expect(summary.p50Milliseconds > 0 && summary.p99Milliseconds >= summary.p50Milliseconds)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as? [String: Any]
        #expect((json?["frames"] as? [Any])?.count == 5)
        #expect(json?["frameCount"] as? Int == 5)
    }

    @Test func realtimeHeadlessPacesFramesAndEnds() throws {
        let result = try PlayerProcess.run(["line", "--headless", "--realtime", "--fps", "120", "--frames", "12", "--size", "64x48"])
        #expect(result.status == 0)
        #expect(RunSummary(in: result.stdout)?.frames == 12, "\(result.stdout)")
    }

    /// --realtime paces the headless clock; a window ignored it. With a display asked for it is
    /// a usage error before any window opens (the display here has no server: before, the run
    /// got as far as trying it); with none, the run is headless and the flag applies.
    @Test func realtimeWithAWindowIsAUsageError() throws {
        try expectUsageError(["line", "--realtime", "--frames", "2", "--size", "64x48", "--display", ":987"], mentions: "--realtime paces headless runs")
        let fromVariable = try PlayerProcess.run(["line", "--realtime", "--frames", "2", "--size", "64x48"], display: ":987", timeout: 30)
        #expect(fromVariable.status == 64, "stderr: \(fromVariable.stderr)")
        #expect(fromVariable.stderr.contains("--realtime paces headless runs"), "stderr: \(fromVariable.stderr)")
        let noDisplay = try PlayerProcess.run(["line", "--realtime", "--fps", "120", "--frames", "2", "--size", "64x48"], display: nil, timeout: 30)
        #expect(noDisplay.status == 0, "stderr: \(noDisplay.stderr)")
        #expect(RunSummary(in: noDisplay.stdout)?.frames == 2, "\(noDisplay.stdout)")
    }

    /// The README's count of the scenes, and its list of them, are the ones --list shows.
    @Test func theReadmeCountsAndNamesTheScenesListShows() throws {
        let names = try PlayerProcess.run(["--list"]).stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(names.count == 7)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
        for (index, word) in words.enumerated() where readme.contains("the \(word) scenes") || readme.contains("the \(word) built-in scenes") {
            #expect(index + 1 == names.count, "README says 'the \(word) scenes'; --list shows \(names.count)")
        }
        let row = try #require(readme.split(separator: "\n").first { $0.hasPrefix("| `<scene>`") })
        for name in names { #expect(row.contains("`\(name)`"), "the options table's scenes lack \(name)") }
    }

    @Test func headlessRunsOneGoCycleByDefault() throws {
        // pk's go takes 3 s: 180 frames at 60 fps (the first at 1/60 s: a display link's frame
        // is drawn for its target time), plus the frame that shows the hint its completion reveals.
        let result = try PlayerProcess.run(["pk", "--headless", "--size", "96x64"])
        #expect(result.status == 0)
        let summary = try #require(RunSummary(in: result.stdout), "\(result.stdout)")
        #expect(summary.frames == 181)
        #expect(summary.drops == 0)
    }

    @Test func headlessGalleryEndsAfterOneGoCycle() throws {
        // Gallery's tiles repeat forever; its cycle is the clock's 4 s pulse, not the 12 s a scene
        // that never completes a cycle runs for: 240 frames at 60 fps, drawn for target times
        // 1/60 s ... 4 s (none at 0, as with pk), and none after, since its completion changes nothing.
        let result = try PlayerProcess.run(["gallery", "--headless", "--size", "64x48"])
        #expect(result.status == 0)
        let frames = RunSummary(in: result.stdout)?.frames ?? 0
        #expect(frames == 240, "\(result.stdout)")
    }
}

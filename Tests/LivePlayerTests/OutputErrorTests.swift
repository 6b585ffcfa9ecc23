import Foundation
import Testing
import X11TestSupport

/// Output the player cannot write is a clear error naming the file and the reason, with a
/// non-zero status; the summary line still prints (issue 11, defect 5).
@Suite struct OutputErrorTests {
    /// Runs the player with a file-size limit of 0 and SIGXFSZ ignored, as when the disk fills:
    /// every write to a regular file fails with EFBIG. Its stdout and stderr are pipes, which
    /// the limit does not touch.
    func runWithFullDisk(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -f 0; trap '' XFSZ; exec \"$0\" \"$@\"", PlayerProcess.executable] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = ""
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let watchdog = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        // The output (a line or two) waits in the pipes until the player has exited; they are
        // not read to their end, which never came while a process another test started
        // meanwhile held their write ends (an Xvfb kept for a whole suite: the run hung).
        process.waitUntilExit()
        watchdog.cancel()
        return (process.terminationStatus, Self.drain(out), Self.drain(err))
    }

    /// What `pipe` holds now, read without waiting for more.
    static func drain(_ pipe: Pipe) -> String {
        let fd = pipe.fileHandleForReading.fileDescriptor
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A short run (the JSON fits in stdio's buffer, so only fclose sees the error) and a long
    /// one (fputs fails first).
    @Test(arguments: [2, 2000])
    func statsOnAFullDiskIsAnErrorAndTheSummaryStillPrints(frames: Int) throws {
        let stats = PlayerProcess.temporaryPath("full-disk.json")
        defer { try? FileManager.default.removeItem(atPath: stats) }
        let result = try runWithFullDisk(["pk", "--headless", "--size", "32x24", "--frames", "\(frames)", "--stats", stats])
        #expect(result.status != 0, "stderr: \(result.stderr)")
        #expect(result.stderr.contains(stats), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("File too large"), "stderr: \(result.stderr)")
        #expect(RunSummary(in: result.stdout)?.frames == frames, "stdout: \(result.stdout)")
    }

    /// The same for the headless screenshot: named, with the reason, and the summary prints.
    @Test func screenshotOnAFullDiskIsAnErrorAndTheSummaryStillPrints() throws {
        let shot = PlayerProcess.temporaryPath("full-disk.png")
        defer { try? FileManager.default.removeItem(atPath: shot) }
        let result = try runWithFullDisk(["pk", "--headless", "--size", "32x24", "--frames", "2", "--screenshot", shot])
        #expect(result.status != 0, "stderr: \(result.stderr)")
        #expect(result.stderr.contains(shot), "stderr: \(result.stderr)")
        #expect(RunSummary(in: result.stdout)?.frames == 2, "stdout: \(result.stdout)")
    }
}

/// `--stats` and `--screenshot` write to any writable file, not only regular ones: /dev/null
/// (to time a run without keeping its figures) and a FIFO read by another process. A folder is
/// still refused with a clear error.
@Suite struct OutputDeviceTests {
    /// Runs the player with the arguments `player` makes from a new FIFO's path, while
    /// `reader` (a command; the FIFO's path is appended) reads the FIFO, and returns the player's
    /// result, what the reader printed, and whether the FIFO was still there afterwards.
    private func runWithFifo(named name: String, readBy reader: [String], player: (String) -> [String])
        throws -> (result: (status: Int32?, stdout: String, stderr: String), read: String, fifoRemains: Bool) {
        let fifo = PlayerProcess.temporaryPath(name)
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let process = try ChildProcess(reader[0], Array(reader.dropFirst()) + [fifo])
        let result = try PlayerProcess.run(player(fifo))
        // A player that never opened the FIFO would leave the reader waiting for a writer: be one.
        let release = open(fifo, O_WRONLY | O_NONBLOCK)
        if release >= 0 { close(release) }
        if process.wait(timeout: 60) == nil { process.kill(SIGKILL) }
        let read = process.standardOutput
        var info = stat()
        return (result, read, stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func statsAndScreenshotGoToDevNull() throws {
        let result = try PlayerProcess.run(["pk", "--headless", "--size", "32x24", "--frames", "2",
                                            "--stats", "/dev/null", "--screenshot", "/dev/null"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.isEmpty, "stderr: \(result.stderr)")
        #expect(RunSummary(in: result.stdout)?.frames == 2, "stdout: \(result.stdout)")
    }

    @Test func statsGoToAFifo() throws {
        // A reader that keeps what arrives; the player blocks opening the FIFO until it opens.
        let (result, json, _) = try runWithFifo(named: "stats.fifo", readBy: ["/bin/cat"]) { fifo in
            ["pk", "--headless", "--size", "32x24", "--frames", "2", "--stats", fifo]
        }
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(json.contains("\"frameCount\": 2"), "read: \(json.prefix(200))")
    }

    /// A FIFO whose reader leaves after a few bytes fails the screenshot (named, with the
    /// reason) and is still there afterwards: libpng's own file writer removed the path on a
    /// failed write, which as root deleted a device such as /dev/full.
    @Test func aScreenshotThatFailsLeavesTheFifoInPlace() throws {
        // The gallery at 1024x768 is about 160 KB of PNG, more than a pipe holds: with the
        // reader gone after 8 bytes, some write must fail.
        var fifo = ""
        let (result, _, fifoRemains) = try runWithFifo(named: "shot.fifo", readBy: ["/usr/bin/head", "-c", "8"]) {
            fifo = $0
            return ["gallery", "--at", "1", "--size", "1024x768", "--screenshot", $0]
        }
        #expect(result.status == 74, "stderr: \(result.stderr)")
        #expect(result.stderr.contains(fifo) && result.stderr.contains("Broken pipe"), "stderr: \(result.stderr)")
        #expect(fifoRemains, "the FIFO was removed")
    }

    @Test(arguments: ["--stats", "--screenshot"])
    func aFolderIsRefusedAsAFolder(option: String) throws {
        let result = try PlayerProcess.run(["pk", "--headless", "--size", "32x24", "--frames", "2", option, "/tmp"])
        #expect(result.status == 64, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("\(option): cannot write '/tmp': '/tmp' is a folder"), "stderr: \(result.stderr)")
    }

    /// The stats are written after the screenshot: one file named twice ended up JSON, silently.
    /// The same name however spelt (relative, through a symbolic link) is refused before
    /// anything runs; /dev/null may take both (statsAndScreenshotGoToDevNull).
    @Test func oneFileForTheScreenshotAndTheStatsIsRefused() throws {
        let folder = PlayerProcess.temporaryPath("same-output")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let shot = folder + "/x.png", link = folder + "/link.png"
        for (screenshot, stats) in [(shot, shot), (shot, folder + "/./x.png"), (folder + "/../\((folder as NSString).lastPathComponent)/x.png", shot)] {
            let result = try PlayerProcess.run(["pk", "--headless", "--size", "32x24", "--frames", "2", "--screenshot", screenshot, "--stats", stats])
            #expect(result.status == 64, "\(screenshot) \(stats): stderr \(result.stderr)")
            #expect(result.stderr.contains("--screenshot and --stats both name"), "stderr: \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: shot), "the run went ahead")
        }
        // An existing file, named directly and through a link to it.
        #expect(FileManager.default.createFile(atPath: shot, contents: Data("kept".utf8)))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: shot)
        let result = try PlayerProcess.run(["pk", "--headless", "--size", "32x24", "--frames", "2", "--screenshot", link, "--stats", shot])
        #expect(result.status == 64, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("--screenshot and --stats both name"), "stderr: \(result.stderr)")
        #expect(FileManager.default.contents(atPath: shot) == Data("kept".utf8))
        // Two files side by side are fine.
        let apart = try PlayerProcess.run(["pk", "--headless", "--size", "32x24", "--frames", "2", "--screenshot", shot, "--stats", folder + "/x.json"])
        #expect(apart.status == 0, "stderr: \(apart.stderr)")
    }
}

// LivePlayer: the command line.
import ArgumentParser

@main
struct LivePlayer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live-player",
        abstract: "Plays Core Animation scenes in an X11 window, rendered in software."
    )

    static let scenes = ["arrow", "line", "rays", "orbit", "pk", "fillmodes"]

    @Argument(help: "The scene to play: \(scenes.joined(separator: ", ")).")
    var scene: String?

    @Flag(help: "List the scenes.")
    var list = false

    mutating func run() throws {
        if list || scene == nil {
            for s in Self.scenes { print(s) }
            return
        }
        guard let scene, Self.scenes.contains(scene) else {
            throw ValidationError("unknown scene '\(scene ?? "")'; scenes: \(Self.scenes.joined(separator: ", "))")
        }
        print("live-player: the '\(scene)' scene is not built yet")
    }
}

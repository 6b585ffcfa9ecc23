// SceneKind: the seven scenes, their names, default sizes and one-line summaries.

/// The scenes the player knows, one per system the seed documents describe.
enum SceneKind: String, CaseIterable {
    case arrow, line, rays, orbit, pk, fillmodes, gallery
    /// A Lottie file (`play FILE.json`); not among the built-in scenes that Tab cycles through.
    case play

    /// The built-in scenes, which need no file.
    static var allCases: [SceneKind] { [.arrow, .line, .rays, .orbit, .pk, .fillmodes, .gallery] }

    /// The names, comma-separated, for messages.
    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The window size used when `--size` is not given.
    var defaultSize: (width: Int, height: Int) {
        switch self {
        case .arrow: (600, 600)
        default: (640, 480)
        }
    }

    /// What the scene shows.
    var summary: String {
        switch self {
        case .arrow: "a circular arrow masks an image and sweeps around it (ArrowLayer as mask)"
        case .line: "a line grows a pixel per tick beside one that follows time: drops show as lag"
        case .rays: "hero rays rotate forever; go/reverse turn them either way, a key resizes"
        case .orbit: "an arrow sprite flies along an arc to one of six buttons (keyframe path)"
        case .pk: "two vote bars meet at a slanted edge drawn by a custom animatable layer"
        case .fillmodes: "four squares show fill modes removed, forwards, backwards, both"
        case .gallery: "text, gradients, a replicator spinner, a moving shadow and blend modes animate"
        case .play: "a Lottie (Bodymovin JSON) file, looping: live-player play FILE.json"
        }
    }

    /// The scene after this one, for the Tab key.
    var next: SceneKind {
        let all = SceneKind.allCases
        guard let index = all.firstIndex(of: self) else { return self }
        return all[(index + 1) % all.count]
    }
}

// SceneFactory: makes a scene of a kind.

/// A new scene of `kind`, laid out for `setup`.
@MainActor
func makeScene(_ kind: SceneKind, setup: SceneSetup) -> any Scene {
    switch kind {
    case .arrow: ArrowScene(setup: setup)
    case .line: LineScene(setup: setup)
    case .rays: RaysScene(setup: setup)
    case .orbit: OrbitScene(setup: setup)
    case .pk: PKScene(setup: setup)
    case .fillmodes: FillModesScene(setup: setup)
    case .gallery: GalleryScene(setup: setup)
    case .play: LottieScene(setup: setup)
    }
}

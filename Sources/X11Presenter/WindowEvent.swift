// WindowEvent: what the window reports to the frame loop.

import Raster

/// Something that happened to the window, in the order the server reported it.
public enum WindowEvent: Equatable, Sendable {
    /// A key the player knows was pressed.
    case key(Key)
    /// The user asked to close the window (`WM_DELETE_WINDOW`).
    case close
    /// The window changed size; the frame buffer was re-allocated and holds nothing yet,
    /// so the whole frame must be drawn again.
    case resize(width: Int, height: Int)
    /// Part of the window was uncovered; the presenter already re-blitted it from the last frame.
    case expose(IntRect)
}

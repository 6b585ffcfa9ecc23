// DisplayRefresh: the screen's refresh rate as XRandR reports it, or 60 Hz when it cannot say.

internal import CX11

/// The refresh rate of the screen a window is on, before any vblank has been seen.
public struct DisplayRefresh: Equatable, Sendable {
    /// Where ``rate`` comes from.
    public enum Source: String, Sendable {
        /// The current XRandR mode: dot clock / (horizontal total × vertical total).
        case xrandr
        /// XRandR said nothing usable (Xvfb's modes have a 0 Hz dot clock): 60 Hz, as Chromium.
        case `default`
    }

    /// Hz.
    public var rate: Double
    /// Where ``rate`` comes from.
    public var source: Source

    /// The rate assumed when XRandR cannot say.
    public static let fallback = DisplayRefresh(rate: 60, source: .default)

    /// Queries the CRTC of the primary output (else the first active CRTC) of `root`'s screen.
    static func query(_ display: OpaquePointer, root: Window) -> DisplayRefresh {
        var eventBase: Int32 = 0, errorBase: Int32 = 0
        guard XRRQueryExtension(display, &eventBase, &errorBase) != 0,
              let resources = XRRGetScreenResourcesCurrent(display, root) else { return .fallback }
        defer { XRRFreeScreenResources(resources) }
        var crtcs: [RRCrtc] = []
        let primary = XRRGetOutputPrimary(display, root)
        if primary != 0, let output = XRRGetOutputInfo(display, resources, primary) {
            if output.pointee.crtc != 0 { crtcs.append(output.pointee.crtc) }
            XRRFreeOutputInfo(output)
        }
        for i in 0..<Int(resources.pointee.ncrtc) { crtcs.append(resources.pointee.crtcs[i]) }
        for crtc in crtcs {
            guard let info = XRRGetCrtcInfo(display, resources, crtc) else { continue }
            let mode = info.pointee.mode
            XRRFreeCrtcInfo(info)
            guard mode != 0 else { continue }
            for m in 0..<Int(resources.pointee.nmode) where resources.pointee.modes[m].id == mode {
                if let rate = Self.rate(of: resources.pointee.modes[m]) { return DisplayRefresh(rate: rate, source: .xrandr) }
            }
        }
        return .fallback
    }

    private static func rate(of mode: XRRModeInfo) -> Double? {
        var vTotal = Double(mode.vTotal)
        if mode.modeFlags & UInt(RR_DoubleScan) != 0 { vTotal *= 2 }
        if mode.modeFlags & UInt(RR_Interlace) != 0 { vTotal /= 2 }
        let pixels = Double(mode.hTotal) * vTotal
        guard mode.dotClock > 0, pixels > 0 else { return nil }
        let rate = Double(mode.dotClock) / pixels
        return rate.isFinite && rate >= 1 && rate <= 1000 ? rate : nil
    }
}

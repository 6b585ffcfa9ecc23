// Diagnostics: misuse is reported on standard error and ignored, never a crash.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum Diagnostics {
    /// Writes one line to standard error. Misuse of the layer API (an unknown key path, a value
    /// of the wrong type) is reported this way and then ignored, as Core Animation ignores it.
    static func warn(_ message: String) {
        let line = "LiveLayers: \(message)\n"
        var utf8 = Array(line.utf8)
        _ = utf8.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    }
}

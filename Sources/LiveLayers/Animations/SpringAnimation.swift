// SpringAnimation: a damped harmonic oscillator between two values (CASpringAnimation).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Moves a property to its end value as a mass on a damped spring would, as `CASpringAnimation`.
///
/// The spring's clock is the iteration's local time in seconds; the `timingFunction` is not
/// used. The animation still lasts `duration`: set it to ``settlingDuration`` to let the spring
/// come to rest, as in Core Animation.
public class SpringAnimation: BasicAnimation {
    /// The mass attached to the spring; must be positive. Default 1.
    public var mass = 1.0
    /// The spring constant; must be positive. Default 100.
    public var stiffness = 100.0
    /// The friction coefficient; must not be negative. Default 10.
    public var damping = 10.0
    /// The velocity at the start, in spans per second (1 crosses the from-to distance in a
    /// second); negative moves away from the end value first.
    public var initialVelocity = 0.0

    /// Creates a spring animation of `keyPath`.
    public override init(keyPath: String? = nil) {
        super.init(keyPath: keyPath)
    }

    required init(copying other: Animation) {
        super.init(copying: other)
    }

    override func takeSettings(of other: Animation) {
        super.takeSettings(of: other)
        if let other = other as? SpringAnimation {
            mass = other.mass
            stiffness = other.stiffness
            damping = other.damping
            initialVelocity = other.initialVelocity
        }
    }

    /// The estimated time for the spring to come to rest: when it stays within 0.1 % of the
    /// from-to span of the end value.
    public var settlingDuration: Double { model.settlingTime(tolerance: 1e-3) }

    var model: SpringModel {
        SpringModel(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity)
    }

    override var progressCurve: ProgressCurve { .spring(model, duration: duration) }
}

/// The closed-form solution of m·x″ + c·x′ + k·x = 0 for a unit step: progress runs from 0
/// toward 1 with initial velocity v₀.
struct SpringModel: Sendable, Equatable {
    var mass: Double
    var stiffness: Double
    var damping: Double
    var initialVelocity: Double

    /// Parameters made safe: non-positive mass or stiffness would have no solution.
    private var parameters: (omega0: Double, zeta: Double) {
        let m = mass > 0 && mass.isFinite ? mass : 1
        let k = stiffness > 0 && stiffness.isFinite ? stiffness : 100
        let c = damping >= 0 && damping.isFinite ? damping : 0
        let omega0 = (k / m).squareRoot()
        return (omega0, c / (2 * (k * m).squareRoot()))
    }

    /// The progress (1 + displacement) at `t` seconds.
    func progress(at t: Double) -> Double {
        1 + displacement(at: max(0, t))
    }

    /// The displacement from the end value, starting at −1.
    func displacement(at t: Double) -> Double {
        let (w0, zeta) = parameters
        let x0 = -1.0, v0 = initialVelocity.isFinite ? initialVelocity : 0
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let envelope = exp(-zeta * w0 * t)
            return envelope * (x0 * cos(wd * t) + (v0 + zeta * w0 * x0) / wd * sin(wd * t))
        } else if zeta == 1 {
            return exp(-w0 * t) * (x0 + (v0 + w0 * x0) * t)
        } else {
            let root = (zeta * zeta - 1).squareRoot()
            let r1 = -w0 * (zeta - root), r2 = -w0 * (zeta + root)
            let a = (v0 - r2 * x0) / (r1 - r2)
            return a * exp(r1 * t) + (x0 - a) * exp(r2 * t)
        }
    }

    /// The first time after which |displacement| stays below `tolerance`.
    func settlingTime(tolerance: Double) -> Double {
        // Scan backwards from a bound where the envelope is surely below tolerance, so the
        // answer is the last crossing, not the first zero crossing of an oscillation.
        let (w0, zeta) = parameters
        let decay = zeta < 1 ? zeta * w0 : w0 * (zeta - (zeta * zeta - 1).squareRoot())
        guard decay > 0 else { return .infinity }
        let amplitude = 1 + abs(initialVelocity) / max(w0, 1e-9) + 1
        let bound = log(amplitude / tolerance) / decay
        let step = max(bound / 20_000, 1e-4)
        var t = bound
        while t > 0 && abs(displacement(at: t)) < tolerance { t -= step }
        return min(bound, t + step)
    }
}

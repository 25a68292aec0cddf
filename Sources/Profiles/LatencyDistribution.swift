import Foundation

/// A log-normal distribution of latencies fixed by its median and 95th percentile.
///
/// Latencies are positive and right-skewed (most switches are quick, a few are slow), which is what a
/// log-normal describes. With median m and 95th percentile p: μ = ln m, σ = (ln p − ln m) / 1.6449.
public struct LatencyDistribution: Sendable, Hashable {
    public let medianMilliseconds: Double
    public let p95Milliseconds: Double

    /// z of the 95th percentile of the standard normal distribution.
    static let z95 = 1.644_853_626_951_472_2

    public init(_ cost: TransitionCost) {
        medianMilliseconds = cost.p50Milliseconds
        p95Milliseconds = cost.p95Milliseconds
    }

    public init(medianMilliseconds: Double, p95Milliseconds: Double) {
        self.medianMilliseconds = medianMilliseconds
        self.p95Milliseconds = p95Milliseconds
    }

    var sigma: Double {
        guard medianMilliseconds > 0, p95Milliseconds > medianMilliseconds else { return 0 }
        return (log(p95Milliseconds) - log(medianMilliseconds)) / Self.z95
    }

    /// One draw, in milliseconds. A zero median always gives zero: the cost does not exist.
    public func sample(using generator: inout SeededGenerator) -> Double {
        guard medianMilliseconds > 0 else { return 0 }
        return medianMilliseconds * exp(sigma * Self.standardNormal(using: &generator))
    }

    /// Box–Muller: two uniform draws to one standard normal draw.
    static func standardNormal(using generator: inout SeededGenerator) -> Double {
        let u1 = Double.random(in: Double.ulpOfOne..<1, using: &generator)
        let u2 = Double.random(in: 0..<1, using: &generator)
        return sqrt(-2 * log(u1)) * cos(2 * .pi * u2)
    }
}

import Media

/// Where the planner gets media parameters from: Media's `ProbeCache` in the product, a fixed table in
/// benchmarks and unit tests.
///
/// The requirement throws untyped errors on purpose: with a typed-throws async requirement, Swift 6.3
/// miscompiles a struct's witness in release builds (a crash in the task group that awaits it).
/// Conformers throw `MediaError`; the planner names anything else as it is.
public protocol MediaProbing: Sendable {
    func parameters(for input: String, variant: Int?) async throws -> MediaParameters
}

extension ProbeCache: MediaProbing {}

import Media

/// Where the planner gets media parameters from: Media's `ProbeCache` in the product, a fixed table in
/// benchmarks and unit tests.
public protocol MediaProbing: Sendable {
    func parameters(for input: String, variant: Int?) async throws(MediaError) -> MediaParameters
}

extension ProbeCache: MediaProbing {}

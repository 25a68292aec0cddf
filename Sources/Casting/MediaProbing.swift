import Loading
import Media
import MediaValues

/// Where the planner gets media parameters from: Media's `ProbeCache` over `MediaProbe` in the
/// product, a fixed table in benchmarks and unit tests.
///
/// The requirement throws untyped errors on purpose: with a typed-throws async requirement, Swift 6.3
/// miscompiles a struct's witness in release builds (a crash in the task group that awaits it).
/// Conformers throw `MediaError`; the planner names anything else as it is.
public protocol MediaProbing: Sendable {
    func parameters(for request: ProbeRequest) async throws -> MediaParameters
}

extension ProbeCache: MediaProbing {
    /// A cache over `MediaProbe`: each request probed once per process, through `loader`.
    public init(options: ProbeOptions = ProbeOptions(), loader: ResourceLoader = ResourceLoader()) {
        self.init { request in
            do throws(MediaError) {
                return .success(try await MediaProbe.probe(request, options: options, loader: loader))
            } catch {
                return .failure(error)
            }
        }
    }
}

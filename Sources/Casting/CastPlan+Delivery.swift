import Sessions

extension CastPlan {
    /// How this receiver's fetches go: for real when it has a fetcher (`realtime`), else through its
    /// profile's network from what was measured of each segment, or as a recorded trace says; nil for
    /// a plan that fetches nothing (`probe`).
    public func segmentDelivery(trace: FetchTrace? = nil, fetcher: (any SegmentFetcher)? = nil) -> SegmentDelivery? {
        guard plan.fetching != nil else { return nil }
        if let fetcher { return .fetched(fetcher) }
        let model = SegmentNetworkModel(profile: profile, measured: measuredSegments)
        return trace.map { .replayed($0, otherwise: model) } ?? .modelled(model)
    }
}

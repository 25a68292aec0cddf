/// Variant switches of a VOD primary (`--media verify|realtime`): a receiver whose variant does not
/// arrive in time, or cannot be fetched, moves down its ladder of variants rather than stalling on or
/// failing the session, as hls.js's and Media3's ABR do in an emergency.
///
/// The rules, kept to what the buffer model can say without a full ABR:
/// - the throughput is that of the last primary segment (its bytes over its fetch time);
/// - a stall of primary waiting for a segment switches to the highest lower variant whose BANDWIDTH
///   fits `fitFactor` of that throughput, else to the lowest one;
/// - a primary segment that fails after its retries switches to the next lower variant and fetches
///   the same position there; only with no lower variant left does the session fail;
/// - what was buffered stays (the variants share the timeline); the fetch in flight is cancelled.
/// Switching back up is not modelled: a session moves down only.
extension PlaybackEngine {
    /// The share of the measured throughput a variant's BANDWIDTH may use to fit (hls.js's
    /// `abrBandWidthFactor` is 0.95 to stay, `abrBandWidthUpFactor` 0.7 to go up; a switch down in a
    /// stall takes the cautious one).
    static let fitFactor = 0.7

    /// The segments of the variant primary plays from now.
    var primaryList: SegmentList {
        let variant = buffering?.variant ?? 0
        return variant == 0 || variant > plan.primaryFallbacks.count ? plan.primarySegments : plan.primaryFallbacks[variant - 1].segments
    }

    var primaryVariantURI: String {
        let variant = buffering?.variant ?? 0
        return variant == 0 || variant > plan.primaryFallbacks.count ? "the cast's variant" : plan.primaryFallbacks[variant - 1].uri
    }

    /// Notes the throughput of a primary segment that arrived.
    mutating func measureThroughput(of fetch: SegmentFetch, at time: Double) {
        guard fetch.track == .primary, fetch.part == .main, fetch.segment.bytes > 0 else { return }
        let seconds = max(1e-3, time - fetch.requestedAt)
        buffering!.throughput = Double(fetch.segment.bytes) * 8 / seconds
    }

    /// On a stall of primary for a late segment: the lower variant that fits, if any is left.
    mutating func switchDownForStall() -> PlaybackEvent? {
        guard let throughput = buffering!.throughput, buffering!.variant < plan.primaryFallbacks.count else { return nil }
        let lower = plan.primaryFallbacks[buffering!.variant...]
        let target = lower.firstIndex { $0.bitsPerSecond <= Self.fitFactor * throughput } ?? plan.primaryFallbacks.count - 1
        let reason = "primary stalled at \(PlaybackCommand.format(throughput / 1e6)) Mbit/s measured"
        return switchVariant(to: target + 1, reason: reason)
    }

    /// On a primary segment that failed after its retries: the next lower variant, if one is left.
    mutating func switchDownForFailure(_ what: String) -> PlaybackEvent? {
        guard buffering!.variant < plan.primaryFallbacks.count else { return nil }
        return switchVariant(to: buffering!.variant + 1, reason: what)
    }

    private mutating func switchVariant(to variant: Int, reason: String) -> PlaybackEvent {
        let from = primaryVariantURI
        buffering!.variant = variant
        let to = plan.primaryFallbacks[variant - 1]
        cancelFetches(of: .primary)
        buffering!.lastFailure[.primary] = nil
        if let index = buffering!.tracks.firstIndex(where: { $0.key == .primary }) {
            buffering!.tracks[index].rebase(on: to.segments)
        }
        var switched = event(.variantSwitched, reason: "\(reason); switching from \(from) to \(to.uri) (\(PlaybackCommand.format(to.bitsPerSecond / 1e6)) Mbit/s)")
        switched.assetURI = to.uri
        return switched
    }
}

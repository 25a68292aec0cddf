import NumberText
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
/// - what was buffered stays (the variants share the timeline); the fetch in flight is cancelled;
/// - after a switch down, a primary segment whose throughput would carry the variant above at
///   `fitFactor` (hls.js's `abrBandWidthUpFactor`), with at least `rebufferResume` buffered ahead,
///   switches back up one step, unless a segment of that variant failed after its retries.
/// Above the variant the profile chose nothing is tried: its choice is what it plays on a good
/// network.
extension PlaybackEngine {
    /// The share of the measured throughput a variant's BANDWIDTH may use to fit (hls.js's
    /// `abrBandWidthFactor` is 0.95 to stay, `abrBandWidthUpFactor` 0.7 to go up; a switch down in a
    /// stall takes the cautious one).
    static let fitFactor = 0.7

    /// The segments of the variant primary plays from now.
    var primaryList: SegmentList {
        let variant = buffering.variant
        return segments(ofVariant: variant)
    }

    var primaryVariantURI: String {
        uri(ofVariant: buffering.variant)
    }

    /// Where variant `index` is (0 the plan's own); "the cast's variant" when the plan does not say.
    func uri(ofVariant index: Int) -> String {
        fallback(index)?.uri ?? plan.fetching?.variantURI ?? "the cast's variant"
    }

    /// BANDWIDTH of variant `index`; nil when the plan's own does not declare one.
    func bitsPerSecond(ofVariant index: Int) -> Double? {
        if let fallback = fallback(index) { fallback.bitsPerSecond } else { plan.fetching?.bitsPerSecond }
    }

    func segments(ofVariant index: Int) -> SegmentList {
        fallback(index)?.segments ?? plan.fetching?.primary ?? .empty
    }

    /// Lower variant `index` (1 the highest of them); nil for 0, the plan's own.
    private func fallback(_ index: Int) -> PlannedVariant? {
        let fallbacks = plan.fetching?.fallbacks ?? []
        return index > 0 && index <= fallbacks.count ? fallbacks[index - 1] : nil
    }

    /// Notes the throughput of a primary segment that arrived.
    mutating func measureThroughput(of fetch: SegmentFetch, at time: Double) {
        guard fetch.track == .primary, fetch.part == .main, fetch.segment.bytes > 0 else { return }
        let seconds = max(1e-3, time - fetch.requestedAt)
        buffering.throughput = Double(fetch.segment.bytes) * 8 / seconds
    }

    /// On a stall of primary for a late segment: the lower variant that fits, if any is left.
    mutating func switchDownForStall() -> PlaybackEvent? {
        let fallbacks = plan.fetching?.fallbacks ?? []
        guard let throughput = buffering.throughput, buffering.variant < fallbacks.count else { return nil }
        let lower = fallbacks[buffering.variant...]
        let target = lower.firstIndex { $0.bitsPerSecond <= Self.fitFactor * throughput } ?? fallbacks.count - 1
        let reason = "primary stalled at \(Self.megabits(throughput)) Mbit/s measured"
        return switchVariant(to: target + 1, reason: reason)
    }

    /// On a primary segment that failed after its retries: the next lower variant, if one is left.
    /// The failed variant is not switched back up to.
    mutating func switchDownForFailure(_ what: String) -> PlaybackEvent? {
        guard buffering.variant < plan.fetching?.fallbacks.count ?? 0 else { return nil }
        buffering.failedVariants.insert(buffering.variant)
        return switchVariant(to: buffering.variant + 1, reason: what)
    }

    /// After a primary segment arrived on a lower variant: the variant above, when the segment's
    /// throughput carries it and the buffer can take the switch.
    mutating func switchUpIfItFits(ahead: Double) -> PlaybackEvent? {
        let variant = buffering.variant
        guard variant > 0, buffering.stall == nil, let throughput = buffering.throughput, !buffering.failedVariants.contains(variant - 1),
            let above = bitsPerSecond(ofVariant: variant - 1), above > 0, above <= Self.fitFactor * throughput,
            ahead >= buffering.model.rebufferResume.seconds - Self.bufferEpsilon
        else { return nil }
        let switched = switchVariant(to: variant - 1, reason: "primary arrived at \(Self.megabits(throughput)) Mbit/s measured")
        noteUpSwitch(to: uri(ofVariant: variant - 1))
        return switched
    }

    /// Megabits per second to the kilobit: a measured rate has no more digits worth reading.
    static func megabits(_ bitsPerSecond: Double) -> String {
        ((bitsPerSecond / 1e3).rounded() / 1e3).plainText
    }

    private mutating func switchVariant(to variant: Int, reason: String) -> PlaybackEvent {
        let from = primaryVariantURI
        buffering.variant = variant
        let uri = uri(ofVariant: variant)
        cancelFetches(of: .primary)
        buffering.lastFailure[.primary] = nil
        if let index = buffering.tracks.firstIndex(where: { $0.key == .primary }) {
            buffering.tracks[index].rebase(on: segments(ofVariant: variant))
        }
        let rate = bitsPerSecond(ofVariant: variant).map { " (\(($0 / 1e6).plainText) Mbit/s)" } ?? ""
        return event(.variantSwitched(uri: uri), reason: "\(reason); switching from \(from) to \(uri)\(rate)")
    }
}

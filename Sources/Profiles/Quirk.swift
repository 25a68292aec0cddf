/// A misbehaviour of a kind of device that real reports describe, declared in its profile with its
/// source, which the engine and the planner play as the device does. Each fires only where its
/// conditions meet, and says so in the report when it does.
public enum Quirk: String, Sendable, Hashable, Codable, CaseIterable {
    /// Playback stalls for good at the switch from a pre-roll to the content (shaka-player#2620:
    /// Samsung 2017 and some 2018 TVs; the session ends failed there).
    case prerollContentStall = "preroll-content-stall"
    /// Media whose video the device cannot decode plays its audio over a black picture instead of
    /// being refused (AirPlay TVs that show only a music icon: shaka-player#7746, hls.js#5989).
    case audioOnlyWhenUndecodable = "audio-only-when-undecodable"
}

/// A quirk as a profile declares it: which, and where the knowledge of it comes from.
public struct DeclaredQuirk: Sendable, Hashable, Codable {
    public var kind: Quirk
    public var source: String
    public var basis: Provenance.Basis

    public init(kind: Quirk, source: String, basis: Provenance.Basis) {
        self.kind = kind
        self.source = source
        self.basis = basis
    }
}

extension ReceiverProfile {
    /// The profile's declaration of `quirk`, if it has it.
    public func declared(_ quirk: Quirk) -> DeclaredQuirk? {
        quirks?.first { $0.kind == quirk }
    }
}

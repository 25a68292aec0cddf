/// What a receiver does with the media it plays (`--media`, docs/simulate.md).
public enum MediaMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Reads the playlists and probes each asset's first segment; plays on the latency model.
    case probe
    /// Fetches every segment once beforehand and plays through the profile's network and buffer
    /// model from the measured sizes: deterministic per seed.
    case verify
    /// Each receiver fetches its own segments as it plays, paced to its profile's bandwidth.
    case realtime

    public var fetchesSegments: Bool { self != .probe }
}

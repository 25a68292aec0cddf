import Foundation
import Playback

/// `GET /sessions`: the receiver's newest sessions in the order they started, the one playing last.
public struct SessionList: Sendable, Equatable, Codable {
    public var sessions: [SessionSummary]
    /// Older sessions that are not listed but whose reports `GET /sessions/ID` still serves from the
    /// state directory; absent when there are none.
    public var earlier: Int?

    public init(sessions: [SessionSummary], earlier: Int = 0) {
        self.sessions = sessions
        self.earlier = earlier > 0 ? earlier : nil
    }
}

/// One entry of `GET /sessions`; `GET /sessions/ID` has its report (`SessionReport`).
public struct SessionSummary: Sendable, Equatable, Codable {
    public var id: String
    public var profile: String?
    public var playlist: String?
    /// True for the session playing now.
    public var active: Bool
    /// The engine's state while it plays; `ended` afterwards.
    public var state: WireName<PlaybackState>?
    public var startedAt: Date?
    public var endReason: String?

    public init(
        id: String, profile: String?, playlist: String?, active: Bool, state: PlaybackState?, startedAt: Date?, endReason: String? = nil
    ) {
        self.id = id
        self.profile = profile
        self.playlist = playlist
        self.active = active
        self.state = state.map(WireName.init)
        self.startedAt = startedAt
        self.endReason = endReason
    }

    enum CodingKeys: String, CodingKey {
        case id, profile, playlist, active, state, startedAt, endReason
    }

    /// Only `id` is required: a member of an unexpected form (a newer receiver's date format) is left out.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        profile = try? container.decodeIfPresent(String.self, forKey: .profile)
        playlist = try? container.decodeIfPresent(String.self, forKey: .playlist)
        active = (try? container.decodeIfPresent(Bool.self, forKey: .active)) ?? false
        state = try? container.decodeIfPresent(WireName<PlaybackState>.self, forKey: .state)
        startedAt = try? container.decodeIfPresent(Date.self, forKey: .startedAt)
        endReason = try? container.decodeIfPresent(String.self, forKey: .endReason)
    }
}

import HLS
import Profiles

/// The event's one JSON shape, used by reports and by `GET /events`: a flat object named by `kind`,
/// with the detail's payload as members (`eventID`, `assetIndex`, `assetURI`, `command`,
/// `restriction`, `transition`, `mode`, `stall`, `quirk`), each present only when the kind has it.
extension PlaybackEvent: Codable {
    enum CodingKeys: String, CodingKey {
        case time, kind, state, position, rate, eventID, assetIndex, assetURI, reason, command, restriction, transition, mode, stall, quirk
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(time, forKey: .time)
        try container.encode(kind, forKey: .kind)
        try container.encode(state, forKey: .state)
        try container.encode(position, forKey: .position)
        try container.encode(rate, forKey: .rate)
        try container.encodeIfPresent(eventID, forKey: .eventID)
        try container.encodeIfPresent(assetIndex, forKey: .assetIndex)
        try container.encodeIfPresent(assetURI, forKey: .assetURI)
        try container.encode(reason, forKey: .reason)
        try container.encodeIfPresent(command, forKey: .command)
        try container.encodeIfPresent(restriction, forKey: .restriction)
        try container.encodeIfPresent(transition, forKey: .transition)
        try container.encodeIfPresent(mode, forKey: .mode)
        try container.encodeIfPresent(stall, forKey: .stall)
        try container.encodeIfPresent(quirk, forKey: .quirk)
    }

    /// Reads the shape `encode(to:)` writes; a kind without the members its detail needs is an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        time = try container.decode(Double.self, forKey: .time)
        state = try container.decode(PlaybackState.self, forKey: .state)
        position = try container.decode(Double.self, forKey: .position)
        rate = try container.decode(Double.self, forKey: .rate)
        reason = try container.decodeIfPresent(String.self, forKey: .reason) ?? ""
        detail = try Self.detail(of: try container.decode(Kind.self, forKey: .kind), in: container)
    }

    private static func detail(of kind: Kind, in container: KeyedDecodingContainer<CodingKeys>) throws -> Detail {
        func required<Value: Decodable>(_ key: CodingKeys) throws -> Value { try container.decode(Value.self, forKey: key) }
        func optional<Value: Decodable>(_ key: CodingKeys) throws -> Value? { try container.decodeIfPresent(Value.self, forKey: key) }
        func place() throws -> BreakPlace? {
            try optional(.eventID).map { (id: String) throws in BreakPlace(id, asset: try optional(.assetIndex)) }
        }
        func requiredPlace() throws -> BreakPlace { BreakPlace(try required(.eventID), asset: try optional(.assetIndex)) }
        func asset() throws -> AssetPlace { AssetPlace(try required(.eventID), index: try required(.assetIndex), uri: try required(.assetURI)) }
        switch kind {
        case .stateChanged: return .stateChanged(in: try place(), startup: try optional(.transition))
        case .transitionStarted: return .transitionStarted(try required(.transition), try requiredPlace())
        case .interstitialStarted: return .interstitialStarted(try requiredPlace(), mode: try optional(.mode))
        case .interstitialEnded: return .interstitialEnded(try requiredPlace())
        case .assetStarted: return .assetStarted(try asset())
        case .assetEnded: return .assetEnded(try asset())
        case .assetSkipped: return .assetSkipped(try asset())
        case .assetFailed: return .assetFailed(try asset())
        case .breakSkipped: return .breakSkipped(eventID: try required(.eventID))
        case .seeked: return .seeked
        case .rateChanged: return .rateChanged
        case .ended: return .ended
        case .segmentFailed: return .segmentFailed
        case .commandRefused:
            return .commandRefused(try required(.command), restriction: try optional(.restriction), eventID: try optional(.eventID))
        case .presentationModeChanged: return .presentationModeChanged(try required(.mode), command: try optional(.command))
        case .pipStartFailed: return .pipStartFailed(try required(.command), mode: try required(.mode))
        case .sdkAdStartRefused: return .sdkAdStartRefused(eventID: try required(.eventID))
        case .sdkAdDeferred: return .sdkAdDeferred(eventID: try required(.eventID))
        case .sdkAdSkipped: return .sdkAdSkipped(eventID: try required(.eventID))
        case .stallStarted: return .stallStarted(try required(.stall), in: try place())
        case .stallEnded: return .stallEnded(try required(.stall), in: try place())
        case .variantSwitched: return .variantSwitched(uri: try required(.assetURI))
        case .quirkFired: return .quirkFired(try required(.quirk), in: try place())
        }
    }
}

/// A command crosses JSON as its text (`seek 40`), which reads back as the same command.
extension PlaybackCommand: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do throws(TextError) {
            self = try PlaybackCommand(text: text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'\(text)': \(error.reason)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

import HLS
import Playback

/// What a tile shows of each interstitial a session may play: its restrictions, its skip control and
/// how many assets it has. Taken once from the session's plan and its playlist's events when the
/// session starts, because the events the engine publishes name a break, not its rules.
public struct BreakRules: Sendable, Equatable {
    public struct Rule: Sendable, Equatable {
        public var restrictions: InterstitialEvent.Restrictions
        /// `X-SKIP-CONTROL-OFFSET` and `-DURATION` (or the asset list's `SKIP-CONTROL`), when given.
        public var skipControl: InterstitialEvent.SkipControl?
        /// Each asset's duration as planned, in the order the assets play.
        public var assetDurations: [Double]
        public var assetCount: Int { assetDurations.count }

        public init(restrictions: InterstitialEvent.Restrictions, skipControl: InterstitialEvent.SkipControl? = nil, assetDurations: [Double]) {
            self.restrictions = restrictions
            self.skipControl = skipControl
            self.assetDurations = assetDurations
        }
    }

    public private(set) var rules: [String: Rule]

    public init(_ rules: [String: Rule] = [:]) {
        self.rules = rules
    }

    /// The rules of the plan's breaks; skip controls from the playlist's events of the same ID.
    public init(plan: PlaybackPlan, events: [InterstitialEvent]) {
        let skipControls = Dictionary(events.map { ($0.id, $0.skipControl) }, uniquingKeysWith: { first, _ in first })
        var rules: [String: Rule] = [:]
        for planned in plan.breaks where rules[planned.eventID] == nil {
            rules[planned.eventID] = Rule(
                restrictions: planned.restrictions, skipControl: skipControls[planned.eventID] ?? nil,
                assetDurations: planned.assets.map(\.duration))
        }
        self.rules = rules
    }

    public subscript(eventID: String) -> Rule? { rules[eventID] }
}

/// The session a batch of events belongs to, as the console needs to know it.
public struct ConsoleSession: Sendable, Equatable {
    public var id: String
    /// Primary's duration; nil for a live stream.
    public var duration: Double?
    public var breaks: BreakRules

    public init(id: String, duration: Double?, breaks: BreakRules) {
        self.id = id
        self.duration = duration
        self.breaks = breaks
    }
}

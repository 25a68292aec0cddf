import Coordination

/// A group as one caller needs it, without any participant's plan, so that its size does not grow
/// with what the others declared: the answer to `POST /groups/ID/inputs` (with the caller's own
/// state), the first event of `GET /groups/ID/events`, and each group of `GET /groups`.
public struct GroupStanding: Sendable, Equatable, Codable {
    public var id: String
    public var contentID: String
    public var path: String
    public var timeline: GroupTimeline
    /// The rate the group plays at once nobody holds it.
    public var rate: Double
    /// Where the timeline is held, while someone holds it.
    public var heldAt: Double?
    public var position: Double
    /// The group clock now.
    public var groupTime: Double
    /// Participants the group knows, those that left included.
    public var participants: Int
    /// Participants that have not left.
    public var active: Int
    /// Participants still awaited before a coordinated start (0 once started or without one).
    public var awaiting: Int
    /// The caller, when it is a participant the group knows: its name, follow state and suspensions.
    public var participant: String?
    public var follow: FollowState?
    public var suspensions: [SuspensionReason]?

    /// The group as `caller` (a participant's name, or nil for anyone else) sees it.
    public init(id: String, coordinator: GroupCoordinator, groupTime: Double, awaiting: Int = 0, caller: String? = nil) {
        self.id = id
        contentID = coordinator.contentID
        path = "/groups/\(id)"
        timeline = coordinator.timeline
        rate = coordinator.desiredRate
        heldAt = coordinator.hold?.primary
        position = coordinator.timeline.position(at: groupTime)
        self.groupTime = groupTime
        participants = coordinator.participants.count
        active = coordinator.participants.count { $0.follow != .left }
        self.awaiting = awaiting
        if let caller, let member = coordinator.participant(caller) {
            participant = caller
            follow = member.follow
            suspensions = member.suspensions.map(\.reason)
        }
    }
}

/// `GET /groups`: every group this receiver hosts, each without its participants' plans
/// (`GET /groups/ID` shows those).
public struct GroupListing: Sendable, Equatable, Codable {
    public var groups: [GroupStanding]

    public init(groups: [GroupStanding]) {
        self.groups = groups
    }
}

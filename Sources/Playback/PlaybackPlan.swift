import HLS
import Profiles

/// Everything the engine needs to know about one cast, decided before playback starts.
///
/// Building a plan does the I/O (playlists, asset lists, probes) and draws the latencies; the engine
/// only plays it, which keeps the engine a pure state machine. Which events play together, in which
/// order, and where primary resumes after them is the schedule's decision (`InterstitialSchedule`,
/// `InterstitialPod`): the plan carries its pods and the engine walks them.
public struct PlaybackPlan: Sendable {
    // The pods' resumption points were decided against these, so they are fixed with the pods.
    /// End of the primary content (for live, of the current window).
    public private(set) var primaryDuration: Double
    public private(set) var isLive: Bool
    /// Segment boundaries of the primary, for X-SNAP IN.
    public private(set) var segmentBoundaries: [Double]
    /// From the cast to the first primary frame.
    public var startup: Transition
    /// The PRE pod (if any), the mid-roll pods by position, the POST pod (if any).
    public private(set) var pods: [PlannedPod]
    /// The mid-roll pods alone, ordered by position: what the playhead can reach.
    public private(set) var midPods: [PlannedPod]
    /// Whether the receiver has picture in picture at all (its profile says).
    public var supportsPictureInPicture = true
    /// What the sender's ad SDK does with a break that falls due in picture in picture.
    public var sdkAdInPictureInPicture = SDKAdInPictureInPicture.skip
    /// The receiver's quirk of stalling for good when a pre-roll gives way to the content, as its
    /// profile declares it; nil for a receiver without it.
    public var prerollContentStall: DeclaredQuirk?
    /// The receiver's quirk of blacking the picture at its first switch to a higher variant, with the
    /// black drawn for this session; nil for a receiver without it.
    public var firstUpSwitchBlack: QuirkBlack?
    /// The receiver's quirk of resolving the asset list of every break as soon as it reads the
    /// playlist; nil for a receiver that resolves each as playback approaches it.
    public var eagerAssetLists: DeclaredQuirk?
    /// What the receiver fetches of primary and how it buffers it (`--media verify|realtime`); nil
    /// plays on the latency model alone (`--media probe`).
    public var fetching: FetchPlan?

    /// A plan of pods the schedule made.
    public init(
        primaryDuration: Double, isLive: Bool = false, segmentBoundaries: [Double] = [], startup: Transition = .instant,
        pods: [PlannedPod]
    ) {
        self.primaryDuration = primaryDuration
        self.isLive = isLive
        self.segmentBoundaries = segmentBoundaries
        self.startup = startup
        self.pods = pods
        midPods = pods.filter { $0.placement == .mid }
    }

    /// A plan of events in tag order, put into pods by the schedule's rules (`InterstitialPod.arrange`) with PRE
    /// placed at 0: for plans made without a playlist, such as tests'.
    public init(
        primaryDuration: Double, isLive: Bool = false, segmentBoundaries: [Double] = [], startup: Transition = .instant,
        breaks: [PlannedBreak] = []
    ) {
        let rule = ResumeRule(boundaries: segmentBoundaries, duration: primaryDuration, isLive: isLive)
        let candidates = breaks.map { planned in
            InterstitialPod.Candidate(
                eventID: planned.eventID,
                placement: planned.cue.contains(.pre) ? .pre : planned.cue.contains(.post) ? .post : .mid,
                position: planned.position, share: planned.resumeShare)
        }
        let arrangement = InterstitialPod.arrange(candidates, rule: rule, startPosition: 0)
        let pods = arrangement.pods.map { pod in
            PlannedPod(pod, members: pod.members.map { breaks[arrangement.order[$0]] })
        }
        self.init(
            primaryDuration: primaryDuration, isLive: isLive, segmentBoundaries: segmentBoundaries, startup: startup, pods: pods)
    }

    /// Every event of every pod, in the order the pods play (what a sender's property shows).
    public var breaks: [PlannedBreak] { pods.flatMap(\.members) }

    /// The breaks the sender's ad SDK starts itself, by position.
    public var sdkBreaks: [PlannedBreak] { midPods.flatMap(\.members).filter(\.startedBySDK) }

    /// This plan with the sender's SDK ad breaks among its mid-rolls (`SDKAdSchedule.plannedPods`).
    ///
    /// A break at the position of a schedule's pod plays first: content pauses for it where it
    /// stands, and the pod then replaces primary time as it would have.
    public func addingSDKPods(_ sdkPods: [PlannedPod]) -> PlaybackPlan {
        guard !sdkPods.isEmpty else { return self }
        var merged: [PlannedPod] = []
        merged.reserveCapacity(midPods.count + sdkPods.count)
        var sdk = sdkPods.sorted { $0.position < $1.position }[...]
        for pod in midPods {
            while let next = sdk.first, next.position <= pod.position + InterstitialSchedule.tolerance {
                merged.append(next)
                sdk = sdk.dropFirst()
            }
            merged.append(pod)
        }
        merged += sdk
        var copy = self
        copy.midPods = merged
        copy.pods = (prePod.map { [$0] } ?? []) + merged + (postPod.map { [$0] } ?? [])
        return copy
    }

    /// This plan with every event and every asset changed, in the pods the playhead reaches and in
    /// PRE and POST alike; `asset` gets the event's ID and the asset's index in it.
    public func mappingAssets(
        _ asset: (String, Int, inout PlannedAsset) async -> Void, events event: (inout PlannedBreak) -> Void
    ) async -> PlaybackPlan {
        var copy = self
        for pod in copy.pods.indices {
            for member in copy.pods[pod].members.indices {
                event(&copy.pods[pod].members[member])
                let id = copy.pods[pod].members[member].eventID
                for index in copy.pods[pod].members[member].assets.indices {
                    await asset(id, index, &copy.pods[pod].members[member].assets[index])
                }
            }
        }
        copy.midPods = copy.pods.filter { $0.placement == .mid }
        return copy
    }

    public var prePod: PlannedPod? { pods.first.flatMap { $0.placement == .pre ? $0 : nil } }
    public var postPod: PlannedPod? { pods.last.flatMap { $0.placement == .post ? $0 : nil } }

    /// The rule the engine resumes a pod by when only part of it counted.
    public var resumeRule: ResumeRule {
        ResumeRule(boundaries: segmentBoundaries, duration: primaryDuration, isLive: isLive)
    }
}

/// Events that play back to back, as the schedule made them into pods (`InterstitialPod`).
public struct PlannedPod: Sendable, Hashable {
    public var placement: InterstitialPod.Placement
    /// Where primary is left: after X-SNAP OUT for mid-rolls; the start position the schedule was built
    /// for (PRE), the end of primary (POST).
    public var position: Double
    /// Where primary resumes when every member counts, as the schedule decided; nil for POST.
    public var resumeAt: Double?
    /// In the order they play.
    public var members: [PlannedBreak]

    public init(placement: InterstitialPod.Placement, position: Double, resumeAt: Double?, members: [PlannedBreak]) {
        self.placement = placement
        self.position = position
        self.resumeAt = resumeAt
        self.members = members
    }

    /// The schedule's pod with its members' plans.
    public init(_ pod: InterstitialPod, members: [PlannedBreak]) {
        self.init(placement: pod.placement, position: pod.position, resumeAt: pod.resumeAt, members: members)
    }

    /// The first member's event ID: event IDs are unique in a playlist, so this names the pod.
    public var id: String { members.first?.eventID ?? "" }
}

/// One interstitial event as the engine plays it.
public struct PlannedBreak: Sendable, Hashable {
    public var eventID: String
    /// On the primary timeline, after X-SNAP OUT. Ignored for PRE (plays first) and POST (plays last).
    /// The pod's position is where it plays; a member's own may lie inside what the pod skips.
    public var position: Double
    /// How far primary moves on when this event has played: X-RESUME-OFFSET, or what the event plays
    /// when it has none; 0 for a failed event. The offsets of a pod add up.
    public var resumeOffset: Double
    public var cue: InterstitialEvent.Cue
    public var snap: InterstitialEvent.Snap
    public var restrictions: InterstitialEvent.Restrictions
    public var playoutLimit: Double?
    public var assets: [PlannedAsset]
    /// Set when the whole break cannot play (its asset list did not load): it is skipped and primary
    /// resumes where it stopped.
    public var failure: String?
    /// From whatever plays before (primary, or the previous event of the pod) to the first asset.
    public var transitionIn: Transition
    /// From the last asset back to primary.
    public var transitionOut: Transition
    /// The X-ASSET-LIST the event's assets came from; nil for an X-ASSET-URI or a client event's list.
    public var assetList: String?
    /// True for a break the sender's ad SDK starts (`SDKAdSchedule`), which picture in picture can stop
    /// from starting; false for the HLS interstitials the receiver plays whatever the mode.
    public var startedBySDK: Bool

    public init(
        eventID: String, position: Double, resumeOffset: Double, cue: InterstitialEvent.Cue = [],
        snap: InterstitialEvent.Snap = [], restrictions: InterstitialEvent.Restrictions = [], playoutLimit: Double? = nil, assets: [PlannedAsset],
        failure: String? = nil, transitionIn: Transition = .instant, transitionOut: Transition = .instant, startedBySDK: Bool = false
    ) {
        self.startedBySDK = startedBySDK
        self.eventID = eventID
        self.position = position
        self.resumeOffset = resumeOffset
        self.cue = cue
        self.snap = snap
        self.restrictions = restrictions
        self.playoutLimit = playoutLimit
        self.assets = assets
        self.failure = failure
        self.transitionIn = transitionIn
        self.transitionOut = transitionOut
    }

    /// The assets that will play; failed ones are skipped.
    var playableAssets: [Int] {
        assets.indices.filter { assets[$0].failure == nil }
    }

    /// What this event adds to its pod's resumption point.
    public var resumeShare: ResumeShare {
        ResumeShare(offset: resumeOffset, snapsIn: snap.contains(.in))
    }

    /// How long the event plays: its playable assets, cut by its playout limit.
    package var playedDuration: Double {
        let total = playableAssets.reduce(0) { $0 + assets[$1].duration }
        return playoutLimit.map { min($0, total) } ?? total
    }
}

/// A quirk that blacks the picture (`Quirk.blacksThePicture`), with the black this session draws:
/// the plan decides it, so the engine stays free of generators.
public struct QuirkBlack: Sendable, Hashable {
    public var quirk: DeclaredQuirk
    public var milliseconds: Double

    public init(quirk: DeclaredQuirk, milliseconds: Double) {
        self.quirk = quirk
        self.milliseconds = milliseconds
    }
}

/// One asset of a break.
public struct PlannedAsset: Sendable, Hashable {
    public var uri: String
    public var duration: Double
    /// Set when the asset cannot play (did not load, cannot be decoded by this receiver): it is skipped.
    public var failure: String?
    /// From the previous asset of the same event; unused for the first.
    public var transitionFromPrevious: Transition
    /// The asset's segments, when the receiver fetches them.
    public var segments: SegmentList
    /// Its separate audio rendition's segments; empty when its audio is muxed.
    public var audioSegments = SegmentList.empty

    public init(uri: String, duration: Double, failure: String? = nil, transitionFromPrevious: Transition = .instant, segments: SegmentList = .empty) {
        self.segments = segments
        self.uri = uri
        self.duration = duration
        self.failure = failure
        self.transitionFromPrevious = transitionFromPrevious
    }
}

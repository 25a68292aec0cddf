import HLS

/// What the engine is doing, each state with its own data: a state holds only what it needs.
extension PlaybackEngine {
    enum Activity: Sendable {
        case idle
        /// Loading the cast; primary will start at `start`.
        case loading(until: Double, start: Double)
        case primary(PrimaryPlayback)
        case transition(Switch)
        case interstitial(BreakCursor)
        case ended
    }

    /// Primary playing.
    struct PrimaryPlayback: Sendable {
        /// The pod that just played, so that it does not trigger again where primary resumed; cleared
        /// once the playhead has moved past it.
        var suppressed: Suppression?
    }

    struct Suppression: Sendable {
        var podID: String
        var position: Double
    }

    /// A switch in progress (into an asset, or back to primary).
    struct Switch: Sendable {
        var until: Double
        var then: AfterSwitch
        /// A seek that arrived during the switch; applied when the switch is over.
        var queuedSeek: Double?
    }

    enum AfterSwitch: Sendable {
        case asset(BreakCursor)
        case primary(Resumption)
    }

    /// How primary picks up after a pod.
    struct Resumption: Sendable {
        var position: Double
        var suppressed: Suppression?
        /// What waits for primary: a sender's seek, or the rest of a seek a JUMP pod interrupted.
        var deferredSeek: DeferredSeek?
        /// True after the PRE pod: primary's first frame, where a start inside replaced time plays
        /// the pod that replaces it first.
        var startsPlayback = false
    }

    enum DeferredSeek: Sendable {
        /// A sender's seek, applied as any seek in primary (JUMP and covered time apply).
        case sender(Double)
        /// The rest of a seek that a JUMP pod interrupted: it lands on its target directly (checking
        /// for JUMP events again from where primary resumed would play the same pod forever).
        case afterJump(Double)
    }

    /// Where the engine is inside a pod of breaks.
    struct BreakCursor: Sendable {
        var pod: PlannedPod
        /// Where the pod plays: its position, or for PRE where playback starts.
        var position: Double
        var member = 0
        var asset = 0
        /// Seconds played of the current asset.
        var offset: Double = 0
        /// Seconds of the current event played before the current asset.
        var eventElapsed: Double = 0
        /// Events of the pod that played.
        var played: Set<Int> = []
        /// True until the current event's first asset has started.
        var startsEvent = true
        /// The resume shares of the members that count: all but CUE=ONCE events already played and
        /// events none of whose assets can play.
        var counted = ResumeShare.none
        var allCounted = true
        /// How far into the pod a live viewer joins when the live edge is inside it.
        var joinOffset: Double?
        /// The target of the seek that a JUMP event of this pod interrupted.
        var seekAfterwards: Double?

        init(pod: PlannedPod, position: Double) {
            self.pod = pod
            self.position = position
        }

        var event: PlannedBreak { pod.members[member] }
        var currentAsset: PlannedAsset { pod.members[member].assets[asset] }
        /// Seconds left of the current asset, cut by the event's playout limit.
        var remaining: Double {
            var left = currentAsset.duration - offset
            if let limit = event.playoutLimit { left = min(left, limit - eventElapsed - offset) }
            return max(0, left)
        }
    }
}

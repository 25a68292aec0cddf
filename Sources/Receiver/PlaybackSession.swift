import Casting
import Foundation
import HLS
import HTTP
import Playback
import Profiles
import Sessions

/// One cast playing on a receiver: who cast it, and its session on the receiver's driver, which plays
/// it on the receiver's real (scaled) clock with its scripted steps and live reloads.
///
/// The driver applies commands at the clock's now and hands events, the report and the end to the
/// callbacks after its lock is released, so what senders poll is never held up by a report being written.
final class PlaybackSession: Sendable {
    /// The receiver's own id, used in /sessions paths and report file names (never the sender's, which
    /// could be anything).
    let id: String
    /// The id the sender gave (`X-Apple-Session-ID`), echoed on /reverse.
    let senderSessionID: String?
    let startedAt: Date
    /// The connection whose closing ends the session; nil for a detached session.
    let connection: HTTPConnectionID?
    let profile: ReceiverProfile
    let playlist: String
    let seed: UInt64
    /// The group this session follows, if its `/play` joined one.
    let membership: GroupMembership?

    private let cast: PlayingCast
    private let session: DrivenSession

    /// Starts playing `cast` on `driver` at once; `callbacks` hear what happens.
    init(
        id: String, startedAt: Date, request: SessionRequest, prepared: PreparedCast, cast: CastPlan, planner: CastPlanner, driver: SessionDriver,
        membership: GroupMembership? = nil, callbacks: SessionCallbacks
    ) {
        self.membership = membership
        self.id = id
        senderSessionID = request.senderSessionID
        connection = request.connection
        self.startedAt = startedAt
        profile = cast.profile
        playlist = prepared.request.playlist
        seed = cast.seed
        let playing = PlayingCast(prepared: prepared, cast: cast, planner: planner)
        self.cast = playing
        var recorder = SessionRecorder(
            profile: cast.profile.name, playlist: playlist, seed: cast.seed, startPosition: cast.startPosition ?? 0, profileSummary: cast.profile.summary)
        recorder.describe(variant: cast.variant?.variant.uri, diagnostics: cast.diagnostics)
        if let origin = request.origin { recorder.describe(origin: origin) }
        session = driver.start(
            SessionSetup(
                plan: cast.plan, startPosition: prepared.request.startPosition ?? cast.startPosition, script: request.script, recorder: recorder,
                reloads: playing,
                delivery: cast.segmentDelivery(
                    fetcher: planner.media == .realtime
                        ? PacedSegmentFetcher(client: request.client, bandwidthMbps: cast.profile.network.bandwidthMbps, timeScale: request.timeScale) : nil)),
            callbacks: callbacks)
    }

    // MARK: - Commands

    /// Applies a sender's command now and returns what it caused (a refusal among them, if refused);
    /// nil when the session has ended meanwhile.
    func handle(_ command: PlaybackCommand) -> [PlaybackEvent]? {
        session.handle(command)
    }

    /// Ends the session for a reason of the receiver's: replaced, shutdown, the sender left.
    func end(reason: String) {
        session.end(reason: reason)
    }

    /// Plays the cast again with the sender's changed wishes (client events, automatic handling),
    /// from where it is now.
    func change(_ update: @escaping @Sendable (CastRequest) -> CastRequest) async throws(CastError) {
        session.update(to: try await cast.change(update))
    }

    // MARK: - What senders read

    /// The engine as it stands now, on a copy advanced to this moment: reading never changes the session.
    var engineNow: PlaybackEngine { session.engineNow }

    /// `engineNow` while the session plays, nil once it has ended: one look under the lock, for the
    /// reads senders poll.
    var activeEngineNow: PlaybackEngine? { session.activeEngineNow }

    var isActive: Bool { session.isActive }

    /// The final report once ended; until then the report so far.
    var report: SessionReport { session.report }

    /// The fetches answered so far; nil when the session fetches no segments.
    var fetchTrace: FetchTrace? { session.fetchTrace }

    var request: CastRequest { cast.request }

    /// The cast as prepared (its playlist read, its events resolved), as it plays now.
    var prepared: PreparedCast { cast.prepared }

    /// Runs `body` with the current engine while no event can be published, so that a new subscriber
    /// gets a snapshot and then every later event, none twice and none lost.
    func withCurrentState<T>(_ body: (PlaybackEngine, Bool) -> T) -> T {
        session.withCurrentState(body)
    }
}

/// What a `/play` asked for beyond the cast itself.
struct SessionRequest: Sendable {
    var senderSessionID: String?
    var connection: HTTPConnectionID?
    var script = SenderScript()
    /// The receiver, as its fetches name it to the origin and to its pacing bucket (`realtime`).
    var client = "airlab"
    /// The receiver's clock scale, which its fetches' pace follows (`realtime`).
    var timeScale = 1.0
    /// How the cast arrived, for the report.
    var origin: CastOrigin?
}

import HLS
import MediaValues
import Profiles
import Sessions

/// What `--media verify` measures before anything plays: every segment a receiver would fetch, read
/// once by the survey (`SegmentSurvey`, through the one loader), as bytes, origin time and failure by
/// URL: what the engine's modelled network plays from.
///
/// Shared by a fleet (one per planner): a playlist and the variant a profile picks are surveyed once,
/// however many receivers play them, and receivers casting at once wait for the same survey.
public actor SegmentMeasurements {
    private let survey: SegmentSurvey
    private var surveys: [Key: Task<[String: SegmentNetworkModel.Measured], Never>] = [:]
    /// Surveys kept, oldest forgotten first: a daemon casting many playlists must not grow without end.
    public static let maximumSurveys = 64
    private var order: [Key] = []

    struct Key: Hashable {
        var playlist: String
        var variant: String?
    }

    public init(survey: SegmentSurvey = SegmentSurvey()) {
        self.survey = survey
    }

    /// The measurements of the segments `profile` would fetch of `cast`; empty when the survey could
    /// not read the stream (the plan then estimates sizes from the declared bandwidth).
    public func measure(_ cast: PreparedCast, for profile: ReceiverProfile) async -> [String: SegmentNetworkModel.Measured] {
        let variant = cast.multivariant.flatMap { try? profile.selectVariant(from: $0) }?.variant.uri
        let key = Key(playlist: cast.request.playlist, variant: variant)
        if let running = surveys[key] { return await running.value }
        let survey = self.survey
        let playlist = cast.request.playlist
        let task = Task { () -> [String: SegmentNetworkModel.Measured] in
            guard let result = try? await survey.survey(playlist, variant: .profile(profile)) else { return [:] }
            return Self.measured(result.renditions)
        }
        surveys[key] = task
        order.append(key)
        if order.count > Self.maximumSurveys { surveys[order.removeFirst()] = nil }
        return await task.value
    }

    /// Each segment's size, the origin's time to answer it, and its failure, by URL.
    static func measured(_ renditions: [SurveyedRendition]) -> [String: SegmentNetworkModel.Measured] {
        var measured: [String: SegmentNetworkModel.Measured] = [:]
        for rendition in renditions {
            for segment in rendition.segments {
                let fetch = segment.fetch
                var failure: FetchFailure?
                if fetch.timedOut {
                    failure = .timeout
                } else if let status = fetch.status, !(200..<300).contains(status) {
                    failure = .status(status)
                } else if let reason = fetch.failure {
                    failure = .transport(reason)
                }
                measured[segment.url] = SegmentNetworkModel.Measured(
                    bytes: fetch.byteCount, originFirstByteSeconds: Self.originSeconds(fetch), failure: failure)
            }
        }
        return measured
    }

    /// The origin's share of a fetch: its time to the first byte when HTTP measured one; a local
    /// file's whole read otherwise (the disk is the origin then).
    static func originSeconds(_ fetch: SegmentFetchResult) -> Double {
        let seconds = fetch.firstByteSeconds ?? fetch.loadSeconds
        return seconds.isFinite ? max(0, seconds) : 0
    }
}

import Foundation
import Loading
import Media
import MediaValues
import Playback
import Profiles

/// The pictures at each break of a cast, for the reports: primary's last before the break (the segment
/// where primary is left), the break's first (its first asset's first segment) and primary's first
/// after it (the segment where primary resumes), by
/// `Media`'s `StillPicture`, the code the live console's pictures come from.
///
/// The segments are those a receiver would fetch, from the plan for one profile (segment lists are
/// planned as for `--media realtime`, without fetching every segment). What cannot be read or
/// decoded has no picture; a report is never held up by one for longer than the loader's timeout.
public enum BreakPictures {
    public struct Pair: Sendable, Equatable {
        public var before: Data?
        public var after: Data?
        /// Primary's first after the break, where it resumes.
        public var back: Data?
    }

    /// Small: a report shows them beside a table row.
    public static let width = 160
    static let segmentByteLimit = 16 << 20

    /// The pictures of each break of `prepared` as planned for `profile`, by event ID.
    public static func make(_ prepared: PreparedCast, profile: ReceiverProfile, planner: CastPlanner, timeout: Double = 10) async -> [String: Pair] {
        var planner = planner
        planner.media = .realtime
        guard let plan = try? await planner.plan(prepared, profile: profile, seed: 1).plan, let primary = plan.fetching?.primary, !primary.isEmpty else {
            return [:]
        }
        // The user's own playlist may be a local file; then so may what it names.
        let local = prepared.location.isLocal
        var made: [String: Data?] = [:]
        func picture(_ uri: String?) async -> Data? {
            guard let uri else { return nil }
            if let known = made[uri] { return known }
            var picture: Data?
            if let location = try? ResourceLocation(argument: uri),
                let bytes = try? await planner.loader.load(location, maximumSize: segmentByteLimit, allowingLocalFiles: local).data
            {
                picture = try? await StillPicture.jpeg(of: bytes, input: "segment", width: width, timeout: timeout)
            }
            made[uri] = picture
            return picture
        }
        var pictures: [String: Pair] = [:]
        for planned in plan.breaks where pictures[planned.eventID] == nil {
            let before = primary.segments[primary.index(containing: max(0, planned.position - 0.001))].uri
            let after = planned.assets.first?.segments.segments.first?.uri
            let back = primary.segments[primary.index(containing: planned.position + planned.resumeOffset + 0.001)].uri
            pictures[planned.eventID] = Pair(before: await picture(before), after: await picture(after), back: await picture(back))
        }
        return pictures
    }
}

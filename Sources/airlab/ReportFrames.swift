import Casting
import Coordination
import Foundation
import Loading
import Media
import Profiles
import Reports

/// The frames either side of each break that the HTML reports of `simulate` and `lab run` embed,
/// made by Casting's `BreakPictures` from the playlist as one profile plays it.
enum ReportFrames {
    static func frames(_ prepared: PreparedCast, profile: ReceiverProfile, planner: CastPlanner) async -> [String: HTMLReport.BreakFrames] {
        await BreakPictures.make(prepared, profile: profile, planner: planner).mapValues { HTMLReport.BreakFrames(before: $0.before, after: $0.after, back: $0.back) }
    }

    /// For a lab run, whose playlist this process has not read: read it again (it may be a local file
    /// the run served), for the first profile its sessions played that is shipped; none when it cannot be.
    static func frames(playlist: String, profiles: [String], timeout: Double = 10) async -> [String: HTMLReport.BreakFrames] {
        let catalog = ProfileCatalog()
        guard let profile = (profiles + ["apple-tv-4k"]).lazy.compactMap({ try? catalog.profile($0) }).first else { return [:] }
        let planner = CastPlanner(loader: ResourceLoader(timeout: timeout), prober: ProbeCache(options: ProbeOptions(timeout: timeout)))
        guard let prepared = try? await planner.prepare(CastRequest(playlist: playlist)) else { return [:] }
        return await frames(prepared, profile: profile, planner: planner)
    }

    /// For a group's report: each participant's frames, from its own playlist as its profile plays it
    /// (a participant without ads has none); a playlist and profile shared by several is read once.
    static func groupFrames(_ participants: [GroupScenario.Participant], folder: URL) async -> [String: [String: HTMLReport.BreakFrames]] {
        var made: [String: [String: HTMLReport.BreakFrames]] = [:]
        var frames: [String: [String: HTMLReport.BreakFrames]] = [:]
        for participant in participants where !participant.adFree {
            let playlist = participant.playlist(in: folder)
            let key = playlist + "\n" + participant.profile
            if made[key] == nil { made[key] = await Self.frames(playlist: playlist, profiles: [participant.profile]) }
            frames[participant.name] = made[key]
        }
        return frames
    }
}

import Casting
import Loading
import Media
import Profiles
import Reports

/// The frames either side of each break that the HTML reports of `simulate` and `lab run` embed,
/// made by Casting's `BreakPictures` from the playlist as one profile plays it.
enum ReportFrames {
    static func frames(_ prepared: PreparedCast, profile: ReceiverProfile, planner: CastPlanner) async -> [String: HTMLReport.BreakFrames] {
        await BreakPictures.make(prepared, profile: profile, planner: planner).mapValues { HTMLReport.BreakFrames(before: $0.before, after: $0.after) }
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
}

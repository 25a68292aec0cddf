import Arguments
import Casting
import Coordination
import Foundation
import Loading
import Media
import Profiles
import Reports

/// `airlab group simulate GROUP.json`: plays a group (each participant its own playlist, profile and
/// ads) on one virtual clock under the group's coordinator, and reports waits, misses and sync error.
enum GroupSimulateCommand {
    static let spec = CommandSpec(
        name: "simulate",
        abstract: "Simulate a watch-together group on a virtual clock: who waits for whose ads, who misses content.",
        discussion: """
            GROUP.json names the content, the group's policy (waitFor, participantLimits,
            pauseSnapsToOriginator), the link (delayMs, jitterMs) and the participants, each with a
            profile, its own playlist (relative paths are read from GROUP.json's folder), and optionally
            adFree, stitched ranges, a policy of its own, a script ("at 40 seek 300") and faults
            ("stall at 30 for 5", "leave at 90").
            Exit status: 0 when the group played within the limits given, 1 when a participant could not
            play its cast, was refused (its primary length is not the group's) or a --max-* limit was
            passed, 2 for usage errors and when GROUP.json, a
            playlist or a profile cannot be read or a report cannot be written.
            """,
        positionals: [PositionalSpec("GROUP.json", help: "The group file.")],
        options: [
            .value("seed", "N", help: "Seed of the latency draws and the link's jitter: one seed, one run.", default: "1"),
            .value("until", "SECONDS", help: "Stop at this group time (live content has no end)."),
            .value("timeout", "SECONDS", help: "Give up on each fetch and probe after this many seconds (at least 1).", default: "10"),
            .flag("json", help: "Print the report as JSON."),
            .value("junit", "FILE", help: "Also write JUnit XML: a test case per participant and break, and one for its sync error."),
            .value("html", "FILE", help: "Also write an HTML report: the table and an SVG lane per participant on the group time axis."),
        ] + Options.thresholdOptions)

    static let command = Command(in: "group", spec) { parsed in
        let options: Options
        do throws(UsageError) {
            options = try Options(parsed)
        } catch {
            return Airlab.usageFailure(error)
        }
        let name = "airlab group simulate"
        let scenario: GroupScenario
        do {
            scenario = try GroupScenario(parsing: try Data(contentsOf: URL(fileURLWithPath: options.file)))
        } catch let error as GroupScenario.Failure {
            Terminal.error("\(name): \(options.file): \(error)")
            return Airlab.usageStatus
        } catch {
            Terminal.error("\(name): \(options.file): cannot be read (no such file or unreadable)")
            return Airlab.usageStatus
        }
        let folder = URL(fileURLWithPath: options.file).deletingLastPathComponent()
        let planning = GroupCastPlanning(planner: CastPlanner(
            loader: ResourceLoader(timeout: options.timeout), prober: ProbeCache(options: ProbeOptions(timeout: options.timeout))))
        var planned: [GroupCastPlanning.Planned] = []
        for participant in scenario.participants {
            let profile: ReceiverProfile
            do throws(ProfileError) {
                profile = try ProfileCatalog().profile(participant.profile)
            } catch {
                Terminal.error("\(name): participant '\(participant.name)': profile \(error)")
                return Airlab.usageStatus
            }
            let playlist = participant.playlist(in: folder)
            do throws(GroupCastPlanning.Failure) {
                planned.append(try await planning.member(
                    participant, playlist: playlist, profile: profile, policy: participant.policy ?? scenario.policy, seed: options.seed))
            } catch {
                Terminal.error("\(name): participant '\(participant.name)': \(error)")
                if case .unreadable = error { return Airlab.usageStatus }
                return 1
            }
        }
        // A group refuses a participant whose programme is not the group's (equal primary lengths).
        let refusals = GroupCastPlanning.lengthRefusals(planned)
        for refusal in refusals { Terminal.error("\(name): refused: \(refusal.message)") }
        guard refusals.isEmpty else { return 1 }
        let report = GroupSimulation(contentID: scenario.contentID, members: planned.map(\.member), link: scenario.link, seed: options.seed, until: options.until).run()
        print(options.json ? GroupReportJSON.render(report) : GroupReportText.render(report), terminator: "")
        let thresholds = options.thresholds
        let frames = options.htmlFile == nil ? [:] : await ReportFrames.groupFrames(scenario.participants, folder: folder)
        let writes = [
            (options.junitFile, { GroupJUnitReport.render(report, thresholds: thresholds) }),
            (options.htmlFile, { GroupTimelineSVG.page(report, frames: frames) }),
        ]
        for case let (path?, render) in writes {
            do {
                try Data(render().utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                Terminal.error("\(name): \(path): cannot be written (\(error.localizedDescription))")
                return Airlab.usageStatus
            }
        }
        return options.thresholds.fails(report) ? 1 : 0
    }

    /// The command line, checked.
    struct Options {
        var file: String
        var seed: UInt64
        var until: Double?
        var timeout: Double
        var json: Bool
        var junitFile: String?
        var htmlFile: String?
        var thresholds: GroupThresholds

        init(_ parsed: ParsedCommand) throws(UsageError) {
            func fail(_ message: String) -> UsageError { UsageError(commandPath: parsed.path, message: message) }
            file = parsed.positional("GROUP.json") ?? ""
            seed = try parsed.wholeNumber("seed", default: 1)
            until = try parsed.number("until", in: .positiveSeconds(upTo: 86_400))
            timeout = try parsed.number("timeout", in: .seconds(1...86_400)) ?? ResourceLoader.defaultTimeout
            json = parsed.flag("json")
            junitFile = parsed.values("junit").last
            htmlFile = parsed.values("html").last
            thresholds = try Self.thresholds(parsed)
        }

        /// `--max-wait`, `--max-missed`, `--max-desync-s`: the same for a simulated group and a lab's.
        static func thresholds(_ parsed: ParsedCommand) throws(UsageError) -> GroupThresholds {
            func limit(_ option: String) throws(UsageError) -> Double? { try parsed.number(option, in: .seconds(0...86_400)) }
            return GroupThresholds(maxWaitSeconds: try limit("max-wait"), maxMissedSeconds: try limit("max-missed"), maxDesyncSeconds: try limit("max-desync-s"))
        }

        /// The options of the limits, shared with `lab run --group`.
        static let thresholdOptions: [OptionSpec] = [
            .value("max-wait", "S", help: "Fail a break where a participant waited longer."),
            .value("max-missed", "S", help: "Fail a break where a participant missed more by catching up."),
            .value("max-desync-s", "S", help: "Fail a participant out of sync (by more than 0.5 s) for longer."),
        ]
    }
}

import Arguments
import Casting
import Foundation
import Loading
import Media
import Playback
import Profiles
import Reports
import Sessions

/// `airlab simulate PLAYLIST --profile NAME|FILE [--profile …] …`: plays a cast on receiver profiles
/// on a virtual clock and reports each session.
enum SimulateCommand {
    static let spec = CommandSpec(
        name: "simulate",
        abstract: "Play a playlist on receiver profiles on a virtual clock, interstitials, restrictions and transitions included.",
        discussion: """
            Each profile plays the cast to its end (for live content, to --until) as that receiver would:
            the variant it picks, the transitions it pays into and out of every interstitial, the
            commands a scripted sender sends and those the interstitials' restrictions refuse.
            Profiles: \(ProfileCatalog().shippedNames.joined(separator: ", ")), or a path to a profile JSON file.
            Exit status: 0 when every profile played the cast, 1 when some could not (or, with
            --max-transition-ms, when an interstitial failed or switched too slowly), 2 for usage errors
            and when the playlist, the events file or a profile cannot be read or a report cannot be written.
            """,
        positionals: [PositionalSpec("PLAYLIST", help: "A local path or an http(s) URL of a multivariant or media playlist.")],
        options: [
            .value("profile", "NAME|FILE", help: "A receiver profile to simulate.", repeatable: true),
            .value("seed", "N", help: "Seed of the latency draws: one seed, one timeline.", default: "1"),
            .value("do", "SCRIPT", help: "A scripted sender: \"at 3 seek 40; at 12 rate 2; at 20 pause; at 22 play\"."),
            .value("until", "SECONDS", help: "Stop at this session time (live content has no end)."),
            .value("timeout", "SECONDS", help: "Give up on each fetch and probe after this many seconds (at least 1).", default: "10"),
            .flag("json", help: "Print the sessions as one JSON document (the report format the daemon and lab share)."),
            .value("junit", "FILE", help: "Also write JUnit XML: a test case per receiver and interstitial."),
            .value("html", "FILE", help: "Also write an HTML report with a table of interstitials and an SVG timeline per receiver."),
            .value("max-transition-ms", "N", help: "Fail a test case (and exit 1) when a switch into or out of an interstitial takes longer."),
            .flag("fail-on-lost-ads", help: "Fail a test case (and exit 1) for each SDK ad break lost to picture in picture."),
            .value("media", "probe|verify", help: "probe: plan on the latency model; verify: fetch every segment once and play it through each profile's network and buffer.", default: "probe"),
            .value("fetch-trace", "FILE", help: "Play fetches as a recorded trace says: a session's, from airlabd's /sessions/ID/fetches or lab run's OUT/fetches/ ({\"rows\": [{\"uri\", \"attempt\", \"status\", \"bytes\", \"firstByteSeconds\", \"seconds\"}]}); implies --media verify."),
            .value("max-rebuffer-s", "SECONDS", help: "Fail a break's rebuffer test case (and exit 1) when it stalls longer than this in all."),
        ] + CastOptions.all)

    static let command = Command(spec) { parsed in
        let options: Options
        do throws(UsageError) {
            options = try Options(parsed)
        } catch {
            return Airlab.usageFailure(error)
        }
        let catalog = ProfileCatalog()
        var profiles: [ReceiverProfile] = []
        for name in options.profiles {
            do throws(ProfileError) {
                profiles.append(try catalog.profile(name))
            } catch {
                Terminal.error("airlab simulate: profile \(error)")
                return Airlab.usageStatus
            }
        }
        let cast: CastOptions
        do throws(CommandFailure) {
            cast = try CastOptions(parsed)
        } catch {
            return error.report("simulate")
        }

        var trace: FetchTrace?
        if let path = options.traceFile {
            do {
                trace = try FetchTrace(parsing: try Data(contentsOf: URL(fileURLWithPath: path)))
            } catch let error as FetchTrace.Failure {
                Terminal.error("airlab simulate: \(path): \(error)")
                return Airlab.usageStatus
            } catch {
                Terminal.error("airlab simulate: \(path): cannot be read (no such file or unreadable)")
                return Airlab.usageStatus
            }
        }

        var planner = CastPlanner(
            loader: ResourceLoader(timeout: options.timeout),
            prober: ProbeCache(options: ProbeOptions(timeout: options.timeout)))
        planner.media = options.media
        let request = cast.request(playlist: options.playlist)
        let prepared: PreparedCast
        do throws(CastError) {
            prepared = try await planner.prepare(request)
        } catch {
            Terminal.error("airlab simulate: \(error)")
            return Airlab.usageStatus
        }
        let simulation = CastSimulation(planner: planner, script: options.script, until: options.until, trace: trace)
        let report = await simulation.run(prepared, profiles: profiles, seed: options.seed)
        print(options.json ? SessionReportJSON.render(report) : SessionReportText.render(report), terminator: "")
        var thresholds = LabThresholds(maxTransitionMilliseconds: options.maxTransitionMilliseconds, failOnLostAds: options.failOnLostAds)
        thresholds.maxRebufferSeconds = options.maxRebufferSeconds
        let frames = options.htmlFile == nil || profiles.isEmpty ? [:] : await ReportFrames.frames(prepared, profile: profiles[0], planner: planner)
        let writes = [
            (options.junitFile, { JUnitReport.render(report, thresholds: thresholds) }),
            (options.htmlFile, { HTMLReport.render(report, thresholds: thresholds, frames: frames) }),
        ]
        for case let (path?, render) in writes {
            do {
                try Data(render().utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                Terminal.error("airlab simulate: \(path): cannot be written (\(error.localizedDescription))")
                return Airlab.usageStatus
            }
        }
        let thresholdFailed = (options.maxTransitionMilliseconds != nil || options.failOnLostAds || options.maxRebufferSeconds != nil)
            && report.sessions.contains { thresholds.anyFailure(in: $0) }
        return report.failures.isEmpty && !thresholdFailed ? 0 : 1
    }

    /// The command line, checked.
    struct Options {
        var playlist: String
        var profiles: [String]
        var seed: UInt64
        var script: SenderScript
        var until: Double?
        var timeout: Double
        var json: Bool
        var junitFile: String?
        var htmlFile: String?
        var maxTransitionMilliseconds: Double?
        var failOnLostAds: Bool
        var media: MediaMode
        var traceFile: String?
        var maxRebufferSeconds: Double?

        init(_ parsed: ParsedCommand) throws(UsageError) {
            func fail(_ message: String) -> UsageError { UsageError(commandPath: parsed.path, message: message) }
            playlist = parsed.positional("PLAYLIST") ?? ""
            profiles = parsed.values("profile")
            guard !profiles.isEmpty else { throw fail("give at least one --profile (\(ProfileCatalog().shippedNames.joined(separator: ", ")))") }
            seed = try parsed.wholeNumber("seed", default: 1)
            do throws(SenderScript.SyntaxError) {
                script = try SenderScript(parsing: parsed.values("do").last ?? "")
            } catch {
                throw fail("--do \(error)")
            }
            until = try parsed.number("until", in: .positiveSeconds())
            timeout = try parsed.number("timeout", in: .seconds(1...86_400)) ?? ResourceLoader.defaultTimeout
            json = parsed.flag("json")
            junitFile = parsed.values("junit").last
            htmlFile = parsed.values("html").last
            maxTransitionMilliseconds = try parsed.number("max-transition-ms", in: .positive(unit: "milliseconds"))
            failOnLostAds = parsed.flag("fail-on-lost-ads")
            traceFile = parsed.values("fetch-trace").last
            media = try parsed.choice("media") ?? (traceFile == nil ? .probe : .verify)
            if media == .realtime {
                throw fail("--media realtime fetches at playback pace on a real clock: use it with airlabd or airlab lab run; simulate takes probe or verify")
            }
            if traceFile != nil, media == .probe { throw fail("--fetch-trace replays segment fetches: it needs --media verify") }
            maxRebufferSeconds = try parsed.number("max-rebuffer-s", in: .seconds(0...86_400))
        }
    }
}

import Arguments
import Foundation
import Lab
import Playback
import Reports
import SenderProtocol
import Sessions

/// `airlab lab run PLAYLIST …`: one playlist on a fleet of receivers at once, with reports.
enum LabRunCommand {
    static let spec = CommandSpec(
        name: "run",
        abstract: "Cast one playlist to a fleet of receivers at once, wait for every session to end, and write the reports.",
        discussion: """
            The fleet is the receivers mDNS finds (--receivers), or, with --profile, receivers airlab starts
            itself: one airlabd on 127.0.0.1 with one receiver per profile, stopped at the end. Every
            receiver gets the same detached cast, seed and script. A local playlist is served from its
            folder while the run lasts.
            A fleet on many hosts is named by address: --receivers and --receivers-file take HOST:PORT
            entries and HOST:FIRST-LAST ranges (an airlabd's replicas listen on consecutive ports), and
            their lists are joined, in order, into one run with one report. At most --per-host sessions
            play at once on one host; the others queue until one ends.
            Written into --out: report.json (the sessions, as `airlab simulate --json`), junit.xml (a test
            case per receiver and interstitial, failing when it did not play or switched slower than
            --max-transition-ms; a receiver that could not be used is an error) and report.html (a table
            of receivers and interstitials with their latency and what differed, and an SVG timeline lane
            per receiver). A receiver that fetched segments (--media verify or realtime) also gives its
            session's fetch trace, written to OUT/fetches/NNN-RECEIVER.json for simulate --fetch-trace.
            A receiver that cannot be reached, refuses the cast or vanishes mid-run is reported as an error
            and the run goes on with the others.
            With --group GROUP.json, the participants of a group file play together: each on the receiver
            it names ("receiver": "HOST:PORT") or on a local airlabd of its own profile, the first one's
            receiver hosting the group; the reports are group simulate's (waits, content missed, sync
            error measured by the receivers), failing past --max-wait, --max-missed or --max-desync-s.
            Exit status: 0 when all passed, 1 when a threshold failed (with --fail-on-error also when a
            session had errors), 2 when a receiver could not be used, for usage errors, and when the
            reports cannot be written. Ctrl-C stops every session and exits 130.
            """,
        positionals: [PositionalSpec("PLAYLIST", help: "An http(s) URL, or a local playlist's path (not with --group).", isOptional: true)],
        options: [
            .value("receivers", "all|NAME,…", help: "Receivers to use: all of airlab's on mDNS, or names, HOST:PORT addresses and HOST:FIRST-LAST port ranges.", default: "all"),
            .value("receivers-file", "FILE", help: "Receivers to use, one entry a line as in --receivers (# starts a comment); repeat for a file per host.", repeatable: true),
            .value("per-host", "N", help: "At most N sessions at once on one host; the other receivers there wait for one to end.", default: String(FleetRun.defaultSessionsPerHost)),
            .value("profile", "NAME|FILE", help: "Start a local fleet with a receiver of this profile instead.", repeatable: true),
            .value("seed", "N", help: "Seed of the latency draws, the same for every receiver.", default: "1"),
            .value("time-scale", "X", help: "Run the local fleet's clocks X times faster than real time (with --profile)."),
            .value("media", "probe|verify|realtime", help: "What the local fleet does with the media (with --profile): probe; verify (fetch every segment once and play through each profile's network and buffer); realtime (each receiver fetches as it plays, paced to its profile).", default: "probe"),
            .value("max-rebuffer-s", "SECONDS", help: "Fail a break's rebuffer case when it stalls longer than this in all (receivers that fetch segments)."),
            .value("do", "SCRIPT", help: "A scripted sender every receiver plays: \"at 3 seek 40; at 12 pause; at 14 play\"."),
            .value("max-transition-ms", "N", help: "Fail an interstitial whose switch in or out takes longer."),
            .flag("fail-on-error", help: "Also fail a receiver whose session had errors or whose playlist has errors."),
            .flag("fail-on-lost-ads", help: "Fail each SDK ad break lost to picture in picture (script it with --do \"at 30 pip on\")."),
            .value("out", "DIR", help: "Where the reports go.", default: "lab-report"),
            .value("group", "GROUP.json", help: "Play a watch-together group (group simulate's file) on real receivers instead of one playlist."),
            ReceiverOptions.password,
            ReceiverOptions.airPlayProtocol,
            ReceiverOptions.credentials,
            ReceiverOptions.discoveryTimeout,
        ] + CastOptions.all + GroupSimulateCommand.Options.thresholdOptions)

    struct Options {
        var playlist: String
        var receivers: [ReceiverEntry]
        var sessionsPerHost: Int
        var profiles: [String]
        var seed: UInt64
        var timeScale: Double?
        var script: String?
        var thresholds: LabThresholds
        var media: MediaMode
        var out: URL
        var discoveryTimeout: Double
        var group: String?

        init(_ parsed: ParsedCommand) throws(UsageError) {
            func fail(_ message: String) -> UsageError { UsageError(commandPath: parsed.path, message: message) }
            playlist = parsed.positional("PLAYLIST") ?? ""
            group = parsed.values("group").last
            if (group == nil) == playlist.isEmpty {
                throw fail(group == nil ? "give the PLAYLIST to cast, or --group GROUP.json" : "--group plays the group file's own playlists; give no PLAYLIST with it")
            }
            profiles = parsed.values("profile")
            let files = parsed.values("receivers-file")
            if group != nil, !profiles.isEmpty || parsed.values("receivers").last != nil || !files.isEmpty {
                throw fail("with --group, each participant names its receiver in GROUP.json (or gets a local one of its profile); --profile, --receivers and --receivers-file do not apply")
            }
            let named = parsed.values("receivers").last
            if !profiles.isEmpty, (named.map { $0.lowercased() != "all" } ?? false) || !files.isEmpty {
                throw fail("--receivers and --receivers-file choose running receivers and --profile starts a local fleet; give one of them")
            }
            do throws(ReceiverListError) {
                receivers = []
                if let named { receivers = try ReceiverEntry.parse(list: named) }
                for file in files {
                    let entries = try ReceiverEntry.read(file: file)
                    guard receivers.count + entries.count <= ReceiverEntry.maximumCount else {
                        throw ReceiverListError(source: file, line: nil, entry: file, reason: "the run would have more than \(ReceiverEntry.maximumCount) receivers")
                    }
                    receivers += entries
                }
            } catch {
                throw fail(error.description)
            }
            if receivers.isEmpty { receivers = [.everyDiscovered] }
            sessionsPerHost = try parsed.wholeNumber("per-host", in: 1...10_000) ?? FleetRun.defaultSessionsPerHost
            seed = try parsed.wholeNumber("seed", default: 1)
            timeScale = try parsed.number("time-scale", in: .positive())
            if timeScale != nil {
                guard !profiles.isEmpty || group != nil else { throw fail("--time-scale applies to a local fleet: give --profile too") }
            }
            script = parsed.values("do").last
            if let script {
                do throws(SenderScript.SyntaxError) {
                    _ = try SenderScript(parsing: script)
                } catch {
                    throw fail("--do \(error)")
                }
            }
            let limit = try parsed.number("max-transition-ms", in: .positive(unit: "milliseconds"))
            thresholds = LabThresholds(
                maxTransitionMilliseconds: limit, failOnSessionErrors: parsed.flag("fail-on-error"), failOnLostAds: parsed.flag("fail-on-lost-ads"))
            thresholds.maxRebufferSeconds = try parsed.number("max-rebuffer-s", in: .seconds(0...86_400))
            media = try parsed.choice("media") ?? .probe
            out = URL(fileURLWithPath: parsed.values("out").last ?? "lab-report")
            discoveryTimeout = try parsed.number("discovery-timeout", in: ReceiverOptions.discoveryTimeoutRange) ?? 3
        }
    }

    static let command = Command(in: "lab", spec) { parsed in
        do throws(CommandFailure) {
            return try await run(parsed)
        } catch {
            return error.report("lab run")
        }
    }

    static func run(_ parsed: ParsedCommand) async throws(CommandFailure) -> Int32 {
        let options: Options
        do throws(UsageError) {
            options = try Options(parsed)
        } catch {
            throw .usage(error)
        }
        if let group = options.group {
            return try await GroupLabCommand.run(parsed, file: group, out: options.out, seed: options.seed, timeScale: options.timeScale)
        }
        var order = PlayOrder(url: options.playlist)
        try CastOptions(parsed).apply(to: &order)
        order.script = options.script

        let receivers: LabRun.Receivers = options.profiles.isEmpty
            ? .running(options.receivers, discoveryTimeout: options.discoveryTimeout)
            : .localFleet(profiles: options.profiles, timeScale: options.timeScale, media: options.media)
        var lab = LabRun(playlist: options.playlist, order: order, seed: options.seed, receivers: receivers)
        lab.password = parsed.values("password").last
        lab.protocolChoice = try ReceiverOptions.protocolChoice(parsed)
        lab.pairings = try ReceiverOptions.pairings(parsed, creating: false)
        lab.sessionsPerHost = options.sessionsPerHost
        let outcome: LabRun.Outcome
        do throws(LabRunError) {
            outcome = try await lab.run(
                interruption: Interruption.onInterruptSignal(), interactive: Terminal.standardOutputIsTerminal, write: { Terminal.write($0) })
        } catch {
            throw .other(error.description)
        }
        if outcome.interrupted {
            Terminal.error("airlab lab run: interrupted; every session was told to stop")
            return CastCommand.interruptedStatus
        }
        let report = outcome.report
        let frames = await ReportFrames.frames(playlist: options.playlist, profiles: report.sessions.map(\.profile))

        let files = [
            ("report.json", SessionReportJSON.render(report)),
            ("junit.xml", JUnitReport.render(report, thresholds: options.thresholds)),
            ("report.html", HTMLReport.render(report, thresholds: options.thresholds, frames: frames)),
        ]
        do {
            try FileManager.default.createDirectory(at: options.out, withIntermediateDirectories: true)
            for (name, text) in files {
                try Data(text.utf8).write(to: options.out.appendingPathComponent(name), options: .atomic)
            }
            try writeFetchTraces(outcome.fetchTraces, of: outcome.receivers, into: options.out.appendingPathComponent("fetches"))
        } catch {
            throw .other("\(options.out.path): the reports cannot be written (\(error.localizedDescription))")
        }
        print("")
        print(LabSummaryText.render(report, thresholds: options.thresholds), terminator: "")
        print("reports: " + files.map { options.out.appendingPathComponent($0.0).path }.joined(separator: ", "))
        if !outcome.fetchTraces.isEmpty { print("fetch traces (airlab simulate --fetch-trace FILE): " + options.out.appendingPathComponent("fetches").path) }
        return LabVerdict(report, thresholds: options.thresholds).rawValue
    }

    /// Each session's fetch trace as `fetches/NNN-RECEIVER.json`, for `airlab simulate --fetch-trace`;
    /// a trace the receiver could not give is said on standard error, and the run's verdict stands.
    private static func writeFetchTraces(_ traces: [Int: Result<FetchTrace, ReceiverError>], of receivers: [Receiver], into folder: URL) throws {
        guard !traces.isEmpty else { return }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (index, result) in traces.sorted(by: { $0.key < $1.key }) where receivers.indices.contains(index) {
            switch result {
            case .success(let trace):
                let name = FleetRun.fetchTraceFileName(index: index, of: receivers.count, receiver: receivers[index])
                try WireJSON.data(trace).write(to: folder.appendingPathComponent(name), options: .atomic)
            case .failure(let error):
                Terminal.error("airlab lab run: \(error.description): its fetch trace is not written")
            }
        }
    }
}

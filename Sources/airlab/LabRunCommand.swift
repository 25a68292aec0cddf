import Arguments
import Casting
import Emulation
import Foundation
import Lab
import SenderProtocol
import Reports

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
            Written into --out: report.json (the sessions, as `airlab simulate --json`), junit.xml (a test
            case per receiver and interstitial, failing when it did not play or switched slower than
            --max-transition-ms; a receiver that could not be used is an error) and report.html (a table
            of receivers and interstitials with their latency and what differed, and an SVG timeline lane
            per receiver).
            A receiver that cannot be reached, refuses the cast or vanishes mid-run is reported as an error
            and the run goes on with the others.
            Exit status: 0 when all passed, 1 when a threshold failed (with --fail-on-error also when a
            session had errors), 2 when a receiver could not be used, for usage errors, and when the
            reports cannot be written. Ctrl-C stops every session and exits 130.
            """,
        positionals: [PositionalSpec("PLAYLIST", help: "An http(s) URL, or a local playlist's path.")],
        options: [
            .value("receivers", "all|NAME,…", help: "Receivers to use: all of airlab's on mDNS, or names and HOST:PORT addresses.", default: "all"),
            .value("profile", "NAME|FILE", help: "Start a local fleet with a receiver of this profile instead.", repeatable: true),
            .value("events", "FILE", help: "Client interstitial events (JSON in AVPlayerInterstitialEvent's shape)."),
            .value("seed", "N", help: "Seed of the latency draws, the same for every receiver.", default: "1"),
            .value("time-scale", "X", help: "Run the local fleet's clocks X times faster than real time (with --profile)."),
            .value("do", "SCRIPT", help: "A scripted sender every receiver plays: \"at 3 seek 40; at 12 pause; at 14 play\"."),
            .value("start", "SECONDS", help: "Start at this primary position."),
            .flag("no-interstitials", help: "Ignore the playlist's interstitials (an ad-free plan)."),
            .value("max-transition-ms", "N", help: "Fail an interstitial whose switch in or out takes longer."),
            .flag("fail-on-error", help: "Also fail a receiver whose session had errors or whose playlist has errors."),
            .value("sdk-ads", "FILE", help: "Ad breaks the sender's ad SDK starts itself (JSON: {\"breaks\": [{\"time\": 600, \"ads\": [{\"duration\": 30}]}]})."),
            .value("sdk-ad-in-pip", "skip|defer|attempt", help: "What the SDK does with a break due in picture in picture.", default: "skip"),
            .flag("fail-on-lost-ads", help: "Fail each SDK ad break lost to picture in picture (script it with --do \"at 30 pip on\")."),
            .value("out", "DIR", help: "Where the reports go.", default: "lab-report"),
            ReceiverOptions.password,
            ReceiverOptions.discoveryTimeout,
        ])

    struct Options {
        var playlist: String
        var receivers: String
        var profiles: [String]
        var seed: UInt64
        var timeScale: Double?
        var script: String?
        var thresholds: LabThresholds
        var out: URL
        var discoveryTimeout: Double

        init(_ parsed: ParsedCommand) throws(UsageError) {
            func fail(_ message: String) -> UsageError { UsageError(commandPath: parsed.path, message: message) }
            playlist = parsed.positional("PLAYLIST") ?? ""
            profiles = parsed.values("profile")
            let named = parsed.values("receivers").last
            if !profiles.isEmpty, let named, named.lowercased() != "all" {
                throw fail("--receivers chooses discovered receivers and --profile starts a local fleet; give one of them")
            }
            receivers = named ?? "all"
            seed = try parsed.wholeNumber("seed", default: 1)
            timeScale = try parsed.value("time-scale", as: Double.self)
            if let timeScale {
                guard timeScale > 0 else { throw fail("--time-scale must be a positive number, not '\(timeScale)'") }
                guard !profiles.isEmpty else { throw fail("--time-scale applies to a local fleet: give --profile too") }
            }
            script = parsed.values("do").last
            if let script {
                do throws(SenderScript.SyntaxError) {
                    _ = try SenderScript(parsing: script)
                } catch {
                    throw fail("--do \(error)")
                }
            }
            let limit = try parsed.value("max-transition-ms", as: Double.self)
            if let limit, limit <= 0 { throw fail("--max-transition-ms must be a positive number, not '\(limit)'") }
            thresholds = LabThresholds(
                maxTransitionMilliseconds: limit, failOnSessionErrors: parsed.flag("fail-on-error"), failOnLostAds: parsed.flag("fail-on-lost-ads"))
            out = URL(fileURLWithPath: parsed.values("out").last ?? "lab-report")
            discoveryTimeout = try parsed.value("discovery-timeout", as: Double.self) ?? 3
            guard discoveryTimeout > 0, discoveryTimeout <= 86_400 else { throw fail("--discovery-timeout must be a positive number of seconds, at most 86400") }
        }
    }

    static let command = Command(path: ["lab", "run"]) { parsed in
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
        var order = PlayOrder(url: options.playlist)
        order.interstitialEvents = try CastCommand.readEvents(parsed.values("events").last)
        order.script = options.script
        order.automaticallyHandlesInterstitialEvents = !parsed.flag("no-interstitials")
        order.sdkAdBreaks = try CastCommand.readSDKAds(parsed.values("sdk-ads").last)
        order.sdkAdInPictureInPicture = try CastCommand.sdkAdPolicy(parsed)
        do throws(UsageError) {
            order.start = try parsed.value("start", as: Double.self)
        } catch {
            throw .usage(error)
        }

        let interruption = Interruption.onInterruptSignal()
        var fleet: LocalFleet?
        var receivers: [Receiver]
        var missing: [SimulationReport.Failure] = []
        if options.profiles.isEmpty {
            let selection: ReceiverSelection
            do {
                selection = try await ReceiverSelection.resolve(
                    options.receivers, directory: ReceiverDirectory(timeout: .milliseconds(Int(options.discoveryTimeout * 1000))))
            } catch {
                throw .other("cannot look for receivers over mDNS: \(error); give HOST:PORT addresses, or start a local fleet with --profile")
            }
            receivers = selection.chosen
            missing = selection.missing.map {
                .init(profile: $0, reason: ReceiverError(receiver: "receiver \"\($0)\"", problem: .notFoundOnNetwork("did not answer on mDNS")).description)
            }
            if receivers.isEmpty && missing.isEmpty {
                throw .other("no airlab receiver answered on mDNS within \(PlainNumber.text(options.discoveryTimeout)) s; start some (airlabd) or give --profile")
            }
        } else {
            do throws(FleetError) {
                fleet = try await LocalFleet.start(profiles: options.profiles, timeScale: options.timeScale)
            } catch {
                throw .other(error.description)
            }
            receivers = fleet?.receivers ?? []
        }

        let served: ServedPlaylist
        do throws(PlaylistError) {
            served = try ServedPlaylist.prepare(options.playlist, for: receivers)
        } catch {
            await fleet?.stop()
            throw .other(error.description)
        }
        let board = FleetBoard(receivers: receivers, interactive: Terminal.standardOutputIsTerminal, write: { Terminal.write($0) })
        let run = FleetRun(order: order, playlist: options.playlist, seed: options.seed, password: parsed.values("password").last)
        let runTask = Task { await run.run(on: receivers, url: { served.url(for: $0) }, update: { board.update($0, $1) }) }
        let watcher = Task {
            await interruption.wait()
            if !Task.isCancelled { runTask.cancel() }
        }
        var report = await runTask.value
        watcher.cancel()
        board.finish()
        served.stop()
        await fleet?.stop()
        if interruption.hasHappened {
            Terminal.error("airlab lab run: interrupted; every session was told to stop")
            return CastCommand.interruptedStatus
        }
        report.failures += missing

        let files = [
            ("report.json", SessionReportJSON.render(report)),
            ("junit.xml", JUnitReport.render(report, thresholds: options.thresholds)),
            ("report.html", HTMLReport.render(report, thresholds: options.thresholds)),
        ]
        do {
            try FileManager.default.createDirectory(at: options.out, withIntermediateDirectories: true)
            for (name, text) in files {
                try Data(text.utf8).write(to: options.out.appendingPathComponent(name), options: .atomic)
            }
        } catch {
            throw .other("\(options.out.path): the reports cannot be written (\(error.localizedDescription))")
        }
        print("")
        print(LabSummaryText.render(report, thresholds: options.thresholds), terminator: "")
        print("reports: " + files.map { options.out.appendingPathComponent($0.0).path }.joined(separator: ", "))
        return LabVerdict(report, thresholds: options.thresholds).rawValue
    }
}

@preconcurrency import Glibc
import Arguments
import Foundation
import HLS
import Lab
import Origin

/// `airlab origin DIR --port P [--faults PLAN.json] [--log FILE] [--address A]`: serves a folder with
/// injected faults until Ctrl-C.
enum OriginCommand {
    static let spec = CommandSpec(
        name: "origin",
        abstract: "Serve a folder as a test origin that injects faults from a plan and logs every request with its timings.",
        discussion: """
            The plan is JSON: {"clientHeader": "X-Airlab-Client", "rules": [...]}; each rule has a path glob,
            optional "requests": {"from": 1, "through": 2}, "during": {"fromSeconds": 120, "untilSeconds": 150}
            (of the origin's uptime) and "client" glob, and one of: "status"
            (404, 410, 500, 503, with "retryAfterSeconds"), "redirect" (a path), or body faults
            ("paceBytesPerSec", "stallAfterBytes" with "stallMs", "truncateAfterBytes", "resetAfterBytes",
            "wrongContentLength" added to the true length); "ttfbMs" holds any of them. The log is JSON
            Lines, one row a request, and GET /_origin/log answers it as JSON. Runs until Ctrl-C.
            With --live GLOB, the VOD media playlists whose paths match are served as live streams: a
            window of --live-window segments that slides on as their EXTINF durations pass (--time-scale
            times faster, to match a receiver's), its date ranges (interstitials) appearing once the live
            edge reaches them, and EXT-X-ENDLIST once every segment is out. The clock starts with the origin.
            Exit status: 0 after Ctrl-C, 2 for usage, plan or listening errors.
            """,
        positionals: [PositionalSpec("DIR", help: "The folder to serve.")],
        options: [
            .value("port", "P", help: "The port to listen on; 0 picks a free one (printed)."),
            .value("address", "A", help: "The numeric address to listen on.", default: "127.0.0.1"),
            .value("faults", "PLAN.json", help: "The fault plan."),
            .value("log", "FILE", help: "Write the request log here as JSON Lines."),
            .value("live", "GLOB", help: "Serve the VOD media playlists at these paths (\"/primary/*.m3u8\") as live windows.", repeatable: true),
            .value("live-window", "N", help: "Segments a live window shows.", default: "6"),
            .value("time-scale", "X", help: "Stream seconds per real second of the live windows.", default: "1"),
        ])

    static let command = Command(spec) { parsed in
        let port: UInt64
        var live: LivePackager.Schedule?
        do throws(UsageError) {
            let globs = parsed.values("live")
            let window = try parsed.wholeNumber("live-window", in: LivePackager.Schedule.segmentRange) ?? 6
            let scale = try parsed.number("time-scale", in: NumberRange(.atLeast(LivePackager.Schedule.timeScaleRange.lowerBound), upTo: LivePackager.Schedule.timeScaleRange.upperBound)) ?? 1
            if !globs.isEmpty {
                live = LivePackager.Schedule(paths: globs.map(GlobPattern.init), segments: window, timeScale: scale)
            } else if parsed.values("live-window").first != nil || parsed.values("time-scale").first != nil {
                throw UsageError(commandPath: parsed.path, message: "--live-window and --time-scale shape live windows: give --live GLOB too")
            }
            guard parsed.values("port").first != nil else {
                throw UsageError(commandPath: parsed.path, message: "--port is required (0 picks a free port)")
            }
            port = try parsed.wholeNumber("port", default: 0)
            guard port <= UInt64(UInt16.max) else {
                throw UsageError(commandPath: parsed.path, message: "--port '\(port)' is above 65535")
            }
        } catch {
            return Airlab.usageFailure(error)
        }
        let folder = URL(fileURLWithPath: parsed.positional("DIR")!)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            Terminal.error("airlab origin: '\(folder.path)' is not a folder")
            return Airlab.usageStatus
        }
        var plan = FaultPlan()
        if let path = parsed.values("faults").first {
            do {
                plan = try FaultPlan(json: try Data(contentsOf: URL(fileURLWithPath: path)))
            } catch let error as FaultPlanError {
                Terminal.error("airlab origin: \(path): \(error)")
                return Airlab.usageStatus
            } catch {
                Terminal.error("airlab origin: cannot read the fault plan '\(path)': \(error.localizedDescription)")
                return Airlab.usageStatus
            }
        }
        let origin: TestOrigin
        do {
            origin = try TestOrigin(
                root: folder, plan: plan, live: live, address: parsed.values("address").first ?? "127.0.0.1", port: UInt16(port),
                logFile: parsed.values("log").first.map { URL(fileURLWithPath: $0) })
            try origin.start()
        } catch {
            Terminal.error("airlab origin: \(error)")
            return Airlab.usageStatus
        }
        let interruption = Interruption.onInterruptSignal()
        let liveNote = live.map { " and \($0.paths.map(\.text).joined(separator: ", ")) live" } ?? ""
        print("serving \(origin.root.path) at \(origin.baseURL)/ with \(plan.rules.count) fault rule(s)\(liveNote); log at \(origin.baseURL)\(TestOrigin.logPath)")
        fflush(stdout)
        await interruption.wait()
        origin.stop()
        return 0
    }
}

import Arguments
import Calibration
import Foundation
import JSONDocument
import Lab
import Profiles

/// `airlab calibrate --to RECEIVER`: measures a receiver as a sender sees it, for a profile of it.
enum CalibrateCommand {
    static let spec = CommandSpec(
        name: "calibrate",
        abstract: "Measure a receiver's start-up, seeks and the switch into and out of an ad for each changed dimension.",
        discussion: """
            Casts a calibration set made with ffmpeg (a primary, and one ad for each of: nothing changed,
            frame rate, resolution, dynamic range, video codec, sample rate, channel layout), then the
            primary alone with three seeks, --repeats times, following each cast only through
            /playback-info as any sender can (airlab's own event stream is not used, so the method that
            runs against airlabd is the one that runs against a TV). Switches are timed from positions,
            so their precision does not depend on the polling rate. The media is made once and kept in
            --media (default: ~/.cache/airlab/calibration). Writes calibration.json to --out and prints
            what it measured, and profile.json: the --base profile (default: the one the receiver names, if
            shipped) with the switch costs it measured, each with basis measured and its source; the rest
            keeps the base's numbers and sources. Compare it with a shipped one with airlab profile diff.
            Exit status: 0 when every repeat was measured, 2 for errors.
            """,
        options: [
            ReceiverOptions.to,
            .value("repeats", "N", help: "How many times to cast the calibration set (1-100).", default: "3"),
            .value("poll-ms", "MS", help: "How often to read /playback-info, in milliseconds (5-50: 20 Hz or more).", default: "20"),
            .value("media", "DIR", help: "Where the calibration media is made and kept."),
            .value("out", "DIR", help: "Where calibration.json and profile.json are written.", default: "calibration"),
            .value("base", "NAME|FILE", help: "The profile the measured one starts from.", default: "the profile the receiver names"),
            .value("name", "NAME", help: "The measured profile's name.", default: "BASE-measured"),
            .flag("json", help: "Print the report as JSON."),
            ReceiverOptions.password,
            ReceiverOptions.airPlayProtocol,
            ReceiverOptions.credentials,
            ReceiverOptions.discoveryTimeout,
        ])

    static let command = Command(spec) { parsed in
        do throws(CommandFailure) {
            return try await run(parsed)
        } catch {
            return error.report("calibrate")
        }
    }

    static func run(_ parsed: ParsedCommand) async throws(CommandFailure) -> Int32 {
        let repeats: Int
        let pollMilliseconds: Double
        do throws(UsageError) {
            repeats = try parsed.wholeNumber("repeats", in: 1...100) ?? 3
            pollMilliseconds = try parsed.number("poll-ms", in: NumberRange(.atLeast(5), upTo: 50, unit: "milliseconds")) ?? 20
        } catch {
            throw .usage(error)
        }
        let media = parsed.values("media").last.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? defaultMediaFolder
        let out = URL(fileURLWithPath: parsed.values("out").last ?? "calibration", isDirectory: true)

        let receiver = try await ReceiverOptions.receiver(parsed)
        var run = CalibrationRun(receiver: receiver, client: try await ReceiverOptions.client(receiver, parsed).identified(), media: CalibrationSet(folder: media))
        run.repeats = repeats
        run.pollInterval = pollMilliseconds / 1000
        let json = parsed.flag("json")
        let report: CalibrationReport
        do throws(CalibrationError) {
            report = try await run.run { line in if !json { Terminal.error("airlab calibrate: \(line)") } }
        } catch {
            throw .other(error.description)
        }
        let encoded = encode(report)
        try write(encoded, to: out.appendingPathComponent("calibration.json"))
        let base = parsed.values("base").last ?? report.profile
        if let base {
            let measured = try measuredProfile(report, base: base, name: parsed.values("name").last)
            try write(measured, to: out.appendingPathComponent("profile.json"))
        } else if !json {
            Terminal.error("airlab calibrate: the receiver names no profile: give --base NAME|FILE for profile.json")
        }
        print(json ? encoded : report.text, terminator: "")
        return 0
    }

    /// `base` with the measured costs, named `name` (or BASE-measured), checked by the loader as any
    /// profile is: a measured profile that would not load is never written.
    static func measuredProfile(_ report: CalibrationReport, base: String, name: String?) throws(CommandFailure) -> String {
        let catalog = ProfileCatalog()
        let file = base.contains("/") || base.hasSuffix(".json") ? URL(fileURLWithPath: base) : catalog.directory.appendingPathComponent("\(base).json")
        let baseProfile: ReceiverProfile
        do throws(ProfileError) {
            baseProfile = try catalog.profile(base)
        } catch {
            throw .other("--base \(error)")
        }
        guard let data = try? Data(contentsOf: file), let document = JSONValue(document: data) else {
            throw .other("--base \(file.path): cannot be read")
        }
        let text = MeasuredProfile.text(MeasuredProfile.document(base: document, name: name ?? "\(baseProfile.name)-measured", report: report))
        do throws(ProfileError) {
            _ = try catalog.decode(Data(text.utf8), file: "profile.json")
        } catch {
            throw .other("the measured profile does not load: \(error)")
        }
        return text
    }

    static func write(_ text: String, to file: URL) throws(CommandFailure) {
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        } catch {
            throw .other("cannot write \(file.path): \(error.localizedDescription)")
        }
    }

    /// `$XDG_CACHE_HOME/airlab/calibration`, or `~/.cache/airlab/calibration`.
    static var defaultMediaFolder: URL {
        let cache = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache", isDirectory: true)
        return cache.appendingPathComponent("airlab/calibration", isDirectory: true)
    }

    static func encode(_ report: CalibrationReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(report)).map { String(decoding: $0, as: UTF8.self) } ?? "{}") + "\n"
    }
}

import Arguments
import Calibration
import Foundation
import Lab

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
            what it measured.
            Exit status: 0 when every repeat was measured, 2 for errors.
            """,
        options: [
            ReceiverOptions.to,
            .value("repeats", "N", help: "How many times to cast the calibration set (1-100).", default: "3"),
            .value("poll-ms", "MS", help: "How often to read /playback-info, in milliseconds (5-50: 20 Hz or more).", default: "20"),
            .value("media", "DIR", help: "Where the calibration media is made and kept."),
            .value("out", "DIR", help: "Where calibration.json is written.", default: "calibration"),
            .flag("json", help: "Print the report as JSON."),
            ReceiverOptions.password,
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
        var run = CalibrationRun(receiver: receiver, client: ReceiverOptions.client(receiver, parsed), media: CalibrationSet(folder: media))
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
        do {
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            try encoded.write(to: out.appendingPathComponent("calibration.json"), atomically: true, encoding: .utf8)
        } catch {
            throw .other("cannot write \(out.appendingPathComponent("calibration.json").path): \(error.localizedDescription)")
        }
        print(json ? encoded : report.text, terminator: "")
        return 0
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

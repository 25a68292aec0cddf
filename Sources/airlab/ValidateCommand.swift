import Arguments
import Casting
import Conformance
import Foundation
import Profiles
import Reports

/// `airlab validate PLAYLIST|URL [--profile P] [--json] [--junit FILE] [--variant N]`.
enum ValidateCommand {
    static let spec = CommandSpec(
        name: "validate",
        abstract: "Fetch and check every segment of a stream and of its interstitials, without playing it.",
        discussion: """
            Every segment of the selected variant (--variant, from 0; or the one --profile would play), its
            audio rendition and every interstitial asset is fetched once and demuxed without decoding, then
            checked: HTTP status and length, content type, load time, EXTINF against the media, target
            duration, IDR frames, timestamp gaps and jumps, frame-rate and codec-parameter changes, audio
            and video alignment, bitrate against BANDWIDTH and the profile's network, asset lengths, TS
            continuity counters. docs/validate.md lists every SEG- code with its tolerance and source.
            Profiles: \(ProfileCatalog().shippedNames.joined(separator: ", ")), or a path to a profile JSON file.
            Exit status: 0 when no error was found (warnings allowed), 1 when one was, 2 when the command
            line does not fit or the stream cannot be read.
            """,
        positionals: [PositionalSpec("INPUT", help: "A playlist: a path, file: URL or http(s) URL.")],
        options: [
            .value("variant", "N", help: "The variant of a multivariant playlist to check (from 0)."),
            .value("profile", "NAME|FILE", help: "Check the variant this receiver plays, and whether its network carries it."),
            MediaOptions.json,
            .value("junit", "FILE", help: "Also write a JUnit XML report: a case per role and check."),
            .value("concurrency", "N", help: "Segments fetched at once.", default: "4"),
        ])

    static let command = Command(spec) { parsed in
        let input = parsed.positional("INPUT")!
        let variant: Int?
        let concurrency: Int
        do throws(UsageError) {
            variant = try parsed.wholeNumber("variant", in: 0...Int.max)
            concurrency = try parsed.wholeNumber("concurrency", in: 1...64) ?? 4
            if variant != nil, parsed.values("profile").last != nil {
                throw UsageError(commandPath: parsed.path, message: "give --variant or --profile, not both")
            }
        } catch {
            return Airlab.usageFailure(error)
        }
        var profile: ReceiverProfile?
        if let name = parsed.values("profile").last {
            do {
                profile = try ProfileCatalog().profile(name)
            } catch {
                Terminal.error("airlab validate: profile \(error)")
                return Airlab.usageStatus
            }
        }

        let survey: SegmentSurvey.Result
        do {
            let choice: SegmentSurvey.VariantChoice = profile.map { .profile($0) } ?? .index(variant ?? 0)
            survey = try await SegmentSurvey(maximumConcurrentFetches: concurrency).survey(input, variant: choice)
        } catch {
            Terminal.error("airlab validate: \(error)")
            return Airlab.usageStatus
        }
        let bandwidth = profile.map { $0.network.bandwidthMbps * 1_000_000 }
        let diagnostics = SegmentConformance.check(survey.renditions, context: .init(networkBandwidth: bandwidth))
        let report = ValidationReport(
            input: input, profile: profile?.name, renditions: survey.renditions, playlistDiagnostics: survey.diagnostics, diagnostics: diagnostics)
        print(parsed.flag("json") ? ValidationReportJSON.render(report) : ValidationReportText.render(report), terminator: "")
        if let path = parsed.values("junit").last {
            do {
                try Data(ValidationJUnit.render(report).utf8).write(to: URL(fileURLWithPath: path))
            } catch {
                Terminal.error("airlab validate: cannot write the JUnit report to \(path): \(error.localizedDescription)")
                return Airlab.usageStatus
            }
        }
        return report.hasErrors ? 1 : 0
    }
}

import Arguments
import Casting
import Media
import MediaValues

/// `airlab probe URL|PATH [--variant N] [--json] [--timeout S]`.
enum ProbeCommand {
    static let spec = CommandSpec(
        name: "probe",
        abstract: "Show the media parameters of a segment, a file or an HLS playlist, read with FFmpeg's libraries.",
        discussion: """
            A multivariant playlist is probed through one variant (--variant, from 0); a media playlist
            through its first segment and that segment's init section. Exits 2 when the input cannot be probed.
            """,
        positionals: [PositionalSpec("INPUT", help: "A path, file: URL or http(s) URL.")],
        options: [
            .value("variant", "N", help: "The variant of a multivariant playlist to probe.", default: "0"),
            MediaOptions.json,
            MediaOptions.timeout,
        ])

    static let command = Command(spec) { parsed in
        let options: ProbeOptions
        let variant: Int?
        do throws(UsageError) {
            options = try MediaOptions.probeOptions(parsed)
            variant = try parsed.wholeNumber("variant", in: 0...Int.max)
        } catch {
            return Airlab.usageFailure(error)
        }
        do {
            let media = try await MediaProbe.probe(parsed.positional("INPUT")!, variant: variant, options: options)
            print(parsed.flag("json") ? MediaReport.json(media) : MediaReport.text(media), terminator: "")
            return 0
        } catch {
            Terminal.error("airlab probe: \(error)")
            return Airlab.usageStatus
        }
    }
}

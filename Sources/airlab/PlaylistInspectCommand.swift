import Arguments
import HLS
import Inspection
import Loading

/// `airlab playlist inspect PATH|URL [--json] [--resolve] [--timeout SECONDS] [--stitched SELECTOR]`.
enum PlaylistInspectCommand {
    static let spec = CommandSpec(
        name: "inspect",
        abstract: "Read a playlist as a receiver would: variants, interstitials, the schedule and every problem found.",
        discussion: """
            Exit status: 0 when no error was found (warnings allowed), 1 when the playlist has errors,
            2 for usage errors and when the playlist cannot be read.

            --stitched reports stitched (SSAI) ad ranges and the primary length (duration minus the ranges):
              uri:GLOB                 runs of consecutive segments whose URI matches GLOB (* matches any
                                       characters, / included; the whole URI must match): uri:*/ads/*
              daterange:CLASS=VALUE    EXT-X-DATERANGEs with that CLASS, placed by PROGRAM-DATE-TIME
              daterange:ID=GLOB        EXT-X-DATERANGEs whose ID matches GLOB
              ranges:[ID=]START+DUR,…  ranges in seconds, checked against the segments: ranges:300+15,900+30
            """,
        positionals: [PositionalSpec("PLAYLIST", help: "A local path, a file:// URL, or an http(s) URL.")],
        options: [
            .flag("json", help: "Print one JSON document instead of the summary."),
            .flag("resolve", help: "Fetch asset lists and asset playlists to learn the interstitials' real durations."),
            .value("timeout", "SECONDS", help: "Give up on each fetch after this many seconds (at least 1).", default: "10"),
            .value("stitched", "SELECTOR", help: "Report the stitched ad ranges SELECTOR picks and the primary length (selectors above)."),
        ])

    static let command = Command(in: "playlist", spec) { parsed in
        let timeout: Double
        let location: ResourceLocation
        var stitched: StitchedSelector?
        do throws(UsageError) {
            // Bounded above too: the loader turns it into whole seconds and deadlines, which must not overflow.
            timeout = try parsed.number("timeout", in: .seconds(1...86_400)) ?? ResourceLoader.defaultTimeout
            if let selector = parsed.values("stitched").last {
                do throws(StitchedSelector.SyntaxError) {
                    stitched = try StitchedSelector(argument: selector)
                } catch {
                    throw UsageError(commandPath: parsed.path, message: "--stitched '\(selector)': \(error.reason)")
                }
            }
        } catch {
            return Airlab.usageFailure(error)
        }
        let argument = parsed.positional("PLAYLIST") ?? ""
        do {
            location = try ResourceLocation(argument: argument)
        } catch {
            Terminal.error("airlab playlist inspect: \(error)")
            return Airlab.usageStatus
        }

        let inspector = PlaylistInspector(
            loader: ResourceLoader(timeout: timeout), resolvesAssets: parsed.flag("resolve"), stitched: stitched)
        let report: InspectionReport
        do {
            report = try await inspector.inspect(location)
        } catch {
            Terminal.error("airlab playlist inspect: \(error)")
            return Airlab.usageStatus
        }
        print(parsed.flag("json") ? report.renderedJSON() : report.renderedText(), terminator: "")
        return report.hasErrors ? 1 : 0
    }
}

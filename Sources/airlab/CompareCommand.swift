import Arguments
import Casting
import Media
import MediaValues

/// `airlab compare PRIMARY INTERSTITIAL [--json] [--timeout S]`.
enum CompareCommand {
    /// Exit status when the media differ; 0 means they match and 2 that one could not be probed.
    static let differStatus: Int32 = 1

    static let spec = CommandSpec(
        name: "compare",
        abstract: "Compare the primary's media with an interstitial's, on every dimension a receiver may stall on.",
        discussion: """
            Each argument is a playlist, a segment or a file. Exits 0 when the media match, 1 when they
            differ, 2 when either cannot be probed.
            """,
        positionals: [
            PositionalSpec("PRIMARY", help: "The primary content: a path, file: URL or http(s) URL."),
            PositionalSpec("INTERSTITIAL", help: "The interstitial asset: a path, file: URL or http(s) URL."),
        ],
        options: [MediaOptions.json, MediaOptions.timeout])

    static let command = Command(spec) { parsed in
        let options: ProbeOptions
        do throws(UsageError) {
            options = try MediaOptions.probeOptions(parsed)
        } catch {
            return Airlab.usageFailure(error)
        }
        // One cache, so the same input on both sides is probed once.
        let cache = ProbeCache(options: options)
        do {
            async let primary = cache.parameters(for: ProbeRequest(input: parsed.positional("PRIMARY")!))
            async let interstitial = cache.parameters(for: ProbeRequest(input: parsed.positional("INTERSTITIAL")!))
            let comparison = MediaComparison(primary: try await primary, interstitial: try await interstitial)
            print(parsed.flag("json") ? MediaReport.json(comparison) : MediaReport.text(comparison), terminator: "")
            return comparison.matches ? 0 : differStatus
        } catch {
            Terminal.error("airlab compare: \(error)")
            return Airlab.usageStatus
        }
    }
}

import Arguments
import Casting
import Foundation
import JSONDocument
import Playback
import SenderProtocol

/// What a sender asks of a cast: the options `simulate`, `cast` and `lab run` share, declared once
/// and read once, each file checked where it is read so that a mistake names the file.
struct CastOptions {
    var start: Double?
    /// `--events`: checked, and the document as read, which an order sends on.
    var events: (checked: ClientEvents, document: JSONValue)?
    var handlesInterstitials: Bool
    var language: String?
    /// `--sdk-ads`: checked, and the document as read.
    var sdkAds: (checked: SDKAdSchedule, document: JSONValue)?
    var sdkAdInPictureInPicture: SDKAdInPictureInPicture

    static let start = OptionSpec.value("start", "SECONDS", help: "Start at this primary position (PRE interstitials still play first).")
    static let events = OptionSpec.value(
        "events", "FILE", help: "Client interstitial events (JSON in AVPlayerInterstitialEvent's shape): overrides and additions.")
    static let noInterstitials = OptionSpec.flag("no-interstitials", help: "Ignore the playlist's interstitials (an ad-free plan).")
    static let language = OptionSpec.value("language", "CODE", help: "The audio and subtitle language the sender prefers.")
    static let sdkAds = OptionSpec.value(
        "sdk-ads", "FILE", help: "Ad breaks the sender's ad SDK starts itself (JSON: {\"breaks\": [{\"time\": 600, \"ads\": [{\"duration\": 30}]}]}).")
    static let sdkAdInPip = OptionSpec.value(
        "sdk-ad-in-pip", "skip|defer|attempt", help: "What the SDK does with a break due in picture in picture.", default: "skip")

    /// Every option of the group, in the order `--help` lists them.
    static let all = [start, events, noInterstitials, language, sdkAds, sdkAdInPip]

    init(_ parsed: ParsedCommand) throws(CommandFailure) {
        func usage(_ message: String) -> CommandFailure { .usage(UsageError(commandPath: parsed.path, message: message)) }
        do throws(UsageError) {
            start = try parsed.number("start", in: NumberRange(.atLeast(0), unit: "seconds"))
            sdkAdInPictureInPicture = try parsed.choice("sdk-ad-in-pip") ?? .skip
        } catch {
            throw .usage(error)
        }
        events = try Self.read(parsed.values("events").last) { data throws(ClientEvents.Failure) in try ClientEvents(parsing: data) }
        handlesInterstitials = !parsed.flag("no-interstitials")
        language = parsed.values("language").last
        sdkAds = try Self.read(parsed.values("sdk-ads").last) { data throws(SDKAdSchedule.Failure) in try SDKAdSchedule(parsing: data) }
    }

    /// The members of `order` these options set.
    func apply(to order: inout PlayOrder) {
        order.start = start
        order.interstitialEvents = events?.document
        order.automaticallyHandlesInterstitialEvents = handlesInterstitials
        order.audioLanguage = language
        order.sdkAdBreaks = sdkAds?.document
        // The default (skip) is left out of the order.
        order.sdkAdInPictureInPicture = sdkAdInPictureInPicture == .skip ? nil : sdkAdInPictureInPicture
    }

    /// The cast request `simulate` plans, for `playlist`.
    func request(playlist: String) -> CastRequest {
        var request = CastRequest(
            playlist: playlist, startPosition: start, clientEvents: events?.checked, automaticallyHandlesInterstitials: handlesInterstitials,
            preferredLanguage: language)
        request.sdkAds = sdkAds?.checked
        request.sdkAdInPictureInPicture = sdkAdInPictureInPicture
        return request
    }

    /// A JSON file read and checked by `parse`, with the document as read; nil without a path.
    private static func read<Checked, Failure: Error>(
        _ path: String?, parse: (Data) throws(Failure) -> Checked
    ) throws(CommandFailure) -> (checked: Checked, document: JSONValue)? {
        guard let path else { return nil }
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else {
            throw .other("\(path): cannot be read (no such file or unreadable)")
        }
        let checked: Checked
        do throws(Failure) {
            checked = try parse(data)
        } catch {
            throw .other("\(path): \(error)")
        }
        // A checked document is valid JSON.
        guard let document = JSONValue(document: data) else { throw .other("\(path): \(JSONValue.unreadableDocument)") }
        return (checked, document)
    }
}

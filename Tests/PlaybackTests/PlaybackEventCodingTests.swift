import Foundation
import Playback
import Profiles
import Testing

@Suite("An event's one JSON shape")
struct PlaybackEventCodingTests {
    static let switchCost = Transition(video: [.init(cause: "splice", milliseconds: 120, source: "test")])
    static let asset = AssetPlace("ad-1", index: 1, uri: "http://h/ad.m3u8")

    /// One detail of every kind, with every payload member set where the kind has it.
    static let details: [PlaybackEvent.Detail] = [
        .stateChanged(in: BreakPlace("ad-1", asset: 0), startup: switchCost),
        .stateChanged(in: nil, startup: nil),
        .transitionStarted(switchCost, BreakPlace("ad-1", asset: 1)),
        .transitionStarted(switchCost, BreakPlace("ad-1")),
        .interstitialStarted(BreakPlace("ad-1", asset: 0), mode: .pictureInPicture),
        .interstitialEnded(BreakPlace("ad-1", asset: 2)),
        .assetStarted(asset), .assetEnded(asset), .assetSkipped(asset), .assetFailed(asset),
        .breakSkipped(eventID: "ad-2"),
        .seeked, .rateChanged, .ended, .segmentFailed,
        .commandRefused(.seek(to: 40.5), restriction: .skip, eventID: "ad-1"),
        .commandRefused(.play(from: 12), restriction: nil, eventID: nil),
        .presentationModeChanged(.pictureInPicture, command: .setPresentationMode(.pictureInPicture)),
        .presentationModeChanged(.standard, command: nil),
        .pipStartFailed(.setPresentationMode(.pictureInPicture), mode: .standard),
        .sdkAdStartRefused(eventID: "sdk:mid"), .sdkAdDeferred(eventID: "sdk:mid"), .sdkAdSkipped(eventID: "sdk:mid"),
        .stallStarted(.segmentLate, in: nil), .stallEnded(.assetPriming, in: BreakPlace("ad-1", asset: 0)),
        .variantSwitched(uri: "http://h/low.m3u8"),
        .quirkFired(.firstUpSwitchBlack, in: nil), .quirkFired(.eagerAssetLists, in: BreakPlace("ad-2")),
    ]

    @Test("Every kind reads back from its JSON as the same event, detail and all")
    func everyKindRoundTrips() throws {
        #expect(Set(Self.details.map(\.kind)) == Set(PlaybackEvent.Kind.allCases), "a sample of every kind")
        for detail in Self.details {
            let event = PlaybackEvent(time: 12.25, state: .playingInterstitial, position: 40, rate: 1, detail: detail, reason: "why")
            let read = try JSONDecoder().decode(PlaybackEvent.self, from: JSONEncoder().encode(event))
            #expect(read == event, "\(detail)")
        }
    }

    @Test("A kind without the members its detail needs is refused, not guessed")
    func missingPayloadIsAnError() {
        let refusal = #"{"time": 1, "kind": "command-refused", "state": "paused", "position": 0, "rate": 0, "reason": "no"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PlaybackEvent.self, from: Data(refusal.utf8)) }
        let stall = #"{"time": 1, "kind": "stall-started", "state": "stalled", "position": 0, "rate": 1, "stall": "never"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PlaybackEvent.self, from: Data(stall.utf8)) }
    }

    @Test("A command's text reads back as the same command, and the words people use read too")
    func commandText() throws {
        let commands: [PlaybackCommand] = [
            .play(from: nil), .play(from: 12.5), .seek(to: 40), .setRate(0.5), .stop,
            .setPresentationMode(.pictureInPicture), .setPresentationMode(.standard), .setPresentationMode(.external),
            .setPictureInPicturePossible(true), .setPictureInPicturePossible(false),
        ]
        for command in commands { #expect(try PlaybackCommand(text: command.description) == command) }
        #expect(try PlaybackCommand(text: "pause") == .setRate(0))
        #expect(try PlaybackCommand(text: "play") == .setRate(1))
        #expect(throws: PlaybackCommand.TextError.self) { try PlaybackCommand(text: "seek soon") }
        #expect(throws: PlaybackCommand.TextError.self) { try PlaybackCommand(text: "seek nan") }
        #expect(throws: PlaybackCommand.TextError.self) { try PlaybackCommand(text: "dance") }
    }
}

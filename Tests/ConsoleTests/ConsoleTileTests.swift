import Console
import HLS
import Playback
import Profiles
import Testing

@Suite("A console tile follows the events a receiver publishes")
struct ConsoleTileTests {
    static let breaks = BreakRules([
        "ad-1": BreakRules.Rule(restrictions: [.jump, .skip], skipControl: InterstitialEvent.SkipControl(offset: 5, duration: 10), assetDurations: [5, 10])
    ])
    static let session = ConsoleSession(id: "s1", duration: 60, breaks: breaks)

    static func event(_ time: Double, _ state: PlaybackState, _ detail: PlaybackEvent.Detail, position: Double = 0, rate: Double = 1, reason: String = "") -> PlaybackEvent {
        PlaybackEvent(time: time, state: state, position: position, rate: rate, detail: detail, reason: reason)
    }

    static func play(_ events: [PlaybackEvent], session: ConsoleSession? = ConsoleTileTests.session) -> ConsoleTile {
        var tile = ConsoleTile(index: 0, receiver: "TV", profile: "smart-tv-high", timeScale: 4)
        for event in events { tile.apply(event, of: session) }
        return tile
    }

    @Test("Primary, then an ad with its restrictions, skip control and asset, then primary again")
    func primaryAdPrimary() {
        let ad = BreakPlace("ad-1", asset: 0)
        var events = [
            Self.event(0, .loading, .stateChanged(in: nil, startup: nil)),
            Self.event(1, .playingPrimary, .stateChanged(in: nil, startup: nil)),
            Self.event(10, .transitioning, .transitionStarted(Transition(), ad), position: 10),
            Self.event(10.5, .playingInterstitial, .interstitialStarted(BreakPlace("ad-1"), mode: nil), position: 10),
            Self.event(10.5, .playingInterstitial, .assetStarted(AssetPlace("ad-1", index: 1, uri: "https://ads.example/second.m3u8")), position: 10),
        ]
        let inAd = Self.play(events)
        #expect(inAd.state == .playingInterstitial)
        #expect(inAd.interstitial?.eventID == "ad-1")
        #expect(inAd.interstitial?.assetIndex == 1)
        #expect(inAd.interstitial?.assetCount == 2)
        #expect(inAd.interstitial?.assetDuration == 10)
        #expect(inAd.interstitial?.assetURI == "https://ads.example/second.m3u8")
        #expect(inAd.interstitial?.restrictions == ["SKIP", "JUMP"])
        #expect(inAd.interstitial?.skipOffset == 5)
        #expect(inAd.interstitial?.assetStartedAt == 10.5)
        #expect(inAd.duration == 60)
        events += [
            Self.event(20, .transitioning, .transitionStarted(Transition(), BreakPlace("ad-1")), position: 10),
            Self.event(20, .transitioning, .interstitialEnded(BreakPlace("ad-1")), position: 10),
            Self.event(20.5, .playingPrimary, .stateChanged(in: nil, startup: nil), position: 10),
        ]
        let back = Self.play(events)
        #expect(back.interstitial == nil)
        #expect(back.trail == [.loading, .playingPrimary, .transitioning, .playingInterstitial, .transitioning, .playingPrimary])
        #expect(back.version == events.count)
    }

    @Test("A stall shows its reason until it ends; a refusal stays with its restriction")
    func stallAndRefusal() {
        let stalled = Self.play([
            Self.event(1, .playingPrimary, .stateChanged(in: nil, startup: nil)),
            Self.event(4, .stalled, .stallStarted(.originSlow, in: nil), position: 3, reason: "the origin is slower than the receiver's network"),
        ])
        #expect(stalled.stall?.reason == "origin-slow")
        #expect(stalled.stall?.explanation == "the origin is slower than the receiver's network")
        let resumed = Self.play([
            Self.event(4, .stalled, .stallStarted(.originSlow, in: nil), position: 3),
            Self.event(6, .playingPrimary, .stallEnded(.originSlow, in: nil), position: 3),
            Self.event(7, .playingPrimary, .commandRefused(.seek(to: 50), restriction: .jump, eventID: "ad-1"), position: 4, reason: "JUMP ad-1 plays first"),
        ])
        #expect(resumed.stall == nil)
        #expect(resumed.lastRefusal?.restriction == "JUMP")
        #expect(resumed.lastRefusal?.reason == "JUMP ad-1 plays first")
    }

    @Test("No file path reaches the tile: a local asset's URI is left out, a path in a reason replaced")
    func noPaths() {
        let tile = Self.play([
            Self.event(1, .playingInterstitial, .assetStarted(AssetPlace("ad-1", index: 0, uri: "file:///srv/ads/one.m3u8"))),
            Self.event(2, .stalled, .stallStarted(.segmentError, in: nil), reason: "segment '/srv/ads/seg1.ts' failed; retried"),
        ])
        #expect(tile.interstitial?.assetURI == nil)
        #expect(tile.stall?.explanation == "segment (a local file) failed; retried")
    }

    @Test("Picture in picture is shown until the mode changes back")
    func pictureInPicture() {
        let tile = Self.play([Self.event(2, .playingPrimary, .presentationModeChanged(.pictureInPicture, command: nil))])
        #expect(tile.pictureInPicture)
        let back = Self.play([
            Self.event(2, .playingPrimary, .presentationModeChanged(.pictureInPicture, command: nil)),
            Self.event(3, .playingPrimary, .presentationModeChanged(.standard, command: nil)),
        ])
        #expect(!back.pictureInPicture)
    }

    @Test("A new session starts the tile afresh, keeping the receiver")
    func newSession() {
        var tile = Self.play([Self.event(4, .stalled, .stallStarted(.segmentLate, in: nil))])
        tile.apply(Self.event(0, .loading, .stateChanged(in: nil, startup: nil)), of: ConsoleSession(id: "s2", duration: nil, breaks: BreakRules()))
        #expect(tile.session == "s2")
        #expect(tile.stall == nil)
        #expect(tile.trail == [.loading])
        #expect(tile.duration == nil)
        #expect(tile.receiver == "TV")
    }

    @Test("A duration learned after the session's first event (a console of receivers on other hosts) shows from then on, and a new session starts without it")
    func lateDuration() {
        var tile = ConsoleTile(index: 0, receiver: "TV", profile: "smart-tv-high", timeScale: 1)
        var session = ConsoleSession(id: "s1", duration: nil, breaks: BreakRules())
        tile.apply(Self.event(0, .loading, .stateChanged(in: nil, startup: nil)), of: session)
        #expect(tile.duration == nil)
        session.duration = 42
        tile.apply(Self.event(1, .playingPrimary, .stateChanged(in: nil, startup: nil)), of: session)
        #expect(tile.duration == 42)
        tile.apply(Self.event(0, .loading, .stateChanged(in: nil, startup: nil)), of: ConsoleSession(id: "s2", duration: nil, breaks: BreakRules()))
        #expect(tile.duration == nil && tile.session == "s2")
    }
}

import HLS
import Testing
@testable import Playback

/// `forwardEndTime` and `actionAtItemEnd`, as an AirPlay 2 sender sets them after `/play`, on the
/// engine's virtual clock (a sender script sets them: `end at 40`, `item end pause`).
@Suite("Where and how the item ends")
struct ItemEndTests {
    @Test("A forward end time ends playback there; breaks after it are not reached")
    func forwardEnd() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("late", at: 50)]), script: "at 5 end at 40")
        #expect(Engine.shape(report) == ["P0-40"])
        #expect(report.endReason == "playback reached the sender's forward end time")
        #expect(report.totals.interstitialsPlayed == 0)
    }

    @Test("The item ends at the forward end time, so a POST interstitial plays there")
    func forwardEndPlaysPost() throws {
        let report = try Engine.run(Engine.plan([Engine.ad("post", at: 60, cue: [.post])]), script: "at 5 end at 40")
        #expect(Engine.shape(report) == ["P0-40", "I:post"])
        #expect(report.endReason == "the primary content and its POST interstitials played to the end")
    }

    @Test("An end time the playhead has passed is met at once; 'none' clears it")
    func passedAndCleared() throws {
        let passed = try Engine.run(Engine.plan([]), script: "at 30 end at 10")
        #expect(Engine.shape(passed) == ["P0-30"] && passed.endReason == "playback reached the sender's forward end time")
        let cleared = try Engine.run(Engine.plan([]), script: "at 5 end at 40; at 10 end at none")
        #expect(Engine.shape(cleared) == ["P0-60"] && cleared.endReason == "the primary content played to its end")
    }

    @Test("actionAtItemEnd pause holds the session paused at the end, after POST too, until the sender stops it; a seek back plays again")
    func pauseAtEnd() throws {
        let held = try Engine.run(Engine.plan([Engine.ad("post", at: 60, cue: [.post])]), script: "at 1 item end pause; at 80 stop")
        // Held from the end of POST until the sender's stop, 80 s into the session.
        #expect(Engine.shape(held).prefix(2) == ["P0-60", "I:post"])
        #expect(held.endReason == "stopped by the sender" && held.totals.sessionSeconds >= 80)
        #expect(held.events.contains { $0.reason == "the primary content and its POST interstitials played to the end; held there, paused (actionAtItemEnd pause)" })
        #expect(held.totals.interstitialsPlayed == 1)

        let replayed = try Engine.run(Engine.plan([]), script: "at 1 item end none; at 65 seek 50; at 66 play")
        #expect(Engine.shape(replayed).prefix(4) == ["P0-60", "||60", "||50", "P50-60"])
        #expect(replayed.events.filter { $0.reason == "the primary content played to its end; held there, paused (actionAtItemEnd none)" }.count == 4)
        #expect(replayed.endReason != "the primary content played to its end")
    }

    @Test("Held paused at the end after a POST interstitial, the timeline ends paused there, as it does without one")
    func heldPauseAfterPostInTimeline() throws {
        let plain = try Engine.run(Engine.plan([]), script: "at 1 item end pause; at 80 stop")
        #expect(Engine.shape(plain) == ["P0-60", "||60"])

        let held = try Engine.run(Engine.plan([Engine.ad("post", at: 60, cue: [.post])]), script: "at 1 item end pause; at 80 stop")
        #expect(Engine.shape(held) == ["P0-60", "I:post", "||60"])
        let pause = try #require(held.timeline.last)
        // From the end of the 10 s POST break until the sender's stop.
        #expect(pause.start == 70 && pause.end == 80 && pause.eventID == nil)
        #expect(held.totals.pausedSeconds == 10)

        // A seek from there and play are in the timeline too.
        let replayed = try Engine.run(Engine.plan([Engine.ad("post", at: 60, cue: [.post])]), script: "at 1 item end none; at 75 seek 50; at 76 play")
        #expect(Engine.shape(replayed).prefix(5) == ["P0-60", "I:post", "||60", "||50", "P50-60"])
    }

    @Test("Commands read and write their text; a negative end time is refused naming why")
    func text() throws {
        for text in ["end at 40", "end at none", "item end advance", "item end pause", "item end none"] {
            #expect(try PlaybackCommand(text: text).description == text)
        }
        #expect(throws: PlaybackCommand.TextError.self) { try PlaybackCommand(text: "item end later") }
        #expect(throws: PlaybackCommand.TextError.self) { try PlaybackCommand(text: "end at -3") }
        var engine = PlaybackEngine(plan: Engine.plan([]))
        _ = engine.handleEvents(.play(from: nil), at: 0)
        let refused = engine.handleEvents(.setForwardEndTime(.infinity), at: 1)
        #expect(refused.filter { $0.kind == .commandRefused }.map(\.reason) == ["the forward end time must be a position of 0 s or more"])
    }
}

import Foundation
import Playback
@testable import SenderProtocol
import Sessions
import Synchronization
import Testing

/// `/playback-info` reads the engine a session last read from its driver until the driver changes
/// something (`DrivenSession.activeEngineNow`). These checks run on a virtual clock: each step happens
/// in an alarm at its own time, and its answer must be what an uncached read of the driver gives then.
@Suite("Playback info between the driver's changes")
struct PlaybackInfoCacheTests {
    /// What one step saw: the answer read twice (the second time from what the first kept) and the
    /// answer read from the driver directly.
    struct Reading: Sendable {
        var name: String
        var first: Data
        var again: Data
        var direct: Data
    }

    final class Readings: Sendable {
        private let list = Mutex<[Reading]>([])
        var all: [Reading] { list.withLock { $0 } }

        func read(_ name: String, _ session: DrivenSession) {
            let answer = { PlaybackInfo(engine: session.activeEngineNow ?? session.engineNow).propertyList() }
            let reading = Reading(name: name, first: answer(), again: answer(), direct: PlaybackInfo(engine: session.engineNow).propertyList())
            list.withLock { $0.append(reading) }
        }
    }

    static func setup(_ plan: PlaybackPlan) -> SessionSetup {
        // No idle end: a paused session stays, as a receiver's does.
        SessionSetup(plan: plan, recorder: SessionRecorder(profile: "test", playlist: "test.m3u8", seed: 1, startPosition: 0))
    }

    @Test("the answer changes with the position, the rate, a pause, picture in picture, an interstitial starting and a new session, and always equals an uncached read")
    func answerFollowsEveryChange() throws {
        let ad = PlannedBreak(
            eventID: "ad", position: 20, resumeOffset: 5, assets: [PlannedAsset(uri: "https://ads.example/ad.m3u8", duration: 5)])
        let plan = PlaybackPlan(primaryDuration: 60, breaks: [ad])
        let clock = VirtualClock()
        let driver = SessionDriver(clock: clock)
        let session = driver.start(Self.setup(plan))
        let readings = Readings()
        let later = Mutex<DrivenSession?>(nil)
        var alarms: [ClockAlarm] = []
        func at(_ time: Double, _ step: @escaping @Sendable () -> Void) {
            alarms.append(clock.schedule(at: time, step))
        }
        at(2) { readings.read("playing at 2", session) }
        at(3) { readings.read("playing at 3", session) }
        at(4) {
            _ = session.handle(.setRate(2))
            readings.read("rate 2", session)
        }
        at(5) { readings.read("rate 2 a second later", session) }
        at(6) {
            _ = session.handle(.setRate(0))
            readings.read("paused", session)
        }
        at(7) { readings.read("still paused", session) }
        at(8) {
            _ = session.handle(.setRate(1))
            _ = session.handle(.setPresentationMode(.pictureInPicture))
            readings.read("picture in picture", session)
        }
        // Paused at 8 and playing again from 8 at 8, primary reaches the ad at 20 at 20.
        at(20.5) { readings.read("in the interstitial", session) }
        at(23) {
            later.withLock { $0 = driver.start(Self.setup(PlaybackPlan(primaryDuration: 30))) }
            readings.read("the first session beside a new one", session)
        }
        at(24) {
            let second = later.withLock { $0 }!
            readings.read("the new session", second)
        }
        clock.fireUntilHeld()
        _ = alarms

        let all = readings.all
        #expect(all.count == 10)
        for reading in all {
            #expect(reading.first == reading.again, "\(reading.name): a second read gave another answer")
            #expect(reading.first == reading.direct, "\(reading.name): \(text(reading.first)) but the driver says \(text(reading.direct))")
        }
        let answers = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0.first) })
        func changed(_ before: String, _ after: String) {
            #expect(answers[before] != answers[after], "\(after) answered as \(before) did")
        }
        changed("playing at 2", "playing at 3")
        changed("playing at 3", "rate 2")
        changed("rate 2", "rate 2 a second later")
        changed("rate 2 a second later", "paused")
        #expect(answers["paused"] == answers["still paused"], "a paused session's answer stands still")
        changed("still paused", "picture in picture")
        changed("picture in picture", "in the interstitial")
        changed("the first session beside a new one", "the new session")

        let info = { (name: String) in try PropertyListInput.decode(PlaybackInfo.self, from: answers[name]!) }
        #expect(try info("playing at 3").position == 3)
        #expect(try info("rate 2 a second later").rate == 2)
        #expect(try info("rate 2 a second later").position == 6)
        #expect(try info("paused").status == .paused)
        #expect(try info("picture in picture").presentation?.mode == .pictureInPicture)
        #expect(try info("in the interstitial").duration == 5)
        #expect(try info("in the interstitial").position == 0.5)
        #expect(try info("the new session").duration == 30)
        #expect(try info("the new session").position == 1)
    }

    private func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }
}

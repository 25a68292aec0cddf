import Foundation
import Playback
import SenderProtocol
import Testing

@Suite("timeControlStatus and reasonForWaitingToPlay on the wire")
struct PlayerStatusWireTests {
    private func plist(status: String, reason: String?) -> Data {
        var entries = "<key>duration</key><real>60</real><key>position</key><real>1</real><key>rate</key><real>1</real>"
        entries += "<key>readyToPlay</key><true/><key>playbackBufferEmpty</key><false/>"
        entries += "<key>timeControlStatus</key><string>\(status)</string>"
        if let reason { entries += "<key>reasonForWaitingToPlay</key><string>\(reason)</string>" }
        return Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>\(entries)</dict></plist>
            """.utf8)
    }

    @Test("Every status and reason is written with AVFoundation's spelling and reads back as itself")
    func roundTrip() throws {
        var statuses: [PlayerStatus] = [.paused, .playing]
        statuses += PlayerStatus.WaitingReason.allCases.map(PlayerStatus.waiting)
        for status in statuses {
            var info = PlaybackInfo(duration: 60, position: 1, rate: 1, readyToPlay: true, bufferEmpty: false)
            info.status = status
            let written = String(decoding: info.propertyList(), as: UTF8.self)
            #expect(written.contains("<string>\(status.timeControl.rawValue)</string>"))
            if let reason = status.waitingReason { #expect(written.contains("<string>\(reason.rawValue)</string>")) }
            #expect(try PropertyListInput.decode(PlaybackInfo.self, from: info.propertyList()).status == status)
        }
    }

    @Test("A status or reason this side does not know reads as paused or as none, and the rest still reads")
    func unknownNames() throws {
        let newer = try PropertyListInput.decode(PlaybackInfo.self, from: plist(status: "rewinding", reason: "toFeelBetter"))
        #expect(newer.status == .paused)
        #expect(newer.position == 1 && newer.duration == 60)
        let newReason = try PropertyListInput.decode(
            PlaybackInfo.self, from: plist(status: "waitingToPlayAtSpecifiedRate", reason: "toFeelBetter"))
        #expect(newReason.status.timeControl == .waitingToPlayAtSpecifiedRate && newReason.status.waitingReason == nil)
    }

    @Test("Only a waiting player has a reason")
    func reasonOnlyWhileWaiting() {
        #expect(PlayerStatus(timeControl: .playing, waitingReason: .toMinimizeStalls).waitingReason == nil)
        #expect(PlayerStatus.waiting(.interstitialEvent).waitingReason == .interstitialEvent)
    }
}

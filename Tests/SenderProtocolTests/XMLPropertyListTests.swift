import Foundation
import Playback
@testable import SenderProtocol
import Testing

private func parse(_ data: Data) throws -> Any {
    try PropertyListSerialization.propertyList(from: data, format: nil)
}

/// The dictionary `propertyList()` wrote with PropertyListSerialization before it wrote XML itself.
private func serializationReference(_ info: PlaybackInfo) throws -> Data {
    func range(_ range: ClosedRange<Double>) -> [String: Double] {
        ["start": range.lowerBound, "duration": range.upperBound - range.lowerBound]
    }
    // CMTime dictionaries in microseconds; a time no CMTime holds is the invalid one.
    func mediaTime(_ seconds: Double) -> [String: Int64] {
        let scaled = (seconds * 1e6).rounded()
        guard scaled.isFinite, abs(scaled) < 9e15 else { return ["value": 0, "timescale": 0, "flags": 0, "epoch": 0] }
        return ["value": Int64(scaled), "timescale": 1_000_000, "flags": 1, "epoch": 0]
    }
    var dictionary: [String: Any] = [
        "position": info.position, "positionCMTime": mediaTime(info.position), "rate": info.rate, "readyToPlay": info.readyToPlay,
        "playbackBufferEmpty": info.bufferEmpty, "playbackBufferFull": !info.bufferEmpty && info.readyToPlay,
        "playbackLikelyToKeepUp": info.readyToPlay && !info.bufferEmpty,
        "loadedTimeRanges": info.loaded.map { [range($0)] } ?? [], "seekableTimeRanges": info.seekable.map { [range($0)] } ?? [],
    ]
    if let duration = info.duration {
        dictionary["duration"] = duration
        dictionary["durationCMTime"] = mediaTime(duration)
        dictionary["timeControlStatus"] = info.status.timeControl.rawValue
    }
    if let reason = info.status.waitingReason { dictionary["reasonForWaitingToPlay"] = reason.rawValue }
    if let group = info.groupID { dictionary["groupID"] = group }
    if let sync = info.groupSync {
        if let error = sync.error { dictionary["groupSyncError"] = error }
        dictionary["groupClockBound"] = sync.clockBound
        dictionary["groupTime"] = sync.groupTime
        dictionary["groupCorrections"] = sync.corrections
    }
    if let presentation = info.presentation {
        dictionary["presentationMode"] = presentation.mode.rawValue
        dictionary["pictureInPictureSupported"] = presentation.supportsPictureInPicture
        dictionary["pictureInPicturePossible"] = presentation.pictureInPictureRefusal == nil
        dictionary["pictureInPictureActive"] = presentation.pictureInPictureActive
        dictionary["requiresLinearPlayback"] = info.requiresLinearPlayback
    }
    return try PropertyListSerialization.data(fromPropertyList: dictionary, format: .xml, options: 0)
}

@Suite("XML property lists written directly")
struct XMLPropertyListTests {
    /// Answers of every shape: no session, playing, waiting, extreme numbers, grouped.
    static let samples: [PlaybackInfo] = [
        PlaybackInfo.noSession,
        PlaybackInfo(
            duration: 1200, position: 29.902387333742151, rate: 1, readyToPlay: true, bufferEmpty: false,
            loaded: 29.902387333742151...1200, seekable: 0...1200),
        PlaybackInfo(
            duration: 0.1 + 0.2, position: 1e-7, rate: 0, readyToPlay: false, bufferEmpty: true,
            loaded: 1e-7...(0.1 + 0.2), seekable: 0...(0.1 + 0.2)),
        PlaybackInfo(
            duration: 1e21, position: 123_456_789.123_456_79, rate: -2, readyToPlay: true, bufferEmpty: false,
            loaded: nil, seekable: 0...1e21),
        PlaybackInfo(
            duration: .greatestFiniteMagnitude, position: .leastNonzeroMagnitude, rate: 0.5, readyToPlay: true,
            bufferEmpty: false),
        {
            var grouped = PlaybackInfo(duration: 60, position: 12, rate: 0, readyToPlay: true, bufferEmpty: false)
            grouped.follow(group: "g1 <a> & \"b\"", status: .waiting(.waitingForCoordinatedPlayback), resumeRate: 1)
            grouped.groupSync = PlaybackInfo.GroupSync(error: -0.0125, clockBound: 0.0004, groupTime: 17.25, corrections: 2)
            return grouped
        }(),
        {
            var pictureInPicture = PlaybackInfo(duration: 15, position: 3.5, rate: 1, readyToPlay: false, bufferEmpty: true)
            var presentation = Presentation(supportsPictureInPicture: true)
            presentation.mode = .pictureInPicture
            pictureInPicture.presentation = presentation
            pictureInPicture.requiresLinearPlayback = true
            pictureInPicture.status = .waiting(.toMinimizeStalls)
            return pictureInPicture
        }(),
    ]

    @Test("playback info parses back to exactly what PropertyListSerialization wrote for it", arguments: samples)
    func playbackInfoMatchesSerialization(info: PlaybackInfo) throws {
        let written = try #require(try parse(info.propertyList()) as? NSDictionary)
        let reference = try #require(try parse(serializationReference(info)) as? NSDictionary)
        #expect(written.isEqual(reference), "written \(written) but PropertyListSerialization gives \(reference)")
    }

    @Test("playback info written straight as bytes is byte for byte the document of its value, keys sorted", arguments: samples)
    func playbackInfoBytesMatchTheValue(info: PlaybackInfo) {
        #expect(info.propertyList() == info.propertyListValue.document(), "\(String(decoding: info.propertyList(), as: UTF8.self))")
    }

    @Test("playback info of an engine mid-playback parses back to the same values")
    func playbackInfoOfAnEngine() throws {
        var engine = PlaybackEngine(plan: PlaybackPlan(primaryDuration: 60))
        _ = engine.handle(.play(from: nil), at: 0)
        _ = engine.advance(to: 10.3333)
        let info = PlaybackInfo(engine: engine)
        let written = try #require(try parse(info.propertyList()) as? NSDictionary)
        #expect(written.isEqual(try #require(try parse(serializationReference(info)) as? NSDictionary)))
        #expect((written["position"] as? NSNumber)?.doubleValue == 10.3333)
        #expect(written["presentationMode"] as? String == "standard")
    }

    @Test("a document reads like PropertyListSerialization's: declaration, DOCTYPE, tab indents, sorted keys")
    func documentText() {
        let value = XMLPropertyList.dictionary([
            "rate": .real(1), "ranges": .array([.dictionary(["start": .real(0)])]), "empty": .array([]), "ok": .boolean(true),
        ])
        #expect(String(decoding: value.document(), as: UTF8.self) == """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>empty</key>
            \t<array/>
            \t<key>ok</key>
            \t<true/>
            \t<key>ranges</key>
            \t<array>
            \t\t<dict>
            \t\t\t<key>start</key>
            \t\t\t<real>0.0</real>
            \t\t</dict>
            \t</array>
            \t<key>rate</key>
            \t<real>1.0</real>
            </dict>
            </plist>

            """)
    }

    @Test("strings and keys are escaped, and every kind of value reads back as written")
    func everyKindReadsBack() throws {
        let value = XMLPropertyList.dictionary([
            "a & <b>": .string("x < y && y > z ]]> é 📺"),
            "count": .integer(-42),
            "big": .integer(.max),
            "flags": .array([.boolean(false), .boolean(true)]),
            "nested": .dictionary(["inner": .array([.array([]), .dictionary([:])])]),
            "infinities": .array([.real(.infinity), .real(-.infinity)]),
        ])
        let parsed = try #require(try parse(value.document()) as? [String: Any])
        #expect(parsed["a & <b>"] as? String == "x < y && y > z ]]> é 📺")
        #expect((parsed["count"] as? NSNumber)?.int64Value == -42)
        #expect((parsed["big"] as? NSNumber)?.int64Value == .max)
        #expect((parsed["flags"] as? [Bool]) == [false, true])
        let nested = try #require(parsed["nested"] as? [String: Any])
        let inner = try #require(nested["inner"] as? [Any])
        #expect((inner.first as? [Any])?.isEmpty == true)
        #expect((inner.last as? [String: Any])?.isEmpty == true)
        #expect((parsed["infinities"] as? [NSNumber])?.map(\.doubleValue) == [.infinity, -.infinity])
    }

    @Test("reals are written as the shortest text that reads back as the same number")
    func realText() {
        #expect(XMLPropertyList.realText(1200) == "1200.0")
        #expect(XMLPropertyList.realText(0.1 + 0.2) == "0.30000000000000004")
        #expect(XMLPropertyList.realText(1e-7) == "1e-07")
        #expect(XMLPropertyList.realText(.nan) == "nan")
        #expect(XMLPropertyList.realText(-.infinity) == "-infinity")
        for number in [29.902387333742151, 1e21, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -0.5] {
            #expect(Double(XMLPropertyList.realText(number)) == number)
        }
    }
}

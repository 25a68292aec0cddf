import Foundation
import HLS
@testable import Playback
@testable import Profiles
@testable import Sessions
import Testing

@Suite struct SDKAdScheduleTests {
    static func read(_ json: String) throws(SDKAdSchedule.Failure) -> SDKAdSchedule {
        try SDKAdSchedule(parsing: Data(json.utf8))
    }

    static func failure(_ json: String) -> SDKAdSchedule.Failure? {
        do throws(SDKAdSchedule.Failure) {
            _ = try read(json)
            return nil
        } catch {
            return error
        }
    }

    @Test("A VMAP-like document reads as pre-, mid- and post-rolls with their ads, ids defaulting to break-N")
    func reads() throws {
        let schedule = try Self.read(#"""
            {"breaks": [{"time": "start", "ads": [{"duration": 15}]},
                        {"id": "mid", "time": 600.5, "ads": [{"duration": 30, "uri": "https://ads.example/a.mp4"}, {"duration": 15}]},
                        {"time": "end", "ads": [{"duration": 20}]}]}
            """#)
        #expect(schedule.breaks.map(\.id) == ["break-1", "mid", "break-3"])
        #expect(schedule.breaks.map(\.time) == [.start, .seconds(600.5), .end])
        #expect(schedule.breaks[1].seconds == 45)
        #expect(schedule.breaks[1].ads[0].uri == "https://ads.example/a.mp4")
    }

    @Test("Bad documents are refused with the member that is wrong and why", arguments: [
        (#"[]"#, "$"),
        (#"{"breaks": {}}"#, "$.breaks"),
        (#"{"breaks": [], "extra": 1}"#, "$.extra"),
        (#"{"breaks": [{"time": 5, "ads": [{"duration": 0}]}]}"#, "$.breaks[0].ads[0].duration"),
        (#"{"breaks": [{"time": 5, "ads": [{"duration": 1e300}]}]}"#, "$.breaks[0].ads[0].duration"),
        (#"{"breaks": [{"time": -1, "ads": [{"duration": 5}]}]}"#, "$.breaks[0].time"),
        (#"{"breaks": [{"time": "middle", "ads": [{"duration": 5}]}]}"#, "$.breaks[0].time"),
        (#"{"breaks": [{"ads": [{"duration": 5}]}]}"#, "$.breaks[0].time"),
        (#"{"breaks": [{"time": 5, "ads": []}]}"#, "$.breaks[0].ads"),
        (#"{"breaks": [{"time": 5, "ads": [{"duration": 5, "length": 3}]}]}"#, "$.breaks[0].ads[0].length"),
        (#"{"breaks": [{"time": 5, "ads": [{"duration": "5"}]}]}"#, "$.breaks[0].ads[0].duration"),
        (#"{"breaks": [{"id": "a", "time": 5, "ads": [{"duration": 5}]}, {"id": "a", "time": 9, "ads": [{"duration": 5}]}]}"#, "$.breaks[1].id"),
        (#"{"breaks": [{"time": 5, "ads": [{"duration": 5, "uri": 3}]}]}"#, "$.breaks[0].ads[0].uri"),
        ("not json", "$"),
    ])
    func refuses(json: String, path: String) {
        let failure = Self.failure(json)
        #expect(failure?.path == path, "\(json) gave \(String(describing: failure))")
        #expect(failure?.reason.isEmpty == false)
    }

    @Test("Planned groups resume content where it paused; a pre-roll sits at the start position and a post-roll at the end")
    func plannedPods() throws {
        let schedule = try Self.read(#"{"breaks": [{"time": "start", "ads": [{"duration": 5}]}, {"time": 30, "ads": [{"duration": 5}]}, {"time": 90, "ads": [{"duration": 5}]}, {"time": "end", "ads": [{"duration": 5}]}]}"#)
        let groups = schedule.plannedPods(primaryDuration: 60, isLive: false, startPosition: 12)
        #expect(groups.map(\.position) == [12, 30, 60])
        #expect(groups.allSatisfy { $0.resumeAt == $0.position && $0.members.allSatisfy { $0.startedBySDK && $0.resumeOffset == 0 } })
        #expect(groups.map(\.id) == ["sdk:break-1", "sdk:break-2", "sdk:break-4"])
        let live = schedule.plannedPods(primaryDuration: 60, isLive: true, startPosition: 40)
        #expect(live.map(\.position) == [40, 30, 90])
    }

    @Test("Script steps pip on, off, impossible and possible are presentation commands; other pip words are refused")
    func scriptSteps() throws {
        let script = try SenderScript(parsing: "at 3 pip on; at 9 pip off; at 10 pip impossible; at 11 pip possible")
        #expect(script.steps.map(\.command) == [
            .setPresentationMode(.pictureInPicture), .setPresentationMode(.standard),
            .setPictureInPicturePossible(false), .setPictureInPicturePossible(true),
        ])
        #expect(throws: SenderScript.SyntaxError.self) { try SenderScript(parsing: "at 3 pip maybe") }
        #expect(throws: SenderScript.SyntaxError.self) { try SenderScript(parsing: "at 3 pip") }
    }

    @Test("The Apple TV profiles have picture in picture; smart TVs, the stick and the soundbar do not")
    func profilesSayWhetherTheyHavePictureInPicture() throws {
        let catalog = ProfileCatalog()
        let supporting = try catalog.shippedNames.filter { try catalog.profile($0).supportsPictureInPicture }
        #expect(supporting.sorted() == ["apple-tv-4k", "apple-tv-4k-2017", "apple-tv-4k-2021", "apple-tv-hd"])
    }
}

import Foundation
@testable import HLS

/// Events and timelines that the schedule tests share: a primary of equal segments whose first
/// segment is dated `start`, and interstitials placed by offsets from that date.
enum ScheduleFixture {
    static let start = Date(timeIntervalSince1970: 1_577_999_740)  // 2020-01-02T21:15:40Z

    /// `count` segments of `length` seconds, the first dated `start`.
    static func timeline(segments count: Int = 10, length: Double = 6) -> PrimaryTimeline {
        PrimaryTimeline(segmentDurations: Array(repeating: length, count: count), firstDate: start)
    }

    /// A playlist event whose START-DATE is `seconds` after the first segment's date.
    static func event(
        _ id: String, at seconds: Double, duration: Double? = nil, resumeOffset: Double? = nil,
        configure: (inout InterstitialEvent) -> Void = { _ in }
    ) -> InterstitialEvent {
        var event = InterstitialEvent(id: id, anchor: .date(start.addingTimeInterval(seconds)), asset: .uri("https://ads.example/\(id).m3u8"))
        event.duration = duration
        event.resumeOffset = resumeOffset
        configure(&event)
        return event
    }

    /// A compact picture of the playout: "P0-4" for primary, "ad@4+15" for an interstitial.
    static func shape(_ entries: [InterstitialSchedule.Entry]) -> [String] {
        entries.map { entry in
            switch entry.kind {
            case .primary: "P\(number(entry.start))-\(number(entry.end))"
            case .interstitial(let id): "\(id)@\(number(entry.start))+\(number(entry.end - entry.start))"
            }
        }
    }

    private static func number(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

extension InterstitialSchedule {
    func scheduled(_ id: String) -> Break? {
        breaks.first { $0.event.id == id }
    }

    func codes() -> [DiagnosticCode] {
        diagnostics.map(\.code)
    }
}

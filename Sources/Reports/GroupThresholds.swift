import Coordination
import NumberText

/// What makes a group run fail in CI: waiting, content missed, or time out of sync past a bound.
public struct GroupThresholds: Sendable, Hashable {
    public var maxWaitSeconds: Double?
    public var maxMissedSeconds: Double?
    /// Seconds the sync error may spend above its tolerance.
    public var maxDesyncSeconds: Double?

    public init(maxWaitSeconds: Double? = nil, maxMissedSeconds: Double? = nil, maxDesyncSeconds: Double? = nil) {
        self.maxWaitSeconds = maxWaitSeconds
        self.maxMissedSeconds = maxMissedSeconds
        self.maxDesyncSeconds = maxDesyncSeconds
    }

    /// Why a participant's break fails, if it does.
    public func failure(of groupBreak: GroupReport.Break) -> String? {
        if let limit = maxWaitSeconds, groupBreak.waitingSeconds > limit {
            return "waited \(SessionReportText.seconds(groupBreak.waitingSeconds, places: 3)) s, more than --max-wait \(limit.plainText) s"
        }
        if let limit = maxMissedSeconds, groupBreak.missedByCatchUp > limit {
            return "missed \(SessionReportText.seconds(groupBreak.missedByCatchUp, places: 3)) s by catching up, more than --max-missed \(limit.plainText) s"
        }
        return nil
    }

    /// Why a participant's sync error fails, if it does.
    public func failure(of sync: GroupReport.SyncError) -> String? {
        guard let limit = maxDesyncSeconds, sync.secondsAbove > limit else { return nil }
        return "out of sync by more than \(sync.tolerance.plainText) s for \(SessionReportText.seconds(sync.secondsAbove, places: 1)) s, more than --max-desync-s \(limit.plainText) s"
    }

    /// Whether anything in the run fails.
    public func fails(_ report: GroupReport) -> Bool {
        report.participants.contains { participant in
            participant.breaks.contains { failure(of: $0) != nil } || failure(of: participant.syncError) != nil
        }
    }
}

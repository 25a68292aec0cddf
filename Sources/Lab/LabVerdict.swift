import Reports
import Sessions

/// What a lab run's exit status says: everything passed, a threshold failed, or something broke.
public enum LabVerdict: Int32, Sendable {
    case passed = 0
    /// A break was slower than allowed or did not play (or, when asked, a session had errors).
    case thresholdFailed = 1
    /// A receiver could not be used: unreachable, refused the cast, vanished mid-run.
    case errors = 2

    public init(_ report: SimulationReport, thresholds: LabThresholds) {
        if !report.failures.isEmpty {
            self = .errors
        } else if report.sessions.contains(where: { session in
            thresholds.sessionFailure(of: session) != nil
                || thresholds.anyFailure(in: session)
        }) {
            self = .thresholdFailed
        } else {
            self = .passed
        }
    }
}

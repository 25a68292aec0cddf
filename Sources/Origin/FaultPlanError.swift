/// A fault plan that cannot be used, naming the field (`rules[2].paceBytesPerSec`) and the reason.
public struct FaultPlanError: Error, Equatable, CustomStringConvertible {
    /// The JSON path of the offending field; empty for the document itself.
    public let field: String
    public let reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String {
        field.isEmpty ? "fault plan: \(reason)" : "fault plan: \(field): \(reason)"
    }
}

import Foundation
import HLS
import JSONDocument

/// The faults a test origin injects: rules tried in order, the first that matches a request decides.
///
/// Read from JSON:
/// ```json
/// {"clientHeader": "X-Airlab-Client",
///  "rules": [{"name": "ad-503", "path": "/ads/*.ts", "requests": {"from": 1, "through": 2},
///             "status": 503, "retryAfterSeconds": 1},
///            {"name": "outage", "path": "*", "during": {"fromSeconds": 120, "untilSeconds": 180}, "status": 503},
///            {"path": "*.ts", "client": "rx-*", "ttfbMs": 200, "paceBytesPerSec": 250000}]}
/// ```
public struct FaultPlan: Sendable, Equatable {
    /// The request header whose value is the client id that rules match and the log records.
    public var clientHeader: String
    public var rules: [FaultRule]

    public static let defaultClientHeader = "X-Airlab-Client"

    public init(clientHeader: String = defaultClientHeader, rules: [FaultRule] = []) {
        self.clientHeader = clientHeader
        self.rules = rules
    }

    /// The first rule that applies to the `ordinal`-th request for `path` from `client`, arriving
    /// `elapsed` seconds after the origin started.
    public func rule(forPath path: String, client: String?, ordinal: Int, elapsed: Double = 0) -> FaultRule? {
        rules.first { $0.matches(path: path, client: client, ordinal: ordinal, elapsed: elapsed) }
    }

    // MARK: - Reading

    /// At most this many rules, so that matching stays cheap per request.
    public static let maximumRules = 10_000
    /// JSON values a rule can hold: itself, the 15 members a rule may have, and the two of each of
    /// `requests` and `during`.
    static let valuesPerRule = 20
    /// What the largest valid plan holds: the root, `clientHeader`, `rules` and its rules. Reading
    /// stops past it, so a plan with a few rules and a million other values costs no more.
    static let maximumValues = 3 + maximumRules * valuesPerRule
    static let statuses: Set<Int> = [404, 410, 500, 503]
    /// Bounds of the numbers a plan may hold; beyond them a number is a mistake, not a fault.
    static let milliseconds = 0...600_000
    static let byteCount = 0...(1 << 40)
    static let rate = 1...10_000_000_000
    static let ordinal = 1...1_000_000_000
    static let retryAfter = 0...86_400
    /// A window's bounds: up to a year of the origin's uptime.
    static let uptime = 0.0...(365.0 * 86_400)

    public init(json data: Data) throws(FaultPlanError) {
        guard let document = JSONValue(document: data, maximumValues: Self.maximumValues) else {
            throw FaultPlanError(field: "", reason: "the plan \(JSONValue.unreadable(maximumValues: Self.maximumValues))")
        }
        var object = try Fields(document, at: "")
        self.init(clientHeader: try object.string("clientHeader") ?? Self.defaultClientHeader)
        guard Self.isToken(clientHeader) else {
            throw FaultPlanError(field: "clientHeader", reason: "'\(clientHeader)' is not an HTTP header name")
        }
        let list = try object.array("rules") ?? []
        guard list.count <= Self.maximumRules else {
            throw FaultPlanError(field: "rules", reason: "\(list.count) rules; at most \(Self.maximumRules) are allowed")
        }
        try object.refuseOthers()
        rules = try list.enumerated().map { (index, element) throws(FaultPlanError) in try Self.rule(element, at: "rules[\(index)]") }
    }

    private static func rule(_ element: JSONValue, at field: String) throws(FaultPlanError) -> FaultRule {
        var object = try Fields(element, at: field)
        let name = try object.string("name") ?? field
        guard let path = try object.string("path") else {
            throw FaultPlanError(field: "\(field).path", reason: "missing; every rule needs a path glob such as \"/ads/*.ts\"")
        }
        guard path.hasPrefix("/") || path.hasPrefix("*") else {
            throw FaultPlanError(field: "\(field).path", reason: "'\(path)' must start with '/' or '*', as request paths do")
        }
        var requests: ClosedRange<Int>?
        if let range = try object.object("requests") {
            var window = range
            let from = try window.integer("from", in: ordinal) ?? 1
            let through = try window.integer("through", in: ordinal)
            try window.refuseOthers()
            if let through, through < from {
                throw FaultPlanError(field: "\(field).requests.through", reason: "\(through) is before from (\(from))")
            }
            requests = from...(through ?? ordinal.upperBound)
        }
        var during: Range<Double>?
        if let window = try object.object("during") {
            var bounds = window
            let from = try bounds.number("fromSeconds", in: uptime) ?? 0
            let until = try bounds.number("untilSeconds", in: uptime) ?? uptime.upperBound
            try bounds.refuseOthers()
            guard until > from else {
                throw FaultPlanError(field: "\(field).during.untilSeconds", reason: "\(until) is not after fromSeconds (\(from))")
            }
            during = from..<until
        }
        let client = try object.string("client").map(GlobPattern.init)
        var action = FaultAction()
        action.timeToFirstByte = try object.integer("ttfbMs", in: milliseconds).map { .milliseconds($0) }
        if let status = try object.integer("status", in: 100...599) {
            guard statuses.contains(status) else {
                throw FaultPlanError(field: "\(field).status", reason: "\(status) is not one of 404, 410, 500, 503")
            }
            action.reply = FaultAction.StatusReply(status: status, retryAfterSeconds: try object.integer("retryAfterSeconds", in: retryAfter))
        } else if object.has("retryAfterSeconds") {
            throw FaultPlanError(field: "\(field).retryAfterSeconds", reason: "only goes with a status")
        }
        if let target = try object.string("redirect") {
            guard target.hasPrefix("/"), !target.contains(where: { $0.isNewline }) else {
                throw FaultPlanError(field: "\(field).redirect", reason: "'\(target)' must be a path starting with '/'")
            }
            action.redirect = target
        }
        var body = BodyFaults()
        body.paceBytesPerSecond = try object.integer("paceBytesPerSec", in: rate)
        let stallAfter = try object.integer("stallAfterBytes", in: byteCount)
        let stallMs = try object.integer("stallMs", in: 1...milliseconds.upperBound)
        switch (stallAfter, stallMs) {
        case (let bytes?, let ms?): body.stall = BodyFaults.Stall(afterBytes: bytes, duration: .milliseconds(ms))
        case (nil, nil): break
        case (nil, _?): throw FaultPlanError(field: "\(field).stallAfterBytes", reason: "missing; stallMs needs it")
        case (_?, nil): throw FaultPlanError(field: "\(field).stallMs", reason: "missing; stallAfterBytes needs it")
        }
        body.truncateAfterBytes = try object.integer("truncateAfterBytes", in: byteCount)
        body.resetAfterBytes = try object.integer("resetAfterBytes", in: byteCount)
        if let error = try object.integer("wrongContentLength", in: -byteCount.upperBound...byteCount.upperBound) {
            guard error != 0 else {
                throw FaultPlanError(field: "\(field).wrongContentLength", reason: "0 would declare the true length")
            }
            body.contentLengthError = error
        }
        action.body = body
        try object.refuseOthers()
        let answers = [action.reply != nil ? "status" : nil, action.redirect != nil ? "redirect" : nil, body.isEmpty ? nil : "a body fault"]
            .compactMap { $0 }
        if answers.count > 1 {
            throw FaultPlanError(field: field, reason: "\(answers.joined(separator: " and ")) exclude each other; use one per rule")
        }
        return FaultRule(name: name, path: GlobPattern(path), requests: requests, client: client, during: during, action: action)
    }

    /// RFC 9110's token characters, which a header name is made of.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

/// A JSON object being read field by field, which refuses fields it was not asked for.
private struct Fields {
    let values: [String: JSONValue]
    let path: String
    var read: Set<String> = []

    init(_ value: JSONValue, at path: String) throws(FaultPlanError) {
        guard case .object(let values) = value else {
            throw FaultPlanError(field: path, reason: "must be a JSON object")
        }
        self.values = values
        self.path = path
    }

    private func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func has(_ key: String) -> Bool { values[key] != nil }

    mutating func string(_ key: String) throws(FaultPlanError) -> String? {
        read.insert(key)
        guard let value = values[key] else { return nil }
        guard case .string(let text) = value else {
            throw FaultPlanError(field: name(key), reason: "must be a string")
        }
        guard !text.isEmpty, text.utf8.count <= 4096 else {
            throw FaultPlanError(field: name(key), reason: "must be 1 to 4096 bytes long")
        }
        return text
    }

    mutating func integer(_ key: String, in range: ClosedRange<Int>) throws(FaultPlanError) -> Int? {
        read.insert(key)
        guard let value = values[key] else { return nil }
        guard case .number(let double) = value else {
            throw FaultPlanError(field: name(key), reason: "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        guard double.isFinite, double.rounded() == double, range.contains(Int(saturating: double)) else {
            throw FaultPlanError(field: name(key), reason: "\(value.description) is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(saturating: double)
    }

    mutating func number(_ key: String, in range: ClosedRange<Double>) throws(FaultPlanError) -> Double? {
        read.insert(key)
        guard let value = values[key] else { return nil }
        guard case .number(let number) = value, number.isFinite, range.contains(number) else {
            throw FaultPlanError(field: name(key), reason: "must be a number of seconds from \(Int(range.lowerBound)) to \(Int(range.upperBound))")
        }
        return number
    }

    mutating func array(_ key: String) throws(FaultPlanError) -> [JSONValue]? {
        read.insert(key)
        guard let value = values[key] else { return nil }
        guard case .array(let list) = value else { throw FaultPlanError(field: name(key), reason: "must be a JSON array") }
        return list
    }

    mutating func object(_ key: String) throws(FaultPlanError) -> Fields? {
        read.insert(key)
        guard let value = values[key] else { return nil }
        return try Fields(value, at: name(key))
    }

    func refuseOthers() throws(FaultPlanError) {
        if let unknown = values.keys.filter({ !read.contains($0) }).sorted().first {
            throw FaultPlanError(field: name(unknown), reason: "unknown field")
        }
    }
}

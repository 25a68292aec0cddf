import Foundation
import NumberText

/// A JSON document as a value, keeping booleans apart from numbers.
///
/// JSONSerialization on Linux hands back `1` and `true` as the same NSNumber, which a schema
/// check cannot tell apart; decoding through JSONDecoder keeps them distinct. Read from a property
/// list (`PropertyListDecoder`), a date becomes its ISO 8601 text, as the events' `date` member takes it.
public indirect enum JSONValue: Codable, Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The most values one document may hold, and how deep they may nest. A binary property list
    /// may name one object from many places, so a few hundred bytes can stand for a tree of 2^30
    /// values; and every level of nesting is a frame of the decoder's stack. The documents read this
    /// way (client events, setProperty values, profiles) hold tens to hundreds of values; decoding one
    /// costs microseconds a value, so the limit also bounds what a hostile body costs.
    public static let maximumValues = 20_000
    public static let maximumDepth = 64

    /// A JSON document's text read as a value; nil when it is not JSON, or holds more than
    /// `maximumValues` values or `maximumDepth` levels. The one reader of the files airlab takes
    /// (client events, SDK ad breaks, group files), each of which then checks its own schema.
    /// A format whose largest valid document holds more (a fault plan of 10,000 rules) passes its own
    /// `maximumValues`.
    public init?(document data: Data, maximumValues: Int = JSONValue.maximumValues) {
        let budget = DecodingBudget(values: maximumValues)
        let value = Self.$budget.withValue(budget) { try? JSONDecoder().decode(JSONValue.self, from: data) }
        guard let value else { return nil }
        self = value
    }

    /// The reason `init?(document:)` gives none, for the error that names the file.
    public static let unreadableDocument = unreadable(maximumValues: maximumValues)

    /// The reason `init?(document:maximumValues:)` gives none.
    public static func unreadable(maximumValues: Int) -> String {
        "is not valid JSON (or holds more than \(maximumValues) values or \(maximumDepth) levels)"
    }

    /// The values left to the document being decoded; set by the outermost value for its nested ones.
    @TaskLocal private static var budget: DecodingBudget?

    public init(from decoder: Decoder) throws {
        if let budget = Self.budget {
            try budget.spend(at: decoder.codingPath)
            self = try Self.read(decoder)
        } else {
            let budget = DecodingBudget(values: Self.maximumValues)
            try budget.spend(at: decoder.codingPath)
            self = try Self.$budget.withValue(budget) { try Self.read(decoder) }
        }
    }

    private static func read(_ decoder: Decoder) throws -> JSONValue {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            return .null
        } else if let value = try? container.decode(Bool.self) {
            return .bool(value)
        } else if let value = try? container.decode(Double.self) {
            return .number(value)
        } else if let value = try? container.decode(String.self) {
            return .string(value)
        } else if let date = try? container.decode(Date.self) {
            // Only a property list gets here with a date: JSON's numbers and strings were taken above.
            return .string(date.formatted(.iso8601))
        }
        do {
            return .array(try container.decode([JSONValue].self))
        } catch let refusal as DecodingBudget.Exceeded {
            // Past the budget inside an array: trying the same bytes as an object would spend it again.
            throw refusal
        } catch {
            return .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let values): try container.encode(values)
        case .object(let members): try container.encode(members)
        }
    }

    /// The JSON Schema type names this value satisfies ("integer" is also a "number").
    var schemaTypes: Set<String> {
        switch self {
        case .null: ["null"]
        case .bool: ["boolean"]
        case .number(let value): value.rounded() == value ? ["number", "integer"] : ["number"]
        case .string: ["string"]
        case .array: ["array"]
        case .object: ["object"]
        }
    }

    /// The value as a person reads it in a message: numbers without a needless fraction, strings quoted.
    public var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): String(value)
        case .number(let value): value.plainText
        case .string(let value): "\"\(value)\""
        case .array(let values): "[\(values.map(\.description).joined(separator: ", "))]"
        case .object: "an object"
        }
    }
}

/// What one document may still spend on values, counted by `JSONValue` as it decodes.
final class DecodingBudget: @unchecked Sendable {
    /// Thrown when a document holds more values than `JSONValue.maximumValues` or nests deeper than
    /// `JSONValue.maximumDepth`.
    struct Exceeded: Error, CustomStringConvertible {
        var description: String
    }

    /// Only the thread decoding the document touches it (the budget is task-local to that decode).
    private var values: Int
    private let limit: Int

    init(values: Int) {
        self.values = values
        limit = values
    }

    func spend(at codingPath: [any CodingKey]) throws {
        guard codingPath.count <= JSONValue.maximumDepth else {
            throw Exceeded(description: "values nest deeper than \(JSONValue.maximumDepth) levels")
        }
        values -= 1
        guard values >= 0 else {
            throw Exceeded(description: "the document holds more than \(limit) values")
        }
    }
}

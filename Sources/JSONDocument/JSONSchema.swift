import Foundation

/// Checks a JSON document against one of the schemas airlab ships beside its profiles
/// (profiles/profile.schema.json, profiles/fleet.schema.json).
///
/// A validator for the subset of JSON Schema 2020-12 those schemas use: type, enum, required,
/// properties, additionalProperties (false), items, minItems, uniqueItems, minimum, maximum,
/// exclusiveMinimum, minLength, pattern and local `$ref`s. A keyword outside that subset is a
/// schema error, so the schema cannot silently grow rules nobody checks.
public struct JSONSchema: Sendable {
    private let root: JSONValue

    public init(_ schema: JSONValue) {
        root = schema
    }

    /// Every violation in `document`, in document order.
    public func violations(of document: JSONValue) -> [(path: String, reason: String)] {
        var found: [(String, String)] = []
        check(document, against: root, path: "$", into: &found)
        return found
    }

    private static let supportedKeywords: Set<String> = [
        "$schema", "$id", "$defs", "$ref", "title", "description", "type", "enum", "required", "properties",
        "additionalProperties", "items", "minItems", "uniqueItems", "minimum", "maximum", "exclusiveMinimum",
        "minLength", "pattern",
    ]

    private func check(_ value: JSONValue, against schema: JSONValue, path: String, into found: inout [(String, String)]) {
        guard case .object(var keywords) = schema else { return }
        if case .string(let reference) = keywords["$ref"] {
            guard let target = resolve(reference) else {
                found.append((path, "the schema's $ref \(reference) does not resolve"))
                return
            }
            keywords.removeValue(forKey: "$ref")
            check(value, against: target, path: path, into: &found)
        }
        if let unknown = keywords.keys.first(where: { !Self.supportedKeywords.contains($0) }) {
            found.append((path, "the schema uses the keyword \(unknown), which airlab's validator does not implement"))
        }

        if let expected = keywords["type"] {
            let allowed: Set<String> = switch expected {
            case .string(let name): [name]
            case .array(let names): Set(names.compactMap { if case .string(let name) = $0 { name } else { nil } })
            default: []
            }
            if value.schemaTypes.isDisjoint(with: allowed) {
                found.append((path, "expected \(allowed.sorted().joined(separator: " or ")), found \(value.description)"))
                return
            }
        }
        if case .array(let options) = keywords["enum"], !options.contains(value) {
            found.append((path, "\(value.description) is not one of \(options.map(\.description).joined(separator: ", "))"))
        }

        switch value {
        case .object(let members):
            checkObject(members, keywords: keywords, path: path, into: &found)
        case .array(let items):
            if case .number(let minimum) = keywords["minItems"], Double(items.count) < minimum {
                found.append((path, "needs at least \(JSONValue.number(minimum).description) item(s), found \(items.count)"))
            }
            if keywords["uniqueItems"] == .bool(true) {
                for (index, item) in items.enumerated() where items[..<index].contains(item) {
                    found.append(("\(path)[\(index)]", "\(item.description) appears more than once"))
                }
            }
            if let itemSchema = keywords["items"] {
                for (index, item) in items.enumerated() {
                    check(item, against: itemSchema, path: "\(path)[\(index)]", into: &found)
                }
            }
        case .number(let number):
            if case .number(let minimum) = keywords["minimum"], number < minimum {
                found.append((path, "\(value.description) is below the minimum \(JSONValue.number(minimum).description)"))
            }
            if case .number(let maximum) = keywords["maximum"], number > maximum {
                found.append((path, "\(value.description) is above the maximum \(JSONValue.number(maximum).description)"))
            }
            if case .number(let bound) = keywords["exclusiveMinimum"], number <= bound {
                found.append((path, "\(value.description) must be greater than \(JSONValue.number(bound).description)"))
            }
        case .string(let text):
            if case .number(let minimum) = keywords["minLength"], Double(text.count) < minimum {
                found.append((path, "must not be empty"))
            }
            if case .string(let pattern) = keywords["pattern"],
                text.range(of: pattern, options: .regularExpression) == nil
            {
                found.append((path, "\(value.description) does not match \(pattern)"))
            }
        case .null, .bool:
            break
        }
    }

    private func checkObject(
        _ members: [String: JSONValue], keywords: [String: JSONValue], path: String, into found: inout [(String, String)]
    ) {
        if case .array(let required) = keywords["required"] {
            for case .string(let name) in required where members[name] == nil {
                found.append((path, "the required member \"\(name)\" is missing"))
            }
        }
        let properties: [String: JSONValue]
        if case .object(let declared) = keywords["properties"] { properties = declared } else { properties = [:] }
        for name in members.keys.sorted() {
            let memberPath = "\(path).\(name)"
            if let propertySchema = properties[name] {
                check(members[name]!, against: propertySchema, path: memberPath, into: &found)
            } else if keywords["additionalProperties"] == .bool(false) {
                let known = properties.keys.sorted().joined(separator: ", ")
                found.append((memberPath, "is not a known member here; expected one of: \(known)"))
            }
        }
    }

    /// Resolves `#/$defs/name` style references within the schema.
    private func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#/") else { return nil }
        var node = root
        for component in reference.dropFirst(2).split(separator: "/") {
            guard case .object(let members) = node, let next = members[String(component)] else { return nil }
            node = next
        }
        return node
    }
}

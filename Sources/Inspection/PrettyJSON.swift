import Foundation

/// Encodes `Encodable` values as pretty-printed JSON with sorted keys, straight into text.
///
/// `playlist inspect --json` of a 50,000-segment VOD spent a third of its whole process in
/// Foundation's `JSONEncoder` (issue 15 measured it); this writer keeps the same shape (two-space
/// indents, `"key" : value`, keys in byte order, slashes unescaped, absent optionals absent) for a
/// fraction of the cost. Numbers: integers as integers, other doubles in Swift's shortest form; a
/// non-finite double is an error, as it is for `JSONEncoder`.
enum PrettyJSON {
    struct NonFiniteNumber: Error {}

    static func text<T: Encodable>(_ value: T) throws -> String {
        let root = Box()
        try value.encode(to: TreeEncoder(box: root, codingPath: []))
        var output = ""
        output.reserveCapacity(1 << 16)
        write(root.node, indent: 0, into: &output)
        return output
    }

    // MARK: - The tree

    indirect enum Node {
        case null
        /// A value that writes itself (`PrettyJSONWritable`): the report's bulk, without Codable's cost.
        case custom(any PrettyJSONWritable)
        case literal(String)
        case string(String)
        case array([Box])
        case object([String: Box])
    }

    /// A node that a nested container fills in after it was handed out, as Codable's containers do.
    final class Box {
        var node: Node = .null
        init(_ node: Node = .null) { self.node = node }
    }

    /// `count` spaces; the common depths made once.
    static func pad(_ count: Int) -> String {
        count < pads.count ? pads[count] : String(repeating: " ", count: count)
    }

    private static let pads = (0..<16).map { String(repeating: " ", count: $0) }

    static func write(_ node: Node, indent: Int, into output: inout String) {
        switch node {
        case .null:
            output += "null"
        case .custom(let value):
            value.writeJSON(indent: indent, into: &output)
        case .literal(let text):
            output += text
        case .string(let text):
            writeString(text, into: &output)
        case .array(let items):
            guard !items.isEmpty else { output += "[\n\n" + pad(indent) + "]"; return }
            output += "[\n"
            for (index, item) in items.enumerated() {
                output += pad(indent + 2)
                write(item.node, indent: indent + 2, into: &output)
                output += index + 1 < items.count ? ",\n" : "\n"
            }
            output += pad(indent) + "]"
        case .object(let members):
            guard !members.isEmpty else { output += "{\n\n" + pad(indent) + "}"; return }
            output += "{\n"
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, key) in keys.enumerated() {
                output += pad(indent + 2)
                writeString(key, into: &output)
                output += " : "
                write(members[key]!.node, indent: indent + 2, into: &output)
                output += index + 1 < keys.count ? ",\n" : "\n"
            }
            output += pad(indent) + "}"
        }
    }

    static func writeString(_ text: String, into output: inout String) {
        output += "\""
        var plain = true
        for unit in text.utf8 where unit < 0x20 || unit == 0x22 || unit == 0x5C {
            plain = false
            break
        }
        if plain {
            output += text
        } else {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": output += "\\\""
                case "\\": output += "\\\\"
                case "\n": output += "\\n"
                case "\r": output += "\\r"
                case "\t": output += "\\t"
                case "\u{08}": output += "\\b"
                case "\u{0C}": output += "\\f"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }

    static func numberNode(_ value: Double) throws -> Node {
        .literal(try numberText(value))
    }

    static func numberText(_ value: Double) throws -> String {
        guard value.isFinite else { throw NonFiniteNumber() }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return value.description
    }

    // MARK: - Codable's side

    struct TreeEncoder: Encoder {
        let box: Box
        var codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if case .object = box.node {} else { box.node = .object([:]) }
            return KeyedEncodingContainer(Keyed<Key>(box: box, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if case .array = box.node {} else { box.node = .array([]) }
            return Unkeyed(box: box, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            Single(box: box, codingPath: codingPath)
        }
    }

    /// The node a value encodes to: scalars directly, everything else through its own `encode(to:)`.
    /// Every scalar type Codable knows is listed: a scalar's own `encode(to:)` comes back here through
    /// a single-value container, and must not go round again.
    static func node<T: Encodable>(of value: T, at codingPath: [any CodingKey]) throws -> Box {
        switch value {
        case let writable as any PrettyJSONWritable: return Box(.custom(writable))
        case let text as String: return Box(.string(text))
        case let flag as Bool: return Box(.literal(flag ? "true" : "false"))
        case let number as Int: return Box(.literal(String(number)))
        case let number as Int64: return Box(.literal(String(number)))
        case let number as UInt64: return Box(.literal(String(number)))
        case let number as Int32: return Box(.literal(String(number)))
        case let number as UInt32: return Box(.literal(String(number)))
        case let number as UInt: return Box(.literal(String(number)))
        case let number as Int8: return Box(.literal(String(number)))
        case let number as Int16: return Box(.literal(String(number)))
        case let number as UInt8: return Box(.literal(String(number)))
        case let number as UInt16: return Box(.literal(String(number)))
        case let number as Float: return Box(try numberNode(Double(number)))
        case let number as Double: return Box(try numberNode(number))
        case let url as URL: return Box(.string(url.absoluteString))
        default:
            let box = Box()
            try value.encode(to: TreeEncoder(box: box, codingPath: codingPath))
            return box
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let box: Box
        var codingPath: [any CodingKey]

        private func set(_ child: Box, for key: Key) {
            guard case .object(var members) = box.node else { return }
            box.node = .null  // the dictionary stays uniquely referenced while it grows
            members[key.stringValue] = child
            box.node = .object(members)
        }

        mutating func encodeNil(forKey key: Key) throws { set(Box(.null), for: key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            set(try PrettyJSON.node(of: value, at: codingPath + [key]), for: key)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let child = Box(.object([:]))
            set(child, for: key)
            return KeyedEncodingContainer(Keyed<NestedKey>(box: child, codingPath: codingPath + [key]))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = Box(.array([]))
            set(child, for: key)
            return Unkeyed(box: child, codingPath: codingPath + [key])
        }
        mutating func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            let child = Box()
            set(child, for: key)
            return TreeEncoder(box: child, codingPath: codingPath + [key])
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let box: Box
        var codingPath: [any CodingKey]
        var count: Int {
            if case .array(let items) = box.node { return items.count }
            return 0
        }

        private func append(_ child: Box) {
            guard case .array(var items) = box.node else { return }
            box.node = .null
            items.append(child)
            box.node = .array(items)
        }

        mutating func encodeNil() throws { append(Box(.null)) }
        mutating func encode<T: Encodable>(_ value: T) throws { append(try PrettyJSON.node(of: value, at: codingPath)) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let child = Box(.object([:]))
            append(child)
            return KeyedEncodingContainer(Keyed<NestedKey>(box: child, codingPath: codingPath))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = Box(.array([]))
            append(child)
            return Unkeyed(box: child, codingPath: codingPath)
        }
        mutating func superEncoder() -> any Encoder {
            let child = Box()
            append(child)
            return TreeEncoder(box: child, codingPath: codingPath)
        }
    }

    struct Single: SingleValueEncodingContainer {
        let box: Box
        var codingPath: [any CodingKey]

        mutating func encodeNil() throws { box.node = .null }
        mutating func encode<T: Encodable>(_ value: T) throws { box.node = try PrettyJSON.node(of: value, at: codingPath).node }
    }
}

/// A value that writes its own JSON object, keys in byte order, the way `PrettyJSON` writes any
/// other: for the types a report has thousands of.
protocol PrettyJSONWritable: Sendable {
    func writeJSON(indent: Int, into output: inout String)
}

extension PrettyJSON {
    /// One object being written: members added in byte order of their keys, absent ones skipped.
    struct Object {
        private(set) var text = ""
        private let indent: Int
        private var members = 0
        private var lastKey = ""

        init(indent: Int) { self.indent = indent }

        private mutating func key(_ name: String) {
            assert(members == 0 || lastKey.utf8.lexicographicallyPrecedes(name.utf8), "\(name) after \(lastKey)")
            lastKey = name
            text += members == 0 ? "{\n" : ",\n"
            members += 1
            text += PrettyJSON.pad(indent + 2)
            PrettyJSON.writeString(name, into: &text)
            text += " : "
        }

        mutating func add(_ name: String, _ value: String?) {
            guard let value else { return }
            key(name)
            PrettyJSON.writeString(value, into: &text)
        }

        mutating func add(_ name: String, _ value: Int?) {
            guard let value else { return }
            key(name)
            text += String(value)
        }

        /// A non-finite number is left out (the encoder would refuse the whole report).
        mutating func add(_ name: String, _ value: Double?) {
            guard let value, let number = try? PrettyJSON.numberText(value) else { return }
            key(name)
            text += number
        }

        mutating func add(_ name: String, _ value: Bool?) {
            guard let value else { return }
            key(name)
            text += value ? "true" : "false"
        }

        mutating func add(_ name: String, _ values: [String]?) {
            guard let values else { return }
            key(name)
            PrettyJSON.write(.array(values.map { Box(.string($0)) }), indent: indent + 2, into: &text)
        }

        mutating func add(_ name: String, _ values: [Double]?) {
            guard let values else { return }
            key(name)
            PrettyJSON.write(.array(values.map { Box((try? PrettyJSON.numberNode($0)) ?? .null) }), indent: indent + 2, into: &text)
        }

        mutating func add(_ name: String, _ value: (any PrettyJSONWritable)?) {
            guard let value else { return }
            key(name)
            value.writeJSON(indent: indent + 2, into: &text)
        }

        /// Closes the object into `output`.
        func write(into output: inout String) {
            output += members == 0 ? "{\n\n" + PrettyJSON.pad(indent) + "}" : text + "\n" + PrettyJSON.pad(indent) + "}"
        }
    }
}

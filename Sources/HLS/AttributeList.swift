/// An attribute list (`NAME=VALUE,NAME="VALUE"`), in the order written.
public struct AttributeList: Hashable, Sendable {
    public struct Entry: Hashable, Sendable {
        public var name: String
        public var value: AttributeValue

        public init(name: String, value: AttributeValue) {
            self.name = name
            self.value = value
        }
    }

    public private(set) var entries: [Entry]

    public init(_ entries: [Entry] = []) {
        self.entries = entries
    }

    public subscript(name: String) -> AttributeValue? {
        entries.first { $0.name == name }?.value
    }

    public var names: [String] { entries.map(\.name) }

    public mutating func append(_ name: String, _ value: AttributeValue) {
        entries.append(Entry(name: name, value: value))
    }
}

/// The result of reading an attribute list: the list, or why it is illegal, plus duplicate names.
struct AttributeListReading {
    var list: AttributeList
    /// Set when the syntax is illegal; the tag carrying it must then be ignored.
    var syntaxError: String?
    /// Names that appeared more than once; the first value is kept.
    var duplicates: [String]
}

extension AttributeList {
    /// Reads an attribute list per RFC 8216bis §4.2.
    ///
    /// Whitespace is not allowed by the grammar, but senders in the wild put a space after commas;
    /// it is skipped rather than refused, as receivers do.
    static func read<Bytes: Collection>(_ bytes: Bytes) -> AttributeListReading where Bytes.Element == UInt8 {
        var list = AttributeList()
        var duplicates: [String] = []
        var seen = Set<String>()
        var index = bytes.startIndex

        func fail(_ reason: String) -> AttributeListReading {
            AttributeListReading(list: list, syntaxError: reason, duplicates: duplicates)
        }

        while index < bytes.endIndex {
            while index < bytes.endIndex, bytes[index] == UInt8(ascii: " ") { index = bytes.index(after: index) }
            let nameStart = index
            while index < bytes.endIndex, bytes[index] != UInt8(ascii: "=") {
                let byte = bytes[index]
                let legal = (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
                if !legal {
                    let shown = String(decoding: bytes[nameStart...index], as: UTF8.self)
                    return fail("attribute name '\(shown)' may hold only A-Z, 0-9 and '-' and must be followed by '='")
                }
                index = bytes.index(after: index)
            }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            guard index < bytes.endIndex, !name.isEmpty else {
                return fail(name.isEmpty ? "an attribute has no name" : "attribute \(name) has no '=' and no value")
            }
            index = bytes.index(after: index)

            let value: AttributeValue
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") {
                let valueStart = bytes.index(after: index)
                guard let closing = bytes[valueStart...].firstIndex(of: UInt8(ascii: "\"")) else {
                    return fail("the quoted value of \(name) has no closing quote")
                }
                value = .quoted(String(decoding: bytes[valueStart..<closing], as: UTF8.self))
                index = bytes.index(after: closing)
                if index < bytes.endIndex, bytes[index] != UInt8(ascii: ",") {
                    return fail("the quoted value of \(name) is followed by text instead of ','")
                }
            } else {
                let valueStart = index
                while index < bytes.endIndex, bytes[index] != UInt8(ascii: ",") {
                    if bytes[index] == UInt8(ascii: "\"") {
                        return fail("the value of \(name) has a quote inside an unquoted value")
                    }
                    index = bytes.index(after: index)
                }
                let text = String(decoding: bytes[valueStart..<index], as: UTF8.self)
                guard !text.isEmpty else { return fail("attribute \(name) has an empty value") }
                value = .unquoted(text)
            }
            if seen.insert(name).inserted {
                list.append(name, value)
            } else {
                duplicates.append(name)
            }
            if index < bytes.endIndex { index = bytes.index(after: index) }  // the ','
        }
        return AttributeListReading(list: list, syntaxError: nil, duplicates: duplicates)
    }
}

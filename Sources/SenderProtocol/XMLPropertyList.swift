import Foundation

/// A property list value that writes itself as Apple's XML property list, for the answers senders poll.
///
/// `PropertyListSerialization` on Linux hands its result over from NSData into Data one byte at a time,
/// with a retain and a release per byte: four fifths of a `/playback-info` answer went there, on the
/// server's polling thread. These answers are small and plain, so they are written directly; anything
/// PropertyListSerialization reads parses them to the same values.
public indirect enum XMLPropertyList: Sendable, Equatable, Encodable {
    case string(String)
    case real(Double)
    case integer(Int64)
    case boolean(Bool)
    /// Written in UTC to the second, as Apple's XML property lists write dates.
    case date(Date)
    case array([XMLPropertyList])
    /// Written with its keys sorted, as PropertyListSerialization writes a dictionary.
    case dictionary([String: XMLPropertyList])

    /// The whole document: XML declaration, DOCTYPE, and this value as the plist's root.
    public func document() -> Data {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        text.reserveCapacity(1024)
        write(to: &text, depth: 0)
        text += "</plist>\n"
        return Data(text.utf8)
    }

    private func write(to text: inout String, depth: Int) {
        let indent = String(repeating: "\t", count: depth)
        text += indent
        switch self {
        case .string(let value):
            text += "<string>\(Self.escaped(value))</string>\n"
        case .real(let value):
            text += "<real>\(Self.realText(value))</real>\n"
        case .integer(let value):
            text += "<integer>\(value)</integer>\n"
        case .boolean(let value):
            text += value ? "<true/>\n" : "<false/>\n"
        case .date(let value):
            text += "<date>\(value.formatted(.iso8601))</date>\n"
        case .array(let values):
            guard !values.isEmpty else {
                text += "<array/>\n"
                return
            }
            text += "<array>\n"
            for value in values { value.write(to: &text, depth: depth + 1) }
            text += indent + "</array>\n"
        case .dictionary(let entries):
            guard !entries.isEmpty else {
                text += "<dict/>\n"
                return
            }
            text += "<dict>\n"
            for key in entries.keys.sorted() {
                text += indent + "\t<key>\(Self.escaped(key))</key>\n"
                entries[key]!.write(to: &text, depth: depth + 1)
            }
            text += indent + "</dict>\n"
        }
    }

    /// The shortest text that reads back as the same Double; infinities and NaN in the spellings
    /// Apple's parser accepts.
    static func realText(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-infinity" : "+infinity" }
        return value.description
    }

    /// Character data: `&` and `<` must be escaped, and `>` is, so that `]]>` can never appear.
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) else {
            return text
        }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// As the value it stands for (a dictionary as an object, a date as a date), so a type whose
    /// property list is built directly encodes to JSON too.
    public func encode(to encoder: any Encoder) throws {
        func single(_ value: some Encodable) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
        switch self {
        case .string(let value): try single(value)
        case .real(let value): try single(value)
        case .integer(let value): try single(value)
        case .boolean(let value): try single(value)
        case .date(let value): try single(value)
        case .array(let values):
            var container = encoder.unkeyedContainer()
            for value in values { try container.encode(value) }
        case .dictionary(let entries):
            var container = encoder.container(keyedBy: Key.self)
            for (key, value) in entries { try container.encode(value, forKey: Key(key)) }
        }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ stringValue: String) { self.stringValue = stringValue }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

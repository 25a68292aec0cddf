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
        var writer = XMLPropertyListWriter()
        write(to: &writer, depth: 0)
        return writer.document()
    }

    private func write(to writer: inout XMLPropertyListWriter, depth: Int) {
        switch self {
        case .string(let value): writer.string(value, depth: depth)
        case .real(let value): writer.real(value, depth: depth)
        case .integer(let value): writer.integer(value, depth: depth)
        case .boolean(let value): writer.boolean(value, depth: depth)
        case .date(let value): writer.date(value, depth: depth)
        case .array(let values):
            guard !values.isEmpty else { return writer.empty(.array, depth: depth) }
            writer.open(.array, depth: depth)
            for value in values { value.write(to: &writer, depth: depth + 1) }
            writer.close(.array, depth: depth)
        case .dictionary(let entries):
            guard !entries.isEmpty else { return writer.empty(.dictionary, depth: depth) }
            writer.open(.dictionary, depth: depth)
            for key in entries.keys.sorted() {
                writer.key(key, depth: depth + 1)
                entries[key]!.write(to: &writer, depth: depth + 1)
            }
            writer.close(.dictionary, depth: depth)
        }
    }

    /// The shortest text that reads back as the same Double; infinities and NaN in the spellings
    /// Apple's parser accepts.
    static func realText(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-infinity" : "+infinity" }
        return value.description
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

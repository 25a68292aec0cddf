import Foundation

extension XMLPropertyList {
    /// The property list of a wire type, through its `Encodable` conformance: the type's coding keys are
    /// the plist's keys, so each answer is declared once and written by the direct XML writer.
    ///
    /// Foundation's `PropertyListEncoder` would do the same on Linux, but through `PropertyListSerialization`,
    /// which is slow (see the type's comment). Plists have no null: a nil optional is an absent key.
    public init(encoding value: some Encodable) throws {
        let root = PlistNode()
        try root.encode(value, codingPath: [])
        self = root.value
    }
}

/// One value being encoded: filled by whichever container the value asks for.
private final class PlistNode {
    enum Content {
        case empty
        case leaf(XMLPropertyList)
        case dictionary([String: PlistNode])
        case array([PlistNode])
    }

    var content = Content.empty

    var value: XMLPropertyList {
        switch content {
        case .empty: .dictionary([:])
        case .leaf(let value): value
        case .dictionary(let children): .dictionary(children.mapValues(\.value))
        case .array(let children): .array(children.map(\.value))
        }
    }

    /// Leaves are written at once; anything else encodes itself into this node.
    func encode(_ value: some Encodable, codingPath: [any CodingKey]) throws {
        switch value {
        case let text as String: content = .leaf(.string(text))
        case let number as Double: content = .leaf(.real(number))
        case let number as Float: content = .leaf(.real(Double(number)))
        case let flag as Bool: content = .leaf(.boolean(flag))
        case let number as any BinaryInteger:
            guard let integer = Int64(exactly: number) else {
                throw EncodingError.invalidValue(number, .init(codingPath: codingPath, debugDescription: "a plist integer is 64-bit signed"))
            }
            content = .leaf(.integer(integer))
        case let date as Date: content = .leaf(.date(date))
        case let plist as XMLPropertyList: content = .leaf(plist)
        default: try value.encode(to: PlistEncoder(node: self, codingPath: codingPath))
        }
    }

    func child(forKey key: String) -> PlistNode {
        let node = PlistNode()
        if case .dictionary(var children) = content {
            children[key] = node
            content = .dictionary(children)
        } else {
            content = .dictionary([key: node])
        }
        return node
    }

    func appended() -> PlistNode {
        let node = PlistNode()
        if case .array(var children) = content {
            children.append(node)
            content = .array(children)
        } else {
            content = .array([node])
        }
        return node
    }
}

private struct PlistEncoder: Encoder {
    let node: PlistNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .dictionary = node.content {} else { node.content = .dictionary([:]) }
        return KeyedEncodingContainer(PlistKeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return PlistUnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        PlistSingleValueContainer(node: node, codingPath: codingPath)
    }
}

private struct PlistKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: PlistNode
    let codingPath: [any CodingKey]

    /// Plists cannot say null; the key is left out, as for an absent optional.
    mutating func encodeNil(forKey key: Key) throws {}

    mutating func encode(_ value: some Encodable, forKey key: Key) throws { try put(value, forKey: key) }

    private func put(_ value: some Encodable, forKey key: Key) throws {
        try node.child(forKey: key.stringValue).encode(value, codingPath: codingPath + [key])
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(value, forKey: key) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        PlistEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        PlistEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { PlistEncoder(node: node.child(forKey: "super"), codingPath: codingPath) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        PlistEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
    }
}

private struct PlistUnkeyedContainer: UnkeyedEncodingContainer {
    let node: PlistNode
    let codingPath: [any CodingKey]

    var count: Int {
        if case .array(let children) = node.content { return children.count }
        return 0
    }

    mutating func encodeNil() throws {}

    mutating func encode(_ value: some Encodable) throws { try put(value) }

    private func put(_ value: some Encodable) throws {
        try node.appended().encode(value, codingPath: codingPath)
    }

    mutating func encode(_ value: Bool) throws { try put(value) }
    mutating func encode(_ value: String) throws { try put(value) }
    mutating func encode(_ value: Double) throws { try put(value) }
    mutating func encode(_ value: Float) throws { try put(value) }
    mutating func encode(_ value: Int) throws { try put(value) }
    mutating func encode(_ value: Int8) throws { try put(value) }
    mutating func encode(_ value: Int16) throws { try put(value) }
    mutating func encode(_ value: Int32) throws { try put(value) }
    mutating func encode(_ value: Int64) throws { try put(value) }
    mutating func encode(_ value: UInt) throws { try put(value) }
    mutating func encode(_ value: UInt8) throws { try put(value) }
    mutating func encode(_ value: UInt16) throws { try put(value) }
    mutating func encode(_ value: UInt32) throws { try put(value) }
    mutating func encode(_ value: UInt64) throws { try put(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        PlistEncoder(node: node.appended(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        PlistEncoder(node: node.appended(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { PlistEncoder(node: node.appended(), codingPath: codingPath) }
}

private struct PlistSingleValueContainer: SingleValueEncodingContainer {
    let node: PlistNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws {}

    mutating func encode(_ value: some Encodable) throws { try put(value) }

    private func put(_ value: some Encodable) throws {
        try node.encode(value, codingPath: codingPath)
    }

    mutating func encode(_ value: Bool) throws { try put(value) }
    mutating func encode(_ value: String) throws { try put(value) }
    mutating func encode(_ value: Double) throws { try put(value) }
    mutating func encode(_ value: Float) throws { try put(value) }
    mutating func encode(_ value: Int) throws { try put(value) }
    mutating func encode(_ value: Int8) throws { try put(value) }
    mutating func encode(_ value: Int16) throws { try put(value) }
    mutating func encode(_ value: Int32) throws { try put(value) }
    mutating func encode(_ value: Int64) throws { try put(value) }
    mutating func encode(_ value: UInt) throws { try put(value) }
    mutating func encode(_ value: UInt8) throws { try put(value) }
    mutating func encode(_ value: UInt16) throws { try put(value) }
    mutating func encode(_ value: UInt32) throws { try put(value) }
    mutating func encode(_ value: UInt64) throws { try put(value) }
}


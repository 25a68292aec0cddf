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

/// One value being encoded: filled by whichever container the value asks for. Children are kept in
/// the node's own storage, so that adding one never copies its siblings.
private final class PlistNode {
    enum Kind {
        case empty, leaf, dictionary, array
    }

    var kind = Kind.empty
    var leaf = XMLPropertyList.boolean(false)
    var children: [String: PlistNode] = [:]
    var elements: [PlistNode] = []

    var value: XMLPropertyList {
        switch kind {
        case .empty: .dictionary([:])
        case .leaf: leaf
        case .dictionary: .dictionary(children.mapValues(\.value))
        case .array: .array(elements.map(\.value))
        }
    }

    func setLeaf(_ value: XMLPropertyList) {
        kind = .leaf
        leaf = value
    }

    /// Dates and plist values are leaves; anything else encodes itself into this node. Numbers, strings
    /// and booleans reach the containers' overloads for their types, which write leaves without a cast.
    func encode(_ value: some Encodable, codingPath: [any CodingKey]) throws {
        switch value {
        case let date as Date: setLeaf(.date(date))
        case let plist as XMLPropertyList: setLeaf(plist)
        default: try value.encode(to: PlistEncoder(node: self, codingPath: codingPath))
        }
    }

    func set(_ value: Bool) { setLeaf(.boolean(value)) }
    func set(_ value: String) { setLeaf(.string(value)) }
    func set(_ value: Double) { setLeaf(.real(value)) }
    func set(_ value: Float) { setLeaf(.real(Double(value))) }

    func set(_ value: some FixedWidthInteger, codingPath: [any CodingKey]) throws {
        guard let integer = Int64(exactly: value) else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "a plist integer is 64-bit signed"))
        }
        setLeaf(.integer(integer))
    }

    func child(forKey key: String) -> PlistNode {
        let node = PlistNode()
        kind = .dictionary
        children[key] = node
        return node
    }

    func appended() -> PlistNode {
        let node = PlistNode()
        kind = .array
        elements.append(node)
        return node
    }
}

private struct PlistEncoder: Encoder {
    let node: PlistNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.kind = .dictionary
        return KeyedEncodingContainer(PlistKeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.kind = .array
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

    mutating func encode(_ value: Bool, forKey key: Key) throws { node.child(forKey: key.stringValue).set(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { node.child(forKey: key.stringValue).set(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { node.child(forKey: key.stringValue).set(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { node.child(forKey: key.stringValue).set(value) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try node.child(forKey: key.stringValue).set(value, codingPath: codingPath + [key]) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try node.child(forKey: key.stringValue).set(value, codingPath: codingPath + [key]) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try node.child(forKey: key.stringValue).set(value, codingPath: codingPath + [key]) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try node.child(forKey: key.stringValue).set(value, codingPath: codingPath + [key]) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try node.child(forKey: key.stringValue).set(value, codingPath: codingPath + [key]) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try node.child(forKey: key.stringValue).set(value, codingPath: codingPath + [key]) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try node.child(forKey: key.stringValue).set(value, codingPath: codingPath + [key]) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try node.child(forKey: key.stringValue).set(value, codingPath: codingPath + [key]) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try node.child(forKey: key.stringValue).set(value, codingPath: codingPath + [key]) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try node.child(forKey: key.stringValue).set(value, codingPath: codingPath + [key]) }

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

private struct PlistUnkeyedContainer: UnkeyedEncodingContainer, PlistValueContainer {
    let node: PlistNode
    let codingPath: [any CodingKey]

    var count: Int { node.elements.count }

    mutating func encodeNil() throws {}

    /// Each value is a new element.
    func leafNode() -> PlistNode { node.appended() }


    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        PlistEncoder(node: node.appended(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        PlistEncoder(node: node.appended(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { PlistEncoder(node: node.appended(), codingPath: codingPath) }
}

private struct PlistSingleValueContainer: SingleValueEncodingContainer, PlistValueContainer {
    let node: PlistNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws {}

    /// The value is this node.
    func leafNode() -> PlistNode { node }
}

/// The unkeyed and the single-value container: each value they take goes into one node, written
/// here once for both.
private protocol PlistValueContainer {
    var codingPath: [any CodingKey] { get }
    /// The node the next value goes into.
    func leafNode() -> PlistNode
}

extension PlistValueContainer {
    mutating func encode(_ value: some Encodable) throws { try leafNode().encode(value, codingPath: codingPath) }

    mutating func encode(_ value: Bool) throws { leafNode().set(value) }
    mutating func encode(_ value: String) throws { leafNode().set(value) }
    mutating func encode(_ value: Double) throws { leafNode().set(value) }
    mutating func encode(_ value: Float) throws { leafNode().set(value) }
    mutating func encode(_ value: Int) throws { try leafNode().set(value, codingPath: codingPath) }
    mutating func encode(_ value: Int8) throws { try leafNode().set(value, codingPath: codingPath) }
    mutating func encode(_ value: Int16) throws { try leafNode().set(value, codingPath: codingPath) }
    mutating func encode(_ value: Int32) throws { try leafNode().set(value, codingPath: codingPath) }
    mutating func encode(_ value: Int64) throws { try leafNode().set(value, codingPath: codingPath) }
    mutating func encode(_ value: UInt) throws { try leafNode().set(value, codingPath: codingPath) }
    mutating func encode(_ value: UInt8) throws { try leafNode().set(value, codingPath: codingPath) }
    mutating func encode(_ value: UInt16) throws { try leafNode().set(value, codingPath: codingPath) }
    mutating func encode(_ value: UInt32) throws { try leafNode().set(value, codingPath: codingPath) }
    mutating func encode(_ value: UInt64) throws { try leafNode().set(value, codingPath: codingPath) }
}

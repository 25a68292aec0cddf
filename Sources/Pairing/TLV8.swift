/// HomeKit's TLV8: a list of (type, length, value) items with one-byte types and lengths, where a
/// value longer than 255 bytes is written as consecutive items of the same type that a reader joins.
///
/// Reading is strict, since every byte comes from the network: a truncated item, a message over the
/// size bound, or a type that comes back after another type (which would let two readers disagree on
/// which value counts) is an error naming the item.
public struct TLV8: Sendable, Equatable {
    /// The bound on an encoded message: pairing's largest (pair-setup M3: a 384-byte SRP public key and a
    /// 64-byte proof; M5: an encrypted sub-TLV with a key and a signature) stay far below it.
    public static let maximumEncodedBytes = 16 * 1024

    public struct Item: Sendable, Equatable {
        public let type: UInt8
        public let value: [UInt8]

        public init(_ type: UInt8, _ value: [UInt8]) {
            self.type = type
            self.value = value
        }
    }

    /// The items in order, each value whole (joined from its fragments).
    public let items: [Item]

    public init(_ items: [Item]) { self.items = items }

    /// Items in the order written, keyed by their HAP type.
    public init(_ items: KeyValuePairs<TLVType, [UInt8]>) {
        self.init(items.map { Item($0.key.rawValue, $0.value) })
    }

    /// The value of the first item of `type`.
    public subscript(type: UInt8) -> [UInt8]? { items.first { $0.type == type }?.value }

    public subscript(type: TLVType) -> [UInt8]? { self[type.rawValue] }

    /// The bytes of the items, values over 255 bytes split into fragments of 255.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        for item in items {
            guard !item.value.isEmpty else {
                bytes += [item.type, 0]
                continue
            }
            var start = 0
            while start < item.value.count {
                let end = min(item.value.count, start + 255)
                bytes += [item.type, UInt8(end - start)]
                bytes += item.value[start..<end]
                start = end
            }
        }
        return bytes
    }

    /// Reads `bytes` as TLV8 under `maximum` bytes.
    public static func decode(_ bytes: [UInt8], maximum: Int = maximumEncodedBytes) throws(TLV8Error) -> TLV8 {
        guard bytes.count <= maximum else { throw .oversize(bytes: bytes.count, maximum: maximum) }
        var items: [Item] = []
        var current: (type: UInt8, value: [UInt8], lastFragment: Int)?
        var seen = Set<UInt8>()
        var offset = 0
        while offset < bytes.count {
            guard offset + 2 <= bytes.count else { throw .truncatedItem(offset: offset, type: bytes[offset], declared: nil, available: 0) }
            let type = bytes[offset]
            let length = Int(bytes[offset + 1])
            let available = bytes.count - offset - 2
            guard length <= available else { throw .truncatedItem(offset: offset, type: type, declared: length, available: available) }
            let value = bytes[(offset + 2)..<(offset + 2 + length)]
            // A fragment continues the item before only when that one was full (255 bytes): HAP splits
            // values there and nowhere else.
            if let open = current, open.type == type, open.lastFragment == 255 {
                current = (type, open.value + value, length)
            } else {
                if let open = current { items.append(Item(open.type, open.value)) }
                guard !seen.contains(type) || type == TLVType.separator.rawValue else { throw .duplicateType(type: type, offset: offset) }
                seen.insert(type)
                current = (type, Array(value), length)
            }
            offset += 2 + length
        }
        if let open = current { items.append(Item(open.type, open.value)) }
        return TLV8(items)
    }
}

extension TLV8: ExpressibleByDictionaryLiteral {
    /// Items in the order written, keyed by their HAP type.
    public init(dictionaryLiteral elements: (TLVType, [UInt8])...) {
        self.init(elements.map { Item($0.0.rawValue, $0.1) })
    }
}

/// Why bytes are not TLV8; each names the item (its offset and type) that broke the rule.
public enum TLV8Error: Error, Equatable, Sendable, CustomStringConvertible {
    /// The item at `offset` declares `declared` bytes (nil: its length byte is missing) where `available` remain.
    case truncatedItem(offset: Int, type: UInt8, declared: Int?, available: Int)
    case oversize(bytes: Int, maximum: Int)
    /// `type` appears again at `offset` after other items came between.
    case duplicateType(type: UInt8, offset: Int)

    public var description: String {
        switch self {
        case .truncatedItem(let offset, let type, let declared, let available):
            if let declared {
                return "TLV8 item of type \(type) at byte \(offset) declares \(declared) bytes but \(available) remain"
            }
            return "TLV8 item of type \(type) at byte \(offset) has no length byte"
        case .oversize(let bytes, let maximum): return "TLV8 message of \(bytes) bytes is over the \(maximum)-byte bound"
        case .duplicateType(let type, let offset): return "TLV8 item of type \(type) at byte \(offset) repeats a type already read"
        }
    }
}

import Foundation

/// Checks a binary property list's structure before Foundation's decoder sees it.
///
/// Foundation's binary scanner stops the process on some malformed documents (a trap in
/// `BPlistScanner.scanArrayOrSet`, found by `fuzz-property-list`), and walks a document whose
/// objects share children once per path, which makes a few hundred bytes 2^40 values. libplist,
/// the C alternative, expands shared objects the same way. So this reads only what the structure
/// needs (the trailer, the offset table, each object's marker, length and references) and refuses a
/// document unless every offset, length and reference lies inside it, no object contains itself,
/// and the document, expanded, holds at most `maximumValues` values. It parses no value.
enum BinaryPropertyListCheck {
    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    /// The `bplist00` header and the 32-byte trailer.
    private static let headerSize = 8
    private static let trailerSize = 32

    static func check(_ data: Data, maximumValues: Int) throws(Refusal) {
        let bytes = [UInt8](data)
        guard bytes.count >= headerSize + trailerSize, bytes.starts(with: Array("bplist0".utf8)) else {
            throw Refusal(description: "a binary property list too short for its header and trailer")
        }
        let trailer = bytes.count - trailerSize
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
            let count = Int(exactly: read(bytes, at: trailer + 8, size: 8)),
            let top = Int(exactly: read(bytes, at: trailer + 16, size: 8)),
            let table = Int(exactly: read(bytes, at: trailer + 24, size: 8)),
            count >= 1, count <= bytes.count, top < count, table >= headerSize, table <= trailer,
            count <= (trailer - table) / offsetSize
        else {
            throw Refusal(description: "a binary property list whose trailer does not describe it")
        }
        var children: [[Int]] = []
        children.reserveCapacity(count)
        for index in 0..<count {
            let offset = read(bytes, at: table + index * offsetSize, size: offsetSize)
            guard offset >= UInt64(headerSize), offset < UInt64(table) else {
                throw Refusal(description: "object \(index) of a binary property list lies outside its objects")
            }
            children.append(try references(of: Int(offset), in: bytes, end: table, referenceSize: referenceSize, count: count))
        }
        try checkExpansion(from: top, children: children, maximumValues: maximumValues)
    }

    /// The objects an object refers to (none for a scalar), after checking that it fits before `end`.
    private static func references(of offset: Int, in bytes: [UInt8], end: Int, referenceSize: Int, count: Int) throws(Refusal) -> [Int] {
        let marker = bytes[offset]
        let kind = marker >> 4
        var cursor = offset + 1
        func fits(_ length: Int) throws(Refusal) {
            guard length >= 0, length <= end - cursor else {
                throw Refusal(description: "an object of a binary property list runs past its objects")
            }
        }
        /// The count in the marker's low nibble, or the integer object that follows it when that is 0xF.
        func length() throws(Refusal) -> Int {
            guard marker & 0x0F == 0x0F else { return Int(marker & 0x0F) }
            try fits(1)
            let sizeMarker = bytes[cursor]
            guard sizeMarker >> 4 == 0x1, sizeMarker & 0x0F <= 3 else {
                throw Refusal(description: "a binary property list length that is not an integer")
            }
            let size = 1 << Int(sizeMarker & 0x0F)
            cursor += 1
            try fits(size)
            let value = read(bytes, at: cursor, size: size)
            cursor += size
            guard let length = Int(exactly: value), length <= end else {
                throw Refusal(description: "a binary property list length past its size")
            }
            return length
        }
        switch kind {
        case 0x0:
            return []
        case 0x1, 0x2:
            guard marker & 0x0F <= 4 else { throw Refusal(description: "a binary property list number of no known size") }
            try fits(1 << Int(marker & 0x0F))
            return []
        case 0x3:
            try fits(8)
            return []
        case 0x4, 0x5:
            try fits(try length())
            return []
        case 0x6:
            let characters = try length()
            guard characters <= Int.max / 2 else { throw Refusal(description: "a binary property list string past its size") }
            try fits(characters * 2)
            return []
        case 0x8:
            try fits(Int(marker & 0x0F) + 1)
            return []
        case 0xA, 0xB, 0xC, 0xD:
            let entries = try length()
            let referenceCount = kind == 0xD ? entries * 2 : entries
            guard entries <= end, referenceCount <= (end - cursor) / referenceSize else {
                throw Refusal(description: "a binary property list collection runs past its objects")
            }
            var found: [Int] = []
            found.reserveCapacity(referenceCount)
            for position in 0..<referenceCount {
                let reference = read(bytes, at: cursor + position * referenceSize, size: referenceSize)
                guard reference < UInt64(count) else {
                    throw Refusal(description: "a binary property list collection names an object it does not have")
                }
                found.append(Int(reference))
            }
            return found
        default:
            throw Refusal(description: "a binary property list object of an unknown kind (marker \(marker))")
        }
    }

    /// Counts the values the document stands for once every shared object is expanded, without
    /// expanding it: each object's count is its own plus its children's, worked out once per object.
    private static func checkExpansion(from top: Int, children: [[Int]], maximumValues: Int) throws(Refusal) {
        var sizes = [Int?](repeating: nil, count: children.count)
        var onPath = [Bool](repeating: false, count: children.count)
        var stack: [(object: Int, next: Int)] = [(top, 0)]
        onPath[top] = true
        while let (object, next) = stack.last {
            if next < children[object].count {
                stack[stack.count - 1].next += 1
                let child = children[object][next]
                if sizes[child] != nil { continue }
                guard !onPath[child] else { throw Refusal(description: "a binary property list object that contains itself") }
                onPath[child] = true
                stack.append((child, 0))
                continue
            }
            var size = 1
            for child in children[object] {
                size += sizes[child] ?? 0
                guard size <= maximumValues else {
                    throw Refusal(description: "a binary property list that holds more than \(maximumValues) values")
                }
            }
            sizes[object] = size
            onPath[object] = false
            stack.removeLast()
        }
    }

    /// A big-endian unsigned integer of `size` bytes (1 to 8) at `offset`, which the caller checked.
    private static func read(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<size { value = value << 8 | UInt64(bytes[offset + index]) }
        return value
    }
}

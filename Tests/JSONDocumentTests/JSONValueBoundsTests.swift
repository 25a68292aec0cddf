import Foundation
@testable import JSONDocument
import Testing
import TestSupport

/// A document is read into a `JSONValue` with bounded work, whatever it holds: a binary property list
/// that names one object from many places (a few hundred bytes for 2^30 values), and nesting that
/// would take the decoder's stack, are refused as errors.
@Suite("JSON values are read with bounded work", .ownThread)
struct JSONValueBoundsTests {
    @Test("A document nested deeper than the limit is refused, one within it is read")
    func nestingIsBounded() throws {
        let within = String(repeating: "[", count: JSONValue.maximumDepth) + String(repeating: "]", count: JSONValue.maximumDepth)
        #expect(throws: Never.self) { try JSONDecoder().decode(JSONValue.self, from: Data(within.utf8)) }
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: (any Error).self) { try JSONDecoder().decode(JSONValue.self, from: Data(deep.utf8)) }
    }

    @Test("A document with more values than the limit is refused, one with as many is read")
    func valuesAreCounted() throws {
        func array(_ count: Int) -> Data { Data(("[" + Array(repeating: "0", count: count).joined(separator: ",") + "]").utf8) }
        // The array itself is one of the values.
        let read = try JSONDecoder().decode(JSONValue.self, from: array(JSONValue.maximumValues - 1))
        guard case .array(let values) = read else { Issue.record("not an array: \(read)"); return }
        #expect(values.count == JSONValue.maximumValues - 1)
        #expect(throws: DecodingBudget.Exceeded.self) { try JSONDecoder().decode(JSONValue.self, from: array(JSONValue.maximumValues)) }
    }

    @Test("A binary property list whose objects share children is refused before its expansion is walked")
    func sharedObjectsAreCountedEachTimeTheyAreReached() throws {
        // 40 arrays, each holding the next one twice: 2^40 values once expanded, 600 bytes as written.
        let document = SharedObjectPropertyList.chain(depth: 40)
        let started = ContinuousClock.now
        #expect(throws: (any Error).self) { try PropertyListDecoder().decode(JSONValue.self, from: document) }
        // Not a timing assertion on the machine's speed: a walk of the expansion would never end.
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test("Each document gets its own budget: many documents decoded one after another are each read whole")
    func budgetsDoNotCarryOver() throws {
        let data = Data(("[" + Array(repeating: "1", count: JSONValue.maximumValues * 3 / 4).joined(separator: ",") + "]").utf8)
        for _ in 0..<3 {
            #expect(throws: Never.self) { try JSONDecoder().decode(JSONValue.self, from: data) }
        }
    }
}

/// Writes binary property lists by hand, since PropertyListSerialization never shares an object.
enum SharedObjectPropertyList {
    /// Object 0 is an array of object 1 twice, object 1 of object 2 twice, …, the last is the integer 0.
    static func chain(depth: Int) -> Data {
        var objects: [[UInt8]] = []
        for index in 0..<depth {
            objects.append([0xA2, UInt8(index + 1), UInt8(index + 1)])
        }
        objects.append([0x10, 0x00])
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let tableOffset = bytes.count
        for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
        // Trailer: 6 unused bytes, offset size 2, reference size 1, object count, top object, table offset.
        bytes += [0, 0, 0, 0, 0, 0, 2, 1]
        bytes += withUnsafeBytes(of: UInt64(objects.count).bigEndian, Array.init)
        bytes += withUnsafeBytes(of: UInt64(0).bigEndian, Array.init)
        bytes += withUnsafeBytes(of: UInt64(tableOffset).bigEndian, Array.init)
        return Data(bytes)
    }
}

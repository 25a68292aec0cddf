import Foundation
import Testing

@testable import SenderProtocol

/// The structure of a binary property list is checked before Foundation's decoder reads it: what
/// senders send is taken, what would stop or wedge the decoder is refused with a reason.
@Suite("Binary property lists are checked before they are decoded")
struct BinaryPropertyListCheckTests {
    static func binary(_ value: Any) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
    }

    @Test("A sender's /play body and every kind of value pass the check")
    func wellFormedDocumentsPass() throws {
        let play: [String: Any] = ["Content-Location": "http://127.0.0.1:8000/show.m3u8", "Start-Position": 0.25, "uuid": "5A1B"]
        try BinaryPropertyListCheck.check(try Self.binary(play), maximumValues: 100)
        let every: [String: Any] = [
            "string": "s", "unicode": "é✓", "int": -3, "big": Int64.max, "real": 1.5, "bool": true, "date": Date(timeIntervalSince1970: 0),
            "data": Data([0, 1, 2]), "array": [1, "two", [3.0]], "dict": ["nested": ["k": "v"]], "long": String(repeating: "x", count: 300),
        ]
        try BinaryPropertyListCheck.check(try Self.binary(every), maximumValues: 100)
    }

    @Test("A document whose objects share children is refused by what it would expand to, not by its size")
    func sharedChildrenAreCountedPerReference() throws {
        // Object 0 is an array of object 1 twice, …: 2^(depth+1) - 1 values once expanded.
        func chain(_ depth: Int) -> Data {
            let objects: [[UInt8]] = (0..<depth).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] } + [[0x10, 0x00]]
            var bytes = Array("bplist00".utf8)
            var offsets: [Int] = []
            for object in objects { offsets.append(bytes.count); bytes += object }
            let table = bytes.count
            for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
            bytes += [0, 0, 0, 0, 0, 0, 2, 1]
            for value in [UInt64(objects.count), 0, UInt64(table)] { bytes += withUnsafeBytes(of: value.bigEndian, Array.init) }
            return Data(bytes)
        }
        try BinaryPropertyListCheck.check(chain(9), maximumValues: 1023)
        #expect(throws: BinaryPropertyListCheck.Refusal.self) { try BinaryPropertyListCheck.check(chain(10), maximumValues: 1023) }
        #expect(throws: BinaryPropertyListCheck.Refusal.self) { try BinaryPropertyListCheck.check(chain(40), maximumValues: 20_000) }
    }

    @Test("A truncated document, a reference past the objects and an object that contains itself are refused")
    func malformedDocumentsAreRefused() throws {
        let good = try Self.binary(["a": [1, 2, 3]])
        #expect(throws: BinaryPropertyListCheck.Refusal.self) { try BinaryPropertyListCheck.check(good.prefix(good.count - 1), maximumValues: 100) }
        #expect(throws: BinaryPropertyListCheck.Refusal.self) { try BinaryPropertyListCheck.check(Data("bplist00".utf8), maximumValues: 100) }
        // One array (object 0) that holds object 5 of a one-object document, then one that holds itself.
        for body in [[0xA1, 0x05], [0xA1, 0x00]] as [[UInt8]] {
            var bytes = Array("bplist00".utf8) + body
            bytes += [0x08]  // offset table: object 0 at 8
            bytes += [0, 0, 0, 0, 0, 0, 1, 1]
            for value in [UInt64(1), 0, UInt64(10)] { bytes += withUnsafeBytes(of: value.bigEndian, Array.init) }
            #expect(throws: BinaryPropertyListCheck.Refusal.self) { try BinaryPropertyListCheck.check(Data(bytes), maximumValues: 100) }
        }
    }
}

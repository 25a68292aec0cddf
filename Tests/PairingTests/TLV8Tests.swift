import Pairing
import Testing

@Suite struct TLV8Tests {
    @Test func itemsWriteAndReadBackInOrder() throws {
        let tlv: TLV8 = [.state: [1], .method: [0], .identifier: Array("controller".utf8), .flags: []]
        let bytes = tlv.encoded()
        #expect(bytes.prefix(6) == [6, 1, 1, 0, 1, 0])
        #expect(try TLV8.decode(bytes) == tlv)
        #expect(try TLV8.decode([]) == TLV8([]))
    }

    @Test func aValueOver255BytesIsSplitIntoFragmentsAndJoinedOnRead() throws {
        let key = (0..<600).map { UInt8($0 % 251) }
        let tlv: TLV8 = [.publicKey: key, .proof: [1, 2]]
        let bytes = tlv.encoded()
        // 255 + 255 + 90: three items of type 3, then the proof.
        #expect(bytes.count == 3 * 2 + 600 + 4)
        #expect(bytes[0] == 3 && bytes[1] == 255 && bytes[257] == 3 && bytes[258] == 255 && bytes[514] == 3 && bytes[515] == 90)
        let read = try TLV8.decode(bytes)
        #expect(read[.publicKey] == key)
        #expect(read[.proof] == [1, 2])
        // Exactly 255 bytes is one item.
        #expect(TLV8([.salt: [UInt8](repeating: 9, count: 255)]).encoded().count == 257)
    }

    @Test func aTruncatedItemIsAnErrorNamingIt() {
        #expect(throws: TLV8Error.truncatedItem(offset: 3, type: 4, declared: 64, available: 2)) {
            try TLV8.decode([6, 1, 3, 4, 64, 1, 2])
        }
        #expect(throws: TLV8Error.truncatedItem(offset: 3, type: 7, declared: nil, available: 0)) { try TLV8.decode([6, 1, 3, 7]) }
    }

    @Test func aMessageOverTheBoundIsRefused() {
        let bytes = [UInt8](repeating: 0, count: TLV8.maximumEncodedBytes + 1)
        #expect(throws: TLV8Error.oversize(bytes: TLV8.maximumEncodedBytes + 1, maximum: TLV8.maximumEncodedBytes)) { try TLV8.decode(bytes) }
        #expect(throws: TLV8Error.oversize(bytes: 10, maximum: 8)) { try TLV8.decode([UInt8](repeating: 0, count: 10), maximum: 8) }
    }

    @Test func aTypeThatComesBackAfterAnotherIsADuplicate() {
        #expect(throws: TLV8Error.duplicateType(type: 6, offset: 6)) { try TLV8.decode([6, 1, 1, 0, 1, 0, 6, 1, 3]) }
        // Adjacent, but after a short fragment: HAP splits only at 255, so this is a second value too.
        #expect(throws: TLV8Error.duplicateType(type: 1, offset: 4)) { try TLV8.decode([1, 2, 65, 66, 1, 1, 67]) }
    }

    @Test func separatorsMayRepeat() throws {
        let read = try TLV8.decode([1, 1, 65, 0xff, 0, 3, 1, 2, 0xff, 0])
        #expect(read.items.count == 4)
    }

    @Test func errorsSayWhatIsWrongWithWhichItem() {
        #expect(
            "\(TLV8Error.truncatedItem(offset: 3, type: 4, declared: 64, available: 2))"
                == "TLV8 item of type 4 at byte 3 declares 64 bytes but 2 remain")
        #expect("\(TLV8Error.duplicateType(type: 6, offset: 6))" == "TLV8 item of type 6 at byte 6 repeats a type already read")
    }
}

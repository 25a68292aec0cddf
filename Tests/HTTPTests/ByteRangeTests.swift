import HTTP
import Testing

@Suite("Byte ranges of a served file")
struct ByteRangeTests {
    @Test("A range reaching Int.max or past it is the rest of the file, not an overflow", arguments: [
        "bytes=0-9223372036854775807", "bytes=0-9223372036854775808", "bytes=0-99999999999999999999999999",
    ])
    func hugeLastPosition(header: String) {
        #expect(ServedFolder.byteRange(header, size: 100) == .part(0..<100))
    }

    @Test("A first position at or past the end, however large, is unsatisfiable", arguments: [
        "bytes=100-", "bytes=100-200", "bytes=9223372036854775807-", "bytes=9223372036854775807-9223372036854775807",
        "bytes=99999999999999999999999-",
    ])
    func pastTheEnd(header: String) {
        #expect(ServedFolder.byteRange(header, size: 100) == .unsatisfiable)
    }

    @Test("Suffix ranges take the last N bytes, the whole file when N is larger, nothing when N is 0")
    func suffixes() {
        #expect(ServedFolder.byteRange("bytes=-5", size: 100) == .part(95..<100))
        #expect(ServedFolder.byteRange("bytes=-9223372036854775807", size: 100) == .part(0..<100))
        #expect(ServedFolder.byteRange("bytes=-99999999999999999999", size: 100) == .part(0..<100))
        #expect(ServedFolder.byteRange("bytes=-0", size: 100) == .unsatisfiable)
        #expect(ServedFolder.byteRange("bytes=-5", size: 0) == .unsatisfiable)
    }

    @Test("Ordinary ranges are cut at the end of the file")
    func ordinary() {
        #expect(ServedFolder.byteRange("bytes=10-19", size: 100) == .part(10..<20))
        #expect(ServedFolder.byteRange("bytes=90-", size: 100) == .part(90..<100))
        #expect(ServedFolder.byteRange("bytes=90-500", size: 100) == .part(90..<100))
        #expect(ServedFolder.byteRange("Bytes= 0-0", size: 100) == .part(0..<1))
    }

    @Test("A header that is not one byte range is ignored and the whole file served", arguments: [
        "items=0-5", "bytes=0-5,10-20", "bytes=5-2", "bytes=-", "bytes=a-b", "bytes=+1-2", "bytes=-1-2", "bytes=0x10-", "bytes", "",
    ])
    func ignored(header: String) {
        #expect(ServedFolder.byteRange(header, size: 100) == .whole)
    }
}

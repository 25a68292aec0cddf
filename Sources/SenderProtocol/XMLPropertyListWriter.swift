import Foundation

/// Writes Apple's XML property list text as bytes, one element at a time: the one place the format is
/// spelled (declaration, DOCTYPE, tab indents, tags, escapes, reals).
///
/// `XMLPropertyList` writes any value through it; the answers senders poll many times a second
/// (`PlaybackInfo`) write their fixed keys through it directly, without building a value first, which
/// made the plist the largest cost of a `/playback-info` answer.
struct XMLPropertyListWriter {
    enum Container {
        case dictionary, array
    }

    private let bytes: ByteBlock

    /// A document begun with its declaration, DOCTYPE and `<plist>`; `capacity` is the bytes to reserve.
    init(capacity: Int = 1536) {
        bytes = ByteBlock(capacity: capacity)
        append("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """)
    }

    /// The whole document, closed.
    consuming func document() -> Data {
        append("</plist>\n")
        return bytes.take()
    }

    // MARK: - Elements, each on its own line at `depth` tabs

    mutating func key(_ name: StaticString, depth: Int) {
        indent(depth)
        append("<key>")
        append(name)
        append("</key>\n")
    }

    mutating func key(_ name: String, depth: Int) {
        indent(depth)
        append("<key>")
        appendEscaped(name)
        append("</key>\n")
    }

    mutating func real(_ value: Double, depth: Int) {
        indent(depth)
        append("<real>")
        // Reals of up to 15 characters are small strings: no allocation.
        appendVerbatim(XMLPropertyList.realText(value))
        append("</real>\n")
    }

    mutating func integer(_ value: Int64, depth: Int) {
        indent(depth)
        append("<integer>")
        appendVerbatim(String(value))
        append("</integer>\n")
    }

    mutating func boolean(_ value: Bool, depth: Int) {
        indent(depth)
        append(value ? "<true/>\n" : "<false/>\n")
    }

    mutating func string(_ value: String, depth: Int) {
        indent(depth)
        append("<string>")
        appendEscaped(value)
        append("</string>\n")
    }

    /// In UTC to the second, as Apple's XML property lists write dates.
    mutating func date(_ value: Date, depth: Int) {
        indent(depth)
        append("<date>")
        appendVerbatim(value.formatted(.iso8601))
        append("</date>\n")
    }

    mutating func open(_ container: Container, depth: Int) {
        indent(depth)
        append(container == .dictionary ? "<dict>\n" : "<array>\n")
    }

    mutating func close(_ container: Container, depth: Int) {
        indent(depth)
        append(container == .dictionary ? "</dict>\n" : "</array>\n")
    }

    /// A container without elements, as its self-closing tag.
    mutating func empty(_ container: Container, depth: Int) {
        indent(depth)
        append(container == .dictionary ? "<dict/>\n" : "<array/>\n")
    }

    // MARK: - Bytes

    private mutating func indent(_ depth: Int) {
        let tabs: StaticString = "\t\t\t\t\t\t\t\t"
        var left = depth
        while left > 0 {
            let count = min(left, tabs.utf8CodeUnitCount)
            bytes.append(tabs.utf8Start, count: count)
            left -= count
        }
    }

    private mutating func append(_ text: StaticString) {
        bytes.append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// Text that needs no escaping: numbers and dates.
    private mutating func appendVerbatim(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            if let base = utf8.baseAddress { bytes.append(base, count: utf8.count) }
        }
    }

    /// Character data: `&` and `<` must be escaped, and `>` is, so that `]]>` can never appear. Text
    /// without them (every key, nearly every value) is copied whole.
    private mutating func appendEscaped(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            guard utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) else {
                if let base = utf8.baseAddress { bytes.append(base, count: utf8.count) }
                return
            }
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "&"): append("&amp;")
                case UInt8(ascii: "<"): append("&lt;")
                case UInt8(ascii: ">"): append("&gt;")
                default: bytes.append(byte)
                }
            }
        }
    }
}

/// The document's bytes in one block from malloc, which grows by doubling and becomes the `Data` it
/// ends as without a copy.
private final class ByteBlock {
    private var start: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int
    /// The block belongs to the `Data` that `take()` made.
    private var taken = false

    init(capacity: Int) {
        self.capacity = max(64, capacity)
        start = malloc(self.capacity)!.assumingMemoryBound(to: UInt8.self)
    }

    deinit {
        if !taken { free(start) }
    }

    func append(_ source: UnsafePointer<UInt8>, count added: Int) {
        reserve(added)
        (start + count).update(from: source, count: added)
        count += added
    }

    func append(_ byte: UInt8) {
        reserve(1)
        start[count] = byte
        count += 1
    }

    /// The bytes written, as `Data` that frees them; nothing may be written afterwards.
    func take() -> Data {
        taken = true
        return Data(bytesNoCopy: start, count: count, deallocator: .free)
    }

    private func reserve(_ added: Int) {
        assert(!taken, "written after the document was taken")
        guard count + added > capacity else { return }
        while count + added > capacity { capacity *= 2 }
        start = realloc(start, capacity)!.assumingMemoryBound(to: UInt8.self)
    }
}

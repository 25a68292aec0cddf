import Foundation
import JSONDocument

/// Reads a property list that came from the other end: a sender's /play or setProperty body, a
/// receiver's /server-info. Every read of the wire's property lists goes through here.
///
/// Foundation's decoder stops the process (a fatal error, not a thrown one) on some documents found
/// by `fuzz-property-list`: an XML property list that is not valid UTF-8, such as `<integer>` followed
/// by bytes above 0x7F, and malformed binary ones. So an XML document is checked for UTF-8 first, and a
/// binary one by `BinaryPropertyListCheck` (offsets, lengths, references, and what it holds once its
/// shared objects are expanded), and a document that fails is refused with a thrown error.
public enum PropertyListInput {
    public struct Refusal: Error, CustomStringConvertible {
        public var description: String
    }

    public static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        if data.starts(with: Array("bplist".utf8)) {
            do throws(BinaryPropertyListCheck.Refusal) {
                try BinaryPropertyListCheck.check(data, maximumValues: JSONValue.maximumValues)
            } catch {
                throw Refusal(description: error.description)
            }
        } else if String(validating: data, as: UTF8.self) == nil {
            throw Refusal(description: "an XML property list that is not UTF-8")
        }
        return try PropertyListDecoder().decode(type, from: data)
    }
}

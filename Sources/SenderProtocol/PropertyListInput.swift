import Foundation

/// Reads a property list that came from the other end: a sender's /play or setProperty body, a
/// receiver's /server-info.
///
/// Foundation's decoder stops the process (a fatal error, not a thrown one) on an XML property list
/// that is not valid UTF-8, such as `<integer>` followed by bytes above 0x7F (found by
/// `fuzz-property-list`). So an XML document is checked for UTF-8 first and refused as a thrown error;
/// a binary one (`bplist`) keeps its strings in its own encodings and goes to the decoder as it is.
/// Every read of the wire's property lists goes through here.
public enum PropertyListInput {
    public struct NotUTF8: Error {}

    public static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        if !data.starts(with: Array("bplist".utf8)), String(validating: data, as: UTF8.self) == nil {
            throw NotUTF8()
        }
        return try PropertyListDecoder().decode(type, from: data)
    }
}

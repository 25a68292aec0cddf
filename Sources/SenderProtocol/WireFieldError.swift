/// A member of a wire message that is present with the wrong JSON or plist type: a 400 that names it.
public struct WireFieldError: Error, Sendable, Equatable {
    public var key: String
    /// What the member must be: "true or false", "a number of seconds".
    public var expected: String
}

extension KeyedDecodingContainer {
    /// The member, nil when absent or null; one of another type is a `WireFieldError` naming it.
    func wireField<Value: Decodable>(_ key: Key, expected: String) throws -> Value? {
        do {
            return try decodeIfPresent(Value.self, forKey: key)
        } catch {
            throw WireFieldError(key: key.stringValue, expected: expected)
        }
    }
}

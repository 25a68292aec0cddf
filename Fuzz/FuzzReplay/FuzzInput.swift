import Foundation

/// A fuzz input split the way the targets read it: a leading byte that picks among a target's
/// variants (a content type, a property name), then the bytes themselves.
public struct FuzzInput {
    public var selector: UInt8
    public var body: Data

    public init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        selector = size > 0 ? data[0] : 0
        body = size > 1 ? Data(bytes: data + 1, count: size - 1) : Data()
    }

    /// One of `choices`, by the selector byte.
    public func pick<T>(_ choices: [T]) -> T {
        choices[Int(selector) % choices.count]
    }
}

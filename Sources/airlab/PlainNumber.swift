/// Numbers as a person writes them in a sentence: "3", "2.5", not "3.0".
enum PlainNumber {
    static func text(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

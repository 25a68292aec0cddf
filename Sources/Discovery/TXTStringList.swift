import CAvahi

/// Conversions between TXT records and avahi's `AvahiStringList`.
enum TXTStringList {
    /// Calls `body` with an `AvahiStringList` holding `entries` in their given order, then frees it.
    ///
    /// `avahi_string_list_add_pair` prepends, so the entries are added last to first.
    static func withList<Result>(
        _ entries: [(key: String, value: String)],
        _ body: (UnsafeMutablePointer<AvahiStringList>?) -> Result
    ) -> Result {
        var list: UnsafeMutablePointer<AvahiStringList>? = nil
        for (key, value) in entries.reversed() {
            list = avahi_string_list_add_pair(list, key, value)
        }
        defer { avahi_string_list_free(list) }
        return body(list)
    }

    /// The entries of a received TXT record as a dictionary; a key without `=` maps to "".
    static func dictionary(_ list: UnsafeMutablePointer<AvahiStringList>?) -> [String: String] {
        var result: [String: String] = [:]
        var node = list
        while let current = node {
            var key: UnsafeMutablePointer<CChar>? = nil
            var value: UnsafeMutablePointer<CChar>? = nil
            if avahi_string_list_get_pair(current, &key, &value, nil) == 0, let key {
                // The first occurrence of a key wins (RFC 6763 §6.4).
                let name = String(cString: key)
                if result[name] == nil {
                    result[name] = value.map { String(cString: $0) } ?? ""
                }
                avahi_free(key)
                avahi_free(value)
            }
            node = avahi_string_list_get_next(current)
        }
        return result
    }
}

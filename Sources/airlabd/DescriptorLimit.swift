@preconcurrency import Glibc

/// The process's limit on open descriptors, which every connection of every receiver counts against.
enum DescriptorLimit {
    /// Raises the soft limit to the hard one, as far as the system lets a process go without privilege,
    /// and returns the soft limit then in force. Distributions start daemons at 1024, which half a
    /// receiver's connection limit of held-open connections would use up.
    static func raiseToHard() -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        // RLIM_INFINITY is the largest rlim_t.
        return Int(clamping: limit.rlim_cur)
    }
}

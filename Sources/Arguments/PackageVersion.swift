/// The version of the airlab package, in one place: `airlab --version` and `airlabd --version` print
/// it, and the Makefile reads it from this file to name the Debian package (`make deb`), so keep the
/// declaration on one line in this form.
public enum PackageVersion {
    public static let current = "0.1.0"
    /// The day `current` was set, for the manual pages' header: generating a page reads no clock.
    public static let date = "2026-12-02"
}

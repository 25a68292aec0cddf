/// Days since 1970-01-01 and the proleptic Gregorian calendar date they fall on, by arithmetic alone
/// (Howard Hinnant's algorithms): no time zone, no locale, no lock.
///
/// glibc's `gmtime_r` takes the process-wide time-zone lock on every call, even for UTC; a server that
/// stamps every response with a date from several threads queues them on that lock.
public enum CivilDays {
    /// Days since 1970-01-01 of a year, month (1–12) and day (1–31).
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The year, month (1–12) and day (1–31) a count of days since 1970-01-01 falls on.
    public static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPrime = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
        let month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// 0 for Sunday through 6 for Saturday (1970-01-01 was a Thursday).
    public static func weekday(days: Int) -> Int {
        ((days % 7) + 7 + 4) % 7
    }
}

//! RFC 3339 timestamps (`annotations.lastModified`, docs/rules.md §14.3), parsed to a comparable
//! instant so that offsets order correctly (`10:00+02:00` is before `09:00Z`).

/// An instant: seconds since 1970-01-01T00:00:00Z plus nanoseconds. Ordered by time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp {
    /// Seconds since the Unix epoch (negative before 1970).
    pub secs: i64,
    /// Nanoseconds within the second, `0..1_000_000_000`.
    pub nanos: u32,
}

impl Timestamp {
    /// Parses an RFC 3339 `date-time` (§5.6): `YYYY-MM-DDThh:mm:ss[.frac](Z|±hh:mm)`.
    /// Accepts `t` / space for `T` and `z` for `Z` (§5.6 note); a leap second `60`; any
    /// number of fraction digits (nanosecond precision kept). Checks day-of-month against
    /// the month and leap years. Returns `None` for anything else, including ISO 8601 forms
    /// RFC 3339 excludes (no offset, `+0200`, week dates).
    #[must_use]
    pub fn parse_rfc3339(s: &str) -> Option<Self> {
        let b = s.as_bytes();
        let year = digits(b, 0, 4)?;
        let month = digits(b, 5, 2)?;
        let day = digits(b, 8, 2)?;
        let hour = digits(b, 11, 2)?;
        let minute = digits(b, 14, 2)?;
        let second = digits(b, 17, 2)?;
        let seps = [(4, b'-'), (7, b'-'), (13, b':'), (16, b':')];
        if seps.iter().any(|&(i, c)| b.get(i) != Some(&c))
            || !matches!(b.get(10), Some(b'T' | b't' | b' '))
        {
            return None;
        }
        if !(1..=12).contains(&month)
            || day < 1
            || day > days_in_month(year, month)
            || hour > 23
            || minute > 59
            || second > 60
        {
            return None;
        }
        let mut i = 19;
        let mut nanos = 0u32;
        if b.get(i) == Some(&b'.') {
            i += 1;
            let start = i;
            while let Some(d) = b.get(i).filter(|d| d.is_ascii_digit()) {
                if i - start < 9 {
                    nanos = nanos * 10 + u32::from(d - b'0');
                }
                i += 1;
            }
            let n = i - start;
            if n == 0 {
                return None;
            }
            for _ in n..9 {
                nanos *= 10;
            }
        }
        let offset: i64 = match b.get(i..)? {
            [b'Z' | b'z'] => 0,
            [sign @ (b'+' | b'-'), ..] if b.len() == i + 6 && b.get(i + 3) == Some(&b':') => {
                let oh = digits(b, i + 1, 2)?;
                let om = digits(b, i + 4, 2)?;
                if oh > 23 || om > 59 {
                    return None;
                }
                let o = i64::from(oh * 3600 + om * 60);
                if *sign == b'-' { -o } else { o }
            }
            _ => return None,
        };
        let days = days_from_civil(i64::from(year), month, day);
        let secs = days * 86_400 + i64::from(hour * 3600 + minute * 60 + second) - offset;
        Some(Self { secs, nanos })
    }
}

/// `n` ASCII digits at `b[at..]` as a number.
fn digits(b: &[u8], at: usize, n: usize) -> Option<u32> {
    b.get(at..at + n)?.iter().try_fold(0u32, |acc, &d| {
        d.is_ascii_digit().then(|| acc * 10 + u32::from(d - b'0'))
    })
}

fn is_leap(y: u32) -> bool {
    (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400)
}

fn days_in_month(y: u32, m: u32) -> u32 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (the civil-from-days inverse of
/// Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::Timestamp;

    fn ts(s: &str) -> Option<(i64, u32)> {
        Timestamp::parse_rfc3339(s).map(|t| (t.secs, t.nanos))
    }

    #[test]
    fn valid() {
        #[rustfmt::skip]
        let rows: &[(&str, (i64, u32))] = &[
            ("1970-01-01T00:00:00Z", (0, 0)),
            ("2025-01-12T15:00:58Z", (1_736_694_058, 0)),
            ("2025-01-12t15:00:58z", (1_736_694_058, 0)),
            ("2025-01-12 15:00:58Z", (1_736_694_058, 0)),
            ("2025-01-12T17:00:58+02:00", (1_736_694_058, 0)),
            ("2025-01-12T10:30:58-04:30", (1_736_694_058, 0)),
            ("2025-01-12T15:00:58.5Z", (1_736_694_058, 500_000_000)),
            ("2025-01-12T15:00:58.123456789123Z", (1_736_694_058, 123_456_789)),
            ("2000-02-29T00:00:00Z", (951_782_400, 0)),
            ("1969-12-31T23:59:59Z", (-1, 0)),
            ("0000-01-01T00:00:00Z", (-62_167_219_200, 0)),
            ("9999-12-31T23:59:59Z", (253_402_300_799, 0)),
            ("2016-12-31T23:59:60Z", (1_483_228_800, 0)),
        ];
        for (s, want) in rows {
            assert_eq!(ts(s), Some(*want), "{s}");
        }
    }

    #[test]
    fn invalid() {
        for s in [
            "",
            "2025-01-12",
            "2025-01-12T15:00:58",
            "2025-01-12T15:00Z",
            "2025-1-12T15:00:58Z",
            "2025-01-12T15:00:58+0200",
            "2025-01-12T15:00:58+02",
            "2025-13-01T00:00:00Z",
            "2025-00-01T00:00:00Z",
            "2025-02-29T00:00:00Z",
            "1900-02-29T00:00:00Z",
            "2025-04-31T00:00:00Z",
            "2025-01-00T00:00:00Z",
            "2025-01-12T24:00:00Z",
            "2025-01-12T15:60:00Z",
            "2025-01-12T15:00:61Z",
            "2025-01-12T15:00:58.Z",
            "2025-01-12T15:00:58+24:00",
            "2025-01-12T15:00:58+02:60",
            "2025-01-12X15:00:58Z",
            "2025-01-12T15:00:58Zjunk",
            "+2025-01-12T15:00:58Z",
            "２０２５-01-12T15:00:58Z",
            "2025-01-12T15:00:58 Z",
            "2025-01-12T15:00:58.5",
        ] {
            assert_eq!(ts(s), None, "{s}");
        }
    }

    #[test]
    fn offsets_order_correctly() {
        let a = Timestamp::parse_rfc3339("2025-01-12T10:00:00+02:00").unwrap();
        let b = Timestamp::parse_rfc3339("2025-01-12T09:00:00Z").unwrap();
        assert!(a < b);
        let c = Timestamp::parse_rfc3339("2025-01-12T09:00:00.000000001Z").unwrap();
        assert!(b < c);
    }

    proptest::proptest! {
        #[test]
        fn never_panics(s in "[0-9T:Z+.-]{0,30}") {
            let _ = Timestamp::parse_rfc3339(&s);
        }
    }
}

//! Shared pieces of every view: decode helpers, the small string enums (`resultType`,
//! `cacheScope`, `role`, `logLevel`, icon `theme`) and `priority`.

use core::fmt;

use crate::json::fields::{Keys, NameSet, name_bit};
use crate::json::{
    Cursor, Encode, EncodeError, JsonKind, JsonSink, JsonStr, Number, RawJson, Writer,
};
use crate::jsonrpc::{DecodeError, FromJson, ParamsError, ParamsErrorKind};

pub(crate) type Enc = Result<(), EncodeError>;

pub(crate) type Dec<T> = Result<T, DecodeError>;

/// Walks one object's members, matching keys against known names. Unknown members are
/// validated and skipped; a known key seen twice is a `Duplicate` error.
pub(crate) struct Obj<'k> {
    names: &'k Keys,
    seen: NameSet,
    first: bool,
    skipped: bool,
    /// The error of the walk's last step, where [`Obj::step`] leaves it.
    failed: Failed,
}

/// Where [`Obj::step`] leaves an error: of no size on the compact targets, whose
/// [`Obj::next`] answers through `Dec` ([`crate::WIDE`]).
#[derive(Clone, Copy)]
struct Failed {
    #[cfg(all(
        any(target_pointer_width = "64", target_family = "wasm"),
        not(mcp_compact)
    ))]
    error: Option<DecodeError>,
}

#[cfg(all(
    any(target_pointer_width = "64", target_family = "wasm"),
    not(mcp_compact)
))]
impl Failed {
    const NONE: Self = Self { error: None };

    fn keep(&mut self, e: DecodeError) {
        self.error = Some(e);
    }

    /// The error kept (`step` keeps one with every `Failed`; the fallback only keeps this
    /// total).
    fn error(self) -> DecodeError {
        self.error
            .unwrap_or(ParamsError::wrong_type(ParamsError::ITEM).into())
    }
}

#[cfg(not(all(
    any(target_pointer_width = "64", target_family = "wasm"),
    not(mcp_compact)
)))]
impl Failed {
    const NONE: Self = Self {};

    fn keep(&mut self, _: DecodeError) {}

    fn error(self) -> DecodeError {
        ParamsError::wrong_type(ParamsError::ITEM).into()
    }
}

/// One step of the walk as [`Obj::step`] answers it: in registers (a `Dec` of it would go
/// through memory on every member).
enum Step {
    Member(usize),
    End,
    Failed,
}

/// Opens the object at `c` (else `WrongType` on `field`).
#[cfg_attr(
    not(any(target_pointer_width = "64", target_family = "wasm")),
    inline(always)
)]
pub(crate) fn obj<'k>(c: &mut Cursor<'_>, names: &'k Keys, field: &'static str) -> Dec<Obj<'k>> {
    if c.peek() != Some(b'{') {
        return Err(ParamsError::wrong_type(field).into());
    }
    c.begin_object()?;
    Ok(Obj {
        names,
        seen: 0,
        first: true,
        skipped: false,
        failed: Failed::NONE,
    })
}

impl<'k> Obj<'k> {
    /// The walk of an object already open whose first member, which is not one of the
    /// names, was read: as [`obj`] would be after skipping it.
    pub(crate) const fn after_unknown(names: &'k Keys) -> Self {
        Self {
            names,
            seen: 0,
            first: false,
            skipped: true,
            failed: Failed::NONE,
        }
    }

    /// The index (into the names) of the next known member; its value is next in `c`.
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    pub(crate) fn next(&mut self, c: &mut Cursor<'_>) -> Dec<Option<usize>> {
        if !crate::WIDE {
            return self.walk(c);
        }
        match self.step(c) {
            Step::Member(i) => Ok(Some(i)),
            Step::End => Ok(None),
            Step::Failed => Err(self.failed.error()),
        }
    }

    /// [`Obj::walk`] answered in registers (wide targets), its error kept in `failed`.
    #[inline(never)]
    fn step(&mut self, c: &mut Cursor<'_>) -> Step {
        match self.walk(c) {
            Ok(Some(i)) => Step::Member(i),
            Ok(None) => Step::End,
            Err(e) => {
                self.failed.keep(e);
                Step::Failed
            }
        }
    }

    /// The walk to the next known member ([`Obj::next`]).
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    fn walk(&mut self, c: &mut Cursor<'_>) -> Dec<Option<usize>> {
        if crate::WIDE && c.is_trusted() {
            return self.next_trusted(c);
        }
        while let Some(key) = c.next_key_in(&mut self.first, self.names)? {
            if let Some(i) = key {
                return self.known(i).map(Some);
            }
            self.skipped = true;
            c.value()?;
        }
        Ok(None)
    }

    /// [`Obj::next`] over validated JSON (speed only, [`crate::WIDE`]): the keys are read
    /// without the grammar checks; the schema's (a repeated key) stay.
    #[inline(always)]
    fn next_trusted(&mut self, c: &mut Cursor<'_>) -> Dec<Option<usize>> {
        while let Some(key) = c.next_key_trusted(self.names) {
            if let Some(i) = key {
                return self.known(i).map(Some);
            }
            self.skipped = true;
            c.value()?;
        }
        Ok(None)
    }

    /// Records the known member `i`: a `Duplicate` error when it was seen before.
    #[inline(always)]
    fn known(&mut self, i: usize) -> Dec<usize> {
        let bit = name_bit(i);
        if self.seen & bit != 0 {
            let name = self
                .names
                .names
                .get(i)
                .copied()
                .unwrap_or(ParamsError::ITEM);
            return Err(ParamsError::duplicate(name).into());
        }
        self.seen |= bit;
        Ok(i)
    }

    /// Whether a member with a key outside the names was skipped.
    pub(crate) const fn skipped(&self) -> bool {
        self.skipped
    }
}

/// The compact targets' object walk ([`crate::WIDE`]), shared by the struct decoders: opens
/// the object at `c` as [`obj`] does, reads each known member whose bit is set in `strings`
/// as a string named from `names` into `slots` (indexed as the names), and hands every
/// other known member to `other`. Returns whether an unknown member was skipped. Same
/// checks in the same order as the straight-line walk of each decoder.
#[inline(never)]
pub(crate) fn members<'a>(
    c: &mut Cursor<'a>,
    names: &Keys,
    field: &'static str,
    strings: NameSet,
    slots: &mut [Option<JsonStr<'a>>],
    other: &mut dyn FnMut(usize, &mut Cursor<'a>) -> Dec<()>,
) -> Dec<bool> {
    let mut f = obj(c, names, field)?;
    while let Some(i) = f.next(c)? {
        // One exit for both kinds of member.
        if strings & name_bit(i) == 0 {
            other(i, c)
        } else {
            let name = names.names.get(i).copied().unwrap_or(ParamsError::ITEM);
            string(c, name).map(|v| {
                if let Some(slot) = slots.get_mut(i) {
                    *slot = Some(v);
                }
            })
        }?;
    }
    Ok(f.skipped())
}

fn expect(c: &mut Cursor<'_>, kind: JsonKind, field: &'static str) -> Dec<()> {
    if !crate::WIDE {
        return expect_compact(c, kind, field);
    }
    match c.peek_kind() {
        Some(k) if k == kind => Ok(()),
        Some(_) => Err(ParamsError::wrong_type(field).into()),
        None => Err(c
            .value()
            .err()
            .map_or(ParamsError::wrong_type(field).into(), Into::into)),
    }
}

/// [`expect`] as compact targets run it: its two refusals through one error construction.
/// Same answers and cursor position (`tests`).
fn expect_compact(c: &mut Cursor<'_>, kind: JsonKind, field: &'static str) -> Dec<()> {
    let json = match c.peek_kind() {
        Some(k) if k == kind => return Ok(()),
        Some(_) => None,
        None => c.value().err(),
    };
    Err(json.map_or(ParamsError::wrong_type(field).into(), Into::into))
}

/// [`expect`] before a read that refuses an absent value itself (compact targets,
/// [`crate::WIDE`]): `WrongType` on `field` for a value of another kind; an absent value is
/// left to the read, whose refusal is the one `expect` gives (`UnexpectedEnd` where the
/// value should start). The same answers (`tests`).
fn expect_present(c: &mut Cursor<'_>, kind: JsonKind, field: &'static str) -> Dec<()> {
    if !crate::WIDE {
        return refuse_other_kind(c, kind, field);
    }
    expect(c, kind, field)
}

/// [`expect_present`]'s compact form: only a value of another kind is refused here.
fn refuse_other_kind(c: &mut Cursor<'_>, kind: JsonKind, field: &'static str) -> Dec<()> {
    match c.peek_kind() {
        Some(k) if k != kind => Err(ParamsError::wrong_type(field).into()),
        _ => Ok(()),
    }
}

pub(crate) fn string<'a>(c: &mut Cursor<'a>, field: &'static str) -> Dec<JsonStr<'a>> {
    expect_present(c, JsonKind::String, field)?;
    Ok(c.string()?)
}

pub(crate) fn boolean(c: &mut Cursor<'_>, field: &'static str) -> Dec<bool> {
    expect_present(c, JsonKind::Bool, field)?;
    c.value()?
        .as_bool()
        .ok_or(ParamsError::wrong_type(field).into())
}

pub(crate) fn object<'a>(c: &mut Cursor<'a>, field: &'static str) -> Dec<RawJson<'a>> {
    expect_present(c, JsonKind::Object, field)?;
    Ok(c.value()?)
}

fn number<'a>(c: &mut Cursor<'a>, field: &'static str) -> Dec<Number<'a>> {
    expect(c, JsonKind::Number, field)?;
    Ok(c.number()?)
}

/// A non-negative integer (`size`, `total`).
pub(crate) fn count(c: &mut Cursor<'_>, field: &'static str) -> Dec<u64> {
    // Speed only (the general path below reads the same value).
    if let Some(v) = crate::WIDE.then(|| c.plain_u64()).flatten() {
        return Ok(v);
    }
    let n = number(c, field)?;
    if let Some(v) = plain_u64(n.as_str()) {
        return Ok(v);
    }
    if !n.is_integer() {
        return Err(ParamsError::wrong_type(field).into());
    }
    if n.is_negative() {
        return Err(ParamsError::new(ParamsErrorKind::OutOfRange, field).into());
    }
    Ok(n.as_u64().unwrap_or(u64::MAX))
}

/// The value of a literal made only of digits, at most 19 of them (so it cannot overflow);
/// `None` for any other form, which takes the general path.
#[inline]
fn plain_u64(s: &str) -> Option<u64> {
    if s.is_empty() || s.len() > 19 {
        return None;
    }
    s.bytes().try_fold(0u64, |v, d| {
        d.is_ascii_digit().then(|| v * 10 + u64::from(d - b'0'))
    })
}

/// `ttlMs`: an integer; a negative value reads as 0 (docs/rules.md §4: "SHOULD ignore it and
/// treat it as 0"); a huge one saturates.
pub(crate) fn ttl(c: &mut Cursor<'_>) -> Dec<u64> {
    // Speed only (the general path below reads the same value).
    if let Some(v) = crate::WIDE.then(|| c.plain_u64()).flatten() {
        return Ok(v);
    }
    let n = number(c, "ttlMs")?;
    if let Some(v) = plain_u64(n.as_str()) {
        return Ok(v);
    }
    if n.is_negative() {
        return Ok(0);
    }
    if !n.is_integer() {
        return Err(ParamsError::wrong_type("ttlMs").into());
    }
    Ok(n.as_u64().unwrap_or(u64::MAX))
}

pub(crate) fn required<T>(v: Option<T>, field: &'static str) -> Result<T, ParamsError> {
    v.ok_or(ParamsError::missing(field))
}

impl<'a> FromJson<'a> for JsonStr<'a> {
    fn decode(c: &mut Cursor<'a>) -> Dec<Self> {
        string(c, ParamsError::ITEM)
    }
}

/// The index in `names` of the string at `c` (unescaped when it has escapes):
/// `UnknownValue` on `field` when it is none of them. The string enums' decoder on compact
/// targets, shared by all of them.
#[inline(never)]
fn name_index(c: &mut Cursor<'_>, field: &'static str, names: &[&str]) -> Dec<usize> {
    let s = string(c, field)?;
    let mut buf = [0u8; 16];
    // An escaped string too long for `buf` and a string not in `names`: one refusal.
    let s = match s.as_str() {
        Some(s) => Some(s),
        None => s.unescape_into(&mut buf).ok(),
    };
    s.and_then(|s| names.iter().position(|n| *n == s))
        .ok_or(ParamsError::new(ParamsErrorKind::UnknownValue, field).into())
}

macro_rules! string_enum {
    ($(#[$doc:meta])* $name:ident, $field:literal { $( $(#[$vdoc:meta])* $variant:ident = $text:literal ),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vdoc])* #[doc = concat!("`\"", $text, "\"`")] $variant, )*
        }

        impl $name {
            /// The wire string.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self { $( Self::$variant => $text, )* }
            }

            /// The value for a wire string.
            #[must_use]
            pub fn from_name(s: &str) -> Option<Self> {
                if !crate::WIDE {
                    return Self::from_name_in_table(s);
                }
                match s { $( $text => Some(Self::$variant), )* _ => None }
            }

            /// [`Self::from_name`] as a search of [`Self::ALL`]: the compact targets' form
            /// (`crate::WIDE`), with the same answer (`common::tests`).
            fn from_name_in_table(s: &str) -> Option<Self> {
                Self::ALL.iter().find(|v| v.as_str() == s).copied()
            }

            /// Every value, in declaration order.
            pub(crate) const ALL: &'static [Self] = &[$( Self::$variant, )*];
        }

        impl<'a> FromJson<'a> for $name {
            fn decode(c: &mut Cursor<'a>) -> Dec<Self> {
                if !crate::WIDE {
                    return Self::decode_by_index(c);
                }
                // A value written as one of the names is matched where it lies.
                let names: &crate::json::fields::Keys =
                    crate::json::fields::keys![$( $text ),*];
                if let Some(v) = c.name_in_place(names).and_then(|k| Self::ALL.get(k)) {
                    return Ok(*v);
                }
                let s = string(c, $field)?;
                let unknown = ParamsError::new(ParamsErrorKind::UnknownValue, $field);
                if let Some(s) = s.as_str() {
                    return Ok(Self::from_name(s).ok_or(unknown)?);
                }
                let mut buf = [0u8; 16];
                let s = s.unescape_into(&mut buf).map_err(|_| unknown)?;
                Ok(Self::from_name(s).ok_or(unknown)?)
            }
        }

        impl $name {
            /// [`FromJson::decode`] as compact targets run it (`crate::WIDE`): every string
            /// enum shares one decoder ([`name_index`]), with the same answers
            /// (`common::tests`).
            fn decode_by_index(c: &mut Cursor<'_>) -> Dec<Self> {
                const NAMES: &[&str] = &[$( $text, )*];
                let i = name_index(c, $field, NAMES)?;
                Ok(Self::ALL
                    .get(i)
                    .copied()
                    .ok_or(ParamsError::new(ParamsErrorKind::UnknownValue, $field))?)
            }
        }

        impl Encode for $name {
            fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
                w.literal(match self { $( Self::$variant => concat!("\"", $text, "\""), )* })
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

string_enum! {
    /// How to read a result (docs/rules.md §1.2). Absent means `Complete` (legacy servers); any
    /// other value is invalid.
    ResultType, "resultType" {
        /// Final content.
        Complete = "complete",
        /// An `InputRequiredResult` (docs/rules.md §13).
        InputRequired = "input_required",
    }
}

string_enum! {
    /// Who may reuse a cached result (docs/rules.md §4).
    CacheScope, "cacheScope" {
        /// Shareable with any user.
        Public = "public",
        /// Reusable only within the same authorization context.
        Private = "private",
    }
}

string_enum! {
    /// A message sender or an annotation audience (docs/rules.md §9, §14.3).
    Role, "role" {
        /// The end user.
        User = "user",
        /// The model.
        Assistant = "assistant",
    }
}

string_enum! {
    /// A requested log level (`io.modelcontextprotocol/logLevel`, docs/rules.md §1.1).
    LoggingLevel, "io.modelcontextprotocol/logLevel" {
        /// Debug.
        Debug = "debug",
        /// Info.
        Info = "info",
        /// Notice.
        Notice = "notice",
        /// Warning.
        Warning = "warning",
        /// Error.
        Error = "error",
        /// Critical.
        Critical = "critical",
        /// Alert.
        Alert = "alert",
        /// Emergency.
        Emergency = "emergency",
    }
}

string_enum! {
    /// The background an icon is drawn for.
    Theme, "theme" {
        /// A light background.
        Light = "light",
        /// A dark background.
        Dark = "dark",
    }
}

/// An annotation priority in `[0, 1]` (docs/rules.md §14.3): 1 is "most important".
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Priority(f64);

impl Priority {
    /// A priority, when `value` is within `[0, 1]`.
    #[must_use]
    pub fn new(value: f64) -> Option<Self> {
        // Compared on the bits (NaNs fall outside): no float arithmetic.
        let key = crate::json::float::order_key(value);
        (0..=crate::json::float::order_key(1.0))
            .contains(&key)
            .then_some(Self(value))
    }

    /// The value.
    #[must_use]
    pub const fn get(self) -> f64 {
        self.0
    }
}

impl<'a> FromJson<'a> for Priority {
    fn decode(c: &mut Cursor<'a>) -> Dec<Self> {
        // Speed only: a plain literal in range, read directly (the same value and position).
        if crate::WIDE {
            let (pos, depth) = (c.position(), c.depth());
            match c.plain_unit().map(Self::new) {
                Some(Some(p)) => return Ok(p),
                Some(None) => c.rewind(pos, depth),
                None => {}
            }
        }
        Self::decode_general(c)
    }
}

impl Priority {
    /// [`FromJson::decode`] through the number path only (compact targets' form).
    pub(crate) fn decode_general(c: &mut Cursor<'_>) -> Dec<Self> {
        let n = number(c, "priority")?;
        Ok(n.as_f64()
            .and_then(Self::new)
            .ok_or(ParamsError::new(ParamsErrorKind::OutOfRange, "priority"))?)
    }
}

impl Encode for Priority {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.f64(self.0)
    }
}

#[cfg(test)]
#[path = "common_tests.rs"]
mod tests;

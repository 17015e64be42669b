//! Mapping `file://` resource URIs under a configured root to relative paths, rejecting every
//! directory-traversal form (docs/rules.md §7: "Servers **MUST** validate all resource URIs" and
//! "**MUST** sanitize file paths to prevent directory traversal attacks when serving
//! `file://` resources"; checklist §16.5 rule 32).
//!
//! [`FileRoot::resolve`] accepts only URIs of the form `file://[localhost]/seg/seg/…` whose
//! leading segments equal the root's, and writes the remaining segments, percent-decoded and
//! joined by `/`, into a caller buffer. The result is safe to append to the root directory on
//! Unix and on Windows: every segment is a plain file name. The rules, in order:
//!
//! 1. Scheme `file` (any case), then `//` (RFC 8089 authority form; `file:/p` is refused).
//! 2. Host empty or `localhost` (ASCII case-insensitive); anything else, including UNC hosts,
//!    ports and userinfo, is refused. The path must start with `/`.
//! 3. No query (`?`) and no fragment (`#`).
//! 4. Raw path bytes are RFC 3986 `pchar`s or `/`: unreserved, sub-delims, `:`, `@`, and
//!    `%HH` triplets. A raw `\`, space, control byte, non-ASCII byte or `|` is refused; `%`
//!    must start a triplet.
//! 5. No empty segment (`//`, which also covers `file:////server/share` UNC forms), except
//!    one trailing `/`, which is ignored (directory form).
//! 6. Each segment is decoded once, then must be valid UTF-8 (which refuses overlong forms
//!    such as `%c0%ae` and `%e0%80%ae`) and must not contain `/` or `\` (encoded separators),
//!    NUL or any control character; must not be made only of dots and spaces (`.`, `..`,
//!    `%2e%2E`, `...`, `. .`: Windows strips trailing dots and spaces, so `.. ` is `..`); must
//!    not start with a drive letter (`C:`, `c|`); and must not contain `:` (drive-relative
//!    paths and NTFS alternate data streams).
//! 7. The first segments must equal the root's segments byte for byte after decoding
//!    (case-sensitive: a case-insensitive file system may still see `/Root` as `/root`, so
//!    the mismatch is refused, never widened).
//!
//! The root URI itself passes rules 1–6, except that its first segment may be a drive
//! letter (`file:///C:/data`). The output is fully decoded: never decode it again (`%252e`
//! becomes the literal name `%2e`, which is harmless only if it stays literal). Symbolic
//! links inside the root are the host's concern: this is lexical sanitising.
//!
//! ```
//! use mcp_context::server::file_root::{FileRoot, PathError};
//!
//! let root = FileRoot::new("file:///srv/project").unwrap();
//! let mut buf = [0u8; 256];
//! let rel = root.resolve("file:///srv/project/src/main%20file.rs", &mut buf).unwrap();
//! assert_eq!(rel.as_str(), "src/main file.rs");
//! assert!(rel.segments().eq(["src", "main file.rs"]));
//! assert_eq!(
//!     root.resolve("file:///srv/project/%2e%2e/secrets", &mut buf).unwrap_err(),
//!     PathError::DotSegment
//! );
//! ```

use core::fmt;

use crate::error_code::ErrorCode;
use crate::pct::{hex_value, is_unreserved};

/// Why a `file://` URI was refused. Every variant maps to `-32602` ([`PathError::code`]):
/// to the client it is a resource that does not exist.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PathError {
    /// The scheme is not `file`.
    NotFileScheme,
    /// No `//` authority after `file:`.
    MissingAuthority,
    /// A host other than empty or `localhost` (UNC host, port, userinfo).
    HostNotLocal,
    /// The path after the authority is empty or does not start with `/`.
    MissingPath,
    /// A `?` query component.
    Query,
    /// A `#` fragment component.
    Fragment,
    /// A raw byte that may not appear in a URI path (space, `|`, `"`, non-ASCII, …).
    InvalidCharacter,
    /// A backslash, raw or encoded.
    Backslash,
    /// A `%` not followed by two hex digits.
    BadEscape,
    /// An empty segment (`//`).
    EmptySegment,
    /// A segment made only of dots and spaces (`.`, `..`, `%2e%2e`, …).
    DotSegment,
    /// An encoded `/` (`%2f`) inside a segment.
    EncodedSlash,
    /// NUL, raw or encoded.
    Nul,
    /// Another control character (0x01–0x1F, 0x7F), raw or encoded.
    ControlCharacter,
    /// A segment that does not decode to UTF-8 (including overlong encodings).
    InvalidUtf8,
    /// A drive letter (`C:`, `c|`).
    DriveLetter,
    /// A `:` inside a segment (drive-relative path or alternate data stream).
    Colon,
    /// A well-formed URI outside the root.
    OutsideRoot,
    /// The output buffer is too small; `needed` bytes always suffice.
    BufferTooSmall {
        /// A size that is enough for this URI.
        needed: usize,
    },
}

impl PathError {
    /// `-32602`: a refused URI reads as a resource that does not exist (docs/rules.md §7).
    #[must_use]
    pub const fn code(self) -> ErrorCode {
        ErrorCode::INVALID_PARAMS
    }
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::NotFileScheme => "not a file: URI",
            Self::MissingAuthority => "file URI without //",
            Self::HostNotLocal => "file URI host is not local",
            Self::MissingPath => "file URI without an absolute path",
            Self::Query => "file URI with a query",
            Self::Fragment => "file URI with a fragment",
            Self::InvalidCharacter => "invalid character in file URI",
            Self::Backslash => "backslash in file URI",
            Self::BadEscape => "malformed percent-encoding in file URI",
            Self::EmptySegment => "empty path segment",
            Self::DotSegment => "dot segment in path",
            Self::EncodedSlash => "encoded slash in path segment",
            Self::Nul => "NUL in path",
            Self::ControlCharacter => "control character in path",
            Self::InvalidUtf8 => "path segment is not UTF-8",
            Self::DriveLetter => "drive letter in path",
            Self::Colon => "colon in path segment",
            Self::OutsideRoot => "file URI outside the root",
            Self::BufferTooSmall { .. } => "path buffer too small",
        })
    }
}

impl core::error::Error for PathError {}

/// A configured root: the `file://` URI of a directory that resources may be served from.
#[derive(Debug, Clone, Copy)]
pub struct FileRoot<'a> {
    /// The raw (still encoded) path, trailing `/` removed; `""` for the file-system root.
    path: &'a str,
}

impl<'a> FileRoot<'a> {
    /// Validates `root_uri` (rules 1–6 of the module docs, a drive letter allowed first).
    ///
    /// # Errors
    /// The [`PathError`] of the first rule it breaks.
    pub fn new(root_uri: &'a str) -> Result<Self, PathError> {
        let path = split_file_uri(root_uri)?;
        for (i, seg) in segments(path).enumerate() {
            check_segment(seg?, i == 0)?;
        }
        Ok(Self {
            path: path.strip_suffix('/').unwrap_or(path),
        })
    }

    /// Maps `uri` to its path relative to the root, decoded into `buf` (a buffer as long as
    /// `uri` always suffices). The root itself maps to the empty path.
    ///
    /// # Errors
    /// The [`PathError`] of the first rule `uri` breaks (module docs).
    pub fn resolve<'b>(&self, uri: &str, buf: &'b mut [u8]) -> Result<RelativePath<'b>, PathError> {
        let path = split_file_uri(uri)?;
        let too_small = PathError::BufferTooSmall { needed: path.len() };
        let mut root = self.path.split('/').skip(1);
        let mut len = 0usize;
        for (i, seg) in segments(path).enumerate() {
            let seg = seg?;
            match root.next() {
                Some(root_seg) => {
                    // Inside the root prefix a drive letter may appear (as in the root).
                    check_segment(seg, i == 0)?;
                    if !Decoded(seg.as_bytes()).eq(Decoded(root_seg.as_bytes())) {
                        return Err(PathError::OutsideRoot);
                    }
                }
                None => {
                    check_segment(seg, false)?;
                    if len > 0 {
                        *buf.get_mut(len).ok_or(too_small)? = b'/';
                        len += 1;
                    }
                    for byte in Decoded(seg.as_bytes()) {
                        *buf.get_mut(len).ok_or(too_small)? = byte;
                        len += 1;
                    }
                }
            }
        }
        if root.next().is_some() {
            return Err(PathError::OutsideRoot);
        }
        let text = buf.get(..len).unwrap_or(&[]);
        // Each segment was checked to be UTF-8 and '/' is ASCII, so this cannot fail.
        let text = core::str::from_utf8(text).map_err(|_| PathError::InvalidUtf8)?;
        Ok(RelativePath(text))
    }
}

/// A sanitised path relative to a [`FileRoot`]: decoded segments joined by `/`, none empty,
/// none a dot segment, none containing `/`, `\`, `:`, NUL or control characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RelativePath<'b>(&'b str);

impl<'b> RelativePath<'b> {
    /// The segments joined by `/`; `""` for the root itself.
    #[must_use]
    pub fn as_str(&self) -> &'b str {
        self.0
    }

    /// Whether this is the root directory itself.
    #[must_use]
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    /// The decoded segments, in order (none for the root).
    pub fn segments(&self) -> impl Iterator<Item = &'b str> + 'b {
        self.0.split('/').filter(|s| !s.is_empty())
    }
}

/// Rules 1–4: returns the raw path (starting with `/`).
fn split_file_uri(uri: &str) -> Result<&str, PathError> {
    let scheme = uri.get(..5).ok_or(PathError::NotFileScheme)?;
    if !scheme.eq_ignore_ascii_case("file:") {
        return Err(PathError::NotFileScheme);
    }
    let rest = uri.get(5..).unwrap_or("");
    let rest = rest.strip_prefix("//").ok_or(PathError::MissingAuthority)?;
    if let Some(i) = rest.find(['?', '#']) {
        return Err(if rest.as_bytes().get(i) == Some(&b'?') {
            PathError::Query
        } else {
            PathError::Fragment
        });
    }
    let (host, path) = match rest.find('/') {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    if !(host.is_empty() || host.eq_ignore_ascii_case("localhost")) {
        return Err(if host.contains('\\') {
            PathError::Backslash
        } else {
            PathError::HostNotLocal
        });
    }
    if path.is_empty() {
        return Err(PathError::MissingPath);
    }
    for (i, &b) in path.as_bytes().iter().enumerate() {
        let ok = is_unreserved(b)
            || matches!(
                b,
                b'/' | b'!'
                    | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
                    | b':'
                    | b'@'
            );
        if ok {
            continue;
        }
        return Err(match b {
            b'%' if crate::pct::starts_with_triplet(path.as_bytes().get(i..).unwrap_or(&[])) => {
                continue;
            }
            b'%' => PathError::BadEscape,
            b'\\' => PathError::Backslash,
            0 => PathError::Nul,
            0x01..=0x1F | 0x7F => PathError::ControlCharacter,
            _ => PathError::InvalidCharacter,
        });
    }
    Ok(path)
}

/// Rule 5: the raw segments of `path` (which starts with `/`), a single trailing `/` dropped.
fn segments(path: &str) -> impl Iterator<Item = Result<&str, PathError>> {
    let body = path.get(1..).unwrap_or("");
    let body = body.strip_suffix('/').unwrap_or(body);
    let empty_path = body.is_empty();
    body.split('/').filter(move |_| !empty_path).map(|s| {
        if s.is_empty() {
            Err(PathError::EmptySegment)
        } else {
            Ok(s)
        }
    })
}

/// Rule 6 on one raw (validated by rule 4) segment, streaming, without a buffer. `drive_ok`
/// lets a segment that is exactly `X:` through (the first segment of a Windows root).
fn check_segment(seg: &str, drive_ok: bool) -> Result<(), PathError> {
    let mut utf8 = Utf8Check::default();
    let mut only_dots = true;
    let mut colon = false;
    for (i, b) in Decoded(seg.as_bytes()).enumerate() {
        match b {
            0 => return Err(PathError::Nul),
            0x01..=0x1F | 0x7F => return Err(PathError::ControlCharacter),
            b'/' => return Err(PathError::EncodedSlash),
            b'\\' => return Err(PathError::Backslash),
            b':' | b'|' if i == 1 && seg_starts_alpha(seg) => return drive(seg, drive_ok),
            b':' => colon = true,
            _ => {}
        }
        only_dots &= b == b'.' || b == b' ';
        utf8.push(b)?;
    }
    utf8.finish()?;
    if only_dots {
        return Err(PathError::DotSegment);
    }
    if colon {
        return Err(PathError::Colon);
    }
    Ok(())
}

fn seg_starts_alpha(seg: &str) -> bool {
    Decoded(seg.as_bytes())
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic())
}

/// A segment starting with a drive letter: allowed only when it is exactly `X:` in a root.
fn drive(seg: &str, drive_ok: bool) -> Result<(), PathError> {
    let mut d = Decoded(seg.as_bytes());
    let exact = d.next().is_some() && d.next() == Some(b':') && d.next().is_none();
    if drive_ok && exact {
        Ok(())
    } else {
        Err(PathError::DriveLetter)
    }
}

/// Percent-decodes already-validated raw bytes (every `%` starts a triplet).
struct Decoded<'a>(&'a [u8]);

impl Iterator for Decoded<'_> {
    type Item = u8;
    fn next(&mut self) -> Option<u8> {
        let (&b, rest) = self.0.split_first()?;
        if let (b'%', [h, l, tail @ ..]) = (b, rest)
            && let (Some(h), Some(l)) = (hex_value(*h), hex_value(*l))
        {
            self.0 = tail;
            return Some((h << 4) | l);
        }
        self.0 = rest;
        Some(b)
    }
}

/// A streaming UTF-8 validity check (for root segments too long for the scratch buffer).
#[derive(Default)]
struct Utf8Check {
    buf: [u8; 4],
    len: usize,
}

impl Utf8Check {
    fn push(&mut self, b: u8) -> Result<(), PathError> {
        *self.buf.get_mut(self.len).ok_or(PathError::InvalidUtf8)? = b;
        self.len += 1;
        match core::str::from_utf8(self.buf.get(..self.len).unwrap_or(&[])) {
            Ok(_) => self.len = 0,
            Err(e) if e.error_len().is_some() => return Err(PathError::InvalidUtf8),
            Err(_) => {}
        }
        Ok(())
    }

    fn finish(&self) -> Result<(), PathError> {
        if self.len == 0 {
            Ok(())
        } else {
            Err(PathError::InvalidUtf8)
        }
    }
}

#[cfg(test)]
mod tests;

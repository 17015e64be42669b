//! Sealed `requestState` for `input_required` results (docs/rules.md §13, checklist §16.8 rule 45).
//!
//! The spec makes `requestState` "an opaque string meaningful only to the server" that the
//! client echoes byte-exact on the retry, and tells servers to "treat `requestState` as an
//! attacker-controlled input", to "protect its integrity (e.g. HMAC or AEAD)", to "reject state
//! that fails verification", and (SHOULD) to bind it "to the principal, a short expiry and the
//! originating request (method plus a digest of params)". This module does exactly that, with
//! no allocation and no clock: [`seal`] turns the application's opaque bytes into a token,
//! [`open`] verifies a token and hands the bytes back.
//!
//! # Token format (version 1)
//!
//! The token is base64url without padding ([`base64::Alphabet::UrlSafeNoPad`]) of
//!
//! | bytes | field |
//! | --- | --- |
//! | 1 | version, `1` |
//! | 4 | key id, big-endian |
//! | 8 | expiry instant in ms (`now_ms + expires_in_ms`, saturating), big-endian |
//! | n | application state (not encrypted: do not put secrets in it) |
//! | 16 | `check` = HMAC-SHA256(key, `LABEL_CHECK` ‖ the fields above), first 16 bytes |
//! | 32 | `tag` = HMAC-SHA256(key, `LABEL_TAG` ‖ everything above ‖ binding) |
//!
//! where *binding* is the length-prefixed (u32 big-endian) `method`, `params_digest` and
//! `principal` of the [`Binding`]. The binding is not in the token: the server recomputes it
//! from the retry, so a state replayed on another method, other params or another principal
//! fails. `check` lets [`open`] tell a modified token ([`StateError::Tampered`]) from an
//! authentic token presented with the wrong binding ([`StateError::WrongBinding`]); both tags
//! are compared in constant time. Expiry is checked only after authentication.
//!
//! # What goes in `params_digest`
//!
//! The retry carries "original params + `inputResponses` (+ `requestState`)" (docs/rules.md §13), and
//! its `_meta` may legitimately differ (trace context, client info). Digest the params that
//! identify the request: `uri` for `resources/read`; `name` and the arguments for
//! `prompts/get` / `tools/call` in a canonical order (e.g. sorted by key). [`params_digest`]
//! hashes length-prefixed parts so that `["ab", "c"]` and `["a", "bc"]` differ.
//!
//! Single use, where needed, is the server's job (docs/rules.md §13: "Servers that need single use
//! **MUST** enforce it server-side").
//!
//! All [`StateError`]s map to `-32602` Invalid params ([`StateError::code`]).
//!
//! ```
//! use mcp_context::state::{open, params_digest, seal, sealed_len, Binding, StateKey};
//!
//! let key = StateKey::new(7, &[0x42; 32]).unwrap();
//! let digest = params_digest(&[b"db://prod/schema"]);
//! let binding = Binding { method: "resources/read", params_digest: &digest, principal: b"alice" };
//! let mut token = [0u8; 128];
//! let n = seal(key, 1_000, 60_000, &binding, b"step-2", &mut token).unwrap();
//! assert_eq!(n, sealed_len(6).unwrap());
//! let token = core::str::from_utf8(&token[..n]).unwrap();
//!
//! let mut scratch = [0u8; 128];
//! let state = open(&[key], token, 2_000, &binding, &mut scratch).unwrap();
//! assert_eq!(state, b"step-2");
//! ```

use core::fmt;

use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};

use crate::base64::{self, Alphabet};
use crate::error_code::ErrorCode;

type HmacSha256 = Hmac<Sha256>;

/// Token format version written by [`seal`].
pub const VERSION: u8 = 1;
/// The shortest secret [`StateKey::new`] accepts: the SHA-256 output size (RFC 2104 §3
/// discourages keys shorter than the hash output).
pub const MIN_KEY_LEN: usize = 32;

const LABEL_CHECK: &[u8] = b"mcp-context/requestState/v1/check\0";
const LABEL_TAG: &[u8] = b"mcp-context/requestState/v1/tag\0";
const HEADER_LEN: usize = 1 + 4 + 8;
const CHECK_LEN: usize = 16;
const TAG_LEN: usize = 32;
/// Bytes a token adds around the application state before base64.
const OVERHEAD: usize = HEADER_LEN + CHECK_LEN + TAG_LEN;

/// One sealing key with its identifier. Several keys can be live at once for rotation:
/// [`seal`] with the newest, [`open`] with all of them.
#[derive(Clone, Copy)]
pub struct StateKey<'a> {
    id: u32,
    secret: &'a [u8],
}

impl<'a> StateKey<'a> {
    /// A key with identifier `id`.
    ///
    /// # Errors
    /// [`KeyError::TooShort`] if `secret` is shorter than [`MIN_KEY_LEN`].
    pub fn new(id: u32, secret: &'a [u8]) -> Result<Self, KeyError> {
        if secret.len() < MIN_KEY_LEN {
            return Err(KeyError::TooShort);
        }
        Ok(Self { id, secret })
    }

    /// The key identifier written into tokens.
    #[must_use]
    pub fn id(&self) -> u32 {
        self.id
    }
}

impl fmt::Debug for StateKey<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never print the secret.
        f.debug_struct("StateKey")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

/// What a sealed state is bound to: the originating request and the principal (docs/rules.md §13).
#[derive(Debug, Clone, Copy)]
pub struct Binding<'a> {
    /// The JSON-RPC method of the original request, e.g. `"prompts/get"`.
    pub method: &'a str,
    /// A digest of the params that identify the request (see the module docs), e.g. from
    /// [`params_digest`].
    pub params_digest: &'a [u8],
    /// The authenticated principal (any stable bytes: user id, token hash); empty if none.
    pub principal: &'a [u8],
}

/// A misconfigured key (caller error).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyError {
    /// Shorter than [`MIN_KEY_LEN`] bytes.
    TooShort,
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooShort => write!(f, "state key shorter than {MIN_KEY_LEN} bytes"),
        }
    }
}

impl core::error::Error for KeyError {}

/// [`seal`] could not write the token (caller error).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SealError {
    /// `out` is too small; the token needs `needed` bytes ([`sealed_len`]).
    BufferTooSmall {
        /// The size `out` must have.
        needed: usize,
    },
    /// The application state is too large to describe (length overflow).
    StateTooLarge,
}

impl fmt::Display for SealError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BufferTooSmall { needed } => {
                write!(f, "token buffer too small: {needed} bytes needed")
            }
            Self::StateTooLarge => f.write_str("application state too large"),
        }
    }
}

impl core::error::Error for SealError {}

/// Why a `requestState` from a client was rejected (peer error; docs/rules.md §13 "MUST reject state
/// that fails verification"). Every variant maps to `-32602` ([`StateError::code`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum StateError {
    /// Not base64url without padding.
    Malformed,
    /// Shorter than the fixed fields of a token.
    Truncated,
    /// Longer than the scratch buffer the server allows for it.
    TooLong,
    /// A version this build does not read.
    UnsupportedVersion,
    /// The key id names none of the live keys (rotated out, or forged).
    UnknownKey,
    /// The token's contents fail authentication: modified, or sealed with another key.
    Tampered,
    /// The contents are authentic but the token does not verify for this method, params or
    /// principal: replayed on another request (or its final tag bytes were altered).
    WrongBinding,
    /// Authentic, but `now_ms` is at or past its expiry.
    Expired,
}

impl StateError {
    /// The JSON-RPC code a server answers with: always `-32602` Invalid params.
    #[must_use]
    pub const fn code(self) -> ErrorCode {
        ErrorCode::INVALID_PARAMS
    }
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Malformed => "requestState is not valid base64url",
            Self::Truncated => "requestState is truncated",
            Self::TooLong => "requestState is too long",
            Self::UnsupportedVersion => "requestState has an unsupported version",
            Self::UnknownKey => "requestState was sealed with an unknown key",
            Self::Tampered => "requestState failed verification",
            Self::WrongBinding => "requestState belongs to a different request",
            Self::Expired => "requestState has expired",
        })
    }
}

impl core::error::Error for StateError {}

/// SHA-256 over the length-prefixed (u32 big-endian) `parts`: a [`Binding::params_digest`].
#[must_use]
pub fn params_digest(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    for p in parts {
        h.update(len_prefix(p.len()));
        h.update(p);
    }
    h.finalize().into()
}

/// The token length [`seal`] writes for `app_state_len` bytes of state (`None` on overflow).
#[must_use]
pub const fn sealed_len(app_state_len: usize) -> Option<usize> {
    match app_state_len.checked_add(OVERHEAD) {
        Some(raw) => base64::encoded_len(Alphabet::UrlSafeNoPad, raw),
        None => None,
    }
}

/// Seals `app_state` into a token written to `out`, returning its length. The token expires
/// at `now_ms + expires_in_ms` and verifies only with `binding`.
///
/// # Errors
/// [`SealError::BufferTooSmall`] if `out` is shorter than [`sealed_len`].
pub fn seal(
    key: StateKey<'_>,
    now_ms: u64,
    expires_in_ms: u64,
    binding: &Binding<'_>,
    app_state: &[u8],
    out: &mut [u8],
) -> Result<usize, SealError> {
    let needed = sealed_len(app_state.len()).ok_or(SealError::StateTooLarge)?;
    if out.len() < needed {
        return Err(SealError::BufferTooSmall { needed });
    }
    let header = header(key.id, now_ms.saturating_add(expires_in_ms));
    let check = check_mac(key.secret, &header, app_state)
        .finalize()
        .into_bytes();
    let check = check.get(..CHECK_LEN).unwrap_or(&[]);
    let tag = tag_mac(key.secret, &header, app_state, check, binding)
        .finalize()
        .into_bytes();
    base64::encode_parts(
        Alphabet::UrlSafeNoPad,
        &[&header, app_state, check, &tag],
        out,
    )
    .map_err(|_| SealError::BufferTooSmall { needed })
}

/// Verifies `token` against the live `keys` and the retry's `binding`, and returns the
/// application state, decoded into `scratch` (which bounds the accepted token size: a token
/// whose decoded form exceeds `scratch` is [`StateError::TooLong`]).
///
/// Order of checks: encoding, length, version, key id, contents tag, binding tag, expiry
/// (`now_ms >= expiry` is expired, docs/rules.md §13 "a short expiry").
///
/// # Errors
/// A [`StateError`] saying why the token was rejected.
pub fn open<'s>(
    keys: &[StateKey<'_>],
    token: &str,
    now_ms: u64,
    binding: &Binding<'_>,
    scratch: &'s mut [u8],
) -> Result<&'s [u8], StateError> {
    let n = match base64::decode(Alphabet::UrlSafeNoPad, token.as_bytes(), scratch) {
        Ok(n) => n,
        Err(base64::Base64Error::BufferTooSmall { .. }) => return Err(StateError::TooLong),
        Err(_) => return Err(StateError::Malformed),
    };
    let raw: &'s [u8] = scratch.get(..n).ok_or(StateError::Truncated)?;
    if raw.len() < OVERHEAD {
        return Err(StateError::Truncated);
    }
    let (body, tag) = raw.split_at(raw.len() - TAG_LEN);
    let (signed, check) = body.split_at(body.len() - CHECK_LEN);
    let (header, app_state) = signed.split_at(HEADER_LEN);
    let (version, key_id, expires_at) = parse_header(header).ok_or(StateError::Truncated)?;
    if version != VERSION {
        return Err(StateError::UnsupportedVersion);
    }
    let key = keys
        .iter()
        .find(|k| k.id == key_id)
        .ok_or(StateError::UnknownKey)?;
    check_mac(key.secret, header, app_state)
        .verify_truncated_left(check)
        .map_err(|_| StateError::Tampered)?;
    tag_mac(key.secret, header, app_state, check, binding)
        .verify_slice(tag)
        .map_err(|_| StateError::WrongBinding)?;
    if now_ms >= expires_at {
        return Err(StateError::Expired);
    }
    Ok(app_state)
}

fn header(key_id: u32, expires_at: u64) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    let (v, rest) = h.split_at_mut(1);
    let (id, exp) = rest.split_at_mut(4);
    v.copy_from_slice(&[VERSION]);
    id.copy_from_slice(&key_id.to_be_bytes());
    exp.copy_from_slice(&expires_at.to_be_bytes());
    h
}

fn parse_header(h: &[u8]) -> Option<(u8, u32, u64)> {
    let (&version, rest) = h.split_first()?;
    let (id, exp) = rest.split_at_checked(4)?;
    Some((
        version,
        u32::from_be_bytes(id.try_into().ok()?),
        u64::from_be_bytes(exp.try_into().ok()?),
    ))
}

fn len_prefix(len: usize) -> [u8; 4] {
    // Lengths past u32::MAX saturate; such inputs cannot fit in a token anyway.
    u32::try_from(len).unwrap_or(u32::MAX).to_be_bytes()
}

fn keyed(secret: &[u8]) -> HmacSha256 {
    // HMAC takes keys of any length, so this never fails; an empty key is the fallback only
    // to satisfy the type and is unreachable.
    HmacSha256::new_from_slice(secret).unwrap_or_else(|_| HmacSha256::new(&Default::default()))
}

fn check_mac(secret: &[u8], header: &[u8], app_state: &[u8]) -> HmacSha256 {
    let mut m = keyed(secret);
    m.update(LABEL_CHECK);
    m.update(header);
    m.update(app_state);
    m
}

fn tag_mac(
    secret: &[u8],
    header: &[u8],
    app_state: &[u8],
    check: &[u8],
    b: &Binding<'_>,
) -> HmacSha256 {
    let mut m = keyed(secret);
    m.update(LABEL_TAG);
    m.update(header);
    m.update(app_state);
    m.update(check);
    for part in [b.method.as_bytes(), b.params_digest, b.principal] {
        m.update(&len_prefix(part.len()));
        m.update(part);
    }
    m
}

#[cfg(test)]
mod tests;

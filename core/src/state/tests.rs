use super::*;
use std::string::String;
use std::vec::Vec;

const SECRET_A: [u8; 32] = [0xA5; 32];
const SECRET_B: [u8; 32] = [0x5A; 32];

fn key_a() -> StateKey<'static> {
    StateKey::new(1, &SECRET_A).unwrap()
}
fn key_b() -> StateKey<'static> {
    StateKey::new(2, &SECRET_B).unwrap()
}

fn binding<'a>(method: &'a str, digest: &'a [u8]) -> Binding<'a> {
    Binding {
        method,
        params_digest: digest,
        principal: b"user-1",
    }
}

fn sealed(key: StateKey<'_>, now: u64, ttl: u64, b: &Binding<'_>, state: &[u8]) -> String {
    let mut out = [0u8; 512];
    let n = seal(key, now, ttl, b, state, &mut out).unwrap();
    String::from_utf8(out[..n].to_vec()).unwrap()
}

fn opened(
    keys: &[StateKey<'_>],
    tok: &str,
    now: u64,
    b: &Binding<'_>,
) -> Result<Vec<u8>, StateError> {
    let mut scratch = [0u8; 512];
    open(keys, tok, now, b, &mut scratch).map(<[u8]>::to_vec)
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// RFC 4231 §4.2–4.8: HMAC-SHA-256 test cases 1–7 (case 5 truncated to 128 bits).
#[test]
fn rfc4231_hmac_sha256() {
    let long_key = [0xaa; 131];
    let key4: Vec<u8> = (1..=25).collect();
    let cases: &[(&[u8], &[u8], &str)] = &[
        (&[0x0b; 20], b"Hi There", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (b"Jefe", b"what do ya want for nothing?", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (&[0xaa; 20], &[0xdd; 50], "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        (&key4, &[0xcd; 50], "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        (&[0x0c; 20], b"Test With Truncation", "a3b6167473100ee06e0c796c2955552b"),
        (&long_key, b"Test Using Larger Than Block-Size Key - Hash Key First", "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        (&long_key, b"This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.", "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ];
    for (i, (key, data, want)) in cases.iter().enumerate() {
        let mut m = keyed(key);
        m.update(data);
        let got = m.finalize().into_bytes();
        let want = hex(want);
        assert_eq!(&got[..want.len()], &want[..], "RFC 4231 case {}", i + 1);
        // And through the constant-time verifier used by `open`.
        let mut m = keyed(key);
        m.update(data);
        assert!(m.verify_truncated_left(&want).is_ok());
    }
}

#[test]
fn round_trip_and_lengths() {
    let d = params_digest(&[b"db://prod/schema"]);
    let b = binding("resources/read", &d);
    for len in [0usize, 1, 2, 3, 17, 200] {
        let state: Vec<u8> = (0..len).map(|i| i as u8).collect();
        let tok = sealed(key_a(), 10, 1_000, &b, &state);
        assert_eq!(tok.len(), sealed_len(len).unwrap());
        assert!(
            tok.bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
        );
        assert_eq!(opened(&[key_a()], &tok, 10, &b).unwrap(), state);
    }
}

#[test]
fn every_byte_flip_is_rejected() {
    let d = params_digest(&[b"code_review", b"code", b"x = 1"]);
    let b = binding("prompts/get", &d);
    let tok = sealed(key_a(), 0, 60_000, &b, b"page=2");
    let bytes = tok.as_bytes();
    for i in 0..bytes.len() {
        for replacement in [b'A', b'z', b'-', b'_', b'0', b'=', b'.', b'\0'] {
            if bytes[i] == replacement {
                continue;
            }
            let mut t = bytes.to_vec();
            t[i] = replacement;
            let t = String::from_utf8(t).unwrap();
            let r = opened(&[key_a()], &t, 1, &b);
            assert!(r.is_err(), "flip at {i} to {replacement} accepted");
        }
    }
}

#[test]
fn every_truncation_and_extension_is_rejected() {
    let d = params_digest(&[b"x"]);
    let b = binding("tools/call", &d);
    let tok = sealed(key_a(), 0, 60_000, &b, b"abc");
    for cut in 0..tok.len() {
        assert!(opened(&[key_a()], &tok[..cut], 1, &b).is_err(), "cut {cut}");
    }
    for extra in ["A", "AA", "AAA", "AAAA"] {
        let t = std::format!("{tok}{extra}");
        assert!(opened(&[key_a()], &t, 1, &b).is_err());
    }
    assert_eq!(opened(&[key_a()], "", 1, &b), Err(StateError::Truncated));
    assert_eq!(
        opened(&[key_a()], "AAAA", 1, &b),
        Err(StateError::Truncated)
    );
    assert_eq!(
        opened(&[key_a()], "not base64!", 1, &b),
        Err(StateError::Malformed)
    );
    assert_eq!(
        opened(&[key_a()], &std::format!("{tok}="), 1, &b),
        Err(StateError::Malformed)
    );
}

#[test]
fn typed_errors() {
    let d = params_digest(&[b"db://prod/schema"]);
    let b = binding("resources/read", &d);
    let tok = sealed(key_a(), 100, 50, &b, b"s");

    // Expiry boundary: valid strictly before now + expires_in.
    assert_eq!(opened(&[key_a()], &tok, 149, &b).unwrap(), b"s");
    assert_eq!(opened(&[key_a()], &tok, 150, &b), Err(StateError::Expired));
    assert_eq!(
        opened(&[key_a()], &tok, u64::MAX, &b),
        Err(StateError::Expired)
    );
    // Zero lifetime: born expired.
    let born_dead = sealed(key_a(), 100, 0, &b, b"s");
    assert_eq!(
        opened(&[key_a()], &born_dead, 100, &b),
        Err(StateError::Expired)
    );
    // Saturating expiry never wraps to the past.
    let forever = sealed(key_a(), u64::MAX - 1, u64::MAX, &b, b"s");
    assert!(opened(&[key_a()], &forever, u64::MAX - 1, &b).is_ok());

    // Wrong binding: method, params digest, principal.
    let other_d = params_digest(&[b"db://prod/users"]);
    assert_eq!(
        opened(&[key_a()], &tok, 120, &binding("prompts/get", &d)),
        Err(StateError::WrongBinding)
    );
    assert_eq!(
        opened(&[key_a()], &tok, 120, &binding("resources/read", &other_d)),
        Err(StateError::WrongBinding)
    );
    let stranger = Binding {
        principal: b"user-2",
        ..b
    };
    assert_eq!(
        opened(&[key_a()], &tok, 120, &stranger),
        Err(StateError::WrongBinding)
    );

    // Unknown key id, and a known id with the wrong secret.
    assert_eq!(
        opened(&[key_b()], &tok, 120, &b),
        Err(StateError::UnknownKey)
    );
    let impostor = StateKey::new(1, &SECRET_B).unwrap();
    assert_eq!(
        opened(&[impostor], &tok, 120, &b),
        Err(StateError::Tampered)
    );

    // Scratch smaller than the token.
    let mut small = [0u8; 8];
    assert_eq!(
        open(&[key_a()], &tok, 120, &b, &mut small),
        Err(StateError::TooLong)
    );

    // Version byte other than 1: re-encode a token with version 2 (its tags no longer matter).
    let mut raw = [0u8; 256];
    let n = base64::decode(Alphabet::UrlSafeNoPad, tok.as_bytes(), &mut raw).unwrap();
    raw[0] = 2;
    let mut enc = [0u8; 512];
    let m = base64::encode(Alphabet::UrlSafeNoPad, &raw[..n], &mut enc).unwrap();
    let v2 = std::str::from_utf8(&enc[..m]).unwrap();
    assert_eq!(
        opened(&[key_a()], v2, 120, &b),
        Err(StateError::UnsupportedVersion)
    );

    for e in [
        StateError::Expired,
        StateError::Tampered,
        StateError::Malformed,
    ] {
        assert_eq!(e.code(), ErrorCode::INVALID_PARAMS);
    }
}

#[test]
fn key_rotation() {
    let d = params_digest(&[b"u"]);
    let b = binding("resources/read", &d);
    let old = sealed(key_a(), 0, 1_000, &b, b"old");
    let new = sealed(key_b(), 0, 1_000, &b, b"new");
    let both = [key_b(), key_a()];
    assert_eq!(opened(&both, &old, 1, &b).unwrap(), b"old");
    assert_eq!(opened(&both, &new, 1, &b).unwrap(), b"new");
    // Retiring key 1 retires its tokens.
    assert_eq!(opened(&[key_b()], &old, 1, &b), Err(StateError::UnknownKey));
}

#[test]
fn seal_errors_and_key_checks() {
    assert_eq!(StateKey::new(1, &[0; 31]).unwrap_err(), KeyError::TooShort);
    let d = params_digest(&[]);
    let b = binding("m", &d);
    let mut out = [0u8; 10];
    let needed = sealed_len(3).unwrap();
    assert_eq!(
        seal(key_a(), 0, 1, &b, b"abc", &mut out),
        Err(SealError::BufferTooSmall { needed })
    );
    assert!(!std::format!("{:?}", key_a()).contains("165"));
}

#[test]
fn params_digest_is_length_prefixed() {
    assert_ne!(params_digest(&[b"ab", b"c"]), params_digest(&[b"a", b"bc"]));
    assert_ne!(params_digest(&[b""]), params_digest(&[]));
}

proptest::proptest! {
    #[test]
    fn arbitrary_tokens_never_open(tok in "[A-Za-z0-9_-]{0,120}") {
        let d = params_digest(&[b"u"]);
        let b = binding("resources/read", &d);
        proptest::prop_assert!(opened(&[key_a(), key_b()], &tok, 0, &b).is_err());
    }

    #[test]
    fn round_trip_any_state(
        state in proptest::collection::vec(proptest::num::u8::ANY, 0..100),
        now in 0u64..1 << 50,
        ttl in 1u64..1 << 30,
    ) {
        let d = params_digest(&[b"u"]);
        let b = binding("resources/read", &d);
        let tok = sealed(key_a(), now, ttl, &b, &state);
        proptest::prop_assert_eq!(opened(&[key_a()], &tok, now + ttl - 1, &b).unwrap(), state);
        proptest::prop_assert_eq!(opened(&[key_a()], &tok, now + ttl, &b), Err(StateError::Expired));
    }
}

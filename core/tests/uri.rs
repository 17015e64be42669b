//! RFC 3986 concrete-URI validation (docs/rules.md §7, §16.5): tables of valid and invalid URIs,
//! each invalid one with the error kind and the byte it is blamed on.

use mcp_context::uri::{Uri, UriErrorKind as K, validate_uri};

#[rustfmt::skip]
const VALID: &[&str] = &[
    // MCP-shaped
    "file:///project/src/main.rs",
    "test://static-text",
    "test://template/42/data",
    "db://tables/users/rows?limit=10&offset=20",
    "repo://acme/web%20app/issues/812?fields=title#top",
    "notes://a/b/c/",
    "s://",
    "s:",
    "s:?q",
    "s:#f",
    "s:?#",
    "a+b.c-d:rest",
    // RFC 3986 §1.1.2 examples
    "ftp://ftp.is.co.za/rfc/rfc1808.txt",
    "http://www.ietf.org/rfc/rfc2396.txt",
    "ldap://[2001:db8::7]/c=GB?objectClass?one",
    "mailto:John.Doe@example.com",
    "news:comp.infosystems.www.servers.unix",
    "tel:+1-816-555-1212",
    "telnet://192.0.2.16:80/",
    "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
    // authority forms
    "https://user:pw@example.com:8080/a/b?x=1#f",
    "http://example.com:/",
    "http://[::1]:80/",
    "http://[::]/",
    "http://[1:2:3:4:5:6:7:8]/",
    "http://[1::8]/",
    "http://[1:2:3:4:5:6:7::]/",
    "http://[::ffff:192.0.2.128]/",
    "http://[64:ff9b::192.0.2.33]/",
    "http://[v7.fe80::a+en1]/",
    "http://%C3%A9xample.com/",
    "s://h/%C3%A9?%2F#%23",
    "s:////x",
    "s:x:y/z@w",
    "s://h/a!$&'()*+,;=:@b",
    "s://h?/?:@!$&'()*+,;=",
    "s://999.999.999.999/",
];

#[rustfmt::skip]
const INVALID: &[(&str, K, usize)] = &[
    ("", K::Empty, 0),
    ("no-scheme", K::MissingScheme, 9),
    ("/relative/path", K::MissingScheme, 0),
    ("?q", K::MissingScheme, 0),
    ("1http://x", K::InvalidScheme, 0),
    ("ht_tp://x", K::InvalidScheme, 2),
    (":x", K::InvalidScheme, 0),
    ("s://exa mple.com", K::InvalidHost, 7),
    ("s://h^/", K::InvalidHost, 5),
    ("s://h:8o", K::InvalidPort, 7),
    ("s://h:80:80", K::InvalidPort, 8),
    ("s://[::1", K::InvalidIpLiteral, 4),
    ("s://[1:2:3:4:5:6:7:8:9]", K::InvalidIpLiteral, 4),
    ("s://[1:2:3:4:5:6:7]", K::InvalidIpLiteral, 4),
    ("s://[::1::2]", K::InvalidIpLiteral, 4),
    ("s://[12345::]", K::InvalidIpLiteral, 4),
    ("s://[1:]", K::InvalidIpLiteral, 4),
    ("s://[:1]", K::InvalidIpLiteral, 4),
    ("s://[1.2.3.4]", K::InvalidIpLiteral, 4),
    ("s://[::256.0.0.1]", K::InvalidIpLiteral, 4),
    ("s://[::01.0.0.1]", K::InvalidIpLiteral, 4),
    ("s://[v.x]", K::InvalidIpLiteral, 4),
    ("s://[vF.]", K::InvalidIpLiteral, 4),
    ("s://[::1]x", K::InvalidHost, 9),
    ("s://u[s@h", K::InvalidUserinfo, 5),
    ("s://h/a b", K::InvalidPath, 7),
    ("s://h/%zz", K::InvalidPercentEncoding, 6),
    ("s://h/%4", K::InvalidPercentEncoding, 6),
    ("s://h?a%", K::InvalidPercentEncoding, 7),
    ("s://h?a b", K::InvalidQuery, 7),
    ("s://h?a{b}", K::InvalidQuery, 7),
    ("s://h#a#b", K::InvalidFragment, 7),
    ("s://h#a b", K::InvalidFragment, 7),
    ("s:a{b}", K::InvalidPath, 3),
    ("s:a\\b", K::InvalidPath, 3),
    ("s://h/é", K::InvalidPath, 6),
    ("s:\u{7f}", K::InvalidPath, 2),
    ("s:a\"b", K::InvalidPath, 3),
    ("file:///a|b", K::InvalidPath, 9),
];

#[test]
fn valid_uris() {
    for u in VALID {
        assert_eq!(validate_uri(u), Ok(()), "{u}");
    }
    println!("{} valid", VALID.len());
}

#[test]
fn invalid_uris() {
    for &(u, kind, at) in INVALID {
        let e = validate_uri(u).expect_err(u);
        assert_eq!((e.kind, e.at), (kind, at), "{u}: {e}");
    }
    println!("{} invalid", INVALID.len());
}

#[test]
fn components() {
    let u = Uri::parse("https://user@[::1]:8080/a/b?x=1?y#f/g").unwrap();
    assert_eq!(u.scheme, "https");
    assert_eq!(u.authority, Some("user@[::1]:8080"));
    assert_eq!(u.path, "/a/b");
    assert_eq!(u.query, Some("x=1?y"));
    assert_eq!(u.fragment, Some("f/g"));
    let u = Uri::parse("file:///x").unwrap();
    assert_eq!(
        (u.authority, u.path, u.query, u.fragment),
        (Some(""), "/x", None, None)
    );
    let u = Uri::parse("urn:a:b").unwrap();
    assert_eq!((u.scheme, u.authority, u.path), ("urn", None, "a:b"));
    let e = validate_uri("s://h/%zz").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid URI: malformed percent-encoding at byte 6"
    );
}

proptest::proptest! {
    /// Never panics, and every accepted URI splits back into itself.
    #[test]
    fn never_panics(s in "[a-z0-9:/?#\\[\\]@!$&'()*+,;=%._~ {}\\-vé]{0,24}") {
        if let Ok(u) = Uri::parse(&s) {
            let mut back = format!("{}:", u.scheme);
            if let Some(a) = u.authority { back.push_str("//"); back.push_str(a); }
            back.push_str(u.path);
            if let Some(q) = u.query { back.push('?'); back.push_str(q); }
            if let Some(f) = u.fragment { back.push('#'); back.push_str(f); }
            proptest::prop_assert_eq!(back, s);
        }
    }
}

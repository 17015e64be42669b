use super::*;
use PathError::*;
use std::string::String;
use std::vec::Vec;

const ROOT: &str = "file:///srv/root";

fn resolve(uri: &str) -> Result<String, PathError> {
    let root = FileRoot::new(ROOT).unwrap();
    let mut buf = [0u8; 512];
    root.resolve(uri, &mut buf).map(|p| p.as_str().into())
}

#[test]
fn accepted() {
    #[rustfmt::skip]
    let rows: &[(&str, &str)] = &[
        ("file:///srv/root", ""),
        ("file:///srv/root/", ""),
        ("file://localhost/srv/root/a", "a"),
        ("FILE://LocalHost/srv/root/a", "a"),
        ("file:///srv/root/a/b/c.txt", "a/b/c.txt"),
        ("file:///srv/root/dir/", "dir"),
        ("file:///srv/root/a%20b", "a b"),
        ("file:///srv/root/r%C3%A9sum%C3%A9.md", "résumé.md"),
        ("file:///srv/%72oot/x", "x"),
        ("file:///srv/root/.hidden", ".hidden"),
        ("file:///srv/root/a..b", "a..b"),
        ("file:///srv/root/..a", "..a"),
        ("file:///srv/root/%252e%252e", "%2e%2e"),
        ("file:///srv/root/a@b+c,d;e=f!$&'()*", "a@b+c,d;e=f!$&'()*"),
        ("file:///srv/root/%7C", "|"),
        ("file:///srv/root/~user", "~user"),
    ];
    for (uri, want) in rows {
        assert_eq!(resolve(uri).as_deref(), Ok(*want), "{uri}");
    }
}

#[test]
fn hostile() {
    #[rustfmt::skip]
    let rows: &[(&str, PathError)] = &[
        // Dot segments, raw and encoded in every case mix.
        ("file:///srv/root/..", DotSegment),
        ("file:///srv/root/../etc/passwd", DotSegment),
        ("file:///srv/root/a/../../etc", DotSegment),
        ("file:///srv/root/./a", DotSegment),
        ("file:///srv/root/%2e%2e/etc", DotSegment),
        ("file:///srv/root/%2E%2e/etc", DotSegment),
        ("file:///srv/root/.%2E/etc", DotSegment),
        ("file:///srv/root/%2e/a", DotSegment),
        ("file:///srv/root/...", DotSegment),
        ("file:///srv/root/..%20", DotSegment),
        ("file:///srv/root/.%20.", DotSegment),
        ("file:///srv/root/%20", DotSegment),
        // Encoded separators.
        ("file:///srv/root/..%2fetc", EncodedSlash),
        ("file:///srv/root/..%2Fetc", EncodedSlash),
        ("file:///srv/root/a%2f..%2f..%2fetc", EncodedSlash),
        ("file:///srv/root/..%5cetc", Backslash),
        ("file:///srv/root/..%5Cwindows", Backslash),
        ("file:///srv/root/..\\etc", Backslash),
        ("file:///srv/root\\..\\etc", Backslash),
        // NUL and control characters, raw and encoded.
        ("file:///srv/root/a%00.txt", Nul),
        ("file:///srv/root/a\0.txt", Nul),
        ("file:///srv/root/a%0a", ControlCharacter),
        ("file:///srv/root/a%0D%0A", ControlCharacter),
        ("file:///srv/root/a%1f", ControlCharacter),
        ("file:///srv/root/a%7F", ControlCharacter),
        ("file:///srv/root/a\tb", ControlCharacter),
        // Overlong and invalid UTF-8.
        ("file:///srv/root/%c0%ae%c0%ae/etc", InvalidUtf8),
        ("file:///srv/root/%C0%AE", InvalidUtf8),
        ("file:///srv/root/%e0%80%ae%e0%80%ae", InvalidUtf8),
        ("file:///srv/root/%c0%af", InvalidUtf8),
        ("file:///srv/root/%f0%80%80%ae", InvalidUtf8),
        ("file:///srv/root/%ff", InvalidUtf8),
        ("file:///srv/root/%c3", InvalidUtf8),
        ("file:///srv/root/%ed%a0%80", InvalidUtf8),
        // Drive letters, drive-relative paths, streams.
        ("file:///srv/root/C:/Windows", DriveLetter),
        ("file:///srv/root/c:", DriveLetter),
        ("file:///srv/root/C%3a/x", DriveLetter),
        ("file:///srv/root/c%7C/x", DriveLetter),
        ("file:///srv/root/c|/x", InvalidCharacter),
        ("file:///C:/Windows", OutsideRoot),
        ("file:///srv/root/file.txt:stream", Colon),
        ("file:///srv/root/ab%3a%24DATA", Colon),
        ("file:///srv/root/a%3a%24DATA", DriveLetter),
        // Absolute paths and UNC forms smuggled via empty segments.
        ("file:///srv/root//etc/passwd", EmptySegment),
        ("file:///srv/root///", EmptySegment),
        ("file:////server/share/x", EmptySegment),
        ("file://///server/share", EmptySegment),
        ("file:///srv//root/x", EmptySegment),
        // Hosts.
        ("file://server/share/x", HostNotLocal),
        ("file://evil.example/srv/root/x", HostNotLocal),
        ("file://localhost:80/srv/root/x", HostNotLocal),
        ("file://user@localhost/srv/root/x", HostNotLocal),
        ("file://%6cocalhost/srv/root/x", HostNotLocal),
        ("file://\\\\server\\share", Backslash),
        ("file://", MissingPath),
        ("file://localhost", MissingPath),
        // Not the authority form, not file.
        ("file:/srv/root/a", MissingAuthority),
        ("file:srv/root/a", MissingAuthority),
        ("/srv/root/a", NotFileScheme),
        ("https://example.com/srv/root/a", NotFileScheme),
        ("fil", NotFileScheme),
        ("", NotFileScheme),
        // Query and fragment.
        ("file:///srv/root/a?x=1", Query),
        ("file:///srv/root/a#frag", Fragment),
        ("file:///srv/root/a#x?y", Fragment),
        // Bad escapes and raw characters.
        ("file:///srv/root/a%", BadEscape),
        ("file:///srv/root/a%2", BadEscape),
        ("file:///srv/root/a%zz", BadEscape),
        ("file:///srv/root/a b", InvalidCharacter),
        ("file:///srv/root/r\u{e9}sum\u{e9}", InvalidCharacter),
        ("file:///srv/root/a\"b", InvalidCharacter),
        ("file:///srv/root/\u{ff0e}\u{ff0e}", InvalidCharacter),
        // Outside the root: siblings, prefixes, parents, case.
        ("file:///srv/rootkit/x", OutsideRoot),
        ("file:///srv/roo", OutsideRoot),
        ("file:///srv", OutsideRoot),
        ("file:///", OutsideRoot),
        ("file:///etc/passwd", OutsideRoot),
        ("file:///SRV/root/x", OutsideRoot),
        ("file:///srv/root%2fx", EncodedSlash),
    ];
    assert!(rows.len() >= 40);
    for (uri, want) in rows {
        assert_eq!(resolve(uri), Err(*want), "{uri:?}");
        assert_eq!(want.code(), crate::error_code::ErrorCode::INVALID_PARAMS);
    }
}

#[test]
fn roots() {
    let mut buf = [0u8; 64];
    let fs_root = FileRoot::new("file:///").unwrap();
    assert_eq!(
        fs_root
            .resolve("file:///etc/hosts", &mut buf)
            .unwrap()
            .as_str(),
        "etc/hosts"
    );
    assert_eq!(
        fs_root.resolve("file:///../etc", &mut buf).unwrap_err(),
        DotSegment
    );

    let win = FileRoot::new("file:///C:/Data").unwrap();
    assert_eq!(
        win.resolve("file:///C:/Data/a.txt", &mut buf)
            .unwrap()
            .as_str(),
        "a.txt"
    );
    assert_eq!(
        win.resolve("file:///D:/Data/a.txt", &mut buf).unwrap_err(),
        OutsideRoot
    );
    assert_eq!(
        win.resolve("file:///C:/Data/D:/x", &mut buf).unwrap_err(),
        DriveLetter
    );
    assert_eq!(
        win.resolve("file:///c|/Data/x", &mut buf).unwrap_err(),
        InvalidCharacter
    );
    assert_eq!(
        win.resolve("file:///C%3A/Data/x", &mut buf)
            .unwrap()
            .as_str(),
        "x"
    );

    let spaced = FileRoot::new("file:///home/me/My%20Files/").unwrap();
    assert_eq!(
        spaced
            .resolve("file:///home/me/My Files/x", &mut buf)
            .unwrap_err(),
        InvalidCharacter
    );
    assert_eq!(
        spaced
            .resolve("file:///home/me/My%20Files/x", &mut buf)
            .unwrap()
            .as_str(),
        "x"
    );

    for bad in [
        "file:///srv/../x",
        "file://host/x",
        "file:///a//b",
        "file:///a/C:",
        "http:///x",
        "file:///a?b",
    ] {
        assert!(FileRoot::new(bad).is_err(), "{bad}");
    }
}

#[test]
fn buffer_limits() {
    let root = FileRoot::new(ROOT).unwrap();
    let uri = "file:///srv/root/abc/def";
    let mut small = [0u8; 4];
    assert!(
        matches!(root.resolve(uri, &mut small), Err(BufferTooSmall { needed }) if needed <= uri.len())
    );
    let mut exact = [0u8; 7];
    assert_eq!(root.resolve(uri, &mut exact).unwrap().as_str(), "abc/def");
    let mut empty = [0u8; 0];
    assert!(root.resolve(ROOT, &mut empty).unwrap().is_root());
}

/// Lexically joins `rel` under `root` the way a permissive OS would (both separators, `.`
/// and `..` honoured, a drive or colon treated as an escape) and says whether the result
/// stays under the root.
fn stays_under(root: &[&str], rel: &str) -> bool {
    let mut stack: Vec<&str> = root.to_vec();
    for part in rel.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                if stack.len() <= root.len() {
                    return false;
                }
                stack.pop();
            }
            p if p.contains(':')
                || p.contains('\0')
                || p.trim_end_matches(['.', ' ']).is_empty() =>
            {
                return false;
            }
            p => stack.push(p),
        }
    }
    stack.len() >= root.len() && stack[..root.len()] == *root
}

proptest::proptest! {
    #[test]
    fn accepted_paths_never_escape(parts in proptest::collection::vec(proptest::sample::select(&[
        "a", "b", "..", ".", "/", "//", "%2e", "%2E", "%2f", "%5c", "\\", "%00", "%0a", "C:", "c|",
        "%c0%ae", "%e0%80%ae", "%ff", "%20", " ", "?", "#", ":", "%3a", "%25", "%252e", "%7c",
        "\u{e9}", "%c3%a9", "~", "-", "_",
    ][..]), 0..10)) {
        let tail: String = parts.concat();
        let uri = std::format!("{ROOT}/{tail}");
        if let Ok(rel) = resolve(&uri) {
            proptest::prop_assert!(stays_under(&["srv", "root"], &rel), "{} -> {}", uri, rel);
            for seg in rel.split('/') {
                proptest::prop_assert!(!seg.is_empty() || rel.is_empty());
                proptest::prop_assert!(!seg.contains(['\\', ':', '\0']));
            }
        }
    }

    #[test]
    fn arbitrary_input_never_panics(s in "\\PC{0,40}") {
        let _ = resolve(&s);
        let _ = FileRoot::new(&s);
    }
}

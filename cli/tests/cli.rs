//! `mcpc` end to end (ignored by default; test.sh runs them with the tools they need):
//! over stdio against our demo server (`MCPC_TEST_DEMO_SERVER`) and the official TypeScript
//! SDK's servers of both eras (`MCPC_TEST_TS_DIR`: tests/interop/ts installed), and over HTTP
//! with OAuth (login, stored tokens, logout) against the SDK's bearer middleware
//! (tests/auth-server, `MCPC_TEST_PYTHON` for its authorization server, `MCPC_TEST_NODE`) and
//! our own protected axum runner (`MCPC_TEST_PROTECTED_SERVER`: examples/protected-server).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const MCPC: &str = env!("CARGO_BIN_EXE_mcpc");

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("{name} is not set"))
}

fn mcpc(config: &Path, args: &[&str]) -> Output {
    Command::new(MCPC)
        .args(args)
        .env("MCPC_CONFIG_DIR", config)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "mcpc failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mcpc-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A child killed on drop.
struct Kill(Child);

impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts a process that prints `READY <url>`; returns it and the url.
fn ready(mut cmd: Command) -> (Kill, String) {
    let mut child = cmd.stdout(Stdio::piped()).spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .strip_prefix("READY ")
        .expect("READY line")
        .trim()
        .to_owned();
    (Kill(child), url)
}

#[test]
#[ignore = "needs MCPC_TEST_DEMO_SERVER (test.sh)"]
fn stdio_against_our_demo_server() {
    let config = temp_dir("demo");
    let demo = env("MCPC_TEST_DEMO_SERVER");
    let list = ok(&mcpc(&config, &[&demo, "list"]));
    assert!(
        list.lines()
            .any(|l| l.starts_with("notes://readme  readme")),
        "{list}"
    );
    let json = ok(&mcpc(&config, &["--json", &demo, "templates"]));
    let templates: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(templates[0]["uriTemplate"], "notes://{project}/{id}");
    let read = ok(&mcpc(&config, &[&demo, "read", "notes://readme"]));
    assert!(read.contains("notes://{project}/{id}"), "{read}");
    let prompts = ok(&mcpc(&config, &["--json", &demo, "prompts"]));
    assert!(prompts.contains("\"review_note\""), "{prompts}");
    // Tools come paged and screened by the core's client machine (`McpClient::list_tools`).
    let tools = ok(&mcpc(&config, &["--json", &demo, "tools"]));
    let tools: serde_json::Value = serde_json::from_str(&tools).unwrap();
    assert_eq!(tools[0]["name"], "search_notes", "{tools}");
    let done = ok(&mcpc(
        &config,
        &[
            &demo,
            "complete",
            "resource:notes://{project}/{id}",
            "project",
            "a",
        ],
    ));
    assert_eq!(done.lines().collect::<Vec<_>>(), ["acme", "apollo"]);
    // A method the machine owns is refused by `call`, with a non-zero exit.
    let refused = mcpc(&config, &[&demo, "call", "resources/list"]);
    assert!(!refused.status.success());
    let usage = mcpc(&config, &[&demo]);
    assert_eq!(usage.status.code(), Some(2));
    // The command line is split as shell words: a quoted path with a space in it.
    #[cfg(unix)]
    shell_words(&config, &demo);
}

#[cfg(unix)]
fn shell_words(config: &Path, demo: &str) {
    let spaced = config.join("a dir");
    std::fs::create_dir_all(&spaced).unwrap();
    let linked = spaced.join("demo server");
    std::os::unix::fs::symlink(demo, &linked).unwrap();
    let quoted = format!("'{}'", linked.display());
    let list = ok(&mcpc(config, &[&quoted, "list"]));
    assert!(list.contains("notes://readme"), "{list}");
    let unbalanced = mcpc(config, &[&format!("'{}", linked.display()), "list"]);
    assert!(!unbalanced.status.success());
}

#[test]
#[ignore = "needs MCPC_TEST_TS_DIR and MCPC_TEST_NODE (test.sh)"]
fn stdio_against_the_official_sdk_servers_of_both_eras() {
    let config = temp_dir("ts");
    let dir = env("MCPC_TEST_TS_DIR");
    let node = env("MCPC_TEST_NODE");
    for script in ["modern-server.mjs", "legacy-server.mjs"] {
        let target = format!("{node} {dir}/{script}");
        let list = ok(&mcpc(&config, &["--json", &target, "list"]));
        assert!(list.contains("test://static"), "{script}: {list}");
        let read = ok(&mcpc(&config, &[&target, "read", "test://static"]));
        assert_eq!(read.trim(), "static text", "{script}");
        let prompt = ok(&mcpc(&config, &[&target, "prompt", "greet", "name=ada"]));
        assert!(prompt.contains("user: Hello, ada!"), "{script}: {prompt}");
        let done = ok(&mcpc(
            &config,
            &[&target, "complete", "prompt:greet", "name", "a"],
        ));
        assert_eq!(done.trim(), "alice", "{script}");
    }
    // `listen` on the modern server: acknowledged, then interrupted.
    let target = format!("{node} {dir}/modern-server.mjs");
    let mut child = Command::new(MCPC)
        .args([target.as_str(), "listen", "test://static", "--list-changed"])
        .env("MCPC_CONFIG_DIR", &config)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(line.trim(), "listening");
}

/// `mcpc URL login`: the URL on stderr, followed here as a browser would (to the loopback
/// listener).
fn login(rt: &tokio::runtime::Runtime, config: &Path, url: &str) {
    let mut login = Command::new(MCPC)
        .args([url, "login"])
        .env("MCPC_CONFIG_DIR", config)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(login.stderr.take().unwrap());
    let mut line = String::new();
    while !line.starts_with("http") {
        line.clear();
        assert!(
            err.read_line(&mut line).unwrap() > 0,
            "no authorization URL"
        );
    }
    let page = rt.block_on(async {
        reqwest::get(line.trim())
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    });
    assert!(page.contains("Authorization received"), "{page}");
    assert!(within(login, 20).success());
}

/// Waits `secs` for `child`, killing it (and failing) when it does not end.
fn within(mut child: Child, secs: u64) -> std::process::ExitStatus {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("mcpc did not end within {secs} s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// tests/auth-server's authorization server (with `args`) and the SDK's protected server
/// trusting it: the processes, the issuer and the MCP URL.
fn protected(args: &[&str]) -> ([Kill; 2], String, String) {
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/auth-server");
    let mut node = Command::new(env("MCPC_TEST_NODE"));
    node.arg(here.join("protected-ts.mjs"));
    protected_by(node, args)
}

/// tests/auth-server's authorization server (with `args`) and `resource` (given the issuer as
/// its last argument) trusting it: the processes, the issuer and the MCP URL.
fn protected_by(mut resource: Command, args: &[&str]) -> ([Kill; 2], String, String) {
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/auth-server");
    let mut py = Command::new(env("MCPC_TEST_PYTHON"));
    py.arg(here.join("server.py")).args(args);
    let (auth, issuer) = ready(py);
    resource.arg(&issuer);
    let (resource, url) = ready(resource);
    ([auth, resource], issuer, url)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// The token file's contents.
fn token_file(file: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap()
}

fn stats(rt: &tokio::runtime::Runtime, issuer: &str) -> serde_json::Value {
    let text = rt.block_on(async {
        reqwest::get(format!("{issuer}/_test/stats"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    });
    serde_json::from_str(&text).unwrap()
}

#[test]
#[ignore = "needs MCPC_TEST_PYTHON and MCPC_TEST_NODE (test.sh)"]
fn http_with_oauth_login_tokens_and_logout() {
    let (_servers, issuer, url) = protected(&[]);
    let config = temp_dir("oauth");
    let rt = runtime();
    login(&rt, &config, &url);

    let file = config.join("tokens.json");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
    let kept = token_file(&file);
    assert_eq!(kept[&url]["resource"], url.as_str());

    // Later commands use the stored token: no authorization (stdin closed, nothing followed).
    let read = ok(&mcpc(&config, &[&url, "read", "secret://note"]));
    assert!(read.starts_with("secret for client-"), "{read}");
    let call = ok(&mcpc(
        &config,
        &[
            "--json",
            &url,
            "call",
            "tools/call",
            r#"{"name":"echo","arguments":{"text":"hi"}}"#,
        ],
    ));
    let result: serde_json::Value = serde_json::from_str(&call).unwrap();
    assert_eq!(result["content"][0]["text"], "echo: hi");
    assert_eq!(stats(&rt, &issuer)["authorizations"], 1);

    ok(&mcpc(&config, &[&url, "logout"]));
    let kept = token_file(&file);
    assert!(kept.get(&url).is_none());
}

#[test]
#[ignore = "needs MCPC_TEST_PYTHON and MCPC_TEST_NODE (test.sh)"]
fn http_after_expiry_refreshes_with_the_kept_registration() {
    let (_servers, issuer, url) = protected(&["--ttl", "2"]);
    let config = temp_dir("expiry");
    let rt = runtime();
    login(&rt, &config, &url);
    let file = config.join("tokens.json");
    let kept = token_file(&file);
    assert_eq!(kept[&url]["client"]["issuer"], issuer.as_str());
    let client_id = kept[&url]["client"]["client_id"].clone();
    assert!(client_id.is_string(), "{kept}");
    let before = stats(&rt, &issuer);
    assert_eq!(before["registrations"], 1);

    // The access token expires; the next run refreshes with the kept client: no second
    // registration, no authorization (nobody follows a URL here: it would hang).
    std::thread::sleep(Duration::from_millis(2500));
    let read = Command::new(MCPC)
        .args([url.as_str(), "read", "secret://note"])
        .env("MCPC_CONFIG_DIR", &config)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    assert!(within(read, 20).success());
    let after = stats(&rt, &issuer);
    assert_eq!(after["registrations"], 1, "{after}");
    assert_eq!(after["authorizations"], 1, "{after}");
    assert!(
        after["refreshes"].as_u64() > before["refreshes"].as_u64(),
        "{before} {after}"
    );
    let kept = token_file(&file);
    assert_eq!(kept[&url]["client"]["client_id"], client_id);
}

#[test]
#[ignore = "needs MCPC_TEST_PYTHON and MCPC_TEST_PROTECTED_SERVER (test.sh)"]
fn http_against_our_protected_axum_runner() {
    // examples/protected-server: our resource server (JwtVerifier, the core's rules).
    let axum = Command::new(env("MCPC_TEST_PROTECTED_SERVER"));
    let (_servers, issuer, url) = protected_by(axum, &["--scopes", "mcp:read mcp:write"]);
    let config = temp_dir("axum");
    let rt = runtime();
    login(&rt, &config, &url);
    let read = ok(&mcpc(&config, &[&url, "read", "secret://note"]));
    let scopes = read.split(" with ").nth(1).unwrap_or_default();
    assert!(read.starts_with("secret for client-"), "{read}");
    assert!(scopes.split_whitespace().any(|s| s == "mcp:read"), "{read}");
    let s = stats(&rt, &issuer);
    assert_eq!(s["authorizations"], 1, "{s}");
    assert_eq!(s["last_authorize"]["resource"], url.as_str());
}

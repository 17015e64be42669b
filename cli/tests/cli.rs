//! `mcpc` end to end (ignored by default; test.sh runs them with the tools they need):
//! over stdio against our demo server (`MCPC_TEST_DEMO_SERVER`) and the official TypeScript
//! SDK's servers of both eras (`MCPC_TEST_TS_DIR`: tests/interop/ts installed), and over HTTP
//! with OAuth (login, stored tokens, logout) against the SDK's bearer middleware
//! (tests/auth-server, `MCPC_TEST_PYTHON` for its authorization server, `MCPC_TEST_NODE`).

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

#[test]
#[ignore = "needs MCPC_TEST_PYTHON and MCPC_TEST_NODE (test.sh)"]
fn http_with_oauth_login_tokens_and_logout() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/auth-server");
    let mut py = Command::new(env("MCPC_TEST_PYTHON"));
    py.arg(here.join("server.py"));
    let (_as, issuer) = ready(py);
    let mut node = Command::new(env("MCPC_TEST_NODE"));
    node.arg(here.join("protected-ts.mjs")).arg(&issuer);
    let (_rs, url) = ready(node);
    let config = temp_dir("oauth");

    // `login`: the URL on stderr, followed here as a browser would (to the loopback listener).
    let mut login = Command::new(MCPC)
        .args([url.as_str(), "login"])
        .env("MCPC_CONFIG_DIR", &config)
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
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let page = rt.block_on(async {
        reqwest::get(line.trim())
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    });
    assert!(page.contains("Authorization received"), "{page}");
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(s) = login.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "login did not end");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success());

    let file = config.join("tokens.json");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
    let kept: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
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
    let stats = rt.block_on(async {
        reqwest::get(format!("{issuer}/_test/stats"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    });
    let stats: serde_json::Value = serde_json::from_str(&stats).unwrap();
    assert_eq!(stats["authorizations"], 1);

    ok(&mcpc(&config, &[&url, "logout"]));
    let kept: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert!(kept.get(&url).is_none());
}

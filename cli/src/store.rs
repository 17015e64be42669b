//! The token file: `tokens.json` in the user's config directory (`$MCPC_CONFIG_DIR`, else
//! `$XDG_CONFIG_HOME/mcp-context`, else `~/.config/mcp-context`), one entry per server URL
//! (its tokens, and under `client` the dynamic registration they were obtained with), written
//! with mode 0600.

use std::collections::BTreeMap;
use std::path::PathBuf;

use mcp_context::auth::{ClientRegistration, Tokens};
use serde_json::{Map, Value, json};

/// The token file's path.
pub(crate) fn path() -> Option<PathBuf> {
    let dir = if let Some(d) = std::env::var_os("MCPC_CONFIG_DIR") {
        PathBuf::from(d)
    } else if let Some(d) = std::env::var_os("XDG_CONFIG_HOME") {
        PathBuf::from(d).join("mcp-context")
    } else {
        PathBuf::from(std::env::var_os("HOME")?).join(".config/mcp-context")
    };
    Some(dir.join("tokens.json"))
}

fn read_all() -> BTreeMap<String, Value> {
    path()
        .and_then(|p| std::fs::read(p).ok())
        .and_then(|b| serde_json::from_slice::<BTreeMap<String, Value>>(&b).ok())
        .unwrap_or_default()
}

fn write_all(all: &BTreeMap<String, Value>) -> std::io::Result<()> {
    let p = path().ok_or_else(|| std::io::Error::other("no config directory (set HOME)"))?;
    if let Some(dir) = p.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let text = serde_json::to_vec_pretty(all).map_err(std::io::Error::other)?;
    let tmp = p.with_extension("json.tmp");
    {
        use std::io::Write;
        let mut o = std::fs::OpenOptions::new();
        o.write(true).create(true).truncate(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.mode(0o600);
        }
        let mut f = o.open(&tmp)?;
        f.write_all(&text)?;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o600))?;
    }
    std::fs::rename(tmp, p)
}

/// What is kept for one server.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Kept {
    pub(crate) tokens: Option<Tokens>,
    pub(crate) client: Option<ClientRegistration>,
}

/// What is kept for `server`.
pub(crate) fn load(server: &str) -> Kept {
    let Some(v) = read_all().remove(server) else {
        return Kept::default();
    };
    let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(String::from);
    let tokens = (|| {
        Some(Tokens {
            issuer: s(&v, "issuer")?,
            resource: s(&v, "resource")?,
            access_token: s(&v, "access_token")?,
            refresh_token: s(&v, "refresh_token"),
            expires_at_ms: v.get("expires_at_ms").and_then(Value::as_u64),
            scope: s(&v, "scope"),
        })
    })();
    let client = v.get("client").and_then(|c| {
        Some(ClientRegistration {
            issuer: s(c, "issuer")?,
            client_id: s(c, "client_id")?,
            client_secret: s(c, "client_secret"),
            token_endpoint_auth_method: s(c, "token_endpoint_auth_method")?,
        })
    });
    Kept { tokens, client }
}

/// Keeps `kept` for `server`.
pub(crate) fn save(server: &str, kept: &Kept) -> std::io::Result<()> {
    let mut all = read_all();
    let mut o = Map::new();
    if let Some(t) = &kept.tokens {
        o.insert("issuer".into(), json!(t.issuer));
        o.insert("resource".into(), json!(t.resource));
        o.insert("access_token".into(), json!(t.access_token));
        o.insert("refresh_token".into(), json!(t.refresh_token));
        o.insert("expires_at_ms".into(), json!(t.expires_at_ms));
        o.insert("scope".into(), json!(t.scope));
    }
    if let Some(c) = &kept.client {
        o.insert(
            "client".into(),
            json!({
                "issuer": c.issuer,
                "client_id": c.client_id,
                "client_secret": c.client_secret,
                "token_endpoint_auth_method": c.token_endpoint_auth_method,
            }),
        );
    }
    all.insert(server.into(), Value::Object(o));
    write_all(&all)
}

/// Forgets the tokens of `server`; whether there were any.
pub(crate) fn remove(server: &str) -> std::io::Result<bool> {
    let mut all = read_all();
    let had = all.remove(server).is_some();
    if had {
        write_all(&all)?;
    }
    Ok(had)
}

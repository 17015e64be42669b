//! `input_required` and the multi-round-trip retry (docs/rules.md §13, checklist §16.8): sealing
//! the application's state into `requestState` with [`crate::state`], bound to the method,
//! a digest of the identifying params and the caller's `auth`, and checking that input
//! requests ask only for capabilities the request declared.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::config::SealingKey;
use super::event::DeclaredCapabilities;
use super::pending::BindingData;
use crate::json::RawJson;
use crate::jsonrpc::Method;
use crate::messages::owned::{OwnedInputRequest, OwnedJson};
use crate::state::{self, Binding, StateError, StateKey};

/// The application's `input_required` answer to a `resources/read`, `prompts/get` or
/// registered-method event.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct InputRequired {
    /// `inputRequests`: unique key → `elicitation/create`, `sampling/createMessage` or
    /// `roots/list`, each allowed only when the request declared the capability.
    pub requests: Vec<(String, OwnedInputRequest)>,
    /// Application state to get back, verified, on the retry
    /// ([`Retry::state`](super::Retry::state)). The machine seals it (or an empty state when
    /// `None`) whenever sealing keys are configured. Not encrypted: no secrets.
    pub state: Option<Vec<u8>>,
}

/// The longest `requestState` text accepted on a retry.
pub(crate) const MAX_STATE_LEN: usize = 64 * 1024;

/// `resources/read` binds the URI.
pub(crate) fn read_binding(uri: &str) -> BindingData<'static> {
    BindingData {
        method: "resources/read",
        digest: state::params_digest(&[uri.as_bytes()]),
    }
}

/// `prompts/get` binds the name and the arguments sorted by name.
pub(crate) fn prompt_binding(name: &str, args: &[(String, String)]) -> BindingData<'static> {
    let mut sorted: Vec<&(String, String)> = args.iter().collect();
    super::sort::sort_by(&mut sorted, |a, b| a < b);
    let mut parts: Vec<&[u8]> = vec![name.as_bytes()];
    for (k, v) in sorted {
        parts.push(k.as_bytes());
        parts.push(v.as_bytes());
    }
    BindingData {
        method: "prompts/get",
        digest: state::params_digest(&parts),
    }
}

/// Params members that do not identify a request: the per-request `_meta` and the MRTR
/// retry inputs themselves.
const UNBOUND_PARAMS: [&str; 3] = ["_meta", "requestState", "inputResponses"];

/// A registered method binds its name and every other params member, in a canonical form
/// ([`canonical`]): a retry that re-sends the same params (in any key order, with any
/// whitespace or string escapes) opens the state; other params do not.
pub(crate) fn method_binding<'m>(method: &'m str, params: RawJson<'_>) -> BindingData<'m> {
    let mut text = Vec::with_capacity(params.as_text().len());
    match params.object() {
        Some(members) => {
            let mut kept: Vec<(alloc::borrow::Cow<'_, str>, RawJson<'_>)> = members
                .map(|(k, v)| (k.to_cow(), v))
                .filter(|(k, _)| !UNBOUND_PARAMS.contains(&k.as_ref()))
                .collect();
            canonical_members(&mut kept, &mut text);
        }
        None => canonical(params, &mut text),
    }
    BindingData {
        method,
        digest: state::params_digest(&[method.as_bytes(), &text]),
    }
}

/// An unambiguous, order-insensitive encoding of a JSON value for hashing (not JSON):
/// objects by sorted decoded key, strings decoded, numbers as written, each item tagged and
/// length-prefixed.
fn canonical(v: RawJson<'_>, out: &mut Vec<u8>) {
    if let Some(members) = v.object() {
        let mut kept: Vec<_> = members.map(|(k, v)| (k.to_cow(), v)).collect();
        return canonical_members(&mut kept, out);
    }
    if let Some(items) = v.array() {
        out.push(b'a');
        let at = out.len();
        out.extend_from_slice(&[0; 8]);
        let mut n: u64 = 0;
        for item in items {
            canonical(item, out);
            n += 1;
        }
        if let Some(slot) = out.get_mut(at..at + 8) {
            slot.copy_from_slice(&n.to_be_bytes());
        }
        return;
    }
    if let Some(s) = v.as_str() {
        return bytes(b's', s.to_cow().as_bytes(), out);
    }
    bytes(b'v', v.as_text().as_bytes(), out);
}

fn canonical_members(
    members: &mut [(alloc::borrow::Cow<'_, str>, RawJson<'_>)],
    out: &mut Vec<u8>,
) {
    // Sorted here, once for both callers; a repeated name is ordered by its value's text,
    // so the order never depends on the members' order in the request.
    super::sort::sort_by(members, |a, b| {
        (a.0.as_ref(), a.1.as_text()) < (b.0.as_ref(), b.1.as_text())
    });
    out.push(b'o');
    out.extend_from_slice(&(members.len() as u64).to_be_bytes());
    for (k, v) in members {
        bytes(b'k', k.as_bytes(), out);
        canonical(*v, out);
    }
}

fn bytes(tag: u8, b: &[u8], out: &mut Vec<u8>) {
    out.push(tag);
    out.extend_from_slice(&(b.len() as u64).to_be_bytes());
    out.extend_from_slice(b);
}

fn principal(auth: u64) -> [u8; 8] {
    auth.to_be_bytes()
}

fn keys(keys: &[SealingKey]) -> Vec<StateKey<'_>> {
    keys.iter()
        .filter_map(|k| StateKey::new(k.id, &k.secret).ok())
        .collect()
}

/// Verifies a retry's `requestState` and returns the application state.
pub(crate) fn open(
    live: &[SealingKey],
    token: &str,
    now_ms: u64,
    b: &BindingData<'_>,
    auth: u64,
) -> Result<Vec<u8>, StateError> {
    if token.len() > MAX_STATE_LEN {
        return Err(StateError::TooLong);
    }
    let p = principal(auth);
    let binding = Binding {
        method: b.method,
        params_digest: &b.digest,
        principal: &p,
    };
    let mut scratch = vec![0u8; crate::base64::decoded_len_max(token.len())];
    let live = keys(live);
    if live.is_empty() {
        return Err(StateError::UnknownKey);
    }
    state::open(&live, token, now_ms, &binding, &mut scratch).map(<[u8]>::to_vec)
}

/// Seals `app_state` with the newest key.
pub(crate) fn seal(
    key: &SealingKey,
    now_ms: u64,
    ttl_ms: u64,
    b: &BindingData<'_>,
    auth: u64,
    app_state: &[u8],
) -> Option<String> {
    let key = StateKey::new(key.id, &key.secret).ok()?;
    let p = principal(auth);
    let binding = Binding {
        method: b.method,
        params_digest: &b.digest,
        principal: &p,
    };
    let mut out = vec![0u8; state::sealed_len(app_state.len())?];
    let n = state::seal(key, now_ms, ttl_ms, &binding, app_state, &mut out).ok()?;
    out.truncate(n);
    String::from_utf8(out).ok()
}

/// The `requiredCapabilities` object for input requests the client did not declare
/// (docs/rules.md §13: "Servers MUST NOT send an inputRequests that the client has not declared";
/// §1.1: -32021 with `data.requiredCapabilities`), or `None` when all are declared.
pub(crate) fn missing_capabilities(
    requests: &[(String, OwnedInputRequest)],
    caps: DeclaredCapabilities,
) -> Option<OwnedJson> {
    let (mut form, mut url, mut sampling, mut roots) = (false, false, false, false);
    for (_, r) in requests {
        match r.method {
            Method::ElicitationCreate => {
                let is_url = r
                    .params
                    .as_ref()
                    .and_then(|p| p.as_raw().get("mode"))
                    .and_then(|m| m.as_str())
                    .is_some_and(|m| m == "url");
                if is_url {
                    url |= !caps.elicitation_url;
                } else {
                    form |= !caps.elicitation_form;
                }
            }
            Method::SamplingCreateMessage => sampling |= !caps.sampling,
            _ => roots |= !caps.roots,
        }
    }
    if !(form || url || sampling || roots) {
        return None;
    }
    let mut text = String::from("{");
    let mut sep = "";
    if form || url {
        text.push_str("\"elicitation\":{");
        match (form, url) {
            (true, true) => text.push_str("\"form\":{},\"url\":{}"),
            (true, false) => text.push_str("\"form\":{}"),
            _ => text.push_str("\"url\":{}"),
        }
        text.push('}');
        sep = ",";
    }
    if sampling {
        text.push_str(sep);
        text.push_str("\"sampling\":{}");
        sep = ",";
    }
    if roots {
        text.push_str(sep);
        text.push_str("\"roots\":{}");
    }
    text.push('}');
    OwnedJson::parse(text).ok()
}

/// Why an [`InputRequired`] cannot be sent as given (caller error).
pub(crate) fn check_requests(requests: &[(String, OwnedInputRequest)]) -> Result<(), ()> {
    for (i, (k, r)) in requests.iter().enumerate() {
        let allowed = matches!(
            r.method,
            Method::ElicitationCreate | Method::SamplingCreateMessage | Method::RootsList
        );
        let needs_params = matches!(
            r.method,
            Method::ElicitationCreate | Method::SamplingCreateMessage
        );
        let params_ok = match &r.params {
            Some(p) => p.as_raw().object().is_some(),
            None => !needs_params,
        };
        let unique = requests
            .get(..i)
            .is_some_and(|b| b.iter().all(|(o, _)| o != k));
        if !(allowed && params_ok && unique) {
            return Err(());
        }
    }
    Ok(())
}

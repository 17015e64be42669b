//! `server/discover` (docs/rules.md §2): the result, derived from what is registered, encoded
//! once and kept until the catalogue or the host's capabilities change.

use alloc::string::String;

use super::io::Ctx;
use super::machine::Server;
use super::outbox;
use crate::error_code::ErrorCode;
use crate::json::RawJson;
use crate::jsonrpc::{ErrorObject, RequestId};
use crate::messages::owned::{AsView, OwnedDiscoverResult, OwnedServerCapabilities};
use crate::messages::{ListChangedCapability, ResourcesCapability};

impl Server {
    /// `server/discover` (docs/rules.md §2): capabilities derived from what is registered.
    pub(crate) fn discover(&mut self, id: RequestId<'_>, ctx: Ctx) {
        if self.discover.is_none() {
            let c = &self.config;
            let result = OwnedDiscoverResult {
                supported_versions: c.supported_versions.clone(),
                capabilities: OwnedServerCapabilities {
                    resources: self.serves_resources().then_some(ResourcesCapability {
                        subscribe: Some(true),
                        list_changed: Some(true),
                    }),
                    prompts: self.serves_prompts().then_some(ListChangedCapability {
                        list_changed: Some(true),
                    }),
                    completions: self.serves_completions(),
                    tools: self.serves_tools().then_some(ListChangedCapability {
                        list_changed: Some(true),
                    }),
                    ..OwnedServerCapabilities::default()
                },
                instructions: c.instructions.clone(),
                ttl_ms: c.discover_cache.ttl_ms,
                cache_scope: c.discover_cache.scope,
                server_info: c.server_info.clone(),
            };
            self.discover = self.encode_discover(&result);
        }
        let cached = self.discover.take().unwrap_or_default();
        match RawJson::parse(cached.as_bytes()) {
            Ok(raw) => self.reply(ctx, id, &raw),
            Err(_) => {
                let err = ErrorObject::new(ErrorCode::INTERNAL_ERROR, "Internal error");
                self.reply_error(ctx, id, &err, 200);
            }
        }
        self.discover = Some(cached);
    }

    /// The discover result with the host's capabilities merged in.
    fn encode_discover(&self, result: &OwnedDiscoverResult) -> Option<String> {
        if self.ext.capabilities.is_empty() {
            let bytes = outbox::encode(result).ok()?;
            return String::from_utf8(bytes).ok();
        }
        let derived = outbox::encode(&result.capabilities.view()).ok()?;
        let derived = RawJson::parse(&derived).ok()?;
        let merged = self.merged_capabilities(derived)?;
        let capabilities = RawJson::parse(merged.as_bytes()).ok()?;
        let bytes = outbox::encode(&super::extension::DiscoverOut {
            result: result.view(),
            capabilities,
        })
        .ok()?;
        String::from_utf8(bytes).ok()
    }
}

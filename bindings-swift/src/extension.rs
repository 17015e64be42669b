//! Extension methods (docs/server-machine.md §Extension methods): methods the core does not
//! own (`tools/list`, `tools/call`, vendor methods), validated by the machine like its own and
//! handed to the host as `ServerEvent.request`; the capabilities `server/discover` announces
//! for them.

use mcp_context::messages::owned::OwnedJson;
use mcp_context::server::Handle;

use crate::records::{CacheHint, Resource};
use crate::server::ServerMachine;
use crate::server_types::{RegisterError, RespondError};

#[uniffi::export]
impl ServerMachine {
    /// Serves `method` (e.g. `"tools/call"`): its requests arrive as `ServerEvent.request`.
    /// Throws `RegisterError.CoreMethod` for a method the core owns.
    pub fn add_method(&self, method: String) -> Result<(), RegisterError> {
        Ok(self.lock().add_method(&method)?)
    }

    /// Stops serving `method`; `false` if it was not added.
    pub fn remove_method(&self, method: String) -> bool {
        self.lock().remove_method(&method)
    }

    /// Announces `key` in `server/discover`'s `capabilities` with `value_json` (an object,
    /// e.g. `{"listChanged":true}` for `"tools"`). Throws `RegisterError.CoreCapability` for
    /// one the machine derives, `.NotAnObject`, or `.InvalidJson`.
    pub fn set_capability(&self, key: String, value_json: String) -> Result<(), RegisterError> {
        let value = OwnedJson::parse(value_json).map_err(|e| RegisterError::InvalidJson {
            description: e.to_string(),
        })?;
        Ok(self.lock().set_capability(&key, value)?)
    }

    /// Withdraws a capability set with `setCapability`; `false` if absent.
    pub fn remove_capability(&self, key: String) -> bool {
        self.lock().remove_capability(&key)
    }

    /// Answers a `request` event with its result object (JSON text); the machine adds
    /// `resultType: "complete"`, `_meta.serverInfo` and, with `cache`, `ttlMs`/`cacheScope`.
    pub fn respond_result(
        &self,
        handle: u64,
        result_json: String,
        cache: Option<CacheHint>,
    ) -> Result<(), RespondError> {
        let result = OwnedJson::parse(result_json).map_err(|e| RespondError::InvalidJson {
            description: e.to_string(),
        })?;
        Ok(self
            .lock()
            .respond_result(Handle::from_raw(handle), result, cache.map(Into::into))?)
    }

    /// `notifications/progress` for the request of `handle`, if it carried a
    /// `progressToken` (`false`, nothing sent, otherwise). `progress` must increase with each
    /// call; never after the final answer. Throws `RespondError.unknownHandle` /
    /// `.invalidProgress`.
    pub fn progress(
        &self,
        handle: u64,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    ) -> Result<bool, RespondError> {
        Ok(self.lock().progress(
            Handle::from_raw(handle),
            progress,
            total,
            message.as_deref(),
        )?)
    }

    /// Answers a `listResources` event with one page of the host's resources and its cursor
    /// for the next page (`nil`: the last).
    pub fn respond_list(
        &self,
        handle: u64,
        resources: Vec<Resource>,
        next_cursor: Option<String>,
    ) -> Result<(), RespondError> {
        Ok(self.lock().respond_list(
            Handle::from_raw(handle),
            resources.into_iter().map(Into::into).collect(),
            next_cursor,
        )?)
    }
}

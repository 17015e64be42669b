//! The notifications in scope (docs/rules.md §12): `list_changed` ×3, `resources/updated`,
//! `cancelled`. Each may carry `_meta.subscriptionId`; legacy ones do not (docs/rules.md §17.2).

use super::common::{Enc, obj, required, string};
use super::meta::NotificationMeta;
use crate::json::fields::keys;
use crate::json::key;
use crate::json::{Cursor, Encode, JsonSink, JsonStr, RawJson, Writer};
use crate::jsonrpc::{DecodeError, FromJson, Method, MethodParams, ParamsError, RequestId};

/// Params of a `list_changed` notification: only an optional `_meta`. With no `_meta` the
/// notification is encoded without `params`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ListChangedParams<'a> {
    /// `_meta` (carries the subscription id on a listen stream).
    pub meta: Option<NotificationMeta<'a>>,
}

impl<'a> FromJson<'a> for ListChangedParams<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut f = obj(c, keys!["_meta"], "params")?;
        let mut meta = None;
        while f.next(c)?.is_some() {
            meta = Some(NotificationMeta::decode(c)?);
        }
        Ok(Self { meta })
    }
}

impl Encode for ListChangedParams<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.opt_member(key!("_meta"), &self.meta)?;
        w.end_object()
    }
}

macro_rules! list_changed {
    ($(#[$doc:meta])* $name:ident = $method:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Default)]
        pub struct $name<'a>(pub ListChangedParams<'a>);

        impl<'a> FromJson<'a> for $name<'a> {
            fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
                ListChangedParams::decode(c).map(Self)
            }
        }

        impl Encode for $name<'_> {
            fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
                self.0.encode(w)
            }
        }

        impl<'a> MethodParams<'a> for $name<'a> {
            const METHOD: Method<'static> = Method::$method;
            fn from_params(params: Option<RawJson<'a>>) -> Result<Self, ParamsError> {
                params.map_or(Ok(Self::default()), Self::from_json)
            }
            fn omit(&self) -> bool {
                self.0.meta.is_none()
            }
        }
    };
}

list_changed!(
    /// `notifications/resources/list_changed` params.
    ResourceListChangedParams = ResourcesListChanged
);
list_changed!(
    /// `notifications/prompts/list_changed` params.
    PromptListChangedParams = PromptsListChanged
);
list_changed!(
    /// `notifications/tools/list_changed` params.
    ToolListChangedParams = ToolsListChanged
);

/// `notifications/resources/updated` params: the changed `uri` (possibly a sub-resource
/// of the subscribed one).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResourceUpdatedParams<'a> {
    /// `_meta` (the subscription id on a listen stream; absent in legacy sessions).
    pub meta: Option<NotificationMeta<'a>>,
    /// `uri`
    pub uri: JsonStr<'a>,
}

impl<'a> FromJson<'a> for ResourceUpdatedParams<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut f = obj(c, keys!["_meta", "uri"], "params")?;
        let (mut meta, mut uri) = (None, None);
        while let Some(i) = f.next(c)? {
            if i == 0 {
                meta = Some(NotificationMeta::decode(c)?);
            } else {
                uri = Some(string(c, "uri")?);
            }
        }
        Ok(Self {
            meta,
            uri: required(uri, "uri")?,
        })
    }
}

impl Encode for ResourceUpdatedParams<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.opt_member(key!("_meta"), &self.meta)?;
        w.member(key!("uri"), &self.uri)?;
        w.end_object()
    }
}

impl<'a> MethodParams<'a> for ResourceUpdatedParams<'a> {
    const METHOD: Method<'static> = Method::ResourcesUpdated;
}

/// `notifications/cancelled` params (docs/rules.md §11.4, §12).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CancelledParams<'a> {
    /// `_meta`
    pub meta: Option<NotificationMeta<'a>>,
    /// `requestId`: the request to cancel (for a server, the listen request it ends).
    pub request_id: RequestId<'a>,
    /// `reason`
    pub reason: Option<JsonStr<'a>>,
}

impl<'a> FromJson<'a> for CancelledParams<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut f = obj(c, keys!["_meta", "requestId", "reason"], "params")?;
        let (mut meta, mut request_id, mut reason) = (None, None, None);
        while let Some(i) = f.next(c)? {
            match i {
                0 => meta = Some(NotificationMeta::decode(c)?),
                1 => {
                    let id = RequestId::from_json(c.value()?)
                        .map_err(|_| ParamsError::wrong_type("requestId"))?;
                    request_id = Some(id);
                }
                _ => reason = Some(string(c, "reason")?),
            }
        }
        Ok(Self {
            meta,
            request_id: required(request_id, "requestId")?,
            reason,
        })
    }
}

impl Encode for CancelledParams<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.opt_member(key!("_meta"), &self.meta)?;
        w.member(key!("requestId"), &self.request_id)?;
        w.opt_member(key!("reason"), &self.reason)?;
        w.end_object()
    }
}

impl<'a> MethodParams<'a> for CancelledParams<'a> {
    const METHOD: Method<'static> = Method::Cancelled;
}

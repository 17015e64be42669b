//! 2025-11-25 shapes a dual-era peer still meets (docs/rules.md §17): `resources/subscribe` and
//! `resources/unsubscribe` (`params: {uri}`, no required `_meta`). Results without
//! `resultType`, `-32002` not-found errors and notifications without a subscription id are
//! accepted by the modern views themselves.

use super::common::{Enc, obj, object, required, string};
use crate::json::fields::keys;
use crate::json::key;
use crate::json::{Cursor, Encode, JsonSink, JsonStr, RawJson, Writer};
use crate::jsonrpc::{DecodeError, FromJson, Method, MethodParams};

/// `{uri, _meta?}` of the legacy subscribe/unsubscribe requests.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UriParams<'a> {
    /// `uri`
    pub uri: JsonStr<'a>,
    /// `_meta` (legacy: optional, only `progressToken` defined), passed through.
    pub meta: Option<RawJson<'a>>,
}

impl<'a> FromJson<'a> for UriParams<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut f = obj(c, keys!["uri", "_meta"], "params")?;
        let (mut uri, mut meta) = (None, None);
        while let Some(i) = f.next(c)? {
            if i == 0 {
                uri = Some(string(c, "uri")?);
            } else {
                meta = Some(object(c, "_meta")?);
            }
        }
        Ok(Self {
            uri: required(uri, "uri")?,
            meta,
        })
    }
}

impl Encode for UriParams<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.opt_member(key!("_meta"), &self.meta)?;
        w.member(key!("uri"), &self.uri)?;
        w.end_object()
    }
}

macro_rules! legacy_uri {
    ($(#[$doc:meta])* $name:ident = $method:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct $name<'a>(pub UriParams<'a>);

        impl<'a> FromJson<'a> for $name<'a> {
            fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
                UriParams::decode(c).map(Self)
            }
        }

        impl Encode for $name<'_> {
            fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
                self.0.encode(w)
            }
        }

        impl<'a> MethodParams<'a> for $name<'a> {
            const METHOD: Method<'static> = Method::$method;
        }
    };
}

legacy_uri!(
    /// Legacy `resources/subscribe` params (removed in 2026-07-28).
    SubscribeParams = ResourcesSubscribe
);
legacy_uri!(
    /// Legacy `resources/unsubscribe` params (removed in 2026-07-28).
    UnsubscribeParams = ResourcesUnsubscribe
);

//! `subscriptions/listen` and its acknowledgment (docs/rules.md §11).

use super::common::{Enc, ResultType, boolean, obj, required};
use super::input_required::complete_only;
use super::meta::{NotificationMeta, RequestMeta, ResultMeta, SUBSCRIPTION_ID_KEY};
use super::seq::Seq;
use crate::json::fields::{Keys, keys};
use crate::json::key;
use crate::json::{Cursor, Encode, EncodeError, JsonSink, JsonStr, Writer};
use crate::jsonrpc::{DecodeError, FromJson, Method, MethodParams};

/// `SubscriptionFilter`: the notification types a listen stream opts in to. An absent
/// field means "not subscribed" (docs/rules.md §11.1).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SubscriptionFilter<'a> {
    /// `toolsListChanged`
    pub tools_list_changed: Option<bool>,
    /// `promptsListChanged`
    pub prompts_list_changed: Option<bool>,
    /// `resourcesListChanged`
    pub resources_list_changed: Option<bool>,
    /// `resourceSubscriptions`: URIs whose `notifications/resources/updated` are wanted.
    pub resource_subscriptions: Option<Seq<'a, JsonStr<'a>>>,
}

impl<'a> FromJson<'a> for SubscriptionFilter<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        const NAMES: &Keys = keys![
            "toolsListChanged",
            "promptsListChanged",
            "resourcesListChanged",
            "resourceSubscriptions",
        ];
        let mut f = obj(c, NAMES, "notifications")?;
        let mut s = Self::default();
        while let Some(i) = f.next(c)? {
            match i {
                0 => s.tools_list_changed = Some(boolean(c, "toolsListChanged")?),
                1 => s.prompts_list_changed = Some(boolean(c, "promptsListChanged")?),
                2 => s.resources_list_changed = Some(boolean(c, "resourcesListChanged")?),
                _ => s.resource_subscriptions = Some(Seq::decode(c, "resourceSubscriptions")?),
            }
        }
        Ok(s)
    }
}

impl Encode for SubscriptionFilter<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.opt_member(key!("toolsListChanged"), &self.tools_list_changed)?;
        w.opt_member(key!("promptsListChanged"), &self.prompts_list_changed)?;
        w.opt_member(key!("resourcesListChanged"), &self.resources_list_changed)?;
        w.opt_member(key!("resourceSubscriptions"), &self.resource_subscriptions)?;
        w.end_object()
    }
}

/// `subscriptions/listen` params.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ListenParams<'a> {
    /// `_meta` (required).
    pub meta: RequestMeta<'a>,
    /// `notifications` (required).
    pub notifications: SubscriptionFilter<'a>,
}

impl<'a> FromJson<'a> for ListenParams<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut f = obj(c, keys!["_meta", "notifications"], "params")?;
        let (mut meta, mut notifications) = (None, None);
        while let Some(i) = f.next(c)? {
            if i == 0 {
                meta = Some(RequestMeta::decode(c)?);
            } else {
                notifications = Some(SubscriptionFilter::decode(c)?);
            }
        }
        Ok(Self {
            meta: required(meta, "_meta")?,
            notifications: required(notifications, "notifications")?,
        })
    }
}

impl Encode for ListenParams<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.member(key!("_meta"), &self.meta)?;
        w.member(key!("notifications"), &self.notifications)?;
        w.end_object()
    }
}

impl<'a> MethodParams<'a> for ListenParams<'a> {
    const METHOD: Method<'static> = Method::SubscriptionsListen;
}

/// `SubscriptionsListenResult`: the graceful end of a subscription. `_meta.subscriptionId`
/// (= the listen request's id) is required (docs/rules.md §11.4, §16.9 rule 52).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ListenResult<'a> {
    /// `resultType` (absent from legacy servers).
    pub result_type: Option<ResultType>,
    /// `_meta`, whose `subscription_id` is set.
    pub meta: ResultMeta<'a>,
}

impl<'a> FromJson<'a> for ListenResult<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut f = obj(c, keys!["resultType", "_meta"], "result")?;
        let (mut result_type, mut meta) = (None, None);
        while let Some(i) = f.next(c)? {
            if i == 0 {
                result_type = Some(complete_only(c)?);
            } else {
                meta = Some(ResultMeta::decode(c)?);
            }
        }
        let meta: ResultMeta<'a> = required(meta, "_meta")?;
        required(meta.subscription_id, SUBSCRIPTION_ID_KEY)?;
        Ok(Self { result_type, meta })
    }
}

impl Encode for ListenResult<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        if self.meta.subscription_id.is_none() {
            return Err(EncodeError::InvalidValue {
                what: &SUBSCRIPTION_ID_KEY,
            });
        }
        w.begin_object()?;
        w.opt_member(key!("resultType"), &self.result_type)?;
        w.member(key!("_meta"), &self.meta)?;
        w.end_object()
    }
}

/// `notifications/subscriptions/acknowledged` params: the filter the server agreed to
/// honour (docs/rules.md §11.2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AcknowledgedParams<'a> {
    /// `_meta` with the subscription id.
    pub meta: Option<NotificationMeta<'a>>,
    /// `notifications`: the honoured subset.
    pub notifications: SubscriptionFilter<'a>,
}

impl<'a> FromJson<'a> for AcknowledgedParams<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut f = obj(c, keys!["_meta", "notifications"], "params")?;
        let (mut meta, mut notifications) = (None, None);
        while let Some(i) = f.next(c)? {
            if i == 0 {
                meta = Some(NotificationMeta::decode(c)?);
            } else {
                notifications = Some(SubscriptionFilter::decode(c)?);
            }
        }
        Ok(Self {
            meta,
            notifications: required(notifications, "notifications")?,
        })
    }
}

impl Encode for AcknowledgedParams<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.opt_member(key!("_meta"), &self.meta)?;
        w.member(key!("notifications"), &self.notifications)?;
        w.end_object()
    }
}

impl<'a> MethodParams<'a> for AcknowledgedParams<'a> {
    const METHOD: Method<'static> = Method::SubscriptionsAcknowledged;
}

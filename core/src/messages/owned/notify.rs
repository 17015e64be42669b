//! Owned notifications a server emits on a listen stream, and owned error responses.

use alloc::string::String;
use alloc::vec::Vec;

use super::{AsView, OwnedJson, opt_str};
use crate::error_code::ErrorCode;
use crate::json::{Encode, EncodeError, JsonSink, JsonStr, Writer};
use crate::jsonrpc::{ErrorData, ErrorObject, ErrorResponse, OwnedRequestId, TypedNotification};
use crate::messages::{
    AcknowledgedParams, CancelledParams, ClientCapabilities, ListChangedParams, NotificationMeta,
    PromptListChangedParams, ResourceListChangedParams, ResourceUpdatedParams, Seq,
    SubscriptionFilter, ToolListChangedParams,
};

type Enc = Result<(), EncodeError>;

fn meta(id: &Option<OwnedRequestId>) -> Option<NotificationMeta<'_>> {
    id.as_ref()
        .map(|id| NotificationMeta::subscription(id.as_ref()))
}

/// An owned [`SubscriptionFilter`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OwnedSubscriptionFilter {
    /// `toolsListChanged`
    pub tools_list_changed: Option<bool>,
    /// `promptsListChanged`
    pub prompts_list_changed: Option<bool>,
    /// `resourcesListChanged`
    pub resources_list_changed: Option<bool>,
    /// `resourceSubscriptions` (`None` = absent).
    pub resource_subscriptions: Option<Vec<String>>,
}

impl AsView for OwnedSubscriptionFilter {
    type View<'a> = SubscriptionFilter<'a>;
    fn view(&self) -> SubscriptionFilter<'_> {
        SubscriptionFilter {
            tools_list_changed: self.tools_list_changed,
            prompts_list_changed: self.prompts_list_changed,
            resources_list_changed: self.resources_list_changed,
            resource_subscriptions: self
                .resource_subscriptions
                .as_ref()
                .map(|v| Seq::from_source(v)),
        }
    }
}

/// `notifications/subscriptions/acknowledged`: the first message of a subscription, with
/// the honoured filter (docs/rules.md §11.2).
#[derive(Debug, Clone, PartialEq)]
pub struct OwnedAcknowledged {
    /// The listen request's id (kept in its JSON type).
    pub subscription_id: OwnedRequestId,
    /// The honoured subset of the requested filter.
    pub notifications: OwnedSubscriptionFilter,
}

impl Encode for OwnedAcknowledged {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        let params = AcknowledgedParams {
            meta: Some(NotificationMeta::subscription(
                self.subscription_id.as_ref(),
            )),
            notifications: self.notifications.view(),
        };
        TypedNotification { params }.encode(w)
    }
}

/// `notifications/resources/updated` (docs/rules.md §12).
#[derive(Debug, Clone, PartialEq)]
pub struct OwnedResourceUpdated {
    /// The listen request's id; `None` only outside a listen stream.
    pub subscription_id: Option<OwnedRequestId>,
    /// The changed resource.
    pub uri: String,
}

impl Encode for OwnedResourceUpdated {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        let params = ResourceUpdatedParams {
            meta: meta(&self.subscription_id),
            uri: JsonStr::new(&self.uri),
        };
        TypedNotification { params }.encode(w)
    }
}

/// Which list changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ListKind {
    /// `notifications/resources/list_changed`
    Resources,
    /// `notifications/prompts/list_changed`
    Prompts,
    /// `notifications/tools/list_changed`
    Tools,
}

/// A `list_changed` notification (docs/rules.md §12).
#[derive(Debug, Clone, PartialEq)]
pub struct OwnedListChanged {
    /// Which list.
    pub kind: ListKind,
    /// The listen request's id; `None` only outside a listen stream.
    pub subscription_id: Option<OwnedRequestId>,
}

impl Encode for OwnedListChanged {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        let p = ListChangedParams {
            meta: meta(&self.subscription_id),
        };
        match self.kind {
            ListKind::Resources => TypedNotification {
                params: ResourceListChangedParams(p),
            }
            .encode(w),
            ListKind::Prompts => TypedNotification {
                params: PromptListChangedParams(p),
            }
            .encode(w),
            ListKind::Tools => TypedNotification {
                params: ToolListChangedParams(p),
            }
            .encode(w),
        }
    }
}

/// `notifications/cancelled`, e.g. a server ending a stdio listen stream (docs/rules.md §11.4).
#[derive(Debug, Clone, PartialEq)]
pub struct OwnedCancelled {
    /// `_meta.subscriptionId` (optional here).
    pub subscription_id: Option<OwnedRequestId>,
    /// `requestId`
    pub request_id: OwnedRequestId,
    /// `reason`
    pub reason: Option<String>,
}

impl Encode for OwnedCancelled {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        let params = CancelledParams {
            meta: meta(&self.subscription_id),
            request_id: self.request_id.as_ref(),
            reason: opt_str(&self.reason),
        };
        TypedNotification { params }.encode(w)
    }
}

/// Owned error `data`.
#[derive(Debug, Clone, PartialEq)]
pub enum OwnedErrorData {
    /// No `data`.
    None,
    /// Any JSON value.
    Json(OwnedJson),
    /// -32022: `{supported, requested}`.
    UnsupportedProtocolVersion {
        /// `supported`
        supported: Vec<String>,
        /// `requested`
        requested: String,
    },
    /// -32021: `{requiredCapabilities}`, a `ClientCapabilities` object.
    MissingRequiredClientCapability(OwnedJson),
    /// Resource not found: `{uri}`.
    ResourceNotFound(String),
}

/// An owned error response.
#[derive(Debug, Clone, PartialEq)]
pub struct OwnedErrorResponse {
    /// The request's id; `None` only when it could not be read.
    pub id: Option<OwnedRequestId>,
    /// `code`
    pub code: ErrorCode,
    /// `message`
    pub message: String,
    /// `data`
    pub data: OwnedErrorData,
}

impl OwnedErrorResponse {
    /// -32602 "Resource not found" with `data.uri` (docs/rules.md §7).
    #[must_use]
    pub fn resource_not_found(id: OwnedRequestId, uri: impl Into<String>) -> Self {
        Self {
            id: Some(id),
            code: ErrorCode::INVALID_PARAMS,
            message: String::from("Resource not found"),
            data: OwnedErrorData::ResourceNotFound(uri.into()),
        }
    }
}

impl Encode for OwnedErrorResponse {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        let data = match &self.data {
            OwnedErrorData::None => ErrorData::None,
            OwnedErrorData::Json(j) => ErrorData::Raw(j.as_raw()),
            OwnedErrorData::UnsupportedProtocolVersion {
                supported,
                requested,
            } => ErrorData::UnsupportedProtocolVersion {
                supported: Seq::from_source(supported),
                requested: JsonStr::new(requested),
            },
            OwnedErrorData::MissingRequiredClientCapability(caps) => {
                let required =
                    ClientCapabilities::decode_raw(caps.as_raw(), "requiredCapabilities").map_err(
                        |_| EncodeError::InvalidValue {
                            what: &"requiredCapabilities",
                        },
                    )?;
                ErrorData::MissingRequiredClientCapability { required }
            }
            OwnedErrorData::ResourceNotFound(uri) => ErrorData::ResourceNotFound {
                uri: JsonStr::new(uri),
            },
        };
        let error = ErrorObject {
            code: self.code,
            message: JsonStr::new(&self.message),
            data,
        };
        ErrorResponse {
            id: self.id.as_ref().map(OwnedRequestId::as_ref),
            error,
        }
        .encode(w)
    }
}

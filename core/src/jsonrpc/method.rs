//! [`Method`]: the open vocabulary of JSON-RPC method names MCP uses.

use core::fmt;

use crate::json::JsonStr;

macro_rules! methods {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal, )*) => {
        /// A JSON-RPC method name: every method of the context primitives (DIGEST §2–§13),
        /// the out-of-scope methods of the same revision, the legacy 2025-11-25 methods a
        /// dual-era peer meets (DIGEST §17), and [`Method::Unknown`] for anything else.
        ///
        /// ```
        /// use mcp_context::jsonrpc::Method;
        /// assert_eq!(Method::from_name("resources/read"), Method::ResourcesRead);
        /// assert_eq!(Method::ResourcesRead.as_str(), "resources/read");
        /// assert_eq!(Method::from_name("x/y"), Method::Unknown("x/y"));
        /// ```
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Method<'a> {
            $( $(#[$doc])* #[doc = concat!("`", $name, "`")] $variant, )*
            /// Any other method name.
            Unknown(&'a str),
            /// Any other method name whose JSON text has escapes: the source text between the
            /// quotes, escapes kept (decoding never allocates, so it is not unescaped here;
            /// [`Method::json_name`] re-encodes it unchanged).
            UnknownEscaped(&'a str),
        }

        impl<'a> Method<'a> {
            /// The method for a name.
            #[must_use]
            pub fn from_name(name: &'a str) -> Self {
                match name {
                    $( $name => Self::$variant, )*
                    other => Self::Unknown(other),
                }
            }

            /// The same method without a borrow (`None` for [`Method::Unknown`]).
            pub(crate) const fn known_static(self) -> Option<Method<'static>> {
                match self {
                    $( Self::$variant => Some(Method::$variant), )*
                    Self::Unknown(_) | Self::UnknownEscaped(_) => None,
                }
            }

            /// The method name.
            #[must_use]
            pub const fn as_str(&self) -> &'a str {
                match self {
                    $( Self::$variant => $name, )*
                    Self::Unknown(s) | Self::UnknownEscaped(s) => s,
                }
            }

            /// The name as a JSON string value, for encoding: an
            /// [`UnknownEscaped`](Method::UnknownEscaped) name is written back exactly as read.
            #[must_use]
            pub const fn json_name(&self) -> JsonStr<'a> {
                match self {
                    Self::UnknownEscaped(s) => JsonStr::from_source(s, true),
                    other => JsonStr::new(other.as_str()),
                }
            }
        }
    };
}

methods! {
    /// Discovery (DIGEST §2).
    ServerDiscover = "server/discover",
    /// DIGEST §5.
    ResourcesList = "resources/list",
    /// DIGEST §6.
    ResourcesTemplatesList = "resources/templates/list",
    /// DIGEST §7.
    ResourcesRead = "resources/read",
    /// DIGEST §8.
    PromptsList = "prompts/list",
    /// DIGEST §9.
    PromptsGet = "prompts/get",
    /// DIGEST §10.
    CompletionComplete = "completion/complete",
    /// DIGEST §11.
    SubscriptionsListen = "subscriptions/listen",
    /// Tools (out of scope, recognised).
    ToolsList = "tools/list",
    /// Tools (out of scope, recognised).
    ToolsCall = "tools/call",
    /// DIGEST §12.
    ResourcesListChanged = "notifications/resources/list_changed",
    /// DIGEST §12.
    ResourcesUpdated = "notifications/resources/updated",
    /// DIGEST §12.
    PromptsListChanged = "notifications/prompts/list_changed",
    /// DIGEST §12.
    ToolsListChanged = "notifications/tools/list_changed",
    /// DIGEST §11.2.
    SubscriptionsAcknowledged = "notifications/subscriptions/acknowledged",
    /// DIGEST §11.4, §12.
    Cancelled = "notifications/cancelled",
    /// Request-scoped progress (out of scope, recognised).
    Progress = "notifications/progress",
    /// Request-scoped log message (out of scope, recognised).
    LogMessage = "notifications/message",
    /// An MRTR input request (DIGEST §13).
    ElicitationCreate = "elicitation/create",
    /// An MRTR input request (DIGEST §13).
    SamplingCreateMessage = "sampling/createMessage",
    /// An MRTR input request (DIGEST §13).
    RootsList = "roots/list",
    /// Legacy handshake (DIGEST §17); removed in 2026-07-28.
    Initialize = "initialize",
    /// Legacy (DIGEST §17); removed in 2026-07-28.
    Initialized = "notifications/initialized",
    /// Legacy (DIGEST §17); removed in 2026-07-28.
    Ping = "ping",
    /// Legacy (DIGEST §17); removed in 2026-07-28.
    LoggingSetLevel = "logging/setLevel",
    /// Legacy (DIGEST §17); replaced by `subscriptions/listen`.
    ResourcesSubscribe = "resources/subscribe",
    /// Legacy (DIGEST §17); replaced by `subscriptions/listen`.
    ResourcesUnsubscribe = "resources/unsubscribe",
}

impl<'a> Method<'a> {
    /// The method for a JSON string, unescaping first when it has escapes.
    #[must_use]
    pub fn from_json(name: JsonStr<'a>) -> Self {
        if let Some(s) = name.as_str() {
            return Self::from_name(s);
        }
        let mut buf = [0u8; 48];
        match name.unescape_into(&mut buf) {
            Ok(s) => Method::from_name(s)
                .known_static()
                .unwrap_or(Self::UnknownEscaped(name.source())),
            Err(_) => Self::UnknownEscaped(name.source()),
        }
    }

    /// Whether the method was removed in 2026-07-28 (a modern-only server answers -32601,
    /// DIGEST §1.4, §18).
    #[must_use]
    pub const fn is_legacy(&self) -> bool {
        matches!(
            self,
            Self::Initialize
                | Self::Initialized
                | Self::Ping
                | Self::LoggingSetLevel
                | Self::ResourcesSubscribe
                | Self::ResourcesUnsubscribe
        )
    }

    /// Whether the method may carry an `InputRequiredResult` (DIGEST §13).
    #[must_use]
    pub const fn allows_input_required(&self) -> bool {
        matches!(
            self,
            Self::PromptsGet | Self::ResourcesRead | Self::ToolsCall
        )
    }
}

impl fmt::Display for Method<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

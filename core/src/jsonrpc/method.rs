//! [`Method`]: the open vocabulary of JSON-RPC method names MCP uses.

use core::fmt;

use crate::json::JsonStr;

macro_rules! methods {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal, )*) => {
        /// A JSON-RPC method name: every method of the context primitives (docs/rules.md §2–§13),
        /// the out-of-scope methods of the same revision, the legacy 2025-11-25 methods a
        /// dual-era peer meets (docs/rules.md §17), and [`Method::Unknown`] for anything else.
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
                if !crate::WIDE {
                    return Self::from_name_in_table(name);
                }
                match name {
                    $( $name => Self::$variant, )*
                    other => Self::Unknown(other),
                }
            }

            /// Every known method with its name, in declaration order.
            const ALL: &'static [(&'static str, Method<'static>)] =
                &[$( ($name, Method::$variant), )*];

            /// [`Method::from_name`] as a search of one table of names: the form compact
            /// targets take (a few bytes of code and the table in `.rodata`, instead of the
            /// match's comparison tree), with the same answer (`tests::both_forms_agree`).
            fn from_name_in_table(name: &'a str) -> Self {
                for (n, m) in Self::ALL {
                    if *n == name {
                        return *m;
                    }
                }
                Self::Unknown(name)
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
    /// Discovery (docs/rules.md §2).
    ServerDiscover = "server/discover",
    /// docs/rules.md §5.
    ResourcesList = "resources/list",
    /// docs/rules.md §6.
    ResourcesTemplatesList = "resources/templates/list",
    /// docs/rules.md §7.
    ResourcesRead = "resources/read",
    /// docs/rules.md §8.
    PromptsList = "prompts/list",
    /// docs/rules.md §9.
    PromptsGet = "prompts/get",
    /// docs/rules.md §10.
    CompletionComplete = "completion/complete",
    /// docs/rules.md §11.
    SubscriptionsListen = "subscriptions/listen",
    /// Tools (out of scope, recognised).
    ToolsList = "tools/list",
    /// Tools (out of scope, recognised).
    ToolsCall = "tools/call",
    /// docs/rules.md §12.
    ResourcesListChanged = "notifications/resources/list_changed",
    /// docs/rules.md §12.
    ResourcesUpdated = "notifications/resources/updated",
    /// docs/rules.md §12.
    PromptsListChanged = "notifications/prompts/list_changed",
    /// docs/rules.md §12.
    ToolsListChanged = "notifications/tools/list_changed",
    /// docs/rules.md §11.2.
    SubscriptionsAcknowledged = "notifications/subscriptions/acknowledged",
    /// docs/rules.md §11.4, §12.
    Cancelled = "notifications/cancelled",
    /// Request-scoped progress (out of scope, recognised).
    Progress = "notifications/progress",
    /// Request-scoped log message (out of scope, recognised).
    LogMessage = "notifications/message",
    /// An MRTR input request (docs/rules.md §13).
    ElicitationCreate = "elicitation/create",
    /// An MRTR input request (docs/rules.md §13).
    SamplingCreateMessage = "sampling/createMessage",
    /// An MRTR input request (docs/rules.md §13).
    RootsList = "roots/list",
    /// Legacy handshake (docs/rules.md §17); removed in 2026-07-28.
    Initialize = "initialize",
    /// Legacy (docs/rules.md §17); removed in 2026-07-28.
    Initialized = "notifications/initialized",
    /// Legacy (docs/rules.md §17); removed in 2026-07-28.
    Ping = "ping",
    /// Legacy (docs/rules.md §17); removed in 2026-07-28.
    LoggingSetLevel = "logging/setLevel",
    /// Legacy (docs/rules.md §17); replaced by `subscriptions/listen`.
    ResourcesSubscribe = "resources/subscribe",
    /// Legacy (docs/rules.md §17); replaced by `subscriptions/listen`.
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
    /// docs/rules.md §1.4, §18).
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

    /// Whether the method may carry an `InputRequiredResult` (docs/rules.md §13).
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

#[cfg(test)]
mod tests {
    use super::Method;

    /// The table search compact targets use gives the match's answer for every name.
    #[test]
    fn both_forms_agree() {
        let known = [
            "server/discover",
            "resources/list",
            "resources/templates/list",
            "resources/read",
            "prompts/list",
            "prompts/get",
            "completion/complete",
            "subscriptions/listen",
            "tools/list",
            "tools/call",
            "notifications/resources/list_changed",
            "notifications/resources/updated",
            "notifications/prompts/list_changed",
            "notifications/tools/list_changed",
            "notifications/subscriptions/acknowledged",
            "notifications/cancelled",
            "notifications/progress",
            "notifications/message",
            "elicitation/create",
            "sampling/createMessage",
            "roots/list",
            "initialize",
            "notifications/initialized",
            "ping",
            "logging/setLevel",
            "resources/subscribe",
            "resources/unsubscribe",
        ];
        assert_eq!(known.len(), Method::ALL.len());
        for name in known {
            let m = Method::from_name(name);
            assert!(m.known_static().is_some(), "{name}");
            assert_eq!(m.as_str(), name);
            assert_eq!(Method::from_name_in_table(name), m);
        }
        for name in [
            "",
            "x/y",
            "resources/rea",
            "resources/readx",
            "Ping",
            "ping ",
        ] {
            assert_eq!(Method::from_name_in_table(name), Method::Unknown(name));
            assert_eq!(Method::from_name(name), Method::Unknown(name));
        }
    }
}

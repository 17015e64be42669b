//! The owned value of each view ([`FromView`]): one conversion per wire type, the checks
//! already done by the view decoders.

#[allow(clippy::wildcard_imports)] // the parent's imports: the same owned and view types
use super::*;

impl<'a> FromView<'a> for String {
    type View = JsonStr<'a>;
    fn from_view(view: JsonStr<'a>) -> Result<Self, ParamsError> {
        Ok(owned(view))
    }
}

impl<'a> FromView<'a> for OwnedIcon {
    type View = Icon<'a>;
    fn from_view(v: Icon<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            src: owned(v.src),
            mime_type: opt(v.mime_type),
            sizes: all(v.sizes)?,
            theme: v.theme,
        })
    }
}

impl<'a> FromView<'a> for OwnedImplementation {
    type View = Implementation<'a>;
    fn from_view(v: Implementation<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            name: owned(v.name),
            version: owned(v.version),
            title: opt(v.title),
            description: opt(v.description),
            website_url: opt(v.website_url),
            icons: all(v.icons)?,
        })
    }
}

impl<'a> FromView<'a> for OwnedAnnotations {
    type View = Annotations<'a>;
    fn from_view(v: Annotations<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            audience: v.audience.map(|s| s.iter().collect()).unwrap_or_default(),
            priority: v.priority,
            last_modified: opt(v.last_modified),
        })
    }
}

fn annotations(a: Option<Annotations<'_>>) -> Result<Option<OwnedAnnotations>, ParamsError> {
    a.map(OwnedAnnotations::from_view).transpose()
}

impl<'a> FromView<'a> for OwnedResource {
    type View = Resource<'a>;
    fn from_view(v: Resource<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            uri: owned(v.uri),
            name: owned(v.name),
            title: opt(v.title),
            description: opt(v.description),
            mime_type: opt(v.mime_type),
            size: v.size,
            annotations: annotations(v.annotations)?,
            icons: all(v.icons)?,
            meta: opt_json(v.meta),
        })
    }
}

impl<'a> FromView<'a> for OwnedResourceTemplate {
    type View = ResourceTemplate<'a>;
    fn from_view(v: ResourceTemplate<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            uri_template: owned(v.uri_template),
            name: owned(v.name),
            title: opt(v.title),
            description: opt(v.description),
            mime_type: opt(v.mime_type),
            annotations: annotations(v.annotations)?,
            icons: all(v.icons)?,
            meta: opt_json(v.meta),
        })
    }
}

impl<'a> FromView<'a> for OwnedPromptArgument {
    type View = PromptArgument<'a>;
    fn from_view(v: PromptArgument<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            name: owned(v.name),
            title: opt(v.title),
            description: opt(v.description),
            required: v.required,
        })
    }
}

impl<'a> FromView<'a> for OwnedPrompt {
    type View = Prompt<'a>;
    fn from_view(v: Prompt<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            name: owned(v.name),
            title: opt(v.title),
            description: opt(v.description),
            arguments: all(v.arguments)?,
            icons: all(v.icons)?,
            meta: opt_json(v.meta),
        })
    }
}

impl<'a> FromView<'a> for OwnedResourceContents {
    type View = ResourceContents<'a>;
    fn from_view(v: ResourceContents<'a>) -> Result<Self, ParamsError> {
        Ok(match v {
            ResourceContents::Text(t) => Self::Text {
                uri: owned(t.uri),
                mime_type: opt(t.mime_type),
                text: owned(t.text),
            },
            ResourceContents::Blob(b) => Self::Blob {
                uri: owned(b.uri),
                mime_type: opt(b.mime_type),
                blob: owned(b.blob),
            },
        })
    }
}

impl<'a> FromView<'a> for OwnedContentBlock {
    type View = ContentBlock<'a>;
    fn from_view(v: ContentBlock<'a>) -> Result<Self, ParamsError> {
        Ok(match v {
            ContentBlock::Text(t) => Self::Text {
                text: owned(t.text),
                annotations: annotations(t.annotations)?,
            },
            ContentBlock::Image(m) => Self::Image {
                data: owned(m.data),
                mime_type: owned(m.mime_type),
                annotations: annotations(m.annotations)?,
            },
            ContentBlock::Audio(m) => Self::Audio {
                data: owned(m.data),
                mime_type: owned(m.mime_type),
                annotations: annotations(m.annotations)?,
            },
            ContentBlock::ResourceLink(r) => Self::ResourceLink(OwnedResource::from_view(r)?),
            ContentBlock::Resource(e) => Self::Resource {
                resource: OwnedResourceContents::from_view(e.resource)?,
                annotations: annotations(e.annotations)?,
            },
        })
    }
}

impl<'a> FromView<'a> for OwnedPromptMessage {
    type View = PromptMessage<'a>;
    fn from_view(v: PromptMessage<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            role: v.role,
            content: OwnedContentBlock::from_view(v.content)?,
        })
    }
}

impl<'a> FromView<'a> for OwnedGetPromptResult {
    type View = GetPromptResult<'a>;
    fn from_view(v: GetPromptResult<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            description: opt(v.description),
            messages: all(Some(v.messages))?,
            server_info: server_info(v.meta)?,
        })
    }
}

/// `_meta.serverInfo` of a result (its other `_meta` keys have no owned field).
fn server_info(meta: Option<ResultMeta<'_>>) -> Result<Option<OwnedImplementation>, ParamsError> {
    meta.and_then(|m| m.server_info)
        .map(OwnedImplementation::from_view)
        .transpose()
}

impl<'a> FromView<'a> for OwnedServerCapabilities {
    type View = ServerCapabilities<'a>;
    fn from_view(v: ServerCapabilities<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            resources: v.resources,
            prompts: v.prompts,
            tools: v.tools,
            completions: v.completions.is_some(),
            logging: v.logging.is_some(),
            experimental: opt_json(v.experimental),
            extensions: opt_json(v.extensions),
        })
    }
}

impl<'a> FromView<'a> for OwnedDiscoverResult {
    type View = DiscoverResult<'a>;
    fn from_view(v: DiscoverResult<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            supported_versions: v.supported_versions.iter().map(owned).collect(),
            capabilities: OwnedServerCapabilities::from_view(v.capabilities)?,
            instructions: opt(v.instructions),
            ttl_ms: required(v.ttl_ms, "ttlMs")?,
            cache_scope: required(v.cache_scope, "cacheScope")?,
            server_info: server_info(v.meta)?,
        })
    }
}

macro_rules! list_from_view {
    ($($owned:ty = $item:ty),* $(,)?) => {$(
        impl<'a> FromView<'a> for $owned {
            type View = ListResult<'a, <$item as FromView<'a>>::View>;
            fn from_view(v: Self::View) -> Result<Self, ParamsError> {
                Ok(Self {
                    items: all(Some(v.items))?,
                    next_cursor: opt(v.next_cursor),
                    ttl_ms: required(v.ttl_ms, "ttlMs")?,
                    cache_scope: required(v.cache_scope, "cacheScope")?,
                    server_info: server_info(v.meta)?,
                })
            }
        }
    )*};
}

list_from_view!(
    OwnedListResourcesResult = OwnedResource,
    OwnedListResourceTemplatesResult = OwnedResourceTemplate,
    OwnedListPromptsResult = OwnedPrompt,
);

impl<'a> FromView<'a> for OwnedReadResourceResult {
    type View = ReadResourceResult<'a>;
    fn from_view(v: ReadResourceResult<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            contents: all(Some(v.contents))?,
            ttl_ms: required(v.ttl_ms, "ttlMs")?,
            cache_scope: required(v.cache_scope, "cacheScope")?,
            server_info: server_info(v.meta)?,
        })
    }
}

impl<'a> FromView<'a> for OwnedCompleteResult {
    type View = CompleteResult<'a>;
    fn from_view(v: CompleteResult<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            values: v.values.iter().map(owned).collect(),
            total: v.total,
            has_more: v.has_more,
            server_info: server_info(v.meta)?,
        })
    }
}

impl<'a> FromView<'a> for OwnedListenResult {
    type View = ListenResult<'a>;
    fn from_view(v: ListenResult<'a>) -> Result<Self, ParamsError> {
        let id = v.meta.subscription_id.ok_or(ParamsError::new(
            ParamsErrorKind::Missing,
            "io.modelcontextprotocol/subscriptionId",
        ))?;
        Ok(Self {
            subscription_id: id.to_owned_id(),
            server_info: server_info(Some(v.meta))?,
        })
    }
}

impl<'a> FromView<'a> for OwnedSubscriptionFilter {
    type View = SubscriptionFilter<'a>;
    fn from_view(v: SubscriptionFilter<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            tools_list_changed: v.tools_list_changed,
            prompts_list_changed: v.prompts_list_changed,
            resources_list_changed: v.resources_list_changed,
            resource_subscriptions: v
                .resource_subscriptions
                .map(|s| s.iter().map(owned).collect()),
        })
    }
}

impl<'a> FromView<'a> for OwnedInputRequest {
    type View = InputRequest<'a>;
    fn from_view(v: InputRequest<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            // Input requests are server-to-client requests the spec names (docs/rules.md §13); a
            // method outside the vocabulary cannot be sent as one.
            method: v
                .method
                .known_static()
                .ok_or(ParamsError::new(ParamsErrorKind::UnknownValue, "method"))?,
            params: opt_json(v.params),
        })
    }
}

impl<'a> FromView<'a> for OwnedInputRequiredResult {
    type View = InputRequiredResult<'a>;
    fn from_view(v: InputRequiredResult<'a>) -> Result<Self, ParamsError> {
        let mut input_requests = Vec::new();
        if let Some(map) = v.input_requests {
            for (key, request) in map.iter() {
                input_requests.push((owned(key), OwnedInputRequest::from_view(request)?));
            }
        }
        Ok(Self {
            input_requests,
            request_state: opt(v.request_state),
            server_info: server_info(v.meta)?,
        })
    }
}

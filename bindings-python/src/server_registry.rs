//! `ServerMachine`'s registry: static resources, templates, prompts, tools, methods and
//! capabilities, the visibility filter, and the list-changed and updated notifications.

use mcp_context::messages::owned::{OwnedPrompt, OwnedResource, OwnedResourceTemplate, OwnedTool};
use mcp_context::server::{PromptEntry, ResourceEntry, TemplateEntry};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::pyjson;
use crate::server::ServerMachine;
use crate::server_config::{contents_of, hint, register_error, value_sets};

#[pymethods]
impl ServerMachine {
    /// Registers a static resource: ``resource`` is a ``Resource`` dict (``uri``, ``name``,
    /// ...); ``contents`` a list of ``ResourceContents`` dicts the machine answers reads with
    /// itself (``None``: ask the application with a ``ReadResource`` event); ``cache`` its
    /// read hints. Raises ``InvalidMessage`` or ``RegisterError``.
    #[pyo3(signature = (resource, contents = None, cache = None))]
    fn add_resource(
        &self,
        py: Python<'_>,
        resource: &Bound<'_, PyAny>,
        contents: Option<&Bound<'_, PyAny>>,
        cache: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let entry = ResourceEntry {
            resource: pyjson::decode::<OwnedResource>(resource, "resource")?,
            contents: contents
                .filter(|c| !c.is_none())
                .map(contents_of)
                .transpose()?,
            cache: hint(cache, "cache")?,
        };
        self.lock()?
            .add_resource(entry)
            .map_err(|e| register_error(py, e))
    }

    /// Unregisters a static resource; ``False`` if it was not registered.
    fn remove_resource(&self, uri: &str) -> PyResult<bool> {
        Ok(self.lock()?.remove_resource(uri))
    }

    /// Replaces the stored contents of a static resource (``None``: ask the application);
    /// ``False`` if it is not registered. Call ``resource_updated`` to tell listeners.
    #[pyo3(signature = (uri, contents))]
    fn set_resource_contents(
        &self,
        uri: &str,
        contents: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<bool> {
        let contents = contents
            .filter(|c| !c.is_none())
            .map(contents_of)
            .transpose()?;
        Ok(self.lock()?.set_resource_contents(uri, contents))
    }

    /// Registers a template: ``template`` is a ``ResourceTemplate`` dict (``uriTemplate``,
    /// ``name``, ...); ``cache`` the read hints of URIs it matches; ``completions`` maps a
    /// variable to its candidate values (built-in completion). Reads of matching URIs become
    /// ``ReadResource`` events with ``target == "template"``.
    #[pyo3(signature = (template, cache = None, completions = None))]
    fn add_template(
        &self,
        py: Python<'_>,
        template: &Bound<'_, PyAny>,
        cache: Option<&Bound<'_, PyAny>>,
        completions: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<()> {
        let entry = TemplateEntry {
            template: pyjson::decode::<OwnedResourceTemplate>(template, "template")?,
            cache: hint(cache, "cache")?,
            completions: value_sets(completions)?,
        };
        self.lock()?
            .add_template(entry)
            .map(|_| ())
            .map_err(|e| register_error(py, e))
    }

    /// Unregisters a template by its ``uriTemplate``; ``False`` if it was not registered.
    fn remove_template(&self, uri_template: &str) -> PyResult<bool> {
        Ok(self.lock()?.remove_template(uri_template))
    }

    /// Registers a prompt: ``prompt`` is a ``Prompt`` dict (``name``, ``arguments``, ...);
    /// ``completions`` maps an argument to its candidate values.
    #[pyo3(signature = (prompt, completions = None))]
    fn add_prompt(
        &self,
        py: Python<'_>,
        prompt: &Bound<'_, PyAny>,
        completions: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<()> {
        let entry = PromptEntry {
            prompt: pyjson::decode::<OwnedPrompt>(prompt, "prompt")?,
            completions: value_sets(completions)?,
        };
        self.lock()?
            .add_prompt(entry)
            .map_err(|e| register_error(py, e))
    }

    /// Unregisters a prompt; ``False`` if it was not registered.
    fn remove_prompt(&self, name: &str) -> PyResult<bool> {
        Ok(self.lock()?.remove_prompt(name))
    }

    /// Installs a visibility filter: ``visible(auth, kind, key) -> bool`` with ``kind``
    /// ``"resource"`` (key: its URI), ``"template"`` (its ``uriTemplate``) or ``"prompt"``
    /// (its name). It decides lists, reads, ``prompts/get`` and completion references per
    /// caller (a hidden item is "not found") and makes every list and read private. An
    /// exception in the callback hides the item. The callback must not call the machine.
    fn set_visibility(&self, visible: Py<PyAny>) -> PyResult<()> {
        self.lock()?
            .set_visibility(crate::server_config::visibility(visible));
        Ok(())
    }

    /// Registers a method the core does not own (``tools/list``, ``tools/call``,
    /// ``logging/setLevel``, vendor methods): its requests become ``Request`` events.
    /// Raises ``RegisterError`` (``kind == "core_method"``) for a method the core owns.
    fn add_method(&self, py: Python<'_>, method: &str) -> PyResult<()> {
        self.lock()?
            .add_method(method)
            .map_err(|e| register_error(py, e))
    }

    /// Unregisters a method (its requests are -32601 again); whether it was registered.
    fn remove_method(&self, method: &str) -> PyResult<bool> {
        Ok(self.lock()?.remove_method(method))
    }

    /// Announces ``capabilities[key] = value`` in ``server/discover`` (e.g. ``"tools"``,
    /// ``{"listChanged": True}``). Raises ``RegisterError`` for a key the core derives
    /// (``resources``, ``prompts``, ``completions``).
    fn set_capability(&self, py: Python<'_>, key: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let value = pyjson::owned(value, key)?;
        self.lock()?
            .set_capability(key, value)
            .map_err(|e| register_error(py, e))
    }

    /// Withdraws a capability ``set_capability`` announced; whether it was set.
    fn remove_capability(&self, key: &str) -> PyResult<bool> {
        Ok(self.lock()?.remove_capability(key))
    }

    /// Queues ``notifications/resources/updated`` for ``uri`` on the listens that opted in
    /// (also those subscribed to a URI it is a sub-resource of).
    fn resource_updated(&self, uri: &str) -> PyResult<()> {
        self.lock()?.resource_updated(uri);
        Ok(())
    }

    /// Queues ``notifications/resources/list_changed`` on the listens that opted in.
    fn resources_list_changed(&self) -> PyResult<()> {
        self.lock()?.resources_list_changed();
        Ok(())
    }

    /// Registers a tool: a ``Tool`` dict (``name``, ``inputSchema`` with ``type: "object"``,
    /// ``title``, ``description``, ``outputSchema``, ``annotations``, ``icons``, ``_meta``),
    /// checked by the core; ``tools`` is then declared and ``tools/list``/``tools/call`` are
    /// the machine's (``CallTool`` events). Raises ``InvalidMessage`` or ``RegisterError``
    /// (``"duplicate"``, ``"tools_by_method"`` when ``tools/*`` were added as methods).
    fn add_tool(&self, py: Python<'_>, tool: &Bound<'_, PyAny>) -> PyResult<()> {
        let tool = pyjson::decode::<OwnedTool>(tool, "tool")?;
        self.lock()?
            .add_tool(tool)
            .map_err(|e| register_error(py, e))
    }

    /// Unregisters a tool; ``False`` if it was not registered.
    fn remove_tool(&self, name: &str) -> PyResult<bool> {
        Ok(self.lock()?.remove_tool(name))
    }

    /// Queues ``notifications/tools/list_changed`` on the listens that opted in.
    fn tools_list_changed(&self) -> PyResult<()> {
        self.lock()?.tools_list_changed();
        Ok(())
    }

    /// Queues ``notifications/prompts/list_changed`` on the listens that opted in.
    fn prompts_list_changed(&self) -> PyResult<()> {
        self.lock()?.prompts_list_changed();
        Ok(())
    }
}

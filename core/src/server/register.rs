//! Registration: what the machine serves (static resources, templates, prompts), who sees
//! it (the visibility filter) and how templates are matched (the router). Every change
//! invalidates the encoded `server/discover` result.

use alloc::boxed::Box;
use alloc::vec::Vec;

use super::machine::Server;
use super::registry::{
    PromptEntry, RegisterError, ResourceEntry, TemplateEntry, TemplateId, VisibilityFilter,
};
use super::route::TemplateRouter;
use crate::messages::owned::OwnedResourceContents;

impl Server {
    /// Registers a static resource. Call [`Server::resources_list_changed`] to tell listeners.
    ///
    /// # Errors
    /// [`RegisterError`]; nothing changes.
    pub fn add_resource(&mut self, entry: ResourceEntry) -> Result<(), RegisterError> {
        self.registry.add_resource(entry)?;
        self.discover = None;
        Ok(())
    }

    /// Removes a static resource; `false` if it was not registered.
    pub fn remove_resource(&mut self, uri: &str) -> bool {
        self.discover = None;
        self.registry.resources.remove(uri).is_some()
    }

    /// Replaces the stored contents of a static resource (`None` = ask the application);
    /// `false` if it is not registered. Call [`Server::resource_updated`] to tell listeners.
    pub fn set_resource_contents(
        &mut self,
        uri: &str,
        contents: Option<Vec<OwnedResourceContents>>,
    ) -> bool {
        match self.registry.resources.get_mut(uri) {
            Some(e) => {
                e.contents = contents;
                true
            }
            None => false,
        }
    }

    /// Registers a template and gives it to the router.
    ///
    /// # Errors
    /// [`RegisterError`]; nothing changes.
    pub fn add_template(&mut self, entry: TemplateEntry) -> Result<TemplateId, RegisterError> {
        let (id, vars) = self.registry.prepare_template(&entry)?;
        self.router
            .insert(id, &entry.template.uri_template)
            .map_err(RegisterError::Router)?;
        self.registry.commit_template(id, vars, entry);
        self.discover = None;
        Ok(id)
    }

    /// Removes a template by its `uriTemplate`; `false` if it was not registered.
    pub fn remove_template(&mut self, uri_template: &str) -> bool {
        self.discover = None;
        match self.registry.remove_template(uri_template) {
            Some(id) => {
                self.router.remove(id);
                true
            }
            None => false,
        }
    }

    /// The `uriTemplate` of a registered template.
    #[must_use]
    pub fn template(&self, id: TemplateId) -> Option<&str> {
        self.registry
            .template_by_id(id)
            .map(|t| t.entry.template.uri_template.as_str())
    }

    /// Registers a prompt. Call [`Server::prompts_list_changed`] to tell listeners.
    ///
    /// # Errors
    /// [`RegisterError`]; nothing changes.
    pub fn add_prompt(&mut self, entry: PromptEntry) -> Result<(), RegisterError> {
        self.registry.add_prompt(entry)?;
        self.discover = None;
        Ok(())
    }

    /// Removes a prompt; `false` if it was not registered.
    pub fn remove_prompt(&mut self, name: &str) -> bool {
        self.discover = None;
        self.registry.prompts.remove(name).is_some()
    }

    /// Installs a visibility filter: lists, static reads, `prompts/get` and completion
    /// references then depend on the caller's `auth`, so every list page and static read is
    /// marked `cacheScope: "private"` (docs/rules.md §4).
    pub fn set_visibility(&mut self, filter: VisibilityFilter) {
        self.filter = Some(filter);
    }

    /// Installs the template router, replaying every registered template into it.
    ///
    /// # Errors
    /// The first template the router refuses (the previous router stays installed).
    pub fn set_router(&mut self, mut router: Box<dyn TemplateRouter>) -> Result<(), RegisterError> {
        for (id, key) in &self.registry.template_keys {
            router.insert(*id, key).map_err(RegisterError::Router)?;
        }
        self.router = router;
        Ok(())
    }
}

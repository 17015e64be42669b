//! The demo's `TemplateRouter`: the catalogue is finite, so each template is EXPANDED (with
//! the crate's RFC 6570 expander) for every note and reads are table lookups. A real server
//! installs the crate's template router instead; this is not a matcher.

use std::collections::BTreeMap;

use mcp_context::server::{RouteInsertError, TemplateId, TemplateRouter};
use mcp_context::template::OwnedTemplate;

type Vars = Vec<(String, String)>;

pub(crate) struct CatalogueRouter {
    assignments: Vec<Vars>,
    table: BTreeMap<String, (TemplateId, Vars)>,
}

impl CatalogueRouter {
    /// One assignment per note: `project` and `id`.
    pub(crate) fn new<'a>(notes: impl Iterator<Item = (&'a String, &'a String)>) -> Self {
        let assignments = notes
            .map(|(p, id)| vec![("project".into(), p.clone()), ("id".into(), id.clone())])
            .collect();
        Self {
            assignments,
            table: BTreeMap::new(),
        }
    }
}

impl TemplateRouter for CatalogueRouter {
    fn insert(&mut self, id: TemplateId, template: &str) -> Result<(), RouteInsertError> {
        let t = OwnedTemplate::parse(template).map_err(|_| RouteInsertError::Unsupported)?;
        for vars in &self.assignments {
            let pairs: Vec<(&str, &str)> =
                vars.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            let uri = t
                .expand(&pairs[..])
                .map_err(|_| RouteInsertError::Unsupported)?;
            self.table.insert(uri, (id, vars.clone()));
        }
        Ok(())
    }

    fn remove(&mut self, id: TemplateId) {
        self.table.retain(|_, (t, _)| *t != id);
    }

    fn route(&self, uri: &str) -> Option<(TemplateId, Vars)> {
        self.table.get(uri).cloned()
    }
}

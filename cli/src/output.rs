//! What `mcpc` prints: one line of JSON per result with `--json` (the server's result as
//! sent; notices as `{"type", "uri"}`), else a readable rendering.

use mcp_context::client::Notice;
use serde_json::Value;

/// The output mode.
pub(crate) struct Out {
    /// One line of JSON per result.
    pub(crate) json: bool,
}

fn parse(text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| format!("unreadable result: {e}"))
}

fn s<'a>(v: &'a Value, k: &str) -> &'a str {
    v.get(k).and_then(Value::as_str).unwrap_or("")
}

fn items<'a>(v: &'a Value, k: &str) -> impl Iterator<Item = &'a Value> {
    v.get(k).and_then(Value::as_array).into_iter().flatten()
}

impl Out {
    /// A status line (stderr; nothing with `--json`).
    pub(crate) fn note(&self, text: &str) {
        if !self.json {
            eprintln!("{text}");
        }
    }

    /// A result printed as it came (pretty unless `--json`).
    pub(crate) fn raw(&self, text: &str) -> Result<(), String> {
        let v = parse(text)?;
        if self.json {
            println!("{v}");
        } else {
            println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
        Ok(())
    }

    /// The items under `key` of every page: one JSON array, or a line per item.
    pub(crate) fn pages<'a>(
        &self,
        pages: impl Iterator<Item = &'a str>,
        key: &str,
    ) -> Result<(), String> {
        let mut all = Vec::new();
        for p in pages {
            all.extend(items(&parse(p)?, key).cloned());
        }
        if self.json {
            println!("{}", Value::Array(all));
            return Ok(());
        }
        for i in &all {
            let id = [s(i, "uri"), s(i, "uriTemplate")].concat();
            let name = s(i, "name");
            let head = if id.is_empty() {
                name.to_owned()
            } else {
                format!("{id}  {name}")
            };
            match i.get("description").and_then(Value::as_str) {
                Some(d) => println!("{head} — {d}"),
                None => println!("{head}"),
            }
        }
        Ok(())
    }

    /// A `ReadResourceResult`: the text contents, blobs summarised.
    pub(crate) fn read(&self, text: &str) -> Result<(), String> {
        if self.json {
            return self.raw(text);
        }
        for c in items(&parse(text)?, "contents") {
            match c.get("text").and_then(Value::as_str) {
                Some(t) => println!("{t}"),
                None => println!(
                    "[{} base64 characters of {}]",
                    s(c, "blob").len(),
                    s(c, "mimeType")
                ),
            }
        }
        Ok(())
    }

    /// A `GetPromptResult`: `role: text` per message.
    pub(crate) fn prompt(&self, text: &str) -> Result<(), String> {
        if self.json {
            return self.raw(text);
        }
        let v = parse(text)?;
        if let Some(d) = v.get("description").and_then(Value::as_str) {
            println!("# {d}");
        }
        for m in items(&v, "messages") {
            let content = m.get("content").unwrap_or(&Value::Null);
            let body = match content.get("text").and_then(Value::as_str) {
                Some(t) => t.to_owned(),
                None => content.get("resource").map_or_else(
                    || format!("[{}]", s(content, "type")),
                    |r| format!("[resource {}]", s(r, "uri")),
                ),
            };
            println!("{}: {body}", s(m, "role"));
        }
        Ok(())
    }

    /// A `CompleteResult`: one value a line.
    pub(crate) fn completion(&self, text: &str) -> Result<(), String> {
        if self.json {
            return self.raw(text);
        }
        let v = parse(text)?;
        for value in items(v.get("completion").unwrap_or(&Value::Null), "values") {
            println!("{}", value.as_str().unwrap_or_default());
        }
        Ok(())
    }

    /// One notice of a `listen` stream.
    pub(crate) fn notice(&self, n: &Notice) {
        let (ty, uri) = match n {
            Notice::ResourceUpdated { uri } => ("resourceUpdated", Some(uri.as_str())),
            Notice::ResourcesListChanged => ("resourcesListChanged", None),
            Notice::PromptsListChanged => ("promptsListChanged", None),
            Notice::ToolsListChanged => ("toolsListChanged", None),
        };
        if self.json {
            let mut o = serde_json::json!({ "type": ty });
            if let Some(u) = uri {
                o["uri"] = Value::from(u);
            }
            println!("{o}");
        } else {
            println!("{ty}{}", uri.map(|u| format!(" {u}")).unwrap_or_default());
        }
    }
}

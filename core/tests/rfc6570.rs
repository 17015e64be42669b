//! The official RFC 6570 test suite (uritemplate-test), run as data: every positive case must
//! expand exactly (or to one of the listed alternatives), every negative case must fail to
//! parse or to expand. Prints the count per file; the total must be 270/270.

use mcp_context::template::{OwnedTemplate, Template, Value, Variables};
use serde_json::Value as Json;
use std::collections::BTreeMap;

struct Vars {
    strings: BTreeMap<String, String>,
    lists: BTreeMap<String, Vec<String>>,
    assocs: BTreeMap<String, Vec<(String, String)>>,
}

struct View<'a> {
    lists: BTreeMap<&'a str, Vec<&'a str>>,
    assocs: BTreeMap<&'a str, Vec<(&'a str, &'a str)>>,
    vars: &'a Vars,
}

impl Variables for View<'_> {
    fn get(&self, name: &str) -> Option<Value<'_>> {
        if let Some(s) = self.vars.strings.get(name) {
            return Some(Value::Str(s));
        }
        if let Some(l) = self.lists.get(name) {
            return Some(Value::List(l));
        }
        self.assocs.get(name).map(|a| Value::Assoc(a))
    }
}

fn scalar(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        other => other.to_string(), // numbers expand as their JSON spelling
    }
}

fn load_vars(v: &Json) -> Vars {
    let mut vars = Vars {
        strings: BTreeMap::new(),
        lists: BTreeMap::new(),
        assocs: BTreeMap::new(),
    };
    for (k, v) in v.as_object().into_iter().flatten() {
        match v {
            Json::Null => {}
            Json::Array(a) => {
                vars.lists.insert(k.clone(), a.iter().map(scalar).collect());
            }
            Json::Object(o) => {
                vars.assocs.insert(
                    k.clone(),
                    o.iter().map(|(k, v)| (k.clone(), scalar(v))).collect(),
                );
            }
            other => {
                vars.strings.insert(k.clone(), scalar(other));
            }
        }
    }
    vars
}

fn run_file(name: &str) -> (usize, usize) {
    let path = format!(
        "{}/../tests/vectors/rfc6570/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let doc: Json = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let (mut passed, mut total) = (0, 0);
    for (group, body) in doc.as_object().unwrap() {
        let vars = load_vars(&body["variables"]);
        let view = View {
            lists: vars
                .lists
                .iter()
                .map(|(k, v)| (k.as_str(), v.iter().map(String::as_str).collect()))
                .collect(),
            assocs: vars
                .assocs
                .iter()
                .map(|(k, v)| {
                    (
                        k.as_str(),
                        v.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect(),
                    )
                })
                .collect(),
            vars: &vars,
        };
        for case in body["testcases"].as_array().unwrap() {
            total += 1;
            let template = case[0].as_str().unwrap();
            let expected = &case[1];
            // The borrowed, fixed-capacity form and the owned form must agree.
            let fixed = Template::<'_, 32>::parse(template);
            let owned = OwnedTemplate::parse(template);
            assert_eq!(fixed.is_ok(), owned.is_ok(), "{template}");
            let got = owned.ok().map(|t| t.expand(&view));
            if let Ok(t) = &fixed {
                let mut buf = [0u8; 4096];
                let slice = t
                    .expand_to_slice(&view, &mut buf)
                    .map(|n| String::from_utf8(buf[..n].to_vec()).unwrap());
                assert_eq!(slice.ok(), got.clone().and_then(Result::ok), "{template}");
            }
            let ok = match (expected, &got) {
                (Json::Bool(false), None | Some(Err(_))) => true,
                (Json::String(s), Some(Ok(g))) => g == s,
                (Json::Array(alts), Some(Ok(g))) => alts.iter().any(|a| a.as_str() == Some(g)),
                _ => false,
            };
            if ok {
                passed += 1;
            } else {
                eprintln!("FAIL [{name} / {group}] {template:?}: expected {expected}, got {got:?}");
            }
        }
    }
    println!("rfc6570 {name}: {passed}/{total}");
    (passed, total)
}

#[test]
fn rfc6570_suite() {
    let mut passed = 0;
    let mut total = 0;
    for f in [
        "spec-examples.json",
        "spec-examples-by-section.json",
        "extended-tests.json",
        "negative-tests.json",
    ] {
        let (p, t) = run_file(f);
        passed += p;
        total += t;
    }
    println!("rfc6570 total: {passed}/{total}");
    assert_eq!(total, 270, "the suite has 270 cases");
    assert_eq!(passed, total);
}

//! The OpenAPI document in `docs/api/openapi.yaml` describes exactly the
//! router's HTTP routes.

use std::collections::BTreeSet;

use serde_norway::Value;

fn document() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/api/openapi.yaml");
    let text = std::fs::read_to_string(path).unwrap();
    serde_norway::from_str(&text).unwrap()
}

const METHODS: &[&str] = &["get", "put", "post", "delete", "patch", "head", "options"];

#[test]
fn every_route_is_documented_and_nothing_else() {
    let doc = document();
    assert_eq!(doc["openapi"].as_str(), Some("3.1.0"));
    let router: BTreeSet<(String, String)> = shoutan_server::routes::routes()
        .into_iter()
        .map(|r| (r.method.as_str().to_lowercase(), r.path.to_owned()))
        .collect();
    let mut documented = BTreeSet::new();
    let paths = doc["paths"].as_mapping().unwrap();
    for (path, item) in paths {
        let path = path.as_str().unwrap();
        for (method, operation) in item.as_mapping().unwrap() {
            let method = method.as_str().unwrap();
            assert!(METHODS.contains(&method), "{path}: {method}");
            assert!(
                operation["responses"]
                    .as_mapping()
                    .is_some_and(|r| !r.is_empty()),
                "{method} {path} has no responses"
            );
            documented.insert((method.to_owned(), path.to_owned()));
        }
    }
    let missing: Vec<_> = router.difference(&documented).collect();
    assert!(
        missing.is_empty(),
        "routes missing from openapi.yaml: {missing:?}"
    );
    let extra: Vec<_> = documented.difference(&router).collect();
    assert!(
        extra.is_empty(),
        "openapi.yaml documents routes the router lacks: {extra:?}"
    );
}

#[test]
fn every_reference_resolves() {
    let doc = document();
    let text = serde_norway::to_string(&doc).unwrap();
    for reference in text.split("$ref: ").skip(1) {
        let target = reference
            .split_whitespace()
            .next()
            .unwrap()
            .trim_matches(|c| c == '\'' || c == '"' || c == ',' || c == '}');
        let mut node = &doc;
        for part in target.trim_start_matches("#/").split('/') {
            node = &node[part];
        }
        assert!(!node.is_null(), "{target} does not resolve");
    }
}

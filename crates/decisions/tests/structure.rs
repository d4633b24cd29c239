//! The library's layering: no two modules import each other, and inside the library every
//! `crate::` path names the module that defines what it uses (a re-export path would hide the
//! dependency from this check).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("src").flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The top-level module a source file belongs to.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).expect("under src");
    let first = rel.components().next().map(|c| c.as_os_str().to_string_lossy().to_string()).unwrap_or_default();
    first.trim_end_matches(".rs").to_string()
}

#[test]
fn no_two_modules_import_each_other() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(&src, f)).filter(|m| m != "lib").collect();
    let mut uses: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut hidden = Vec::new();
    for f in &files {
        let m = module_of(&src, f);
        let text = std::fs::read_to_string(f).expect("read");
        // Test code and the fuzzing entry points may reach anywhere.
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        let code = code.split("#[cfg(fuzzing)]").next().unwrap_or_default();
        // Doc links name modules without depending on them.
        let code: String = code.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
        for (i, _) in code.match_indices("crate::") {
            let rest = &code[i + "crate::".len()..];
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if name.is_empty() {
                continue; // `crate::{...}`
            }
            if !modules.contains(&name) {
                hidden.push(format!("{}: crate::{name}", f.display()));
            } else if name != m && m != "lib" {
                uses.entry(m.clone()).or_default().insert(name);
            }
        }
    }
    assert_eq!(hidden, Vec::<String>::new(), "use the defining module's path, not a re-export");
    let mut cycles = Vec::new();
    for (a, bs) in &uses {
        for b in bs {
            if a < b && uses.get(b).is_some_and(|back| back.contains(a)) {
                cycles.push(format!("{a} <-> {b}"));
            }
        }
    }
    assert_eq!(cycles, Vec::<String>::new(), "modules that import each other: {uses:#?}");
}

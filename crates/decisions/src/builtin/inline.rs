//! Code an interpreter runs inline (`python -c`, `perl -e`, `ruby -e`, `node -e`, `php -r`), read
//! for what it does in the shell's terms (settled point 52): each command it runs (`os.system`,
//! `subprocess`, `system`, `execSync`, backticks) is that command, each library call that deletes
//! is the `rm` that does the same, each request that changes a server is the `curl` that sends
//! it. What it only prints stays data: a call written inside a string literal is not one.
//!
//! This reads the code the way the labelling rules do, by the calls that matter; it is not a
//! parser of five languages. Code it cannot read this way adds nothing, and the interpreter's own
//! call is judged as before.

use std::sync::LazyLock;

use regex::Regex;

/// The languages read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// `python -c`.
    Python,
    /// `perl -e`.
    Perl,
    /// `ruby -e`.
    Ruby,
    /// `node -e`.
    Node,
    /// `php -r`.
    Php,
    /// `awk 'PROGRAM'`: its `system("CMD")`.
    Awk,
    /// `lua -e`: its `os.execute("CMD")`, `io.popen("CMD")`.
    Lua,
    /// `Rscript -e`, `R -e`: its `system("CMD")`.
    R,
    /// `emacs --eval`: its `(shell-command "CMD")`.
    Elisp,
}

/// The most code read, and the most commands taken from it.
pub(super) const CODE_MAX: usize = 16 * 1024;
const COMMANDS_MAX: usize = 16;

/// The language and the inline code of an interpreter's call (`python3 -c CODE`,
/// `perl -MFile::Path -ne CODE`): none for a script, a module or a REPL.
pub fn code_of<'a>(program: &str, args: &'a [(String, bool)]) -> Option<(Lang, &'a str)> {
    let name = super::shell::base(program);
    let lang = if name.starts_with("python") || name.starts_with("pypy") {
        Lang::Python
    } else {
        match name {
            "perl" => Lang::Perl,
            // `rake -e CODE`: Ruby, with rake's `sh`.
            "ruby" | "rake" => Lang::Ruby,
            "node" | "nodejs" | "bun" | "deno" => Lang::Node,
            "php" => Lang::Php,
            "awk" | "gawk" | "mawk" | "nawk" => return awk_program(args),
            "lua" | "luajit" => Lang::Lua,
            "Rscript" | "R" => Lang::R,
            "emacs" => Lang::Elisp,
            _ => return None,
        }
    };
    let is_flag = |a: &str| match lang {
        Lang::Python => a == "-c",
        Lang::Node => matches!(a, "-e" | "--eval" | "-p" | "--print"),
        Lang::Php => a == "-r",
        Lang::Awk => false,
        Lang::Lua | Lang::R => a == "-e",
        Lang::Elisp => a == "--eval" || a == "-eval",
        // `-e`, and short flags glued before it: `-ne`, `-lane`, `-pe`.
        Lang::Perl | Lang::Ruby => {
            a.len() >= 2
                && a.starts_with('-')
                && !a.starts_with("--")
                && (a.ends_with('e') || a.ends_with('E'))
                && a[1..].chars().all(|c| c.is_ascii_alphabetic())
        }
    };
    // `deno eval CODE`.
    if name == "deno" {
        return args
            .first()
            .filter(|(a, _)| a == "eval")
            .and_then(|_| args.get(1))
            .map(|(c, _)| (Lang::Node, c.as_str()));
    }
    // The interpreter's own options come before its script: `python3 tool.py -c x` runs the
    // script, whose `-c` is its own.
    let own = args.iter().position(|(a, _)| !a.starts_with('-')).unwrap_or(args.len());
    let at = args[..own].iter().position(|(a, _)| is_flag(a))?;
    let code = args.get(at + 1)?.0.as_str();
    (code.len() <= CODE_MAX).then_some((lang, code))
}

/// What the code does, as shell commands: each command it runs, each delete, each request that
/// changes a server, in the order written.
/// An awk's program: the value of `-e`/`--source`, or its first operand after its options (`-F
/// FS`, `-v VAR=VALUE`); none when it runs a program file (`-f`).
fn awk_program(args: &[(String, bool)]) -> Option<(Lang, &str)> {
    let mut i = 0;
    let code = loop {
        let (a, _) = args.get(i)?;
        match a.as_str() {
            "-f" | "--file" => return None,
            "-e" | "--source" | "--" => break &args.get(i + 1)?.0,
            "-F" | "-v" | "--field-separator" | "--assign" => i += 2,
            a if a.starts_with('-') && a.len() > 1 => i += 1,
            _ => break a,
        }
    };
    (code.len() <= CODE_MAX).then_some((Lang::Awk, code.as_str()))
}

pub fn commands(lang: Lang, code: &str) -> Vec<String> {
    let live = outside_strings(code, lang);
    let mut found: Vec<(usize, String)> = Vec::new();
    let at_live = |m: &regex::Match| live.get(m.start()).copied().unwrap_or(false);
    // Ruby's `sh "CMD"` (rake's, and `FileUtils.sh`) runs a command as the others do.
    let ruby_sh = (lang == Lang::Ruby).then(|| RUBY_SH.find_iter(code)).into_iter().flatten();
    for m in RUNS.find_iter(code).chain(ruby_sh).filter(at_live) {
        if let Some(run) = argv(&code[m.end()..]) {
            found.push((m.start(), run));
        }
    }
    if matches!(lang, Lang::Perl | Lang::Ruby | Lang::Php) {
        for c in BACKTICKS.captures_iter(code) {
            if let Some(whole) = c.get(0).filter(at_live) {
                let run = c.iter().skip(1).flatten().next().map_or("", |g| g.as_str());
                found.push((whole.start(), run.to_string()));
            }
        }
    }
    for (re, how) in [(&*REMOVES_TREE, "rm -rf"), (&*REMOVES_DIR, "rmdir"), (&*REMOVES_FILE, "rm")] {
        for m in re.find_iter(code).filter(at_live) {
            let arg = argument(&code[m.end()..]);
            // Node's `fs.rmSync(p)` removes a tree only when told to.
            let how = if lang == Lang::Node && how == "rm" && arg.contains("recursive") { "rm -rf" } else { how };
            found.push((m.start(), format!("{how} {}", path_of(arg))));
        }
    }
    for c in REQUESTS.captures_iter(code) {
        let Some(whole) = c.get(0).filter(at_live) else { continue };
        let arg = argument(&code[whole.end()..]);
        // Python's `requests.post`, Ruby's `Net::HTTP.post_form`.
        let named = c.get(1).or_else(|| c.get(3)).map(|m| m.as_str().to_ascii_uppercase());
        let method = match named.map(|m| m.trim_end_matches("_FORM").trim_end_matches("_RESPONSE").to_string()) {
            Some(m) if m != "URLOPEN" => m,
            // `urlopen(url, data=...)` posts; `fetch(url, {method: 'DELETE'})` says so.
            _ if arg.contains("data=") => "POST".into(),
            _ => METHOD.captures(arg).and_then(|m| m.get(1)).map_or("GET".into(), |m| m.as_str().to_ascii_uppercase()),
        };
        let url = literals(arg).into_iter().next().unwrap_or_default();
        let url = super::shell::quote(&url);
        found.push((
            whole.start(),
            if method == "GET" { format!("curl -s {url}") } else { format!("curl -X {method} {url}") },
        ));
    }
    found.sort_by_key(|(at, _)| *at);
    found.into_iter().map(|(_, c)| c).take(COMMANDS_MAX).collect()
}

/// Calls that run a shell command or a program: the command follows, as one string or as argv.
static RUNS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:\bos\.(?:system|popen|execute)|\bio\.popen|\bshell-command(?:-to-string)?|\bsubprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|\b(?:system|exec|execSync|execFileSync|spawnSync|shell_exec|passthru|popen|proc_open))\b\s*\(?\s*",
    )
});
/// Ruby's `sh` (rake's, `FileUtils.sh`), at the start of a statement or after `.`.
static RUBY_SH: LazyLock<Regex> = LazyLock::new(|| re(r"(?:^|[\s;{(.])sh\b\s*\(?\s*"));
/// Perl's, Ruby's and PHP's backticks and `qx`/`%x`: what they hold runs.
static BACKTICKS: LazyLock<Regex> =
    LazyLock::new(|| re(r"`([^`]*)`|\bqx\s*\{([^}]*)\}|\bqx\s*\(([^)]*)\)|%x\{([^}]*)\}|%x\(([^)]*)\)"));
/// Library calls that remove a directory with everything in it.
static REMOVES_TREE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bshutil\.rmtree|\bFileUtils\.(?:rm_rf|rm_r|remove_dir|remove_entry(?:_secure)?|rmtree)\b|\b(?:rmtree|remove_tree)\b",
    )
});
/// Library calls that remove an empty directory.
static REMOVES_DIR: LazyLock<Regex> = LazyLock::new(|| re(r"\bos\.rmdir\b|\bDir\.(?:delete|rmdir|unlink)\b"));
/// Library calls that remove a file (Node's `fs.rm` a tree, when told `recursive`).
static REMOVES_FILE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"\bos\.(?:remove|unlink)\b|\bFile\.(?:delete|unlink)\b|\bFileUtils\.(?:rm|rm_f)\b|(?:\bfs|\brequire\(\s*['"](?:node:)?fs['"]\s*\))\.(?:promises\.)?(?:rmSync|rm|rmdirSync|unlinkSync|unlink)\b|\bDeno\.remove(?:Sync)?\b|\bunlink\b"#,
    )
});
/// HTTP requests: the method, or `urlopen`/`fetch` whose method is in their arguments.
static REQUESTS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i:\b(?:requests|httpx)\.(get|post|put|patch|delete|head))\s*\(|\burllib\.request\.(urlopen)\s*\(|\bfetch\s*\(|\bNet::HTTP\.(post_form|post|put|patch|delete|get_response|get)\s*\(",
    )
});
/// `method: 'DELETE'` in a `fetch`'s options.
static METHOD: LazyLock<Regex> = LazyLock::new(|| re(r#"method\s*[:=]\s*['"](\w+)['"]"#));
/// Node's `require('os')`.
static REQUIRE: LazyLock<Regex> = LazyLock::new(|| re(r#"require\(\s*['"][^'"]*['"]\s*\)"#));
/// How code names the user's home.
static HOME: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"expanduser|Path\.home\(\)|Dir\.home|os\.homedir\(\)|homedir\(\)|\$ENV\{\s*['"]?HOME['"]?\s*\}|ENV\[\s*['"]HOME['"]\s*\]|os\.environ\[\s*['"]HOME['"]\s*\]|os\.getenv\(\s*['"]HOME['"]|process\.env\.HOME|env\.get\(\s*['"]HOME['"]|getenv\(\s*['"]HOME['"]"#,
    )
});

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|e| unreachable!("a fixed pattern: {e}"))
}

/// For each byte, whether it is code and not inside a string literal: a call written in a
/// string is printed, not made.
fn outside_strings(code: &str, lang: Lang) -> Vec<bool> {
    let b = code.as_bytes();
    let mut live = vec![true; b.len()];
    // Backticks are strings in JavaScript, commands elsewhere (found on their own).
    // Awk's strings are double-quoted only.
    let quotes: &[u8] = match lang {
        Lang::Node => b"'\"`",
        Lang::Awk | Lang::Elisp => b"\"",
        _ => b"'\"",
    };
    let mut i = 0;
    while i < b.len() {
        if quotes.contains(&b[i]) {
            let q = b[i];
            let mut j = i + 1;
            while j < b.len() && b[j] != q {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            for x in live.iter_mut().take((j + 1).min(b.len())).skip(i) {
                *x = false;
            }
            i = j + 1;
        } else {
            i += 1;
        }
    }
    live
}

/// The string literal a text opens with (after its first quote), its escapes taken off, and
/// where it ends: just past its closing quote, none when it is not closed.
fn literal(text: &str) -> (String, Option<usize>) {
    let mut s = String::new();
    let mut chars = text.char_indices();
    let Some((_, q)) = chars.next() else { return (s, None) };
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                if let Some((_, n)) = chars.next() {
                    s.push(n);
                }
            }
            _ if c == q => return (s, Some(i + 1)),
            _ => s.push(c),
        }
    }
    (s, None)
}

/// The contents of the string literals in a text, in order, their escapes taken off.
fn literals(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(['\'', '"']) {
        let (s, end) = literal(&rest[at..]);
        out.push(s);
        let Some(end) = end else { break };
        rest = &rest[at + end..];
    }
    out
}

/// The text of a call's first argument list: up to its closing bracket, or for a call without
/// brackets (`system "ls"`) to the end of its statement.
fn argument(after: &str) -> &str {
    let mut depth = 1usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in after.char_indices() {
        if let Some(q) = quote {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                _ if c == q => quote = None,
                _ => {}
            }
            continue;
        }
        match c {
            '\'' | '"' => quote = Some(c),
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    return &after[..i];
                }
            }
            ';' | '\n' if depth == 1 => return &after[..i],
            _ => {}
        }
    }
    after
}

/// The command a running call makes: one string is a shell command; several, or a list, are
/// its argv, joined as the shell would read them.
fn argv(after: &str) -> Option<String> {
    let arg = argument(after).trim_start();
    let list = arg.starts_with('[');
    // Only the literals before the first thing that is not one (an options object, `shell=True`).
    let mut words = Vec::new();
    let mut rest = arg.trim_start_matches('[').trim_start();
    while rest.starts_with(['\'', '"']) {
        let (s, end) = literal(rest);
        words.push(s);
        rest = rest[end?..].trim_start();
        match rest.strip_prefix(',') {
            Some(r) => rest = r.trim_start(),
            None => break,
        }
    }
    match words.len() {
        0 => None,
        1 if !list => words.pop(),
        _ => Some(words.iter().map(|w| super::shell::quote(w)).collect::<Vec<_>>().join(" ")),
    }
}

/// The path an argument names: its first string literal, under the home when the code names
/// the home by a function (`Path.home() / 'projects'`, `os.path.expanduser('~')`); a variable
/// when it names none.
fn path_of(arg: &str) -> String {
    // A module a call loads on the way (`require('os').homedir()`) names no path.
    let arg = REQUIRE.replace_all(arg, "");
    let literal = literals(&arg).into_iter().find(|l| !l.is_empty() && l != "HOME");
    let path = match (HOME.is_match(&arg), literal) {
        (true, Some(l)) if l.starts_with('~') || l.starts_with('/') => l,
        (true, Some(l)) => format!("~/{}", l.trim_start_matches("./")),
        (true, None) => "~".into(),
        (false, Some(l)) => l,
        (false, None) => "$PATH_FROM_CODE".into(),
    };
    super::shell::quote(&path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(program: &str, args: &[&str]) -> Vec<String> {
        let args: Vec<(String, bool)> = args.iter().map(|a| (a.to_string(), false)).collect();
        code_of(program, &args).map(|(lang, code)| commands(lang, code)).unwrap_or_default()
    }

    #[test]
    fn commands_the_code_runs_are_read() {
        assert_eq!(of("python3", &["-c", "import os; os.system('rm -rf ~')"]), ["rm -rf ~"]);
        assert_eq!(
            of("python3", &["-c", "import subprocess; subprocess.run('git push --force origin main', shell=True)"]),
            ["git push --force origin main"]
        );
        assert_eq!(
            of("python", &["-c", "import subprocess; subprocess.run(['rm', '-rf', '/srv/x'])"]),
            ["rm -rf /srv/x"]
        );
        assert_eq!(of("perl", &["-e", r#"system("git", "push", "--force")"#]), ["git push --force"]);
        assert_eq!(of("ruby", &["-e", r#"system "rm -rf ~/Documents""#]), ["rm -rf ~/Documents"]);
        assert_eq!(
            of("node", &["-e", "require('child_process').execSync('npm publish', {stdio: 'inherit'})"]),
            ["npm publish"]
        );
        assert_eq!(of("php", &["-r", r#"shell_exec("rm -rf /var/www");"#]), ["rm -rf /var/www"]);
        assert_eq!(of("perl", &["-e", "`dd if=/dev/zero of=/dev/sda`"]), ["dd if=/dev/zero of=/dev/sda"]);
        assert_eq!(of("ruby", &["-e", "puts `date`"]), ["date"]);
    }

    #[test]
    fn library_calls_that_delete_or_send_are_their_commands() {
        assert_eq!(of("python3", &["-c", "import shutil; shutil.rmtree('/home/dev')"]), ["rm -rf /home/dev"]);
        assert_eq!(of("python3", &["-c", "import shutil, os; shutil.rmtree(os.path.expanduser('~'))"]), ["rm -rf ~"]);
        assert_eq!(
            of("python3", &["-c", "import pathlib, shutil; shutil.rmtree(pathlib.Path.home() / 'projects')"]),
            ["rm -rf ~/projects"]
        );
        assert_eq!(of("ruby", &["-e", "require 'fileutils'; FileUtils.rm_rf(Dir.home)"]), ["rm -rf ~"]);
        assert_eq!(of("perl", &["-MFile::Path=remove_tree", "-e", "remove_tree($ENV{HOME})"]), ["rm -rf ~"]);
        assert_eq!(
            of("node", &["-e", "require('fs').rmSync(require('os').homedir(), {recursive: true, force: true})"]),
            ["rm -rf ~"]
        );
        assert_eq!(of("node", &["-e", "require('fs').unlinkSync('tmp/cache.json')"]), ["rm tmp/cache.json"]);
        assert_eq!(of("python3", &["-c", "import os; os.remove(f)"]), ["rm '$PATH_FROM_CODE'"]);
        assert_eq!(
            of("python3", &["-c", "import requests; requests.delete('https://api.example.com/v1/users/7')"]),
            ["curl -X DELETE https://api.example.com/v1/users/7"]
        );
        assert_eq!(
            of("node", &["-e", "fetch('https://x.example.com/a', {method: 'POST', body: '{}'})"]),
            ["curl -X POST https://x.example.com/a"]
        );
        assert_eq!(
            of("python3", &["-c", "import requests; print(requests.get('https://e.com').status_code)"]),
            ["curl -s https://e.com"]
        );
    }

    #[test]
    fn what_the_code_only_prints_is_data() {
        assert!(of("python3", &["-c", r#"print('os.system("rm -rf ~")')"#]).is_empty());
        assert!(of("node", &["-e", "console.log('rm -rf ~')"]).is_empty());
        assert!(of("node", &["-e", "console.log(`shutil.rmtree('/')`)"]).is_empty());
        assert!(of("perl", &["-ne", "print if /DROP TABLE/", "db/schema.sql"]).is_empty());
        let script: Vec<(String, bool)> =
            ["tools/run.py", "-c", "import os; os.system('rm -rf ~')"].iter().map(|a| (a.to_string(), false)).collect();
        assert!(code_of("python3", &script).is_none(), "a script's own -c is its argument");
        assert!(of("python3", &["-m", "http.server"]).is_empty());
        assert!(of("python3", &["-c", &format!("{}os.system('rm -rf ~')", "#".repeat(CODE_MAX))]).is_empty());
    }
}

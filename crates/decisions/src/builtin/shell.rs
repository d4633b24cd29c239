//! A command read as a shell program: the calls that would run, each with its program and
//! arguments, the wrappers that hide the real command taken off (`sudo`, `env`, `nice`,
//! `timeout`, `xargs`, `find -exec`, `sh -c`, `ssh HOST CMD`, ...), and text that only mentions
//! a command (an `echo` argument, a heredoc fed to `cat`) left as data. The parse is
//! [`rable`]'s, a bash 5.3-compatible parser; this module only walks its tree.

use std::ops::{Deref, DerefMut};

use rable::{ListOperator, Node, NodeKind};

/// The longest command read as a program; a longer one is not parsed (its calls are unknown).
pub const COMMAND_MAX: usize = 64 * 1024;
/// The deepest nesting of brackets, quotes and substitutions parsed.
const NESTING_MAX: usize = 64;
/// How many times a string run as code (`sh -c`, `ssh HOST '...'`, `eval`) is parsed within
/// another.
const DEPTH_MAX: usize = 8;

/// One program the command would run.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Call {
    /// Its name as written (`rm`, `./scripts/cleanup.sh`, `/usr/bin/git`).
    pub program: String,
    /// Its arguments, quotes removed.
    pub args: Vec<String>,
    /// Which arguments were quoted as a whole (a message, a pattern, a script).
    pub quoted: Vec<bool>,
    /// Run on another machine (`ssh HOST CMD`, `kubectl exec`).
    pub remote: bool,
    /// Run as another user (`sudo`, `doas`, `su -c`).
    pub elevated: bool,
    /// Run with a variable that names production (`RAILS_ENV=production rake db:migrate`).
    pub production: bool,
    /// Run through `xargs`: more arguments come from its input.
    pub xargs: bool,
    /// A shell that reads a script from its input: a pipe or a heredoc we cannot see into.
    pub reads_script: bool,
    /// Where its output is written (`>`, `>>`, `&>`): the operator and the target.
    pub writes: Vec<(String, String)>,
    /// What a heredoc feeds it, clipped: the statements a database client runs, say.
    pub stdin_text: Option<String>,
    /// What a pipe feeds it from a command that prints (`printf 'STOP X\n' | adminclient`),
    /// clipped, whatever the program: read only for a program the model has never seen
    /// (`features::unseen_buckets`), where `stdin_text` is kept for the programs it names.
    pub printed: Option<String>,
    /// A shell function's call of itself, in a function that starts two copies of itself in a
    /// pipe or the background: a fork bomb (settled point 54).
    pub forks_itself: bool,
}

impl Call {
    /// Whether rule 4 judges this call: it runs on another machine and is not an interactive
    /// session there (`kubectl exec -it pod -- bash`, a bare `ssh` whose remote command does
    /// not parse), which the rules judge like a plain `ssh HOST`.
    pub fn elsewhere(&self) -> bool {
        let session = self.args.is_empty() && (is_shell(&self.program) || is_database_client(&self.program));
        self.remote && !session && self.program != "ssh"
    }

    /// What a heredoc, a here-string or a pipe feeds the call (`stdin_text`), in lines.
    pub fn fed(&self) -> Option<String> {
        self.stdin_text.as_deref().map(in_lines)
    }
}

/// A fed text in lines: `printf`'s and `$'...'`'s `\n` escapes are the line ends they print
/// (`printf 'STOP X\nDELETE X\n' | adminclient`).
pub fn in_lines(text: &str) -> String {
    text.replace("\\n", "\n")
}

/// Database clients whose printed input is still read as statements the command does not show:
/// the rows the model was fitted on read `echo 'DROP DATABASE shop;' | psql -h db` so, and
/// reading them otherwise changes the weights (a retraining's work, not a reading's).
const PIPE_UNSEEN: [&str; 2] = ["psql", "redis-cli"];

/// How much of a heredoc a call keeps.
const STDIN_MAX: usize = 4096;

/// Database clients: what they read from a pipe or a file is statements we cannot see.
pub fn is_database_client(program: &str) -> bool {
    // CockroachDB's binary is its server too: only `cockroach sql` is a client, read by its words.
    let name = base(program);
    name != "cockroach" && database_client(name)
}

/// Database clients whose statements are SQL, with SQL's comments.
pub const SQL_CLIENTS: [&str; 20] = [
    "psql",
    "mysql",
    "mariadb",
    "sqlite3",
    "clickhouse-client",
    "cqlsh",
    "sqlcmd",
    "duckdb",
    "cockroach",
    "sqlplus",
    // SAP ASE's clients and Firebird's.
    "isql",
    "sqsh",
    "isql-fb",
    // Db2's command line processor (`db2 "DROP TABLESPACE ..."`).
    "db2",
    // Impala's shell (`impala-shell -i HOST:PORT -q "..."`).
    "impala-shell",
    // Teradata's BTEQ and Informix's DB-Access, which read their statements from their input.
    "bteq",
    "dbaccess",
    // SAP HANA's `hdbsql`; Netezza's `nzsql`; Exasol's `exaplus`.
    "hdbsql",
    "nzsql",
    "exaplus",
];

/// Whether a program (by its name) is a database's client: an SQL one, MongoDB's or Redis's.
pub fn database_client(name: &str) -> bool {
    SQL_CLIENTS.contains(&name) || matches!(name, "mongosh" | "mongo" | "redis-cli" | "valkey-cli")
}

/// What a command runs, as far as it can be read.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Program {
    /// Every call, in the order it appears.
    pub calls: Vec<Call>,
    /// The command could not be read as a program (too long, too deep, not bash).
    pub unreadable: bool,
}

/// Read a command as a shell program.
pub fn analyse(command: &str) -> Program {
    let mut program = Program::default();
    if command.len() > COMMAND_MAX || nesting(command) > NESTING_MAX || compounds(command) > NESTING_MAX {
        program.unreadable = true;
        return program;
    }
    let ctx = Context::default();
    let mut out = Out::default();
    // A command line that is PowerShell's (an agent whose shell is PowerShell: `Disable-ADAccount
    // -Identity jd; Set-ADUser ...`, `$s = New-PSSession ...`) is read as `pwsh -Command` reads it.
    let powershell = super::powershell::is_cmdlet_line(command) && parse_powershell(command, &ctx, &mut out);
    if !powershell && !parse_into(command, &ctx, &mut out) {
        program.unreadable = true;
    }
    program.calls = Vec::with_capacity(out.calls.len());
    let mut budget = EXPANDED_MAX;
    resolve(out.calls, &out.functions, 0, &mut budget, &mut program.calls);
    program
}

/// What a walk collects: the calls, in order, and the shell functions the command defines, whose
/// bodies run only where they are called (settled point 54).
#[derive(Default)]
struct Out {
    calls: Vec<Call>,
    functions: Vec<Function>,
}

impl Deref for Out {
    type Target = Vec<Call>;
    fn deref(&self) -> &Vec<Call> {
        &self.calls
    }
}

impl DerefMut for Out {
    fn deref_mut(&mut self) -> &mut Vec<Call> {
        &mut self.calls
    }
}

/// A shell function a command defines.
struct Function {
    name: String,
    /// The calls of its body.
    calls: Vec<Call>,
    /// It starts two copies of itself, in a pipe or the background.
    forks: bool,
}

/// How many of a `for` loop's words its body is read with.
const LOOP_VALUES: usize = 8;

/// What the parts of a list set for the parts after them: variables assigned on their own, and
/// the directory a `cd` moved to.
#[derive(Default)]
struct Set {
    vars: Vec<(String, String)>,
    cwd: Option<String>,
    /// `docker context use NAME` ran earlier: the daemon later `docker` calls talk to.
    docker_context: Option<String>,
    /// Scripts an earlier part wrote (`cat > /tmp/x.sh <<'EOF' ... EOF`): the path and the text.
    files: Vec<(String, String)>,
    /// How much text variables' values and written scripts have brought back to be read as code,
    /// at most [`COMMAND_MAX`] ([`Set::reread`]).
    reread: usize,
}

impl Set {
    fn is_empty(&self) -> bool {
        self.vars.is_empty() && self.cwd.is_none() && self.docker_context.is_none() && self.files.is_empty()
    }

    /// A script an earlier part wrote, run by a later one (`bash /tmp/x.sh`, `sh x.sh`, `source
    /// x.sh`, `./x.sh`): its text read as code, after the call that runs it.
    fn run_written(&mut self, out: &mut Out, from: usize, ctx: &Context) {
        let mut i = from;
        while i < out.calls.len() {
            let call = &out.calls[i];
            let target = if is_shell(&call.program) || matches!(call.program.as_str(), "source" | ".") {
                call.args.iter().find(|a| !a.starts_with('-'))
            } else {
                Some(&call.program)
            };
            let text = target.and_then(|t| {
                let t = t.trim_start_matches("./");
                self.files.iter().rev().find(|(path, _)| path == t).map(|(_, text)| text.clone())
            });
            i += 1 + text.map_or(0, |text| self.read_at(out, i, &text, false, ctx));
        }
    }

    /// Read code brought back by what an earlier part set, for the call at `at`: in its place
    /// (`instead`) or after it, run where it runs. At most [`COMMAND_MAX`] bytes of it in all,
    /// so a value used many times costs no more than a command of that length. How many calls
    /// it added after `at`.
    fn read_at(&mut self, out: &mut Out, at: usize, code: &str, instead: bool, ctx: &Context) -> usize {
        if code.len() > COMMAND_MAX - self.reread {
            return 0;
        }
        self.reread += code.len();
        let call = &out.calls[at];
        let inner = Context {
            remote: call.remote,
            elevated: call.elevated,
            production: call.production,
            depth: ctx.depth + 1,
            ..*ctx
        };
        let mut read = Out::default();
        if !parse_into(code, &inner, &mut read) || (instead && read.calls.is_empty()) {
            return 0;
        }
        let n = read.calls.len();
        let place = if instead { at..at + 1 } else { at + 1..at + 1 };
        out.calls.splice(place, read.calls);
        out.functions.extend(read.functions);
        if instead { n - 1 } else { n }
    }

    /// A variable's value from here on.
    fn set(&mut self, name: &str, value: &str) {
        self.vars.retain(|(n, _)| n != name);
        self.vars.push((name.to_string(), value.to_string()));
    }

    /// Put what is known into a later call: its variables' values, and for a home or the root
    /// moved to, what its `*` and `.` name (`cd ~ && rm -rf *` is `rm -rf ~/*`).
    fn apply(&self, call: &mut Call) {
        let put_all = |w: &mut String| {
            for (name, value) in &self.vars {
                put(w, name, value);
            }
        };
        put_all(&mut call.program);
        call.args.iter_mut().for_each(put_all);
        // `docker context use prod && docker compose up`: the later call runs on prod's daemon,
        // unless it names its own (`--context`, `-H`).
        if let Some(context) = &self.docker_context
            && matches!(base(&call.program), "docker" | "docker-compose")
        {
            let args: Vec<(String, bool)> = call.args.iter().map(|a| (a.clone(), false)).collect();
            let (options, _) = docker_options(&args);
            let own = options.iter().any(|(flag, _)| matches!(*flag, "--context" | "-c" | "--host" | "-H"));
            if !own && docker_elsewhere(&[("--context", context.as_str())]) {
                call.remote = true;
            }
        }
        if let Some(dir) = &self.cwd
            && call.program != "cd"
        {
            for a in &mut call.args {
                if matches!(a.as_str(), "*" | "." | "./" | "./*" | ".*") {
                    *a = format!("{}/*", dir.trim_end_matches('/'));
                }
            }
        }
    }

    /// A call whose program a variable made several words (`X='rm -rf ~'; $X`, `eval "$X"`,
    /// `bash -c "$X"`): the words read again as the code they are, in its place.
    fn reread(&mut self, out: &mut Out, from: usize, ctx: &Context) {
        let mut i = from;
        while i < out.calls.len() {
            let call = &out.calls[i];
            let code = call.program.trim().contains(char::is_whitespace).then(|| {
                std::iter::once(call.program.clone())
                    .chain(call.args.iter().map(|a| quote(a)))
                    .collect::<Vec<_>>()
                    .join(" ")
            });
            i += 1 + code.map_or(0, |code| self.read_at(out, i, &code, true, ctx));
        }
    }

    /// Learn from one part of a list: an assignment alone sets a variable (to what a
    /// substitution prints, when that can be known: `X=$(echo B64 | base64 -d)`); `cd` to the
    /// home, the root or a system directory itself sets the directory, any other `cd` unsets it.
    fn learn(&mut self, node: &Node, calls: &[Call], ctx: &Context) {
        if let NodeKind::Command { assignments, words, .. } = &node.kind
            && words.is_empty()
        {
            for (a, _) in assignments.iter().filter_map(word) {
                if let Some((name, value)) = a.split_once('=') {
                    let printed = printed_by(value, ctx).map(|t| t.trim_end().to_string());
                    self.set(name, printed.as_deref().unwrap_or(value));
                }
            }
        }
        // `export X=rm`, `declare X=rm`, as an assignment alone.
        if let [set] = calls
            && matches!(set.program.as_str(), "export" | "declare" | "typeset" | "local" | "readonly")
        {
            for (name, value) in set.args.iter().filter(|a| !a.starts_with('-')).filter_map(|a| a.split_once('=')) {
                self.set(name, value);
            }
        }
        // A script written whole (`cat > x.sh <<'EOF'`, `printf '...' > x.sh`, `tee x.sh <<EOF`),
        // or added to (`>>`).
        if let [writer] = calls {
            let tool = base(&writer.program);
            let text = match tool {
                "cat" if writer.args.iter().all(|a| a.starts_with('-')) => writer.stdin_text.clone(),
                "tee" => writer.stdin_text.clone(),
                "echo" | "printf" => prints(writer, None),
                _ => None,
            };
            // Where it goes: what the call's `>`/`>>` name, and the files `tee` names (`-a` adds).
            let mut paths: Vec<(bool, &String)> =
                writer.writes.iter().map(|(op, path)| (op.contains(">>"), path)).collect();
            if tool == "tee" {
                let append = writer.args.iter().any(|a| a == "-a");
                paths.extend(writer.args.iter().filter(|a| !a.starts_with('-')).map(|a| (append, a)));
            }
            if let Some(text) = text {
                for (append, path) in paths.into_iter().take(EXPANSION_MAX) {
                    let path = path.trim_start_matches("./").to_string();
                    let before = self.files.iter().rposition(|(p, _)| *p == path).map(|i| self.files.remove(i).1);
                    let text = match before {
                        Some(old) if append => format!("{old}\n{text}"),
                        _ => text.clone(),
                    };
                    self.files.push((path, crate::secret::clip(&text, COMMAND_MAX)));
                }
            }
        }
        if let [docker] = calls
            && matches!(base(&docker.program), "docker" | "podman")
            && let [context, used, name, ..] = docker.args.as_slice()
            && context == "context"
            && used == "use"
        {
            self.docker_context = Some(name.clone());
        }
        if let [cd] = calls
            && cd.program == "cd"
        {
            let to = cd.args.iter().find(|a| !a.starts_with('-') || a.as_str() == "-");
            // Only the home itself, the root or a system directory itself: there `*` names all of
            // one. A directory under a home may be the project, whose `.` stays the project's.
            let broad = |d: &&String| matches!(super::features::path_class(d), "root" | "home" | "system_top");
            self.cwd = to.filter(broad).cloned().or_else(|| to.is_none().then(|| "~".to_string()));
        }
    }
}

/// How deep calls of functions inside functions are followed.
const FUNCTIONS_DEEP: usize = 4;
/// The most calls functions are expanded into: past it, a call of a function stays one call
/// (`f(){ g;g;g;g; }; g(){ ... }; f;f;f;...` would otherwise grow by a power).
const EXPANDED_MAX: usize = 4096;

/// The calls, each call of a function the command defines replaced by its body's calls, with its
/// arguments for `$1`...`$9` and `$@`. A function's call of itself stays a call, marked when the
/// function forks itself.
/// `budget` is how many more calls expanding may add, shared by every level.
fn resolve(calls: Vec<Call>, functions: &[Function], depth: usize, budget: &mut usize, out: &mut Vec<Call>) {
    for call in calls {
        let found = functions.iter().rev().find(|f| f.name == call.program);
        let Some(f) = found.filter(|f| depth < FUNCTIONS_DEEP && f.calls.len() <= *budget) else {
            out.push(call);
            continue;
        };
        *budget -= f.calls.len();
        for c in &f.calls {
            let mut c = bind(c, &call.args);
            c.elevated |= call.elevated;
            c.remote |= call.remote;
            if c.program == f.name {
                c.forks_itself = f.forks;
                out.push(c);
            } else {
                resolve(vec![c], functions, depth + 1, budget, out);
            }
        }
    }
}

/// A call in a function's body with the function's arguments put in: `$@` and `$*` are all of
/// them, `$1`...`$9` each.
fn bind(call: &Call, args: &[String]) -> Call {
    let mut words: Vec<(String, bool)> = Vec::with_capacity(call.args.len() + 1);
    let given = std::iter::once((&call.program, false)).chain(call.args.iter().zip(call.quoted.iter().copied()));
    for (w, quoted) in given {
        if matches!(w.as_str(), "$@" | "$*" | "${@}" | "${*}") {
            words.extend(args.iter().map(|a| (a.clone(), false)));
            continue;
        }
        let mut w = w.clone();
        for n in (1..=9).rev() {
            put(&mut w, &n.to_string(), args.get(n - 1).map_or("", String::as_str));
        }
        words.push((w, quoted));
    }
    let mut bound = call.clone();
    if words.is_empty() {
        return bound;
    }
    bound.program = words.remove(0).0;
    (bound.args, bound.quoted) = words.into_iter().unzip();
    bound
}

/// A variable's value put into a word, as `$NAME` and `${NAME}`.
fn put(w: &mut String, name: &str, value: &str) {
    if w.contains('$') {
        *w = w.replace(&format!("${{{name}}}"), value).replace(&format!("${name}"), value);
    }
}

/// Whether a function's body starts two copies of itself at once: in one pipe, or one sent to
/// the background (`:(){ :|:& };:`).
fn forks(name: &str, node: &Node) -> bool {
    let calls_it = |n: &Node| match &n.kind {
        NodeKind::Command { words, .. } => words.first().and_then(word).is_some_and(|(w, _)| w == name),
        _ => false,
    };
    let runs_it = |n: &Node| {
        calls_it(n) || matches!(&n.kind, NodeKind::Pipeline { commands, .. } if commands.iter().any(calls_it))
    };
    match &node.kind {
        NodeKind::Pipeline { commands, .. } => {
            commands.iter().filter(|c| calls_it(c)).count() >= 2 || commands.iter().any(|c| forks(name, c))
        }
        NodeKind::List { items } => items
            .iter()
            .any(|i| (i.operator == Some(ListOperator::Background) && runs_it(&i.command)) || forks(name, &i.command)),
        NodeKind::BraceGroup { body, .. } | NodeKind::Subshell { body, .. } => forks(name, body),
        _ => false,
    }
}

/// How deep the brackets of a text go, a quick bound taken before the parser recurses.
fn nesting(text: &str) -> usize {
    let (mut depth, mut most) = (0usize, 0usize);
    for b in text.bytes() {
        match b {
            b'(' | b'{' | b'[' | b'`' => {
                depth += 1;
                most = most.max(depth);
            }
            b')' | b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    most
}

/// How many compound commands a text opens (`if`, `while`, `until`, `for`, `case`, `select`):
/// a bound on how deep the parser could recurse through them, taken before it does.
fn compounds(text: &str) -> usize {
    text.split(|c: char| c.is_whitespace() || matches!(c, ';' | '&' | '|' | '(' | ')' | '{' | '}' | '`'))
        .filter(|w| matches!(*w, "if" | "while" | "until" | "for" | "case" | "select"))
        .count()
}

/// What the calls inside a wrapper inherit.
#[derive(Debug, Clone, Copy, Default)]
struct Context {
    remote: bool,
    elevated: bool,
    depth: usize,
    /// `DOCKER_HOST` set to another machine (`ssh://`, `tcp://`) for this command.
    docker_remote: bool,
    /// A variable set for this command names production (`RAILS_ENV=production`,
    /// `AWS_PROFILE=prod`, `DATABASE_URL=$PROD_DATABASE_URL`).
    production: bool,
    /// Inside a loop whose body is read once for each of its words: a loop inside it is read
    /// once, so nested loops cost no more than one.
    in_loop: bool,
    /// How many substitutions' output is being read around this one: `$(echo $(echo ...))`
    /// is read [`PRINTED_DEEP`] deep, since each level reads its text again.
    printing: usize,
}

impl Context {
    /// What a variable set for the command tells of where it runs: `DOCKER_HOST` on another
    /// machine, a value naming production.
    fn assign(&mut self, assignment: &str) {
        self.docker_remote |= remote_docker_host(assignment);
        self.production |= names_production(assignment);
    }
}

/// How deep substitutions inside substitutions are read for what they print: one, so
/// `$(printf rm) -rf ~` is `rm -rf ~` and a printed substitution inside it stays a word.
const PRINTED_DEEP: usize = 1;

/// Parse a text as shell code and add its calls; false when it does not parse.
/// PowerShell's code: each statement it runs, as a call, there when it runs on or changes
/// another machine. Whether it gave any call.
fn parse_powershell(code: &str, ctx: &Context, out: &mut Out) -> bool {
    let before = out.len();
    for s in super::powershell::statements(code).into_iter().take(EXPANSION_MAX) {
        let there = Context { remote: ctx.remote || s.remote, ..*ctx };
        parse_into(&super::powershell::shell_line(&s.words), &there, out);
    }
    out.len() > before
}

fn parse_into(code: &str, ctx: &Context, out: &mut Out) -> bool {
    if ctx.depth > DEPTH_MAX {
        return false;
    }
    match rable::parse(code, false) {
        Ok(nodes) => {
            walk_list(Box::new(nodes.iter()), ctx, out);
            true
        }
        Err(_) => false,
    }
}

/// Commands in sequence, a list's parts or a script's lines: what earlier parts set for later ones
/// is carried, variables (`X=rm; $X -rf ~`, `DIR=~ && rm -rf $DIR`), the directory (`cd ~ && rm
/// -rf *`) and the scripts written (`cat > x.sh <<EOF ... EOF` then `bash x.sh`). The parser nests
/// a long list (`a; b; c` is `a; (b; c)`): read as one, in order, without recursing.
fn walk_list<'a>(first: Box<dyn Iterator<Item = &'a Node> + 'a>, ctx: &Context, out: &mut Out) {
    let mut set = Set::default();
    let mut lists = vec![first];
    while let Some(list) = lists.last_mut() {
        let Some(node) = list.next() else {
            lists.pop();
            continue;
        };
        if let NodeKind::List { items } = &node.kind {
            lists.push(Box::new(items.iter().map(|i| &i.command)));
            continue;
        }
        let before = out.len();
        walk(node, ctx, out);
        if !set.is_empty() {
            for call in &mut out[before..] {
                set.apply(call);
            }
            set.reread(out, before, ctx);
            set.run_written(out, before, ctx);
        }
        set.learn(node, &out[before..], ctx);
    }
}

fn walk(node: &Node, ctx: &Context, out: &mut Out) {
    match &node.kind {
        NodeKind::Command { assignments, words, redirects } => {
            for n in assignments.iter().chain(words).chain(redirects) {
                substitutions(n, ctx, out);
            }
            // A variable naming a command the program will run (`LESSOPEN='| CMD %s' less f`,
            // `GIT_SSH_COMMAND=CMD git fetch`, `PAGER=CMD man ls`).
            if !words.is_empty() {
                for code in assignments.iter().filter_map(word).filter_map(|(w, _)| command_variable(&w)) {
                    parse_into(&code, &Context { depth: ctx.depth + 1, ..*ctx }, out);
                }
            }
            let mut ctx = *ctx;
            for (w, _) in assignments.iter().filter_map(word) {
                ctx.assign(&w);
            }
            command(words, redirects, &ctx, out);
        }
        NodeKind::Pipeline { commands, .. } => {
            // What the stage before printed, when it was a lone `echo`: code a shell after it runs.
            let mut printed: Option<String> = None;
            let reads_pipe = |call: &Call| {
                (is_shell(&call.program) && !call.args.iter().any(|a| !a.starts_with('-')))
                    || (matches!(base(&call.program), "at" | "batch") && !call.args.iter().any(|a| a == "-f"))
            };
            for (i, c) in commands.iter().enumerate() {
                let before = out.len();
                walk(c, ctx, out);
                // `echo 'curl -X DELETE ...' | sh`: the shell runs what the echo printed.
                let carried = printed.take();
                if let Some(code) = &carried
                    && out.len() == before + 1
                    && reads_pipe(&out[before])
                    && parse_into(code, &Context { depth: ctx.depth + 1, ..*ctx }, out)
                {
                    out.remove(before);
                    continue;
                }
                // `echo 'removealert -a -f' | ssh admin@array`: given no command, the remote shell
                // runs what was printed, there.
                if let Some(code) = &carried
                    && out.len() == before + 1
                    && base(&out[before].program) == "ssh"
                    && !out[before].remote
                    && ssh_command(&out[before].args.iter().map(|a| (a.clone(), false)).collect::<Vec<_>>()).is_none()
                    && parse_into(code, &Context { depth: ctx.depth + 1, remote: true, ..*ctx }, out)
                {
                    out.remove(before);
                    continue;
                }
                // `printf 'all:\n\trm -rf ~' | make -f -`: the recipes of the makefile printed.
                if let Some(text) = &carried
                    && out.len() == before + 1
                    && matches!(base(&out[before].program), "make" | "gmake")
                {
                    let args: Vec<(String, bool)> = out[before].args.iter().map(|a| (a.clone(), false)).collect();
                    if reads_makefile_from_stdin(&args) {
                        for code in recipes(text) {
                            parse_into(&code, &Context { depth: ctx.depth + 1, ..*ctx }, out);
                        }
                    }
                }
                // `echo ruok | nc zk1 2181`: what was printed is what the connection carries; `echo
                // 'DISPLAY QLOCAL(*)' | runmqsc QM`, the commands the queue manager runs (or RMAN,
                // or a control socket through `socat`); `echo 'DROP TABLE t;' | psql -h db`,
                // `printf '.LOGON ...\nSELECT ...' | bteq`, the statements a database client runs,
                // which it reads as it reads a heredoc's; SeaweedFS's `weed shell` and AutoSys's `jil`,
                // the commands and definitions they are fed.
                // Whatever the program, what was printed is kept as `printed`, for a program the
                // model has never seen.
                let mut fed = false;
                if let Some(text) = &carried
                    && out.len() == before + 1
                {
                    let clipped = crate::secret::clip(text, STDIN_MAX);
                    if (matches!(
                        base(&out[before].program),
                        "nc" | "ncat" | "netcat" | "runmqsc" | "socat" | "rman" | "weed" | "jil" | "tibemsadmin"
                    ) || (is_database_client(&out[before].program)
                        && !PIPE_UNSEEN.contains(&base(&out[before].program))))
                        && out[before].stdin_text.is_none()
                    {
                        out[before].stdin_text = Some(clipped.clone());
                        fed = true;
                    }
                    out[before].printed = Some(clipped);
                }
                // `echo ~ | xargs rm -rf`: what was printed is the arguments.
                if let Some(text) = &carried
                    && out.len() == before + 1
                    && out[before].xargs
                {
                    let call = &mut out[before];
                    if call.args.iter().any(|a| a.contains("{}")) {
                        call.args.iter_mut().for_each(|a| *a = a.replace("{}", text.trim()));
                    } else {
                        let words: Vec<String> = text.split_whitespace().map(String::from).collect();
                        call.quoted.extend(words.iter().map(|_| false));
                        call.args.extend(words);
                    }
                }
                // A shell at the end of a pipe runs what the pipe carries: unseen code.
                if i > 0 {
                    for call in &mut out[before..] {
                        if reads_pipe(call) || (is_database_client(&call.program) && !fed) {
                            call.reads_script = true;
                        }
                    }
                }
                if out.len() == before + 1 {
                    printed = prints(&out[before], carried);
                }
            }
        }
        NodeKind::List { items } => walk_list(Box::new(items.iter().map(|i| &i.command)), ctx, out),
        NodeKind::If { condition, then_body, else_body, .. } => {
            walk(condition, ctx, out);
            walk(then_body, ctx, out);
            if let Some(e) = else_body {
                walk(e, ctx, out);
            }
        }
        NodeKind::While { condition, body, .. } | NodeKind::Until { condition, body, .. } => {
            walk(condition, ctx, out);
            walk(body, ctx, out);
        }
        NodeKind::For { var, words, body, .. } | NodeKind::Select { var, words, body, .. } => {
            for w in words.iter().flatten() {
                substitutions(w, ctx, out);
            }
            // The body once for each of the first few words, the variable set to it (`for d in ~ /;
            // do rm -rf "$d"; done`); once, unset, when the words come from elsewhere or the loop
            // is inside another.
            let values: Vec<String> = match ctx.in_loop {
                true => Vec::new(),
                false => words.iter().flatten().filter_map(word).map(|(w, _)| w).take(LOOP_VALUES).collect(),
            };
            let inside = Context { in_loop: true, ..*ctx };
            if values.is_empty() {
                walk(body, &inside, out);
            }
            for value in values {
                let before = out.len();
                walk(body, &inside, out);
                let one = Set { vars: vec![(var.clone(), value)], ..Set::default() };
                for call in &mut out[before..] {
                    one.apply(call);
                }
            }
        }
        NodeKind::ForArith { body, .. } => walk(body, ctx, out),
        NodeKind::Case { word, patterns, .. } => {
            substitutions(word, ctx, out);
            for p in patterns {
                if let Some(b) = &p.body {
                    walk(b, ctx, out);
                }
            }
        }
        // A definition runs nothing: its body is kept for where it is called.
        NodeKind::Function { name, body } => {
            let mut defined = Out::default();
            walk(body, ctx, &mut defined);
            out.functions.append(&mut defined.functions);
            out.functions.push(Function { name: name.clone(), calls: defined.calls, forks: forks(name, body) });
        }
        NodeKind::Subshell { body, .. } | NodeKind::BraceGroup { body, .. } => walk(body, ctx, out),
        NodeKind::Coproc { command, .. } => walk(command, ctx, out),
        NodeKind::Negation { pipeline } | NodeKind::Time { pipeline, .. } => walk(pipeline, ctx, out),
        NodeKind::CommandSubstitution { command, .. } | NodeKind::ProcessSubstitution { command, .. } => {
            walk(command, ctx, out)
        }
        _ => {}
    }
}

/// The command and process substitutions inside a word or a redirect: they run.
fn substitutions(node: &Node, ctx: &Context, out: &mut Out) {
    match &node.kind {
        NodeKind::Word { parts, .. } => {
            for p in parts {
                substitutions(p, ctx, out);
            }
        }
        NodeKind::CommandSubstitution { command, .. } | NodeKind::ProcessSubstitution { command, .. } => {
            walk(command, ctx, out)
        }
        NodeKind::Redirect { target, .. } => substitutions(target, ctx, out),
        _ => {}
    }
}

/// A word's text with its quotes taken off, and whether it was quoted as a whole.
fn word(node: &Node) -> Option<(String, bool)> {
    match &node.kind {
        NodeKind::Word { value, .. } => Some((dequote(value), is_quoted(value))),
        _ => None,
    }
}

fn is_quoted(raw: &str) -> bool {
    let b = raw.as_bytes();
    b.len() >= 2
        && ((b[0] == b'\'' && b[b.len() - 1] == b'\'')
            || (b[0] == b'"' && b[b.len() - 1] == b'"')
            || (raw.starts_with("$'") && b[b.len() - 1] == b'\''))
}

/// Quote removal, as the shell does it to a word it has parsed. A command substitution
/// (`$(...)`, `` `...` ``) is code the shell reads again, with its own quotes: it is kept as
/// written (`$(printf '\162\155')` keeps the quotes that keep printf's escapes).
pub fn dequote(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.char_indices().peekable();
    // Copy a substitution that starts at `at` as written, and move past it.
    let substitution = |at: usize, chars: &mut std::iter::Peekable<std::str::CharIndices>, out: &mut String| {
        let end = at + substitution_end(&raw[at..]);
        out.push_str(&raw[at..end]);
        while chars.next_if(|(i, _)| *i < end).is_some() {}
    };
    while let Some((at, c)) = chars.next() {
        match c {
            '\'' => {
                for (_, c) in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    out.push(c);
                }
            }
            '"' => {
                while let Some((at, c)) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' if matches!(chars.peek(), Some((_, '"' | '\\' | '$' | '`'))) => {
                            if let Some((_, n)) = chars.next() {
                                out.push(n);
                            }
                        }
                        '$' if matches!(chars.peek(), Some((_, '('))) => substitution(at, &mut chars, &mut out),
                        '`' => substitution(at, &mut chars, &mut out),
                        c => out.push(c),
                    }
                }
            }
            '\\' => {
                if let Some((_, n)) = chars.next() {
                    out.push(n);
                }
            }
            '$' if matches!(chars.peek(), Some((_, '\''))) => {}
            '$' if matches!(chars.peek(), Some((_, '('))) => substitution(at, &mut chars, &mut out),
            '`' => substitution(at, &mut chars, &mut out),
            c => out.push(c),
        }
    }
    out
}

/// Where a command substitution that a text starts with ends: just past its `)` (nested
/// parentheses and quotes inside counted) or its closing backtick; the text's end when it is
/// not closed.
fn substitution_end(text: &str) -> usize {
    let b = text.as_bytes();
    if b.first() == Some(&b'`') {
        let mut i = 1;
        while i < b.len() {
            match b[i] {
                b'\\' => i += 2,
                b'`' => return i + 1,
                _ => i += 1,
            }
        }
        return b.len();
    }
    let (mut depth, mut i) = (0usize, 1);
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'\'' => i += b[i + 1..].iter().position(|c| *c == b'\'').map_or(b.len(), |n| n + 1),
            b'"' => {
                let mut j = i + 1;
                while j < b.len() && b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                i = j;
            }
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// The file name of a program path: `/usr/bin/git` is `git`.
pub fn base(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

/// What of a Junos command line's commands acts: all of them when a configuration is committed;
/// when none is (`configure private; load set x.set; show | compare; commit check; rollback 0`),
/// only those outside configuration mode, since the candidate it edits is thrown away.
fn junos_applied(code: &str) -> String {
    let first_words = |segment: &str| -> (String, String) {
        let mut words = segment.split_whitespace();
        (words.next().unwrap_or("").to_string(), words.next().unwrap_or("").to_string())
    };
    let segments: Vec<&str> = code.split(';').collect();
    let committed = segments.iter().any(|s| {
        let (verb, next) = first_words(s);
        verb == "commit" && next != "check"
    });
    if committed {
        return code.to_string();
    }
    const CANDIDATE: [&str; 14] = [
        "configure",
        "edit",
        "set",
        "delete",
        "load",
        "rollback",
        "commit",
        "top",
        "up",
        "exit",
        "quit",
        "activate",
        "deactivate",
        "annotate",
    ];
    segments.into_iter().filter(|s| !CANDIDATE.contains(&first_words(s).0.as_str())).collect::<Vec<_>>().join(";")
}

fn is_shell(program: &str) -> bool {
    matches!(base(program), "sh" | "bash" | "zsh" | "dash" | "ksh" | "fish")
}

/// A simple command: its wrappers taken off, then one call (or the calls of the code it runs).
fn command(words: &[Node], redirects: &[Node], ctx: &Context, out: &mut Out) {
    let mut parts: Vec<(String, bool)> = Vec::new();
    for (w, quoted) in words.iter().filter_map(word) {
        expand(w, quoted, ctx, &mut parts);
    }
    // Leading assignments the parser left among the words.
    let mut ctx = *ctx;
    while let Some((w, _)) = parts.first().filter(|(w, _)| is_assignment(w)) {
        ctx.assign(w);
        if let Some(code) = command_variable(w)
            && parts.len() > 1
        {
            parse_into(&code, &Context { depth: ctx.depth + 1, ..ctx }, out);
        }
        parts.remove(0);
    }
    let mut writes = Vec::new();
    let mut heredoc = None;
    let mut stdin_file = false;
    for r in redirects {
        match &r.kind {
            NodeKind::Redirect { op, target, .. } if op.contains('>') => {
                if let Some((t, _)) = word(target) {
                    writes.push((op.clone(), t));
                }
            }
            NodeKind::Redirect { op, .. } if op == "<" => stdin_file = true,
            // A here-string is a one-line heredoc (`sh <<< 'rm -rf ~'`).
            NodeKind::Redirect { op, target, .. } if op == "<<<" => heredoc = word(target).map(|(t, _)| t),
            NodeKind::HereDoc { content, .. } => heredoc = Some(content.clone()),
            _ => {}
        }
    }
    let mut xargs = false;
    let before = parts.len();
    unwrap(&mut parts, &mut ctx, &mut xargs);
    let unwrapped = parts.len() != before;
    let Some((program, _)) = parts.first().cloned() else {
        // Only redirections (`> ~/.gitconfig`): the null command, writing.
        if !writes.is_empty() {
            push(out, ":".into(), Vec::new(), &ctx, false, false, writes);
        }
        return;
    };
    let args: Vec<(String, bool)> = parts[1..].to_vec();
    // A quoted first word with words in it (`'Remove-DnsServerResourceRecord ... -Force' |
    // Set-Clipboard`, `"rm -rf ~" | pbcopy`) names no program: PowerShell writes the string out,
    // and a shell finds no program by that name. It is text, as an echo's is. Not a quoted path
    // to a program (`"/Applications/Visual Studio Code.app/.../code" .`), nor a command a wrapper
    // was given as one word (`tsh ssh HOST 'systemctl restart x'`), nor a word of code a program
    // runs (`parallel 'gsutil rm ...' ::: ...`): the command line's own first word only.
    if parts[0].1
        && !unwrapped
        && ctx.depth == 0
        && !program.contains(['$', '`'])
        && let Some((first, _)) = program.split_once(char::is_whitespace)
        && !first.contains(['/', '\\'])
    {
        let text = std::iter::once((program, true)).chain(args).collect();
        push(out, "echo".into(), text, &ctx, xargs, false, writes);
        return;
    }
    let name = base(&program).to_string();
    // A Docker daemon on another machine (`DOCKER_HOST=ssh://...`, `--context prod`, `-H
    // tcp://...`): what it does there is rule 4's.
    let docker =
        matches!(name.as_str(), "docker" | "podman" | "docker-compose" | "nerdctl").then(|| docker_options(&args));
    if let Some((options, _)) = &docker
        && (ctx.docker_remote || docker_elsewhere(options))
    {
        ctx.remote = true;
    }
    let inner = Context { depth: ctx.depth + 1, ..ctx };
    // Code in a string, run: its own calls.
    if is_shell(&name)
        && let Some(i) =
            args.iter().position(|(a, _)| a == "-c" || (a.starts_with('-') && !a.starts_with("--") && a.ends_with('c')))
        && let Some((code, _)) = args.get(i + 1)
    {
        parse_into(&printed_by(code, &ctx).unwrap_or_else(|| code.clone()), &inner, out);
        return;
    }
    // A network device's command line given its commands on another machine (Junos's `ssh
    // mx1 'cli -c "configure private; set ...; commit and-quit"'`): each command, there.
    if name == "cli"
        && ctx.remote
        && let [(c, _), (code, _)] = args.as_slice()
        && c == "-c"
    {
        parse_into(&junos_applied(code), &inner, out);
        return;
    }
    // PowerShell's code (`pwsh -Command '...; Remove-MgUser ...'`): each statement it runs, as a
    // call; a cmdlet of a service the code connected to runs there.
    if super::powershell::is_powershell(&name)
        && let Some(code) = super::powershell::code_of(&args)
        && parse_powershell(&code, &inner, out)
    {
        return;
    }
    if name == "eval" || (matches!(name.as_str(), "su" | "runuser") && args.iter().any(|(a, _)| a == "-c")) {
        let code: Vec<&str> = match name.as_str() {
            "su" | "runuser" => {
                args.iter().skip_while(|(a, _)| a != "-c").nth(1).map(|(a, _)| a.as_str()).into_iter().collect()
            }
            _ => args.iter().map(|(a, _)| a.as_str()).collect(),
        };
        let inner = Context { elevated: ctx.elevated || name == "su" || name == "runuser", ..inner };
        let code = code.join(" ");
        parse_into(&printed_by(&code, &ctx).unwrap_or(code), &inner, out);
        return;
    }
    // `ssh -o ProxyCommand=CMD`: CMD runs here, to reach the host.
    if name == "ssh" {
        for (i, (a, _)) in args.iter().enumerate() {
            let option = if a == "-o" { args.get(i + 1).map(|(v, _)| v.as_str()) } else { a.strip_prefix("-o") };
            if let Some(v) = option
                && v.get(..12).is_some_and(|key| key.eq_ignore_ascii_case("proxycommand"))
                && let Some(code) = v[12..].strip_prefix(['=', ' '])
            {
                parse_into(code, &inner, out);
            }
        }
    }
    // With no command, what comes in on its standard input is the remote shell's (`ssh HOST
    // <<'EOF' ... EOF`): a heredoc or a here-string fed to it runs there.
    if name == "ssh"
        && let Some(rest) = ssh_command(&args).or_else(|| heredoc.clone())
    {
        let remote = Context { remote: true, ..inner };
        let before = out.len();
        if !parse_into(&device_filter_quoted(&rest), &remote, out) {
            out.push(Call { program: "ssh".into(), remote: true, ..Call::default() });
        }
        // `ssh host bash < script.sh`: the remote shell runs a local script we cannot see.
        for call in &mut out[before..] {
            if stdin_file && (is_shell(&call.program) || is_database_client(&call.program)) {
                call.reads_script = true;
            }
        }
        return;
    }
    // `adb shell CMD`: CMD runs on the phone, another machine (settled point 51).
    if name == "adb"
        && let [(shell, _), rest @ ..] = adb_command(&args)
        && shell == "shell"
        && let Some(code) = command_in(rest)
        && parse_into(&code, &Context { remote: true, ..inner }, out)
    {
        return;
    }
    // Parallel shells: the command they run on many machines, their last operand (`pdsh -w
    // HOSTS CMD`, Triton's `sdc-oneachnode -n cn05,cn06 CMD`), `mussh -H hosts.txt -c CMD`,
    // Rundeck's `rd adhoc -F NODES -- CMD`.
    let on_many = match name.as_str() {
        "pssh" | "parallel-ssh" | "pdsh" | "clush" | "dsh" | "xdsh" | "sdc-oneachnode" => {
            args.iter().rev().find(|(a, _)| !a.starts_with('-')).map(|(code, _)| code.clone())
        }
        // `psexec \\HOST [-s] [-u USER] CMD ARGS`: CMD on that Windows machine (the shell has made
        // its `\\` one `\`).
        "psexec" | "psexec.exe" | "psexec64" | "psexec64.exe" | "paexec" => {
            // Its options that take a value, in either case.
            const VALUED: [&str; 12] = ["-u", "-U", "-p", "-P", "-w", "-W", "-n", "-N", "-r", "-R", "-a", "-A"];
            let host = args.iter().position(|(a, _)| a.starts_with('\\'));
            host.map(|h| requote(args.get(past_options(&args, h + 1, &VALUED)..).unwrap_or_default()))
                .filter(|code| !code.is_empty())
        }
        "mussh" => option_values(&args, &["-c"]).into_iter().next(),
        "rd" if args.first().is_some_and(|(a, _)| a == "adhoc") => args
            .iter()
            .position(|(a, _)| a == "--")
            .map(|dash| requote(&args[dash + 1..]))
            .filter(|code| !code.is_empty()),
        _ => None,
    };
    if let Some(code) = on_many
        && parse_into(&code, &Context { remote: true, ..inner }, out)
    {
        return;
    }
    // `salt TARGET cmd.run 'CMD'`: the command, on every minion the target names.
    if matches!(name.as_str(), "salt" | "salt-ssh")
        && let Some(f) =
            args.iter().position(|(a, _)| matches!(a.as_str(), "cmd.run" | "cmd.shell" | "cmd.exec_code_all"))
        && let Some((code, _)) = args.get(f + 1)
        && parse_into(code, &Context { remote: true, ..inner }, out)
    {
        return;
    }
    // Not a run that only lists its hosts, checks its syntax or runs in check mode, where
    // `command`, `shell` and `raw` are skipped (`ansible all -a reboot --list-hosts`).
    if name == "ansible"
        && matches!(ansible_module(&args), None | Some("shell" | "command" | "raw"))
        && !args.iter().any(|(a, _)| ansible_runs_nothing(a))
        && let Some(i) = args.iter().position(|(a, _)| a == "-a" || a == "--args")
        && let Some((code, _)) = args.get(i + 1)
        && parse_into(code, &Context { remote: true, ..inner }, out)
    {
        return;
    }
    // Cloud CLIs that run a shell command on a machine: `gcloud compute ssh HOST --command CMD`,
    // `az vm run-command invoke ... --scripts CMD...`, `aws ssm send-command --document-name
    // AWS-RunShellScript --parameters commands=CMD` (or `'commands=["CMD", ...]'`).
    if let Some(code) = cloud_command(&name, &args)
        && parse_into(&code, &Context { remote: true, ..inner }, out)
    {
        return;
    }
    // `kubectl exec POD -- CMD`, and `kubectl debug node/NAME -- CMD`, in a pod or on a node;
    // kubectl's own options may come first (`kubectl -n cache --context prod exec POD -- CMD`).
    // OpenShift's `oc` is kubectl with more: `oc exec`, `oc debug node/NAME -- chroot /host CMD`.
    let kube = matches!(name.as_str(), "kubectl" | "oc");
    let kube_at = if kube { kubectl_subcommand(&args) } else { 0 };
    let kube_sub = |word: &str| kube && args.get(kube_at).is_some_and(|(a, _)| a == word);
    // In a cluster this machine runs (`--context kind-dev`), CMD is judged as run here (settled
    // point 22), as in a local container.
    let local = kube && names_local_cluster(&args.iter().map(|(a, _)| a.clone()).collect::<Vec<_>>());
    if (kube_sub("exec") || kube_sub("debug"))
        && let Some(dash) = args.iter().position(|(a, _)| a == "--")
    {
        let rest = requote(&args[dash + 1..]);
        let remote = Context { remote: !local, ..inner };
        if !rest.is_empty() && parse_into(&rest, &remote, out) {
            return;
        }
    }
    // `oc rsh POD CMD`: OpenShift's shell in a pod, CMD its command (with no CMD, a session).
    if name == "oc" && kube_sub("rsh") {
        let at = past_options(&args, kube_at + 1, &["-c", "--container", "-n", "--namespace", "--shell"]);
        let rest = requote(args.get(at + 1..).unwrap_or_default());
        if !rest.is_empty() && parse_into(&rest, &Context { remote: !local, ..inner }, out) {
            return;
        }
    }
    // `kubectl run NAME --image=X -- CMD`, `kubectl create job NAME --image=X -- CMD`: CMD runs in
    // the cluster; the call that creates the pod or job is judged too.
    if (kube_sub("run") || kube_sub("create") && args.get(kube_at + 1).is_some_and(|(a, _)| a == "job"))
        && let Some(dash) = args.iter().position(|(a, _)| a == "--")
    {
        let rest = requote(&args[dash + 1..]);
        if !rest.is_empty() {
            parse_into(&rest, &Context { remote: !local, ..inner }, out);
        }
    }
    // `adb shell CMD`: a phone or board on USB is another machine (settled point 51).
    if name == "adb"
        && let Some(at) = args.iter().position(|(a, _)| a == "shell")
        && at + 1 < args.len()
        && parse_into(&requote(&args[at + 1..]), &Context { remote: true, ..inner }, out)
    {
        return;
    }
    // Local containers are this machine: what runs in one is judged as run here (and what
    // runs in one on another machine's daemon, there). Docker's own options may come first.
    // `docker compose exec SERVICE CMD` (`docker-compose exec`) too: a container of the project.
    let sub = docker.as_ref().and_then(|(_, at)| *at).map(|at| at + usize::from(args[at].0 == "compose"));
    // `docker compose run SERVICE CMD` too, a one-off container of the project's service, unless
    // it binds this machine's directories (below).
    let binds = |at: usize| args[at..].iter().any(|(a, _)| a == "-v" || a.starts_with("--volume"));
    let compose = |at: usize| ((at > 0 && args[at - 1].0 == "compose") || name == "docker-compose") && !binds(at);
    if let Some(at) = sub
        && args.get(at).is_some_and(|(a, _)| a == "exec" || (a == "run" && compose(at)))
        && let Some(rest) = container_command(&args[at + 1..])
        && parse_into(&rest, &inner, out)
    {
        return;
    }
    // `docker run [options] IMAGE CMD` (`podman`, `docker container run`): what runs in a new
    // container goes with it, but under a writable bind mount of this machine's directories
    // (`-v /:/host`) it changes them, and a privileged container's devices are this machine's.
    // The calls that reach them are judged as run here, on this machine's paths; the `docker
    // run` call itself stays.
    if let Some(at) = sub
        && let Some((code, views)) = container_run(&args[at..])
    {
        let mut inside = Out::default();
        if parse_into(&code, &Context { elevated: true, ..inner }, &mut inside) {
            out.extend(inside.calls.into_iter().filter_map(|mut call| to_host(&mut call, &views).then_some(call)));
        }
    }
    // `chroot [--userspec=U] NEWROOT CMD` (`arch-chroot`): the command, as root, on the paths under the new root.
    if (name == "chroot" || name == "arch-chroot")
        && let Some(at) = args.iter().position(|(a, _)| !a.starts_with('-'))
        && at + 1 < args.len()
    {
        let mut inside = Out::default();
        if parse_into(&requote(&args[at + 1..]), &Context { elevated: true, ..inner }, &mut inside) {
            let views = [("/".to_string(), args[at].0.clone())];
            for mut call in inside.calls {
                to_host(&mut call, &views);
                out.push(call);
            }
            return;
        }
    }
    // AppleScript's `do shell script "CMD"` (and JavaScript's `doShellScript("CMD")`) run by
    // `osascript -e`: the command, as root when it asks `with administrator privileges`.
    if name == "osascript" {
        for (code, admin) in apple_shell_scripts(&args) {
            parse_into(&code, &Context { elevated: ctx.elevated || admin, ..inner }, out);
        }
    }
    if name == "find" {
        // From a home or the root, every file found, picked by nothing: `-exec rm -rf {} +` there
        // deletes all of it, as `rm -rf START/*` would.
        let start = args.first().map(|(a, _)| a.as_str()).filter(|a| !a.starts_with('-'));
        // `-perm` picks too; the rule facts' `find -delete` does not count it (yet).
        let picked = args.iter().any(|(a, _)| FIND_PICKS.contains(&a.as_str()) || a == "-perm");
        let whole =
            start.filter(|s| !picked && (matches!(*s, "/" | "~" | "~/" | "$HOME" | "${HOME}") || is_home_dir(s)));
        let mut kept = Vec::new();
        let mut i = 0;
        while i < args.len() {
            let a = &args[i].0;
            if matches!(a.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
                let end =
                    args[i + 1..].iter().position(|(x, _)| x == ";" || x == "+").map_or(args.len(), |e| i + 1 + e);
                let inner_words: Vec<String> = args[i + 1..end]
                    .iter()
                    .map(|(x, _)| match whole {
                        Some(start) if x == "{}" => format!("{}/*", quote(start.trim_end_matches('/'))),
                        _ => quote(x),
                    })
                    .collect();
                if !inner_words.is_empty() {
                    parse_into(&inner_words.join(" "), &inner, out);
                }
                kept.push((a.clone(), false));
                i = end + 1;
                continue;
            }
            kept.push(args[i].clone());
            i += 1;
        }
        push(out, program, kept, &ctx, xargs, false, writes);
        return;
    }
    let reads_script = is_shell(&name) && heredoc.is_some() && !args.iter().any(|(a, _)| !a.starts_with('-'));
    if reads_script && let Some(code) = &heredoc {
        // A heredoc fed to a shell is code we can read.
        if parse_into(code, &inner, out) {
            return;
        }
    }
    // Code an interpreter runs inline: what it runs, deletes or sends (settled point 52).
    if let Some((lang, code)) = super::inline::code_of(&name, &args) {
        for run in super::inline::commands(lang, code) {
            parse_into(&run, &inner, out);
        }
    }
    // Programs that run a command given them as text (`tmux new-session -d 'CMD'`, `hyperfine
    // CMD`, `at now <<< CMD`, ...): judged as run; their own call stays.
    for (code, remote) in runs_code(&name, &args, heredoc.as_deref()).into_iter().take(EXPANSION_MAX) {
        parse_into(&code, &Context { remote: ctx.remote || remote, ..inner }, out);
    }
    let reads = (is_database_client(&name) || is_shell(&name)) && (stdin_file || heredoc.is_some());
    // A phone or board on USB is another machine (settled point 51): what changes it runs there.
    ctx.remote |= changes_device(&name, &args);
    let at = out.len();
    push(out, program, args, &ctx, xargs, reads, writes);
    out[at].stdin_text = heredoc.map(|h| crate::secret::clip(&h, STDIN_MAX));
}

/// The most words one word expands into (`{a,b}{c,d}...`), and the most words a call may have
/// before its words are no longer expanded (a long list of braces stays its size).
const EXPANSION_MAX: usize = 64;
const EXPANDED_WORDS_MAX: usize = 1024;

/// The words the shell makes of one unquoted word before it runs anything: a substitution whose
/// output can be known is split into its words (`$(printf rm) -rf ~`, `` `echo rm` ``), and a
/// brace expansion into its alternatives (`{rm,-rf,~}`, `~/{.ssh,.gnupg}`).
fn expand(w: String, quoted: bool, ctx: &Context, out: &mut Vec<(String, bool)>) {
    if out.len() >= EXPANDED_WORDS_MAX {
        out.push((w, quoted));
        return;
    }
    // A substitution whose output can be known (none for any other word). Quoted, it is one
    // word (`"$(printf rm)" -rf ~`); else the words it splits into.
    if let Some(text) = printed_by(&w, ctx) {
        if quoted {
            out.push((text.trim_end_matches('\n').to_string(), true));
        } else {
            out.extend(text.split_whitespace().map(|t| (t.to_string(), false)));
        }
        return;
    }
    if quoted {
        out.push((w, quoted));
        return;
    }
    // Each word in turn, replaced by its alternatives while they fit; those are read again.
    let mut words = vec![w];
    let mut i = 0;
    while i < words.len() {
        let made: Vec<String> = match brace(&words[i]) {
            None => {
                i += 1;
                continue;
            }
            Some((head, alternatives, tail)) if words.len() - 1 + alternatives.len() <= EXPANSION_MAX => {
                alternatives.iter().map(|a| format!("{head}{a}{tail}")).collect()
            }
            Some(_) => break,
        };
        words.splice(i..=i, made);
    }
    out.extend(words.into_iter().map(|w| (w, false)));
}

/// The first brace expansion in a word: what comes before it, its alternatives (split at its
/// own commas), what comes after. `${VAR}`, `{}` and a brace with no comma are not one.
fn brace(w: &str) -> Option<(&str, Vec<&str>, &str)> {
    let b = w.as_bytes();
    let mut start = 0;
    while let Some(open) = w[start..].find('{').map(|i| i + start) {
        start = open + 1;
        if open > 0 && b[open - 1] == b'$' {
            continue;
        }
        let (mut depth, mut commas) = (0usize, Vec::new());
        for (i, c) in w[open..].char_indices().map(|(i, c)| (i + open, c)) {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        if commas.is_empty() {
                            break;
                        }
                        let mut alternatives = Vec::new();
                        let mut from = open + 1;
                        for comma in commas.iter().chain(std::iter::once(&i)) {
                            alternatives.push(&w[from..*comma]);
                            from = comma + 1;
                        }
                        return Some((&w[..open], alternatives, &w[i + 1..]));
                    }
                }
                ',' if depth == 1 => commas.push(i),
                _ => {}
            }
        }
    }
    None
}

/// Where an `echo`'s or `printf`'s operands begin, after its own options (`echo -n`): what it
/// prints, from there on, is data.
pub fn first_operand(args: &[String]) -> usize {
    args.iter().position(|a| !(a.len() > 1 && a.starts_with('-'))).unwrap_or(args.len())
}

/// What `printf FORMAT ARGS...` prints, before its escapes: each conversion (`%s`, `%-10s`, `%d`)
/// given the next argument, the format used again while arguments are left, as printf does.
fn printf_text(format: &str, args: &[String]) -> String {
    let mut out = String::new();
    let mut args = args.iter();
    loop {
        let mut converted = false;
        let mut chars = format.chars();
        while let Some(c) = chars.next() {
            if c != '%' {
                out.push(c);
                continue;
            }
            match chars.by_ref().find(|c| !matches!(c, '-' | '+' | ' ' | '#' | '.' | '0'..='9')) {
                Some('%') => out.push('%'),
                Some(_) => {
                    out.push_str(args.next().map_or("", String::as_str));
                    converted = true;
                }
                None => out.push('%'),
            }
        }
        if !converted || args.len() == 0 {
            return out;
        }
    }
}

/// What a pipeline stage prints when it can be known: a lone `echo`'s words, or what came in
/// decoded by `base64 -d` (settled point 53).
fn prints(call: &Call, carried: Option<String>) -> Option<String> {
    let decodes = |a: &String| matches!(a.as_str(), "-d" | "--decode" | "-D" | "-di" | "-id");
    // What it reads: the pipe, or a here-string (`base64 -d <<< B64`).
    let input = carried.or_else(|| call.stdin_text.clone());
    match base(&call.program) {
        "echo" => Some(call.args[first_operand(&call.args)..].join(" ")),
        // `printf 'rm -rf ~'`, `printf '%s\n' 'rm -rf ~'`, `printf '.LOGON %s\nDROP TABLE t;' "$U"`:
        // what it formats.
        "printf" => {
            let operands = &call.args[first_operand(&call.args)..];
            let (format, rest) = operands.split_first()?;
            Some(unescape(&printf_text(format, rest)))
        }
        "base64" if call.args.iter().any(decodes) && call.args.iter().all(|a| a.starts_with('-')) => {
            base64_decode(&input?)
        }
        // Decoders a guard is tested with: `rev`, `tr 'a-z' 'n-za-m'` (rot13), `xxd -r -p`.
        "rev" if call.args.is_empty() => {
            Some(input?.lines().map(|l| l.chars().rev().collect::<String>()).collect::<Vec<_>>().join("\n"))
        }
        "tr" => match call.args.as_slice() {
            [from, to] => {
                let (from, to) = (tr_set(from), tr_set(to));
                let last = *to.last()?;
                Some(
                    input?
                        .chars()
                        .map(|c| from.iter().position(|f| *f == c).map_or(c, |i| *to.get(i).unwrap_or(&last)))
                        .collect(),
                )
            }
            _ => None,
        },
        "xxd" if call.args.iter().any(|a| a == "-r") && call.args.iter().any(|a| a == "-p" || a == "-ps") => {
            let hex: Vec<u8> = input?.bytes().filter(u8::is_ascii_hexdigit).collect();
            let bytes: Option<Vec<u8>> =
                hex.chunks(2).map(|pair| u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()).collect();
            String::from_utf8(bytes?).ok()
        }
        _ => None,
    }
}

/// A `tr` set with its ranges spelled out (`a-z`); at most 256 characters.
fn tr_set(set: &str) -> Vec<char> {
    let chars: Vec<char> = set.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() && out.len() < 256 {
        if i + 2 < chars.len() && chars[i + 1] == '-' && chars[i] <= chars[i + 2] {
            out.extend((chars[i]..=chars[i + 2]).take(256));
            i += 3;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// `printf`'s escapes: `\n`, `\t`, `\\`, octal `\NNN` and hex `\xHH`.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.peek().copied() {
            Some('n') => {
                chars.next();
                out.push('\n');
            }
            Some('t') => {
                chars.next();
                out.push('\t');
            }
            Some('\\') => {
                chars.next();
                out.push('\\');
            }
            Some('x') => {
                chars.next();
                let digits: String = std::iter::from_fn(|| chars.next_if(char::is_ascii_hexdigit)).take(2).collect();
                out.extend(u32::from_str_radix(&digits, 16).ok().and_then(char::from_u32));
            }
            Some('0'..='7') => {
                let digits: String =
                    std::iter::from_fn(|| chars.next_if(|c| ('0'..='7').contains(c))).take(3).collect();
                out.extend(u32::from_str_radix(&digits, 8).ok().and_then(char::from_u32));
            }
            _ => out.push('\\'),
        }
    }
    out
}

/// The text a `$(...)` or `` `...` `` prints, when it is a pipe of an `echo` and decoders
/// (`bash -c "$(echo B64 | base64 -d)"`).
fn printed_by(code: &str, ctx: &Context) -> Option<String> {
    if ctx.printing >= PRINTED_DEEP {
        return None;
    }
    let code = code.trim();
    let inner = code
        .strip_prefix("$(")
        .and_then(|c| c.strip_suffix(')'))
        .or_else(|| code.strip_prefix('`')?.strip_suffix('`'))?;
    let mut calls = Out::default();
    if !parse_into(inner, &Context { depth: ctx.depth + 1, printing: ctx.printing + 1, ..*ctx }, &mut calls) {
        return None;
    }
    calls.iter().try_fold(None, |text, c| prints(c, text).map(Some)).flatten()
}

/// Standard base64 (padding and whitespace optional) as UTF-8 text; none when it is not.
fn base64_decode(text: &str) -> Option<String> {
    let mut bits = 0u32;
    let mut count = 0u32;
    let mut bytes = Vec::with_capacity(text.len() * 3 / 4);
    for c in text.bytes().filter(|c| !c.is_ascii_whitespace() && *c != b'=') {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        };
        bits = (bits << 6) | u32::from(v);
        count += 6;
        if count >= 8 {
            count -= 8;
            bytes.push((bits >> count) as u8);
            bits &= (1 << count) - 1;
        }
    }
    String::from_utf8(bytes).ok().filter(|s| !s.is_empty())
}

/// The `find` predicates that pick files by name, pattern, age, size or owner (settled point 19).
pub const FIND_PICKS: [&str; 12] =
    ["-name", "-iname", "-path", "-ipath", "-regex", "-mtime", "-mmin", "-atime", "-size", "-newer", "-user", "-empty"];

/// A home directory itself: `/home/alice`, `/Users/alice`, `/root`.
fn is_home_dir(path: &str) -> bool {
    let p = path.trim_end_matches('/');
    p == "/root"
        || ["/home/", "/Users/"].iter().any(|h| p.strip_prefix(h).is_some_and(|u| !u.is_empty() && !u.contains('/')))
}

/// A `DOCKER_HOST=` assignment naming another machine.
/// Whether an assignment's value names production: a word of it (split at anything not a letter
/// or digit) is `prod` or `production` (`RAILS_ENV=production`, `AWS_PROFILE=prod`,
/// `DATABASE_URL="$PROD_DATABASE_URL"`; not `APP_ENV=preprod` or `RAILS_ENV=development`).
fn names_production(assignment: &str) -> bool {
    assignment.split_once('=').is_some_and(|(_, value)| {
        value
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| w.eq_ignore_ascii_case("prod") || w.eq_ignore_ascii_case("production"))
    })
}

fn remote_docker_host(assignment: &str) -> bool {
    assignment.strip_prefix("DOCKER_HOST=").is_some_and(|h| {
        let h = h.trim_matches(['"', '\'']);
        h.starts_with("ssh://") || (h.starts_with("tcp://") && !h.contains("localhost") && !h.contains("127.0.0.1"))
    })
}

/// Docker's own options that take a value.
const DOCKER_VALUED: [&str; 7] = ["--context", "-c", "--host", "-H", "--config", "-l", "--log-level"];

/// `docker`'s own options, before its subcommand, each with its value (glued, `--context=prod`,
/// or the next word for one of [`DOCKER_VALUED`]; else empty), and where the subcommand is
/// (`docker --context prod exec ...`).
fn docker_options(args: &[(String, bool)]) -> (Vec<(&str, &str)>, Option<usize>) {
    let mut options = Vec::new();
    let mut i = 0;
    while let Some((a, _)) = args.get(i) {
        if !a.starts_with('-') {
            return (options, Some(i));
        }
        match a.split_once('=') {
            Some(glued) => options.push(glued),
            None if DOCKER_VALUED.contains(&a.as_str()) => {
                options.push((a, args.get(i + 1).map_or("", |(v, _)| v.as_str())));
                i += 1;
            }
            None => options.push((a, "")),
        }
        i += 1;
    }
    (options, None)
}

/// Whether `docker`'s own options name another machine's daemon: a `--context` (`-c`) other
/// than the local ones, or a `--host` (`-H`) that is not a local socket.
fn docker_elsewhere(options: &[(&str, &str)]) -> bool {
    const LOCAL: [&str; 6] = ["default", "desktop-linux", "colima", "rootless", "orbstack", "local"];
    options.iter().any(|(flag, v)| match *flag {
        "--context" | "-c" => !LOCAL.contains(v),
        "--host" | "-H" => {
            !(v.starts_with("unix://")
                || v.starts_with("npipe://")
                || v.contains("localhost")
                || v.contains("127.0.0.1"))
        }
        _ => false,
    })
}

fn push(
    out: &mut Vec<Call>,
    program: String,
    args: Vec<(String, bool)>,
    ctx: &Context,
    xargs: bool,
    reads_script: bool,
    writes: Vec<(String, String)>,
) {
    let (args, quoted) = args.into_iter().unzip();
    out.push(Call {
        program,
        args,
        quoted,
        remote: ctx.remote,
        elevated: ctx.elevated,
        production: ctx.production,
        xargs,
        reads_script,
        writes,
        stdin_text: None,
        printed: None,
        forks_itself: false,
    });
}

/// The clients of a Kubernetes cluster that name it by a kubeconfig context.
const KUBE_CLIENTS: [&str; 6] = ["kubectl", "oc", "helm", "helmfile", "skaffold", "kustomize"];

/// Whether a call is a cluster client's, aimed by its context at a cluster this machine runs
/// (`kubectl apply -f k8s/ --context kind-dev`, `helm install ... --kube-context minikube`):
/// settled point 22's local cluster, this machine. A call that names no context is aimed at
/// whatever the kubeconfig's current one is, which the command does not show.
pub fn in_local_cluster(call: &Call) -> bool {
    KUBE_CLIENTS.contains(&base(&call.program)) && names_local_cluster(&call.args)
}

/// Whether a cluster client's options name a local cluster's context: kind's and k3d's
/// (`kind-NAME`, `k3d-NAME`), minikube's, Docker Desktop's, Rancher Desktop's, Colima's,
/// OrbStack's and MicroK8s' (their defaults), by `--context`, `--kube-context` or
/// `--kubecontext`, and no other context or server beside it.
fn names_local_cluster(args: &[String]) -> bool {
    const OPTIONS: [&str; 3] = ["--context", "--kube-context", "--kubecontext"];
    let local = |v: &str| {
        v.starts_with("kind-")
            || v.starts_with("k3d-")
            || matches!(
                v,
                "minikube"
                    | "docker-desktop"
                    | "docker-for-desktop"
                    | "rancher-desktop"
                    | "colima"
                    | "orbstack"
                    | "microk8s"
            )
    };
    let mut contexts = Vec::new();
    for (i, a) in args.iter().enumerate() {
        if let Some((option, value)) = a.split_once('=')
            && OPTIONS.contains(&option)
        {
            contexts.push(value);
        } else if OPTIONS.contains(&a.as_str())
            && let Some(value) = args.get(i + 1)
        {
            contexts.push(value);
        } else if matches!(a.as_str(), "--server" | "-s" | "--kubeconfig") || a.starts_with("--server=") {
            return false;
        }
    }
    !contexts.is_empty() && contexts.iter().all(|v| local(v))
}

/// Where kubectl's subcommand is, past its own options and their values (`-n cache`,
/// `--context prod-use1`, `--kubeconfig=~/.kube/x`).
fn kubectl_subcommand(args: &[(String, bool)]) -> usize {
    const VALUED: [&str; 12] = [
        "-n",
        "--namespace",
        "--context",
        "--kubeconfig",
        "--cluster",
        "--user",
        "-s",
        "--server",
        "--as",
        "--token",
        "--request-timeout",
        "-v",
    ];
    past_options(args, 0, &VALUED)
}

/// A kubectl or oc call whose own options come before its subcommand (`kubectl -n mimir scale
/// statefulset ingester --replicas=0`), with those options moved to the end of its words, before a
/// `--` and the command after it: the order the rows it was trained on mostly write
/// (`kubectl scale statefulset ingester -n mimir --replicas=0`), where the namespace is not read
/// as the subcommand. None for a call whose subcommand comes first.
pub fn kubectl_options_last(call: &Call) -> Option<Call> {
    if !matches!(base(&call.program), "kubectl" | "oc") {
        return None;
    }
    let quoted = |i: usize| call.quoted.get(i).copied().unwrap_or(false);
    let pairs: Vec<(String, bool)> = call.args.iter().enumerate().map(|(i, a)| (a.clone(), quoted(i))).collect();
    let at = kubectl_subcommand(&pairs);
    if at == 0 || at >= pairs.len() {
        return None;
    }
    let end = pairs.iter().position(|(a, q)| a == "--" && !q).filter(|&e| e > at).unwrap_or(pairs.len());
    let order = (at..end).chain(0..at).chain(end..pairs.len());
    let (args, quoted) = order.map(|i| pairs[i].clone()).unzip();
    Some(Call { args, quoted, ..call.clone() })
}

/// Whether a `juju run` names the units, applications or machines it runs a command on (Juju 2's
/// form); Juju 3's `run UNIT ACTION` runs a charm's action, which is not shown.
pub fn juju_run_targets<'a>(args: impl IntoIterator<Item = &'a str>) -> bool {
    args.into_iter().any(|a| {
        let name = a.split('=').next().unwrap_or(a);
        matches!(name, "--unit" | "-u" | "--application" | "--app" | "-a" | "--machine" | "--all")
    })
}

/// Where a program's own options end, from `at` on: each in `valued` takes the next word as its
/// value (`adb -s SERIAL shell`, `kubectl -n cache exec`, `heroku run -a app CMD`).
fn past_options(args: &[(String, bool)], mut at: usize, valued: &[&str]) -> usize {
    while let Some((a, _)) = args.get(at).filter(|(a, _)| a.starts_with('-')) {
        at += if valued.contains(&a.as_str()) { 2 } else { 1 };
    }
    at
}

/// The shell code a cloud CLI runs on a machine it names ([`parse_into`]'s remote wrappers), as
/// one script: `gcloud compute ssh`'s `--command`, `az aks command invoke`'s `--command`, `az vm
/// run-command invoke`'s `--scripts` (each value a line), and the `commands` of `aws ssm
/// send-command` with the shell document (a list is its lines).
fn cloud_command(name: &str, args: &[(String, bool)]) -> Option<String> {
    let sub = |k: usize, word: &str| args.get(k).is_some_and(|(a, _)| a == word);
    let value = |flag: &str| option_values(args, &[flag]).into_iter().next();
    match name {
        "gcloud" if sub(0, "compute") && sub(1, "ssh") => value("--command"),
        // `gcloud composer environments run ENV [--location L] dags trigger -- ARGS`: the Airflow
        // command, run in the environment.
        "gcloud" if sub(0, "composer") && sub(1, "environments") && sub(2, "run") => {
            let mut words = vec!["airflow".to_string()];
            let mut rest = args.iter().skip(4).map(|(a, _)| a.as_str());
            while let Some(a) = rest.next() {
                match a {
                    "--location" | "--project" | "--impersonate-service-account" => {
                        rest.next();
                    }
                    "--" => {}
                    _ if a.starts_with("--location=") || a.starts_with("--project=") => {}
                    _ => words.push(quote(a)),
                }
            }
            (words.len() > 1).then(|| words.join(" "))
        }
        // `az aks command invoke ... --command "kubectl ..."` runs in the cluster.
        "az" if sub(0, "aks") && sub(1, "command") && sub(2, "invoke") => value("--command"),
        // `aws ecs execute-command ... --command "CMD"` runs CMD in a task's container.
        "aws" if sub(0, "ecs") && sub(1, "execute-command") => value("--command"),
        "az" if sub(0, "vm") && sub(1, "run-command") && sub(2, "invoke") => {
            let at = args.iter().position(|(a, _)| a == "--scripts")?;
            let lines: Vec<&str> =
                args[at + 1..].iter().map(|(a, _)| a.as_str()).take_while(|a| !a.starts_with("--")).collect();
            (!lines.is_empty()).then(|| lines.join("\n"))
        }
        "aws" if sub(0, "ssm") && sub(1, "send-command") => {
            let document = value("--document-name")?;
            if document != "AWS-RunShellScript" {
                return None;
            }
            let commands = value("--parameters")?.strip_prefix("commands=")?.to_string();
            match serde_json::from_str::<Vec<String>>(&commands) {
                Ok(lines) => Some(lines.join("\n")),
                Err(_) => Some(commands),
            }
        }
        _ => None,
    }
}

/// The most bind mounts of one `docker run` that are read.
const VIEWS_MAX: usize = 64;

/// What `docker run` (or `docker container run`, `docker compose run SERVICE`) would run in its
/// new container, and the directories of this machine the container can change, each as (inside,
/// here): writable bind
/// mounts (`-v /:/host`, `-v "$PWD":/src`, `--mount type=bind,source=/,target=/host`), `/dev`
/// when it is privileged or given a device, and all of it when it is privileged with this
/// machine's processes (`--privileged --pid=host`). None when it runs the image's own command, or
/// reaches nothing of this machine.
fn container_run(args: &[(String, bool)]) -> Option<(String, Vec<(String, String)>)> {
    let args = match args {
        [(run, _), rest @ ..] if run == "run" => rest,
        [(container, _), (run, _), rest @ ..] if container == "container" && run == "run" => rest,
        _ => return None,
    };
    // Options that take no value; every other option takes one, glued (`--name=x`, `-p8080:80`)
    // or as the next word.
    const FLAGS: [&str; 21] = [
        "--no-deps",
        "--service-ports",
        "--use-aliases",
        "--build",
        "--quiet-pull",
        "--remove-orphans",
        "--no-TTY",
        "--rm",
        "--detach",
        "--interactive",
        "--tty",
        "--privileged",
        "--init",
        "--read-only",
        "--publish-all",
        "--quiet",
        "--no-healthcheck",
        "--oom-kill-disable",
        "--disable-content-trust",
        "--replace",
        "--help",
    ];
    let mut views = Vec::new();
    let (mut privileged, mut devices, mut host_pids) = (false, false, false);
    let mut entrypoint = None;
    let mut i = 0;
    while let Some((a, _)) = args.get(i) {
        i += 1;
        if a == "--" {
            break;
        }
        if !a.starts_with('-') || a == "-" {
            i -= 1;
            break;
        }
        // The option's name and, when glued, its value: `--volume=/:/host`, `-v/:/host`, `-itv`.
        let (name, glued) = match (a.strip_prefix("--"), a.split_once('=')) {
            (Some(_), Some((n, v))) => (n.to_string(), Some(v.to_string())),
            (Some(_), None) => (a.clone(), None),
            (None, _) => match a[1..].char_indices().find(|(_, c)| !"ditPT".contains(*c)) {
                None => continue, // `-it`, `-d`: no value
                Some((k, letter)) => {
                    let rest = &a[1 + k + letter.len_utf8()..];
                    (format!("-{letter}"), (!rest.is_empty()).then(|| rest.to_string()))
                }
            },
        };
        if FLAGS.contains(&name.as_str()) || (name == "--sig-proxy" && glued.is_none()) {
            privileged |= name == "--privileged";
            continue;
        }
        let value = match glued {
            Some(v) => v,
            None => {
                i += 1;
                args.get(i - 1).map(|(v, _)| v.clone()).unwrap_or_default()
            }
        };
        match name.as_str() {
            // A hostile list of thousands is read for its first few.
            "-v" | "--volume" if views.len() < VIEWS_MAX => views.extend(bind_of_volume(&value)),
            "--mount" if views.len() < VIEWS_MAX => views.extend(bind_of_mount(&value)),
            "--device" => devices = true,
            "--pid" => host_pids = value == "host",
            "--entrypoint" => entrypoint = Some(value),
            _ => {}
        }
    }
    // Privileged with this machine's processes, it can enter their namespaces (`nsenter -t 1
    // -m`): every path may be this machine's. Privileged or given a device, `/dev` is.
    if privileged && host_pids {
        views.push(("/".to_string(), "/".to_string()));
    } else if privileged || devices {
        views.push(("/dev".to_string(), "/dev".to_string()));
    }
    // The image, then its command.
    let words: Vec<String> = entrypoint.into_iter().chain(args.get(i + 1..)?.iter().map(|(a, _)| a.clone())).collect();
    if words.is_empty() || views.is_empty() {
        return None;
    }
    Some((words.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" "), views))
}

/// A `-v SRC:DST[:OPTIONS]` that binds a directory of this machine, writable: (DST, SRC). A named
/// volume (`data:/var/lib/x`) is not a path here; `$PWD` and `$(pwd)` are the project, `.`.
fn bind_of_volume(spec: &str) -> Option<(String, String)> {
    let mut parts = spec.splitn(3, ':');
    let (source, target) = (parts.next()?, parts.next()?);
    let read_only = parts.next().is_some_and(|o| o.split(',').any(|o| o == "ro" || o == "readonly"));
    host_view(source, target, read_only)
}

/// A `--mount type=bind,source=SRC,target=DST[,readonly]`: (DST, SRC).
fn bind_of_mount(spec: &str) -> Option<(String, String)> {
    let (mut bind, mut source, mut target, mut read_only) = (false, None, None, false);
    for field in spec.split(',') {
        let (key, value) = field.split_once('=').unwrap_or((field, "true"));
        match key {
            "type" => bind = value == "bind",
            "source" | "src" => source = Some(value),
            "target" | "dst" | "destination" => target = Some(value),
            "readonly" | "ro" => read_only = value != "false" && value != "0",
            _ => {}
        }
    }
    if !bind {
        return None;
    }
    host_view(source?, target?, read_only)
}

fn host_view(source: &str, target: &str, read_only: bool) -> Option<(String, String)> {
    let source = match source {
        "$PWD" | "${PWD}" | "$(pwd)" | "`pwd`" => ".",
        s if s.starts_with(['/', '.', '~', '$']) => s,
        _ => return None,
    };
    (!read_only && target.starts_with('/')).then(|| (target.to_string(), source.to_string()))
}

/// Reads a call's paths back from inside a container or a chroot to this machine's: each
/// argument and redirect target under one of `views`' inside directories (the longest that holds
/// it) becomes the same path under that view's directory here. Whether any did.
fn to_host(call: &mut Call, views: &[(String, String)]) -> bool {
    let here = |path: &str| -> Option<String> {
        let (inside, dir) = views
            .iter()
            .map(|(inside, dir)| (inside.trim_end_matches('/'), dir.trim_end_matches('/')))
            .filter(|(inside, _)| {
                path == *inside || (path.starts_with(*inside) && path[inside.len()..].starts_with('/'))
            })
            .max_by_key(|(inside, _)| inside.len())?;
        let moved = format!("{dir}{}", &path[inside.len()..]);
        Some(if moved.is_empty() { "/".to_string() } else { moved })
    };
    let mut moved = false;
    for path in call.args.iter_mut().chain(call.writes.iter_mut().map(|(_, t)| t)) {
        // A path as an option's value too: `dd of=/dev/sda`, `--output=/host/etc/x`.
        let (key, value) = match path.split_once('=') {
            Some((key, value)) if value.starts_with('/') => (format!("{key}="), value),
            _ => (String::new(), path.as_str()),
        };
        if let Some(p) = here(value) {
            *path = format!("{key}{p}");
            moved = true;
        }
    }
    moved
}

/// The shell commands an `osascript -e` script runs: each `do shell script "CMD"` (AppleScript)
/// or `doShellScript("CMD")` (JavaScript) with a literal string, and whether it asks for
/// administrator privileges.
fn apple_shell_scripts(args: &[(String, bool)]) -> Vec<(String, bool)> {
    let mut found = Vec::new();
    for (i, (a, _)) in args.iter().enumerate() {
        if a != "-e" {
            continue;
        }
        let Some((code, _)) = args.get(i + 1) else { continue };
        let admin = code.contains("administrator privileges") || code.contains("administratorPrivileges");
        for marker in ["do shell script", "doShellScript("] {
            let mut rest = code.as_str();
            while let Some(at) = rest.find(marker) {
                rest = &rest[at + marker.len()..];
                let body = rest.trim_start();
                let Some(delimiter) = body.chars().next().filter(|c| *c == '"' || *c == '\'') else { continue };
                let mut text = String::new();
                let mut chars = body[1..].chars();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => text.extend(chars.next()),
                        c if c == delimiter => break,
                        c => text.push(c),
                    }
                }
                found.push((text, admin));
            }
        }
    }
    found
}

/// The command an assignment names for the program it prefixes to run: a pager, an editor, git's
/// ssh command or external diff, less's input filter (`LESSOPEN='| CMD %s'`, without its `|` and
/// `%s`).
fn command_variable(assignment: &str) -> Option<String> {
    const RUN: [&str; 11] = [
        "LESSOPEN",
        "LESSCLOSE",
        "PAGER",
        "MANPAGER",
        "GIT_PAGER",
        "GIT_SSH_COMMAND",
        "GIT_EDITOR",
        "GIT_EXTERNAL_DIFF",
        "EDITOR",
        "VISUAL",
        "SYSTEMD_PAGER",
    ];
    let (name, value) = assignment.split_once('=')?;
    let value = value.trim_matches(['"', '\'']).trim_start().trim_start_matches('|').replace("%s", "");
    (RUN.contains(&name) && !value.trim().is_empty()).then(|| value.trim().to_string())
}

/// `hyperfine`'s options that take one value.
const HYPERFINE_VALUED: [&str; 30] = [
    "-w",
    "--warmup",
    "-r",
    "--runs",
    "-m",
    "--min-runs",
    "-M",
    "--max-runs",
    "-p",
    "--prepare",
    "-c",
    "--cleanup",
    "-s",
    "--setup",
    "--conclude",
    "-S",
    "--shell",
    "-n",
    "--command-name",
    "-u",
    "--time-unit",
    "--style",
    "--output",
    "--input",
    "-D",
    "--parameter-step-size",
    "--sort",
    "--export-csv",
    "--export-json",
    "--export-markdown",
];

/// The commands a program runs from text it is given, each with whether it runs on another
/// machine: `nix-shell --run CMD`, `nix develop -c CMD...`, `script -c CMD`, `sg GROUP -c CMD`,
/// `vagrant ssh -c CMD` (on the VM), `tmux new-session|new-window|split-window|run-shell ...
/// CMD` (and `tmux -c CMD`), `hyperfine` (each command it times, and its `--prepare`, `--setup`,
/// `--cleanup`), `at`/`batch` (the heredoc), `tar --checkpoint-action=exec=CMD` and
/// `--to-command=CMD`, `zip -TT CMD`, `vim -c '!CMD'` (and `+!CMD`), a git alias defined with `-c
/// alias.NAME='!CMD'` and called, `parallel CMD ::: ARGS` (on other machines with `-S`), and
/// `rsync --rsync-path=CMD` (on the other machine), Deployer's `dep run CMD` (on its hosts) and
/// Northflank's `exec --cmd CMD` (in the service).
fn runs_code(name: &str, args: &[(String, bool)], heredoc: Option<&str>) -> Vec<(String, bool)> {
    let here = |codes: Vec<String>| codes.into_iter().map(|c| (c, false)).collect::<Vec<_>>();
    let there = |codes: Vec<String>| codes.into_iter().map(|c| (c, true)).collect::<Vec<_>>();
    let values = |flags: &[&str]| option_values(args, flags);
    let sub = args.first().map(|(a, _)| a.as_str());
    match name {
        "nix-shell" => here(values(&["--run", "--command"])),
        "nix" if matches!(sub, Some("develop" | "shell")) => here(
            args.iter()
                .position(|(a, _)| a == "-c" || a == "--command")
                .map(|i| requote(&args[i + 1..]))
                .into_iter()
                .collect(),
        ),
        // `script -qc CMD`: a cluster ending in `c` takes the command.
        "script" => {
            let mut codes = values(&["--command"]);
            codes.extend(
                args.iter()
                    .position(|(a, _)| a.starts_with('-') && !a.starts_with("--") && a.ends_with('c'))
                    .and_then(|i| args.get(i + 1))
                    .map(|(c, _)| c.clone()),
            );
            here(codes)
        }
        // `rsync --rsync-path=CMD`: CMD runs on the other machine.
        "rsync" => there(values(&["--rsync-path"])),
        // `parallel CMD ::: A B`: CMD once for each argument (`{}` is where it goes), up to 8; with
        // `-S`/`--sshlogin`, on other machines.
        "parallel" => {
            let everywhere = args.iter().any(|(a, _)| a == "--nonall" || a == "--onall");
            let sep = match args.iter().position(|(a, _)| a == ":::") {
                Some(sep) => sep,
                None if everywhere => args.len(),
                None => return Vec::new(),
            };
            let mut i = 0;
            while args.get(i).is_some_and(|(a, _)| a.starts_with('-')) && i < sep {
                let valued = [
                    "-j",
                    "--jobs",
                    "-S",
                    "--sshlogin",
                    "-N",
                    "-n",
                    "--max-args",
                    "--delay",
                    "--timeout",
                    "--results",
                    "--joblog",
                    "-a",
                    "--arg-file",
                ];
                i += if valued.contains(&args[i].0.as_str()) { 2 } else { 1 };
            }
            let remote = args[..sep].iter().any(|(a, _)| a == "-S" || a.starts_with("--sshlogin"));
            let command = requote(args.get(i..sep).unwrap_or_default());
            if command.is_empty() {
                return Vec::new();
            }
            if sep == args.len() {
                return vec![(command, remote)];
            }
            args[sep + 1..]
                .iter()
                .take_while(|(a, _)| !a.starts_with(":::"))
                .take(8)
                .map(|(a, _)| {
                    let a = quote(a);
                    let code =
                        if command.contains("{}") { command.replace("{}", &a) } else { format!("{command} {a}") };
                    (code, remote)
                })
                .collect()
        }
        "sg" => match args.get(1) {
            Some((c, _)) if c == "-c" => here(args.get(2).map(|(code, _)| code.clone()).into_iter().collect()),
            Some(_) => here(vec![requote(&args[1..])]),
            None => Vec::new(),
        },
        // `gam csv FILE gam ARGS` (`gam loop ...`): the GAM command it runs for each row.
        "gam" if matches!(sub, Some("csv" | "loop")) => {
            here(args.iter().position(|(a, _)| a == "gam").map(|i| requote(&args[i..])).into_iter().collect())
        }
        "vagrant" if sub == Some("ssh") => there(values(&["-c", "--command"])),
        "tmux" => {
            // Its own options (`-L socket`, `-f file`; `-c CMD` runs CMD), then the command.
            let mut codes = Vec::new();
            let mut i = 0;
            while let Some((a, _)) = args.get(i).filter(|(a, _)| a.starts_with('-')) {
                if a == "-c" {
                    codes.extend(args.get(i + 1).map(|(c, _)| c.clone()));
                }
                i += if matches!(a.as_str(), "-L" | "-S" | "-f" | "-c" | "-T") { 2 } else { 1 };
            }
            const RUN: [&str; 10] = [
                "new-session",
                "new",
                "new-window",
                "neww",
                "split-window",
                "splitw",
                "respawn-pane",
                "respawnp",
                "run-shell",
                "run",
            ];
            // `tmux send-keys -t PANE 'CMD' Enter`: typed into the pane's shell, and run.
            if args.get(i).is_some_and(|(a, _)| a == "send-keys" || a == "send") {
                let k = past_options(args, i + 1, &["-t", "-N"]);
                let keys = args.get(k..).unwrap_or_default();
                if let Some(((last, _), typed)) = keys.split_last()
                    && matches!(last.as_str(), "Enter" | "C-m" | "KPEnter")
                {
                    codes.push(typed.iter().map(|(a, _)| a.as_str()).collect::<Vec<_>>().join(" "));
                }
            }
            if args.get(i).is_some_and(|(a, _)| RUN.contains(&a.as_str())) {
                i += 1;
                while let Some((a, _)) = args.get(i).filter(|(a, _)| a.starts_with('-') && a != "--") {
                    let valued = matches!(
                        a.as_str(),
                        "-s" | "-n" | "-c" | "-t" | "-x" | "-y" | "-e" | "-F" | "-f" | "-l" | "-p"
                    );
                    i += if valued { 2 } else { 1 };
                }
                let rest = args.get(i..).unwrap_or_default();
                let rest = if rest.first().is_some_and(|(a, _)| a == "--") { &rest[1..] } else { rest };
                codes.extend(command_in(rest));
            }
            here(codes)
        }
        "hyperfine" => {
            let mut codes = values(&["-p", "--prepare", "-c", "--cleanup", "-s", "--setup", "--conclude"]);
            let mut i = 0;
            while let Some((a, _)) = args.get(i) {
                let takes = match a.as_str() {
                    "-P" | "--parameter-scan" => 3,
                    "-L" | "--parameter-list" => 2,
                    a if HYPERFINE_VALUED.contains(&a) => 1,
                    a if a.starts_with('-') => 0,
                    _ => {
                        codes.push(args[i].0.clone());
                        0
                    }
                };
                i += 1 + takes;
            }
            here(codes)
        }
        "at" | "batch" if !args.iter().any(|(a, _)| a == "-f") => here(heredoc.map(String::from).into_iter().collect()),
        "tar" | "gtar" | "bsdtar" => here(
            args.iter()
                .filter_map(|(a, _)| {
                    a.strip_prefix("--checkpoint-action=exec=")
                        .or_else(|| a.strip_prefix("--to-command="))
                        .map(String::from)
                })
                .collect(),
        ),
        "zip" => here(values(&["-TT", "--unzip-command"])),
        "vim" | "nvim" | "vi" | "ex" | "view" => here(
            values(&["-c", "--cmd"])
                .into_iter()
                .chain(args.iter().filter_map(|(a, _)| a.strip_prefix('+').map(String::from)))
                .filter_map(|c| c.trim_start_matches(':').strip_prefix('!').map(String::from))
                .collect(),
        ),
        "git" => {
            // `-c alias.NAME=!CMD`, then the first word that is not an option: the alias called.
            // `-c core.pager=CMD` and `-c core.sshCommand=CMD` run too, and so do `bisect run
            // CMD`, `rebase --exec CMD`, `submodule foreach CMD` and `difftool -x CMD`.
            let mut codes: Vec<String> = Vec::new();
            for (i, (a, _)) in args.iter().enumerate() {
                if a == "-c"
                    && let Some((key, code)) = args.get(i + 1).and_then(|(v, _)| v.split_once('='))
                    && matches!(key.to_ascii_lowercase().as_str(), "core.pager" | "core.sshcommand" | "core.editor")
                {
                    codes.push(code.to_string());
                }
            }
            let mut aliases = Vec::new();
            let mut i = 0;
            while let Some((a, _)) = args.get(i) {
                if !a.starts_with('-') {
                    break;
                }
                if a == "-c" {
                    if let Some((name, code)) = args
                        .get(i + 1)
                        .and_then(|(v, _)| v.strip_prefix("alias."))
                        .and_then(|v| v.split_once('='))
                        .and_then(|(name, code)| Some((name, code.strip_prefix('!')?)))
                    {
                        aliases.push((name.to_string(), code.to_string()));
                    }
                    i += 2;
                    continue;
                }
                i += if matches!(a.as_str(), "-C" | "--git-dir" | "--work-tree" | "--namespace") { 2 } else { 1 };
            }
            let called = args.get(i).map(|(a, _)| a.as_str());
            let after = args.get(i + 1..).unwrap_or_default();
            let rest = requote(after);
            codes.extend(
                aliases
                    .into_iter()
                    .filter(|(name, _)| Some(name.as_str()) == called)
                    .map(|(_, code)| if rest.is_empty() { code } else { format!("{code} {rest}") }),
            );
            match called {
                Some("bisect") if after.first().is_some_and(|(a, _)| a == "run") => codes.push(requote(&after[1..])),
                Some("rebase") => codes.extend(option_values(after, &["--exec", "-x"])),
                Some("difftool") => codes.extend(option_values(after, &["--extcmd", "-x"])),
                Some("submodule") if after.first().is_some_and(|(a, _)| a == "foreach") => {
                    let words: Vec<_> =
                        after[1..].iter().filter(|(a, _)| a != "--recursive" && a != "-q").cloned().collect();
                    codes.extend(command_in(&words));
                }
                _ => {}
            }
            here(codes)
        }
        // A pager or a command a program is told to run: `man -P CMD`, `nodemon --exec CMD`,
        // `sbatch --wrap=CMD`.
        "man" => here(values(&["-P", "--pager"])),
        // `sops exec-env FILE CMD`, `sops exec-file FILE CMD`: CMD with the secrets.
        "sops" if matches!(sub, Some("exec-env" | "exec-file")) => {
            let words: Vec<_> = args[1..].iter().filter(|(a, _)| !a.starts_with('-')).collect();
            here(words.get(1).map(|(c, _)| c.clone()).into_iter().collect())
        }
        "nodemon" => here(values(&["--exec", "-x"])),
        "sbatch" => here(values(&["--wrap"])),
        // Batch schedulers' jobs: `qsub -b y CMD...`, `bsub [options] CMD...`, `pueue add CMD`,
        // `rush CMD` (once, `{}` left as it is).
        "qsub" | "bsub" | "pueue" | "rush" => {
            let valued: &[&str] = match name {
                "qsub" => &["-b", "-N", "-q", "-l", "-o", "-e", "-pe", "-t", "-wd", "-A", "-P"],
                "bsub" => &["-q", "-J", "-o", "-e", "-n", "-W", "-R", "-M", "-G", "-P", "-u"],
                "rush" => &["-j", "--jobs", "-k", "-D", "-d", "-i", "-J", "-T"],
                _ => &[
                    "-d",
                    "--delay",
                    "-g",
                    "--group",
                    "-l",
                    "--label",
                    "-w",
                    "--working-directory",
                    "-a",
                    "--after",
                    "-o",
                    "--priority",
                ],
            };
            let args = if name == "pueue" {
                match args.first() {
                    Some((a, _)) if a == "add" => &args[1..],
                    _ => return Vec::new(),
                }
            } else {
                args
            };
            if name == "qsub" && !args.windows(2).any(|w| w[0].0 == "-b" && w[1].0 == "y") {
                return Vec::new();
            }
            let mut i = 0;
            while let Some((a, _)) = args.get(i).filter(|(a, _)| a.starts_with('-')) {
                i += if a == "--" {
                    1
                } else if valued.contains(&a.as_str()) {
                    2
                } else {
                    1
                };
                if a == "--" {
                    break;
                }
            }
            here(command_in(args.get(i..).unwrap_or_default()).into_iter().collect())
        }
        // On another machine: `heroku run CMD`, `fly ssh console -C CMD`, and `parallel --nonall
        // -S HOSTS CMD` (the `:::` form is above).
        // Gigalixir's `run` and `ps:ssh -a APP -- CMD` too: CMD in the app's container there; and
        // Platform.sh's (and Upsun's) `platform ssh -e ENV -- CMD`, in the environment's.
        "heroku" | "gigalixir" | "platform" | "upsun"
            if (sub == Some("run") && matches!(name, "heroku" | "gigalixir"))
                || (name == "gigalixir" && sub == Some("ps:ssh"))
                || (matches!(name, "platform" | "upsun") && sub == Some("ssh")) =>
        {
            let valued: &[&str] = match name {
                "heroku" => &["-a", "--app", "-s", "--size", "-e", "--env", "-r", "--remote"],
                "gigalixir" => &["-a", "--app_name"],
                _ => &["-e", "--environment", "-p", "--project", "-A", "--app", "-I", "--instance", "--worker"],
            };
            let i = past_options(args, 1, valued);
            command_in(args.get(i..).unwrap_or_default()).map(|code| (code, true)).into_iter().collect()
        }
        // Juju's `ssh [-m MODEL] UNIT CMD` and `exec [-m MODEL] --application APP -- CMD` (`run
        // --unit UNIT CMD` before Juju 3): CMD on the units' machines.
        "juju"
            if matches!(sub, Some("ssh" | "exec"))
                || (sub == Some("run") && juju_run_targets(args.iter().map(|(a, _)| a.as_str()))) =>
        {
            let valued: &[&str] = &[
                "-m",
                "--model",
                "-u",
                "--unit",
                "-a",
                "--app",
                "--application",
                "--machine",
                "--timeout",
                "--format",
                "-o",
                "--output",
            ];
            let i = past_options(args, 1, valued) + usize::from(sub == Some("ssh"));
            command_in(args.get(i..).unwrap_or_default()).map(|code| (code, true)).into_iter().collect()
        }
        "fly" | "flyctl" if sub == Some("ssh") => there(values(&["-C", "--command"])),
        // Pantheon's `terminus remote:drush SITE.ENV -- CMD` (`remote:wp`): drush's or WP-CLI's CMD
        // on the environment's server.
        "terminus" if matches!(sub, Some("remote:drush" | "remote:wp" | "drush" | "wp")) => {
            let tool = if sub.is_some_and(|s| s.ends_with("drush")) { "drush" } else { "wp" };
            args.iter()
                .position(|(a, _)| a == "--")
                .map(|dash| requote(&args[dash + 1..]))
                .filter(|rest| !rest.is_empty())
                .map(|rest| format!("{tool} {rest}"))
                .into_iter()
                .map(|c| (c, true))
                .collect()
        }
        // `kamal app exec CMD`, `kamal server exec CMD`, `kamal accessory exec NAME CMD`: CMD on
        // the servers of the destination (`-d production`), past Kamal's options before it.
        "kamal"
            if args.get(1).is_some_and(|(a, _)| a == "exec") && matches!(sub, Some("app" | "server" | "accessory")) =>
        {
            const VALUED: [&str; 11] = [
                "-d",
                "--destination",
                "-r",
                "--roles",
                "-h",
                "--hosts",
                "-c",
                "--config-file",
                "-e",
                "--env",
                "--version",
            ];
            let mut at = past_options(args, 2, &VALUED);
            if sub == Some("accessory") {
                at = past_options(args, at + 1, &VALUED);
            }
            args.get(at).map(|(c, _)| (c.clone(), true)).into_iter().collect()
        }
        // Northflank's `northflank exec service ... --cmd CMD`: CMD in the service's container.
        "northflank" if sub == Some("exec") => there(values(&["--cmd"])),
        // Deployer's `dep run CMD [STAGE]`: CMD on the stage's hosts.
        "dep" if sub == Some("run") => {
            there(args.get(1).filter(|(a, _)| !a.starts_with('-')).map(|(c, _)| c.clone()).into_iter().collect())
        }
        // `eb ssh ENV -c CMD`: CMD on the environment's instance.
        "eb" if sub == Some("ssh") => there(values(&["-c", "--command"])),
        // `make -f - <<EOF`: the recipes of a makefile given on standard input.
        "make" | "gmake" if reads_makefile_from_stdin(args) => here(heredoc.map(recipes).unwrap_or_default()),
        // `cmake -E CMD ...`: cmake's portable commands, as the shell's own.
        "cmake" if sub == Some("-E") => here(cmake_command(&args[1..]).into_iter().collect()),
        // A database client's shell escape (`\! CMD`, MySQL's `system CMD`) runs here.
        _ if is_database_client(name) => values(&["-c", "--command", "-e", "--execute"])
            .into_iter()
            .filter_map(|v| {
                let v = v.trim_start();
                v.strip_prefix("\\!").or_else(|| v.strip_prefix("system ")).map(|c| (c.trim().to_string(), false))
            })
            .collect(),
        // GNU sed's `e COMMAND`, after an address or none (`sed -n '1e CMD' f`).
        "sed" | "gsed" => {
            let scripts = values(&["-e", "--expression"]);
            let scripts = if scripts.is_empty() {
                args.iter().find(|(a, _)| !a.starts_with('-')).map(|(a, _)| a.clone()).into_iter().collect()
            } else {
                scripts
            };
            here(
                scripts
                    .iter()
                    .flat_map(|script| script.split(['\n', ';']))
                    .filter_map(|part| {
                        let command = part
                            .trim_start()
                            .trim_start_matches(|c: char| c.is_ascii_digit() || matches!(c, '$' | ',' | ' '));
                        command.strip_prefix("e ").map(|c| c.trim().to_string())
                    })
                    .collect(),
            )
        }
        _ => Vec::new(),
    }
}

/// A device's output filter, in a command run on another machine, with its pattern quoted: a
/// router's or a switch's `show logging | include LINK-3-UPDOWN|shutdown` (H3C's `display ... |
/// include error|drop|CRC`) filters by a pattern that runs to the end of the command, `|` and all,
/// where a shell reads each `|` as a pipe into a program named by the word after it (`shutdown`).
/// The text as it was for any other command, and for a pattern already quoted.
fn device_filter_quoted(code: &str) -> std::borrow::Cow<'_, str> {
    const FILTERS: [&str; 10] =
        ["include", "exclude", "begin", "section", "match", "except", "inc", "incl", "exc", "excl"];
    let found = code.match_indices('|').find_map(|(at, _)| {
        let after = &code[at + 1..];
        let word = after.split_whitespace().next()?;
        let start = code.len() - after.trim_start().len() + word.len();
        let pattern = code[start..].trim();
        (FILTERS.contains(&word) && pattern.contains('|') && !pattern.contains(['\'', '"', ';', '&', '\n', '$', '`']))
            .then_some((start, pattern))
    });
    match found {
        Some((start, pattern)) => format!("{} '{pattern}'", &code[..start]).into(),
        None => code.into(),
    }
}

/// `adb`'s command after its own options (`-s SERIAL`, `-t ID`, `-d`, `-e`).
fn adb_command(args: &[(String, bool)]) -> &[(String, bool)] {
    args.get(past_options(args, 0, &["-s", "-t", "-H", "-P", "-L"])..).unwrap_or_default()
}

/// The module an `ansible` call runs, by its short name (`-m ansible.builtin.apt` is `apt`).
/// An option of `ansible` or `ansible-playbook` under which no task changes anything: a listing,
/// a syntax check, or check mode (`--check`, `-C`, alone or among other switches).
pub fn ansible_runs_nothing(a: &str) -> bool {
    ANSIBLE_LISTS.contains(&a) || a == "--check" || clusters_switch(a, 'C')
}

/// The options of `ansible` and `ansible-playbook` that list hosts, tasks or tags, or check the
/// syntax, and run no module.
pub const ANSIBLE_LISTS: [&str; 4] = ["--list-hosts", "--list-tasks", "--list-tags", "--syntax-check"];

/// Whether a word is one cluster of single-letter switches that holds `switch` (`-C`, `-bC`).
pub fn clusters_switch(word: &str, switch: char) -> bool {
    word.strip_prefix('-').is_some_and(|run| {
        !run.starts_with('-') && run.contains(switch) && run.chars().all(|c| c.is_ascii_alphabetic())
    })
}

fn ansible_module(args: &[(String, bool)]) -> Option<&str> {
    let i = args.iter().position(|(a, _)| a == "-m" || a == "--module-name")?;
    args.get(i + 1).map(|(m, _)| m.rsplit('.').next().unwrap_or(m))
}

/// Whether an FPGA programmer's call writes the board: a bitstream or an erase goes to its flash
/// or SRAM (`iceprog build/top.bin`, `openFPGALoader -b ulx3s --write-flash soc.bit`); reading its
/// flash back, testing or verifying it, and listing boards and cables do not.
pub fn programs_fpga<S: AsRef<str>>(name: &str, words: &[S]) -> bool {
    let any = |these: &[&str]| words.iter().any(|w| these.contains(&w.as_ref()));
    match name {
        "iceprog" | "ecpprog" => !any(&["-r", "-R", "-t", "-c", "--help", "-h"]),
        "openfpgaloader" | "openFPGALoader" | "fujprog" | "xc3sprog" => {
            let reads = [
                "--detect",
                "--scan-usb",
                "--list-boards",
                "--list-cables",
                "--list-fpga",
                "--dump-flash",
                "--help",
                "-h",
                "-V",
                "--Version",
                "-i",
                "-j",
            ];
            let writes = ["--write-flash", "--write-sram", "-f", "--bulk-erase", "--reset", "--external-flash"];
            let bitstream = |w: &S| {
                [".bit", ".bin", ".fs", ".svf", ".jed", ".rbf", ".mcs", ".img"].iter().any(|e| w.as_ref().ends_with(e))
            };
            !any(&reads) && (any(&writes) || words.iter().any(bitstream))
        }
        _ => false,
    }
}

/// Whether a call of a tool for phones and boards on USB changes what is on the device:
/// installs, flashes, erases, writes to it or restarts it. Reads (`adb devices`, `esptool.py
/// chip_id`, `dfu-util -l`) and local builds do not.
fn changes_device(name: &str, args: &[(String, bool)]) -> bool {
    let words: Vec<&str> = args.iter().map(|(a, _)| a.as_str()).collect();
    let any = |these: &[&str]| words.iter().any(|w| these.contains(w));
    let sub = words.iter().find(|a| !a.starts_with('-')).copied().unwrap_or("");
    match name {
        "adb" => adb_command(args).first().is_some_and(|(c, _)| {
            matches!(
                c.as_str(),
                "install"
                    | "install-multiple"
                    | "uninstall"
                    | "push"
                    | "sideload"
                    | "reboot"
                    | "root"
                    | "remount"
                    | "disable-verity"
                    | "restore"
            )
        }),
        "fastboot" => {
            any(&["-w"])
                || matches!(
                    sub,
                    "flash" | "flashall" | "erase" | "format" | "oem" | "flashing" | "update" | "boot" | "set_active"
                )
        }
        "esptool.py" | "esptool" | "espefuse.py" | "espefuse" => any(&[
            "write_flash",
            "write-flash",
            "erase_flash",
            "erase-flash",
            "erase_region",
            "erase-region",
            "write_mem",
            "burn_efuse",
            "burn_key",
        ]),
        "dfu-util" => any(&["-D", "--download"]) || words.iter().any(|w| w.starts_with("--download=")),
        "openocd" => option_values(args, &["-c", "--command"]).iter().any(|c| {
            let c = c.to_ascii_lowercase();
            c.contains("program") || c.contains("flash write") || c.contains("erase")
        }),
        "avrdude" => any(&["-e"]) || words.iter().any(|w| w.contains(":w:")),
        "st-flash" => matches!(sub, "write" | "erase"),
        "pio" | "platformio" => {
            sub == "run"
                && option_values(args, &["-t", "--target"])
                    .iter()
                    .any(|t| matches!(t.as_str(), "upload" | "uploadfs" | "erase"))
        }
        "arduino-cli" => matches!(sub, "upload" | "burn-bootloader"),
        "picotool" => matches!(sub, "load" | "erase" | "otp"),
        "nrfjprog" => any(&["--program", "--eraseall", "--recover", "--erasepage", "--memwr"]),
        "probe-rs" => matches!(sub, "download" | "erase" | "run"),
        "west" => sub == "flash",
        "heimdall" => sub == "flash",
        "mpremote" => {
            any(&["rm", "rmdir", "mip", "bootloader"])
                || (sub == "cp" && words.last().is_some_and(|w| w.starts_with(':')))
        }
        "ideviceinstaller" => any(&["-i", "--install", "-U", "--uninstall"]),
        "idevicebackup2" => sub == "restore",
        "idevicediagnostics" => matches!(sub, "restart" | "shutdown"),
        _ => programs_fpga(name, &words),
    }
}

/// Whether `make` reads its makefile from standard input (`-f -`, `--file=/dev/stdin`).
fn reads_makefile_from_stdin(args: &[(String, bool)]) -> bool {
    option_values(args, &["-f", "--file", "--makefile"]).iter().any(|f| f == "-" || f == "/dev/stdin")
}

/// The recipe lines of a makefile: the lines that start with a tab, and what follows a rule's
/// `;`, each without its `@`, `-` and `+`, and `$$` as the shell gets it. Every rule's, not only
/// the goal's: which rules run is not read. At most [`EXPANSION_MAX`].
fn recipes(makefile: &str) -> Vec<String> {
    makefile
        .lines()
        .filter_map(|line| match line.strip_prefix('\t') {
            Some(recipe) => Some(recipe),
            None if !line.starts_with('#') && line.contains(':') && !line.contains(":=") => {
                line.split_once(';').map(|(_, r)| r)
            }
            None => None,
        })
        .map(|r| r.trim_start_matches(['@', '-', '+', ' ', '\t']).replace("$$", "$"))
        .filter(|r| !r.trim().is_empty())
        .take(EXPANSION_MAX)
        .collect()
}

/// What `cmake -E CMD ARGS` does, as the shell command that does the same: `rm`, `remove`,
/// `remove_directory`, `copy`, `rename`, `make_directory`, `touch`, `create_symlink`, `tar`, and
/// the command `env`, `chdir DIR` and `time` run.
fn cmake_command(args: &[(String, bool)]) -> Option<String> {
    let (first, rest) = args.split_first()?;
    // The shell command that does the same, with cmake's arguments.
    let as_shell = |head: &str| -> String {
        let tail = requote(rest);
        if tail.is_empty() { head.to_string() } else { format!("{head} {tail}") }
    };
    Some(match first.0.as_str() {
        "rm" | "remove" => as_shell("rm"),
        "remove_directory" => as_shell("rm -rf"),
        "copy" | "copy_if_different" | "copy_directory" | "copy_directory_if_different" => as_shell("cp -r"),
        "rename" => as_shell("mv"),
        "make_directory" => as_shell("mkdir -p"),
        "touch" | "touch_nocreate" => as_shell("touch"),
        "create_symlink" => as_shell("ln -s"),
        "create_hardlink" => as_shell("ln"),
        "tar" => as_shell("tar"),
        "chdir" => command_in(rest.get(1..)?)?,
        "time" => command_in(rest)?,
        "env" => {
            let at = rest.iter().position(|(a, _)| !(a.starts_with("--unset") || is_assignment(a)))?;
            let at = if rest[at].0 == "--" { at + 1 } else { at };
            command_in(&rest[at..])?
        }
        _ => return None,
    })
}

/// A call's word as the parse keeps it (with whether it was quoted) or as a [`Call`] does.
pub trait Arg {
    fn text(&self) -> &str;
}

impl Arg for (String, bool) {
    fn text(&self) -> &str {
        &self.0
    }
}

impl Arg for String {
    fn text(&self) -> &str {
        self
    }
}

/// Every value of the options named: the next word, or glued to a long one (`--run=CMD`).
pub fn option_values(args: &[impl Arg], flags: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for (i, a) in args.iter().map(Arg::text).enumerate() {
        if flags.contains(&a) {
            found.extend(args.get(i + 1).map(|v| v.text().to_string()));
        } else if let Some((flag, v)) = a.split_once('=')
            && flags.contains(&flag)
            && flag.starts_with("--")
        {
            found.push(v.to_string());
        }
    }
    found
}

/// Words rebuilt as shell code, each quoted again (`kubectl exec POD -- rm -rf /x`).
fn requote(words: &[(String, bool)]) -> String {
    words.iter().map(|(w, _)| quote(w)).collect::<Vec<_>>().join(" ")
}

/// The command a program is given in its last words: one word is code as it stands (`bsub 'rm
/// -rf ~'`), several are its words (`bsub rm -rf ~`).
fn command_in(words: &[(String, bool)]) -> Option<String> {
    match words {
        [] => None,
        [(code, _)] => Some(code.clone()),
        many => Some(requote(many)),
    }
}

/// A word quoted again for the shell, for code rebuilt from words (`find -exec`).
pub fn quote(w: &str) -> String {
    if !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,{}~*".contains(c)) {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

fn is_assignment(w: &str) -> bool {
    w.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit())
    })
}

/// The program a jar is, by its file's name: `bfg-1.14.0.jar` is `bfg`, `jenkins-cli.jar` is
/// `jenkins-cli`.
fn jar_program(jar: &str) -> String {
    let name = base(jar).strip_suffix(".jar").unwrap_or(base(jar));
    let cut = name.match_indices('-').find(|(i, _)| name[i + 1..].starts_with(|c: char| c.is_ascii_digit()));
    cut.map_or(name, |(i, _)| &name[..i]).to_ascii_lowercase()
}

/// Take the wrappers off the front of a command: what remains starts with the real program.
fn unwrap(parts: &mut Vec<(String, bool)>, ctx: &mut Context, xargs: &mut bool) {
    for _ in 0..16 {
        let Some((head, _)) = parts.first() else { return };
        let mut head = base(head).to_string();
        // `java -jar bfg-1.14.0.jar ...`, `java -jar jenkins-cli.jar -s URL delete-node ...`: a jar
        // that is a program with a page of its own is that program, given the words after it.
        if head == "java"
            && let Some(at) = parts.iter().position(|(a, _)| a == "-jar")
            && parts[1..at].iter().all(|(a, _)| a.starts_with('-'))
            && let Some(name) = parts.get(at + 1).map(|(jar, _)| jar_program(jar))
            && super::dictionary::about(&name).is_some()
        {
            parts.drain(..=at + 1);
            parts.insert(0, (name, false));
            continue;
        }
        // A wrapper with no command left (`screen -ls`, `uv run`, `sudo -i`) is itself the call.
        let whole = parts.clone();
        let runner = parts.get(1).is_some_and(|(sub, _)| RUNNERS.contains(&(head.as_str(), sub.as_str())));
        // A runner's subcommand is part of its name (`uv run`, `bundle exec`), taken off with it.
        if runner {
            head = format!("{head} {}", parts[1].0);
            parts.remove(0);
            // Three words: `ip netns exec`, `kitty @ launch`, `wezterm cli spawn`, `nomad alloc exec`.
            if let Some((third, _)) = parts.get(1)
                && matches!(
                    (head.as_str(), third.as_str()),
                    ("ip netns", "exec")
                        | ("kitty @", "launch")
                        | ("wezterm cli", "spawn")
                        | ("nomad alloc", "exec")
                        | ("boundary connect", "ssh")
                )
            {
                head = format!("{head} {third}");
                parts.remove(0);
            }
        }
        // `runuser -l USER -c CMD` runs its command as `su -c` does (below, in `command`).
        if head == "runuser" && parts.iter().any(|(a, _)| a == "-c" || a == "--command") {
            return;
        }
        // Options each wrapper takes a value with.
        let valued: &[&str] = match head.as_str() {
            "sudo" => &["-u", "-g", "-C", "-D", "-h", "-p", "-U", "-r", "-t", "-T", "-R"],
            "doas" => &["-u", "-C"],
            "env" => &["-u", "-C", "-S", "--unset", "--chdir"],
            "nice" => &["-n", "--adjustment"],
            "ionice" => &["-c", "-n", "-p", "-P", "-u"],
            "timeout" => &["-s", "-k", "--signal", "--kill-after"],
            "watch" => &["-n", "--interval", "-q", "--equexit"],
            "strace" | "ltrace" => &["-o", "-e", "-s", "-a", "-u", "-E", "-S", "-P", "-I", "-b", "-X"],
            "xargs" => &[
                "-I",
                "-i",
                "-n",
                "-P",
                "-L",
                "-l",
                "-d",
                "-a",
                "-s",
                "-E",
                "-e",
                "--max-args",
                "--max-procs",
                "--delimiter",
                "--arg-file",
                "--replace",
            ],
            "stdbuf" => &["-i", "-o", "-e"],
            // `nsenter -t 1 -m -u -n -i -p CMD`: the command, in this machine's namespaces.
            "nsenter" => &["-t", "--target", "-S", "--setuid", "-G", "--setgid"],
            "flock" => &["-w", "-E", "--timeout", "--conflict-exit-code"],
            "chrt" | "taskset" => &[],
            "nohup" | "time" | "command" | "builtin" | "exec" | "caffeinate" | "unbuffer" | "chronic" | "setsid"
            | "noglob" | "nocorrect" | "exec-with" | "busybox" => &[],
            "npx" | "bunx" | "pnpx" => &["-p", "--package"],
            // Runners that set up an environment, a sandbox, a user or secrets, then run the
            // command (`uv run pytest`, `op run -- ./deploy.sh`, `pkexec rm ...`).
            "uv run" => &[
                "--with",
                "--python",
                "-p",
                "--env-file",
                "--directory",
                "--project",
                "--package",
                "--group",
                "--extra",
                "--index",
                "--from",
            ],
            "poetry run" | "pipenv run" | "pdm run" | "hatch run" | "rye run" | "pixi run" | "bundle exec"
            | "mise exec" | "mise x" | "asdf exec" | "dotenv" | "dbus-run-session" | "firejail" | "unshare"
            | "setpriv" | "valgrind" | "entr" | "gosu" | "su-exec" => &[],
            "conda run" | "mamba run" | "micromamba run" => &["-n", "--name", "-p", "--prefix", "--cwd"],
            "op run" | "doppler run" | "infisical run" => &["-p", "--project", "-c", "--config", "--env", "--env-file"],
            "aws-vault exec" => &["--duration", "-d", "--region", "--mfa-token", "-t"],
            // From a sandbox or a toolbox, on the machine that holds it.
            "flatpak-spawn" => &["--env", "--directory", "--forward-fd", "--unset-env"],
            "host-spawn" | "distrobox-host-exec" => &[],
            // A local system container (as `docker exec`), a virtual machine (another machine).
            "lxc exec" | "incus exec" | "multipass exec" => {
                &["--env", "--user", "--group", "--cwd", "--mode", "-n", "--working-directory"]
            }
            // A task of a Nomad allocation, on the client that runs it: another machine.
            "nomad alloc exec" => &["-task", "-e", "-address", "-namespace", "-region", "-token"],
            // An ssh session Boundary brokers to its target: what follows `--` runs there.
            "boundary connect ssh" => &[
                "-target-id",
                "-target-name",
                "-target-scope-id",
                "-target-scope-name",
                "-addr",
                "-username",
                "-style",
                "-host-id",
                "-listen-port",
                "-authz-token",
            ],
            "direnv exec" | "distrobox enter" => &["-n", "--name"],
            "toolbox run" => &["-c", "--container", "-d", "--distro", "-r", "--release"],
            "pkexec" => &["--user", "-u"],
            "run0" => &[
                "-u",
                "--user",
                "-g",
                "--group",
                "-D",
                "--chdir",
                "--setenv",
                "--unit",
                "--property",
                "--description",
                "--slice",
                "--nice",
                "--machine",
            ],
            "runuser" => &["-u", "--user", "-g", "--group", "-G", "--supp-group", "-s", "--shell", "-w"],
            "pnpm dlx" | "pnpm exec" | "yarn exec" | "yarn dlx" | "npm exec" | "pipx run" | "rbenv exec"
            | "pyenv exec" | "nodenv exec" | "cabal exec" | "fakeroot" | "nq" | "nvm exec" | "abduco"
            | "ip netns exec" | "wezterm cli spawn" | "faketime" => &[],
            "uvx" => &["--from", "--with", "--python", "-p"],
            "volta run" => &["--node", "--npm", "--yarn", "--pnpm", "--env"],
            "go run" => &["-tags", "-ldflags", "-gcflags", "-mod", "-C"],
            "deno run" => &["--config", "-c", "--import-map", "--env-file", "--location", "--cert"],
            "apptainer exec" | "singularity exec" => {
                &["--bind", "-B", "--env", "--home", "-H", "--pwd", "--overlay", "-o"]
            }
            "kitty @ launch" => {
                &["--type", "--cwd", "--title", "--tab-title", "--window-title", "--env", "--location", "--match", "-m"]
            }
            "sshpass" => &["-p", "-f", "-d", "-P"],
            "daemonize" => &["-c", "-e", "-E", "-o", "-p", "-l", "-u"],
            "prlimit" => &["-p", "--pid"],
            "schroot" => &["-c", "--chroot", "-u", "--user", "-d", "--directory", "-n", "--session-name"],
            "sandbox-exec" => &["-p", "-f", "-n", "-D"],
            "perf stat" | "perf record" | "perf trace" => {
                &["-e", "--event", "-o", "--output", "-p", "--pid", "-t", "-r", "--repeat", "-C", "-G", "-x"]
            }
            "retry" => &["-t", "--times", "-d", "--delay", "-u", "--until"],
            "reflex" => {
                &["-r", "--regex", "-R", "--inverse-regex", "-g", "--glob", "-G", "--inverse-glob", "-c", "--config"]
            }
            "sem" => &["-j", "--jobs", "--id"],
            "wsl" => &["-d", "--distribution", "-u", "--user", "--cd"],
            // On another machine: a VM's shell, a mobile shell, a Teleport node.
            "limactl shell" | "tsh ssh" => &["-l", "--login", "-p", "--port", "--proxy", "--cluster", "--workdir"],
            "mosh" => &["-p", "--port", "--ssh", "--predict", "--family"],
            "ssh-agent" => &["-a", "-t", "-E", "-P"],
            "xvfb-run" => {
                &["-n", "--server-num", "-s", "--server-args", "-f", "--auth-file", "-e", "--error-file", "-p", "-w"]
            }
            "screen" => &["-S", "-c", "-e", "-h", "-p", "-s", "-t", "-T", "-Logfile"],
            "watchexec" => &[
                "-e",
                "--exts",
                "-w",
                "--watch",
                "-i",
                "--ignore",
                "-d",
                "--debounce",
                "-s",
                "--signal",
                "-f",
                "--filter",
            ],
            "bwrap" => &[
                "--bind",
                "--ro-bind",
                "--dev-bind",
                "--bind-try",
                "--ro-bind-try",
                "--symlink",
                "--chdir",
                "--setenv",
                "--unsetenv",
                "--uid",
                "--gid",
                "--hostname",
                "--tmpfs",
                "--proc",
                "--dev",
                "--dir",
                "--remount-ro",
                "--file",
                "--bind-data",
                "--ro-bind-data",
                "--seccomp",
                "--lock-file",
                "--sync-fd",
                "--info-fd",
                "--cap-add",
                "--cap-drop",
                "--perms",
                "--size",
            ],
            // `systemd-run [--on-active=10m] CMD`: the command, now or on a timer.
            "systemd-run" => &[
                "-u",
                "--unit",
                "-p",
                "--property",
                "-E",
                "--setenv",
                "--uid",
                "--gid",
                "--nice",
                "--working-directory",
                "--description",
                "--slice",
                "--on-active",
                "--on-boot",
                "--on-startup",
                "--on-unit-active",
                "--on-unit-inactive",
                "--on-calendar",
                "--timer-property",
                "-M",
                "--machine",
                "-H",
                "--host",
            ],
            _ => {
                // Not a wrapper after all (`ip netns list`): the words as they were.
                *parts = whole;
                return;
            }
        };
        if head == "command" && parts.iter().skip(1).any(|(a, _)| a == "-v" || a == "-V") {
            return; // `command -v X` looks X up
        }
        match head.as_str() {
            "sudo" | "doas" | "nsenter" | "pkexec" | "run0" => ctx.elevated = true,
            // Only root can run `runuser`; `gosu` and `su-exec` run as the user they name.
            "runuser" => ctx.elevated = true,
            "multipass exec" | "limactl shell" | "tsh ssh" | "mosh" | "nomad alloc exec" | "boundary connect ssh" => {
                ctx.remote = true
            }
            "gosu" | "su-exec" => {
                ctx.elevated |= parts.get(1).is_some_and(|(u, _)| u == "root" || u == "0" || u.starts_with("root:"));
            }
            "xargs" => *xargs = true,
            // On another machine's systemd (`-H user@host`, `--host=...`), rule 4's.
            "systemd-run" => {
                ctx.remote |= parts
                    .iter()
                    .take_while(|(a, _)| a != "--")
                    .any(|(a, _)| a.starts_with("-H") || a.starts_with("--host"));
            }
            _ => {}
        }
        parts.remove(0);
        // Its options, then (for some) a positional it takes, then the real command.
        while let Some((a, _)) = parts.first() {
            if a == "--" {
                parts.remove(0);
                break;
            }
            if head == "env" && is_assignment(a) {
                ctx.assign(a);
                parts.remove(0);
                continue;
            }
            if !a.starts_with('-') || a == "-" {
                break;
            }
            // `screen -dmS NAME`: a cluster ending in `S` takes the name.
            let takes = (valued.contains(&a.as_str()) || (head == "screen" && a.len() > 2 && a.ends_with('S')))
                && !a.contains('=');
            // A short option glued to its value (`-n5`, `-uroot`) takes none more; `bwrap`'s
            // binds take two.
            let values =
                if takes && head == "bwrap" && (a.contains("bind") || a == "--symlink") { 2 } else { takes as usize };
            parts.remove(0);
            for _ in 0..values.min(parts.len()) {
                parts.remove(0);
            }
        }
        // A runner's command follows its `--`, whatever comes before (`mise exec node@20 -- node`).
        let mut dashed = false;
        if runner && let Some(dash) = whole.iter().position(|(a, _)| a == "--") {
            let skipped = whole.len() - parts.len();
            if dash >= skipped {
                parts.drain(..=dash - skipped);
                dashed = true;
            }
        }
        // `wsl -e CMD`, `wsl --exec CMD`: the rest is the command.
        if head == "wsl" && parts.first().is_some_and(|(a, _)| a == "-e" || a == "--exec") {
            parts.remove(0);
        }
        match head.as_str() {
            // `timeout DURATION CMD`, `flock FILE CMD`, `chrt PRIO CMD`, `taskset MASK CMD`.
            "timeout" | "flock" | "chrt" | "taskset" if !parts.is_empty() => {
                parts.remove(0);
            }
            // `gosu USER CMD`, `su-exec USER CMD`, `direnv exec DIR CMD`, `aws-vault exec PROFILE
            // CMD`, `distrobox enter NAME CMD`: a positional first.
            "gosu" | "su-exec" | "direnv exec" | "aws-vault exec" | "distrobox enter" | "lxc exec" | "incus exec"
            | "multipass exec" | "nvm exec" | "abduco" | "ip netns exec" | "faketime" | "apptainer exec"
            | "nomad alloc exec" | "singularity exec" | "limactl shell" | "tsh ssh" | "mosh"
                if !parts.is_empty() && !dashed =>
            {
                if parts.first().is_some_and(|(a, _)| a != "--") {
                    parts.remove(0);
                }
                if parts.first().is_some_and(|(a, _)| a == "--") {
                    parts.remove(0);
                }
            }
            // `watch` runs its arguments through `sh -c`, joined.
            "watch" if !parts.is_empty() => {
                let code: Vec<String> = parts.iter().map(|(a, _)| a.clone()).collect();
                *parts = vec![("sh".into(), false), ("-c".into(), false), (code.join(" "), true)];
                return;
            }
            _ => {}
        }
        // A package run by name: `go run example.com/x/cmd/migrate@latest`, `deno run npm:rimraf`.
        if matches!(head.as_str(), "go run" | "deno run")
            && let Some((program, _)) = parts.first_mut()
        {
            let name = program.strip_prefix("npm:").unwrap_or(program);
            let name = name.rsplit_once('@').filter(|(n, _)| !n.is_empty()).map_or(name, |(n, _)| n);
            *program = name.to_string();
        }
        if parts.is_empty() && head == "xargs" {
            // `xargs` alone runs `echo`.
            parts.push(("echo".into(), false));
        }
        if parts.is_empty() {
            *parts = whole;
            return;
        }
    }
}

/// Runners whose subcommand runs the command after its options: `uv run pytest`, `bundle exec
/// rake db:drop`, `op run -- ./deploy.sh`, `aws-vault exec prod -- aws s3 rb ...`.
const RUNNERS: [(&str, &str); 50] = [
    ("pnpm", "dlx"),
    ("pnpm", "exec"),
    ("yarn", "exec"),
    ("yarn", "dlx"),
    ("npm", "exec"),
    ("pipx", "run"),
    ("rbenv", "exec"),
    ("pyenv", "exec"),
    ("nodenv", "exec"),
    ("cabal", "exec"),
    ("nvm", "exec"),
    ("volta", "run"),
    ("go", "run"),
    ("deno", "run"),
    ("apptainer", "exec"),
    ("singularity", "exec"),
    ("ip", "netns"),
    ("nomad", "alloc"),
    ("boundary", "connect"),
    ("kitty", "@"),
    ("wezterm", "cli"),
    ("perf", "stat"),
    ("perf", "record"),
    ("perf", "trace"),
    ("limactl", "shell"),
    ("tsh", "ssh"),
    ("lxc", "exec"),
    ("incus", "exec"),
    ("multipass", "exec"),
    ("direnv", "exec"),
    ("distrobox", "enter"),
    ("uv", "run"),
    ("poetry", "run"),
    ("pipenv", "run"),
    ("pdm", "run"),
    ("hatch", "run"),
    ("rye", "run"),
    ("pixi", "run"),
    ("bundle", "exec"),
    ("conda", "run"),
    ("mamba", "run"),
    ("micromamba", "run"),
    ("mise", "exec"),
    ("mise", "x"),
    ("asdf", "exec"),
    ("toolbox", "run"),
    ("op", "run"),
    ("doppler", "run"),
    ("infisical", "run"),
    ("aws-vault", "exec"),
];

/// What `ssh` runs on the other machine: the words after its host, joined; none for a login
/// or a tunnel.
fn ssh_command(args: &[(String, bool)]) -> Option<String> {
    const VALUED: &str = "BbcDEeFIiJLlmOoPpQRSWw";
    let mut i = 0;
    while i < args.len() {
        let a = &args[i].0;
        if a == "--" {
            i += 1;
            break;
        }
        if !a.starts_with('-') || a.len() < 2 {
            break;
        }
        let last = a.chars().last().unwrap_or(' ');
        // `-p 22`, but `-p22` or `-tt` carry no separate value.
        i += if a.len() == 2 && VALUED.contains(last) { 2 } else { 1 };
    }
    // The host, then the command.
    let rest: Vec<&str> = args.get(i + 1..)?.iter().map(|(a, _)| a.as_str()).collect();
    (!rest.is_empty()).then(|| rest.join(" "))
}

/// What `docker exec [options] CONTAINER CMD...` runs inside.
fn container_command(args: &[(String, bool)]) -> Option<String> {
    // `exec`'s and compose `run`'s options that take a value.
    const VALUED: [&str; 17] = [
        "-e",
        "--env",
        "-u",
        "--user",
        "-w",
        "--workdir",
        "--env-file",
        "--detach-keys",
        "--index",
        "-v",
        "--volume",
        "--name",
        "--entrypoint",
        "-p",
        "--publish",
        "-l",
        "--label",
    ];
    let mut i = 0;
    while i < args.len() && args[i].0.starts_with('-') {
        i += if VALUED.contains(&args[i].0.as_str()) { 2 } else { 1 };
    }
    let rest = requote(args.get(i + 1..)?);
    (!rest.is_empty()).then_some(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn programs(command: &str) -> Vec<(String, Vec<String>, bool, bool)> {
        analyse(command).calls.into_iter().map(|c| (c.program, c.args, c.remote, c.elevated)).collect()
    }

    fn names(command: &str) -> Vec<String> {
        analyse(command).calls.into_iter().map(|c| c.program).collect()
    }

    #[test]
    fn a_quoted_first_word_with_words_in_it_is_text() {
        // Found in `model/fresh-110/`: the command copied to the clipboard, not run. A program a
        // substitution names is no text (`"$(command -v rm)" -rf ~/.config`).
        let copied = analyse(
            "'Remove-DnsServerResourceRecord -ZoneName corp.local -Name fs01 -RRType A -Force' | Set-Clipboard",
        );
        assert_eq!(copied.calls.iter().map(|c| c.program.as_str()).collect::<Vec<_>>(), ["echo", "Set-Clipboard"]);
        assert_eq!(names("\"rm -rf ~\" | pbcopy"), ["echo", "pbcopy"]);
        // What it writes is still written.
        assert_eq!(analyse("'a b' > ~/.bashrc").calls[0].writes, [(">".to_string(), "~/.bashrc".to_string())]);
        // A quoted path to a program is the program.
        assert_eq!(names("\"/opt/My Tools/bin/tool\" --version"), ["/opt/My Tools/bin/tool"]);
        assert_eq!(names("'rm' -rf build"), ["rm"]);
        assert_ne!(names("\"$(command -v rm)\" -rf ~/.config"), ["echo"]);
        assert!(!names("sudo 'rm -rf /srv/app'").contains(&"echo".to_string()));
    }

    #[test]
    fn pantheons_remote_drush_runs_drush_on_the_environments_server() {
        // Found in `model/fresh-95/`.
        let calls = programs("terminus remote:drush northwind-health.live -- pm:uninstall legacy_import -y");
        assert!(
            calls.iter().any(|c| c.0 == "drush" && c.2 && c.1 == ["pm:uninstall", "legacy_import", "-y"]),
            "{calls:?}"
        );
        assert!(programs("terminus remote:wp site.live -- plugin list").iter().any(|c| c.0 == "wp" && c.2));
        assert_eq!(names("terminus env:info site.live"), ["terminus"]);
    }

    #[test]
    fn a_command_line_that_is_powershells_is_read_as_powershell() {
        // Found in `model/fresh-77/`: a Windows administrator's agent, whose shell is PowerShell.
        let remote = |c: &str| -> Vec<(String, bool)> {
            analyse(c).calls.into_iter().map(|call| (call.program, call.remote)).collect()
        };
        assert_eq!(
            remote("Disable-ADAccount -Identity cf; Set-ADUser -Identity cf -Description 'Disabled per HR-5521'"),
            [("Disable-ADAccount".into(), true), ("Set-ADUser".into(), true)]
        );
        assert_eq!(
            remote(
                "$s = New-PSSession -ComputerName LT-0098,LT-0101; Invoke-Command -Session $s -ScriptBlock { choco upgrade googlechrome -y }"
            ),
            [("choco".into(), true)]
        );
        assert_eq!(remote("Invoke-GPUpdate -Computer WS-HR-022 -Force"), [("Invoke-GPUpdate".into(), true)]);
        assert!(remote("New-GPLink -Name Baseline -Target 'OU=Workstations,DC=corp,DC=example,DC=com'")[0].1);
        assert_eq!(remote("Get-Service Spooler"), [("Get-Service".into(), false)]);
        // A shell's own lines that start with a capital are not PowerShell's.
        assert_eq!(names("FOO=1 make test"), ["make"]);
        assert_eq!(names("Rscript -e 'install.packages(1)'")[0], "Rscript");
        assert_eq!(names("Get-Foo.sh --all"), ["Get-Foo.sh"]);
    }

    #[test]
    fn psexec_runs_its_command_on_the_machine_it_names() {
        // Found in `model/fresh-77/` and `model/fresh-56/`.
        let calls = programs(r"psexec \\WS-FIN-0412 -s -accepteula manage-bde -off C:");
        assert_eq!(calls.iter().map(|c| (c.0.as_str(), c.2)).collect::<Vec<_>>(), [("manage-bde", true)]);
        let calls = programs(r"psexec \\app-web03 -u CORP\\ops -p secret cmd /c iisreset");
        assert_eq!(calls[0].0, "cmd");
        assert!(calls.iter().all(|c| c.2));
        assert_eq!(names("xdsh compute 'systemctl restart slurmd'"), ["systemctl"]);
    }

    #[test]
    fn a_composer_environment_runs_airflow_there() {
        let calls =
            programs("gcloud composer environments run prod-2 --location us-central1 dags trigger -- orders -e 2024");
        assert!(
            calls.iter().any(|(p, a, remote, _)| p == "airflow" && a[..2] == ["dags", "trigger"] && *remote),
            "{calls:?}"
        );
    }

    #[test]
    fn a_compose_run_and_a_gam_batch_run_their_commands() {
        assert_eq!(names("docker compose run --rm -e X=1 wpcli wp db reset --yes"), ["wp"]);
        assert_eq!(names("docker-compose run web rake db:drop"), ["rake"]);
        let calls = programs("gam csv y7.csv gam create user ~Email firstname ~First");
        assert!(calls.iter().any(|(p, a, _, _)| p == "gam" && a.first().is_some_and(|w| w == "create")), "{calls:?}");
    }

    #[test]
    fn compounds_and_substitutions_each_run() {
        assert_eq!(names("ls && rm -rf ~"), ["ls", "rm"]);
        assert_eq!(names("cd src; make || echo failed"), ["cd", "make", "echo"]);
        assert_eq!(names("(cd /tmp && rm -rf x) | tee log"), ["cd", "rm", "tee"]);
        assert_eq!(names("echo $(rm -rf ~/x) `git push -f`"), ["rm", "git", "echo"]);
        assert_eq!(names("if [ -d x ]; then rm -r x; fi"), ["[", "rm"]);
        assert_eq!(names("for f in *.o; do rm \"$f\"; done"), ["rm"]);
    }

    #[test]
    fn a_container_changes_this_machine_only_through_what_it_binds() {
        // Through a bind mount, this machine's files: the root's, a home's, the project's.
        assert_eq!(
            programs("docker run --rm -v /:/host alpine rm -rf /host/etc")[0],
            ("rm".into(), vec!["-rf".into(), "/etc".into()], false, true)
        );
        assert_eq!(
            programs("docker run --rm -v /:/host alpine sh -c 'rm -rf /host/var/log/*'")[0].1,
            ["-rf", "/var/log/*"]
        );
        assert_eq!(
            programs("podman run -it --mount type=bind,source=/home/alice,target=/data busybox rm -rf /data")[0].1,
            ["-rf", "/home/alice"]
        );
        assert_eq!(programs("docker run --rm -v \"$PWD\":/src alpine rm -rf /src/tmp")[0].1, ["-rf", "./tmp"]);
        assert_eq!(programs("docker container run -v/:/mnt --name x alpine rm /mnt/etc/hosts")[0].1, ["/etc/hosts"]);
        // A chroot into the bind: the root's files, as root.
        assert_eq!(
            programs("docker run --rm -v /:/host alpine chroot /host sh -c 'rm -f /etc/resolv.conf'")[0],
            ("rm".into(), vec!["-f".into(), "/etc/resolv.conf".into()], false, true)
        );
        // A privileged container's devices are this machine's.
        let dd = programs("docker run --rm --privileged alpine dd if=/dev/zero of=/dev/sda");
        assert_eq!(
            (dd[0].0.as_str(), dd[0].1.as_slice(), dd[1].0.as_str()),
            ("dd", &["if=/dev/zero".to_string(), "of=/dev/sda".to_string()][..], "docker")
        );
        // The container's own files, a named volume's, a read-only bind's, a path it does not
        // bind, the image's own command: nothing of this machine.
        for inside in [
            "docker run --rm alpine rm -rf /",
            "docker run -v data:/data alpine rm -rf /data",
            "docker run -v /:/host:ro alpine rm -rf /host/etc",
            "docker run --mount type=bind,src=/,dst=/host,readonly alpine rm -rf /host/etc",
            "docker run -it -v /srv:/srv -e X=1 ubuntu rm -rf /tmp/x",
            "docker run -v /:/host alpine",
        ] {
            assert_eq!(names(inside), ["docker"], "{inside}");
        }
    }

    #[test]
    fn runners_sandboxes_and_users_are_wrappers() {
        for c in [
            "uv run --with rich rm -rf ~",
            "poetry run rm -rf ~",
            "bundle exec rm -rf ~",
            "conda run -n base rm -rf ~",
            "mise exec -- rm -rf ~",
            "op run --env-file=.env -- rm -rf ~",
            "doppler run -p web -c prd -- rm -rf ~",
            "direnv exec . rm -rf ~",
            "distrobox enter dev -- rm -rf ~",
            "toolbox run -c dev rm -rf ~",
            "flatpak-spawn --host rm -rf ~",
            "firejail --noprofile rm -rf ~",
            "unshare -r rm -rf ~",
            "bwrap --bind / / --dev /dev rm -rf ~",
            "xvfb-run -a -s '-screen 0 1024x768x24' rm -rf ~",
            "screen -dmS job bash -c 'rm -rf ~'",
            "watchexec -e rs -- rm -rf ~",
            "ssh-agent rm -rf ~",
            "lxc exec web -- rm -rf ~",
        ] {
            assert_eq!(programs(c)[0], ("rm".into(), vec!["-rf".into(), "~".into()], false, false), "{c}");
        }
        for c in
            ["pkexec rm -rf /etc", "run0 -u root rm -rf /etc", "gosu root rm -rf /etc", "runuser -u bob -- rm -rf /etc"]
        {
            assert_eq!(programs(c)[0], ("rm".into(), vec!["-rf".into(), "/etc".into()], false, true), "{c}");
        }
        assert!(!programs("gosu app rm -rf /srv/app/cache")[0].3);
        assert_eq!(
            programs("aws-vault exec prod -- aws s3 rb s3://acme --force")[0].1,
            ["s3", "rb", "s3://acme", "--force"]
        );
        // A virtual machine is another machine.
        assert!(programs("multipass exec vm1 -- rm -rf /srv")[0].2);
        // A Nomad allocation's task runs on its client (`model/fresh-28/`); `alloc status` is no wrapper.
        let nomad = &programs("nomad alloc exec -task api 7c2d91ab cat /local/config.yaml")[0];
        assert_eq!((nomad.0.as_str(), nomad.2), ("cat", true));
        assert_eq!(names("nomad alloc exec -i -t -job web rm -rf /alloc/data"), ["rm"]);
        assert_eq!(names("nomad alloc status 7c2d91ab"), ["nomad"]);
        // A task's container on ECS (`model/fresh-29/`).
        let ecs = &programs(
            "aws ecs execute-command --cluster prod --task 9f2e --container api --interactive --command \"cat /app/config.yaml\"",
        )[0];
        assert_eq!((ecs.0.as_str(), ecs.2), ("cat", true));
        let brokered = &programs("boundary connect ssh -target-id ttcp_7Hq2 -- sudo systemctl restart envoy")[0];
        assert_eq!((brokered.0.as_str(), brokered.2, brokered.3), ("systemctl", true, true));
        assert_eq!(names("boundary connect ssh -target-id ttcp_7Hq2"), ["boundary"]);
        // What they run is the call: `uv run pytest` is `pytest`.
        assert_eq!(names("uv run pytest -x"), ["pytest"]);
        assert_eq!(names("bundle exec rails db:drop"), ["rails"]);
        // With nothing to run, the wrapper is the call.
        assert_eq!(names("screen -ls"), ["screen"]);
        assert_eq!(names("uv run"), ["uv"]);
        assert_eq!(names("sudo -i"), ["sudo"]);
    }

    #[test]
    fn programs_that_run_a_command_given_as_text_run_it() {
        for (c, also) in [
            ("tmux new-session -d -s job 'rm -rf ~'", "tmux"),
            ("tmux -L x new-window -n w rm -rf ~", "tmux"),
            ("hyperfine --warmup 3 'ls' 'rm -rf ~'", "hyperfine"),
            ("hyperfine --prepare 'rm -rf ~' 'ls'", "hyperfine"),
            ("nix-shell -p jq --run 'rm -rf ~'", "nix-shell"),
            ("nix develop .#ci -c rm -rf ~", "nix"),
            ("script -qc 'rm -rf ~' /dev/null", "script"),
            ("sg wheel -c 'rm -rf ~'", "sg"),
            ("tar -cf /dev/null x --checkpoint=1 --checkpoint-action=exec='rm -rf ~'", "tar"),
            ("zip out.zip x -T -TT 'rm -rf ~'", "zip"),
            ("vim -c '!rm -rf ~' -c q", "vim"),
            ("git -c alias.x='!rm -rf ~' x", "git"),
            ("parallel rm -rf ::: ~", "parallel"),
        ] {
            let calls = programs(c);
            assert!(calls.iter().any(|x| x.0 == "rm" && x.1 == ["-rf", "~"]), "{c}: {calls:?}");
            assert_eq!(calls.last().map(|x| x.0.as_str()), Some(also), "{c}");
        }
        // `at` runs what its heredoc or the pipe gives it, later.
        assert_eq!(names("at now + 1 hour <<< 'rm -rf ~'"), ["rm", "at"]);
        assert_eq!(names("echo 'rm -rf ~' | at midnight"), ["echo", "rm"]);
        assert_eq!(names("at -f jobs.sh now"), ["at"]);
        // On another machine: `vagrant ssh -c`, `rsync --rsync-path`, `parallel -S`.
        for c in [
            "vagrant ssh -c 'rm -rf /srv'",
            "rsync --rsync-path='rm -rf /srv' host:x .",
            "parallel -S web1 rm -rf ::: /srv",
        ] {
            assert!(programs(c).iter().any(|x| x.0 == "rm" && x.2), "{c}");
        }
        // A git alias not called, or not a shell one, runs nothing; nor does text that is not a
        // command.
        assert_eq!(names("git -c alias.x='!rm -rf ~' status"), ["git"]);
        assert_eq!(names("vim -c 'set nu' notes.md"), ["vim"]);
        assert_eq!(names("tmux new-session -s work -c ~/src"), ["tmux"]);
        // A project's containers: `docker compose exec` runs in one, `docker compose run` binds.
        assert_eq!(programs("docker compose exec -T web rm -rf /app/tmp")[0].1, ["-rf", "/app/tmp"]);
        assert_eq!(programs("docker compose run --rm --no-deps -v /:/host app rm -rf /host/etc")[0].1, ["-rf", "/etc"]);
    }

    #[test]
    fn more_runners_pagers_schedulers_and_decoders_are_read() {
        // Each hides `rm -rf ~` (or reads it out of an encoding) on this machine.
        for c in [
            "pnpm dlx rimraf ~ && rm -rf ~",
            "mise exec node@20 -- rm -rf ~",
            "nvm exec 16 rm -rf ~",
            "ip netns exec vpn rm -rf ~",
            "kitty @ launch --type=tab --hold rm -rf ~",
            "wezterm cli spawn -- rm -rf ~",
            "faketime '2030-01-01' rm -rf ~",
            "daemonize -o /tmp/o.log /bin/rm -rf ~",
            "sshpass -p x rm -rf ~",
            "apptainer exec --bind /data:/data image.sif rm -rf ~",
            "runuser -l git -c 'rm -rf ~'",
            "git -c core.pager='rm -rf ~ #' log -1",
            "git bisect run rm -rf ~",
            "git rebase --exec 'rm -rf ~' main",
            "git submodule foreach --recursive 'rm -rf ~'",
            "man -P 'rm -rf ~' ls",
            "LESSOPEN='| rm -rf ~ %s' less README.md",
            "GIT_SSH_COMMAND='rm -rf ~' git fetch",
            "sed -n '1e rm -rf ~' /etc/hostname",
            "ssh -o ProxyCommand='rm -rf ~' bastion",
            "mysql -u root -e '\\! rm -rf ~'",
            "nodemon --exec 'rm -rf ~'",
            "sbatch --wrap='rm -rf ~'",
            "qsub -b y -N x rm -rf ~",
            "bsub -q short 'rm -rf ~'",
            "pueue add -- rm -rf ~",
            "sops exec-env secrets.yaml 'rm -rf ~'",
            "tmux send-keys -t main 'rm -rf ~' Enter",
            "lua -e 'os.execute(\"rm -rf ~\")'",
            "Rscript -e 'system(\"rm -rf ~\")'",
            "emacs --batch --eval '(shell-command \"rm -rf ~\")'",
            "base64 -d <<< cm0gLXJmIH4= | sh",
            "echo 'ez -es ~' | tr 'a-z' 'n-za-m' | sh",
            "echo '~ fr- mr' | rev | sh",
            "xxd -r -p <<< '726d202d7266207e' | bash",
            "printf '\\162\\155 -rf ~' | sh",
        ] {
            assert!(programs(c).iter().any(|x| base(&x.0) == "rm" && x.1 == ["-rf", "~"]), "{c}: {:?}", programs(c));
        }
        // On another machine.
        for c in [
            "limactl shell default rm -rf /srv",
            "tsh ssh ops@web1 rm -rf /srv",
            "heroku run -a acme 'rm -rf /srv'",
            "fly ssh console -a acme -C 'rm -rf /srv'",
            "eb ssh acme-prod -c 'rm -rf /srv'",
            "kamal app exec -d production --reuse 'rm -rf /srv'",
            "kamal accessory exec db -d production 'rm -rf /srv'",
            "gigalixir run -a acme -- rm -rf /srv",
            "gigalixir ps:ssh -a acme -- rm -rf /srv",
            "parallel --nonall -S web1,web2 rm -rf /srv",
            "kubectl run tmp --image=busybox -- rm -rf /srv",
        ] {
            assert!(programs(c).iter().any(|x| x.0 == "rm" && x.2), "{c}: {:?}", programs(c));
        }
        // Not wrappers, or nothing to run: the words as they were.
        assert_eq!(names("ip netns list"), ["ip"]);
        assert_eq!(names("tmux send-keys -t main 'rm -rf ~'"), ["tmux"]);
        assert_eq!(names("git -c core.pager=less log -1"), ["less", "git"]);
        assert_eq!(names("sed -n '1p' /etc/hostname"), ["sed"]);
        assert_eq!(names("go run ./cmd/server"), ["./cmd/server"]);
        assert_eq!(names("go run example.com/tools/cmd/migrate@latest up"), ["example.com/tools/cmd/migrate"]);
    }

    #[test]
    fn substitutions_keep_their_quotes_variables_hold_code_and_makefiles_and_cmake_are_read() {
        for c in [
            // A substitution's own quotes: printf gets its escapes.
            "$(printf '\\162\\155') -rf ~",
            "\"$(printf '\\162\\155')\" -rf ~",
            // A variable holding code, or what a substitution printed, run.
            "X='rm -rf ~'; $X",
            "X='rm -rf ~'; eval \"$X\"",
            "X=$(echo cm0gLXJmIH4= | base64 -d); eval \"$X\"",
            "X=`echo cm0gLXJmIH4= | base64 -d`; bash -c \"$X\"",
            // A makefile on standard input, its recipes.
            "make -f - <<'EOF'\nall:\n\t@rm -rf ~\nEOF",
            "printf 'all:\\n\\trm -rf ~\\n' | make -f -",
            "make -f /dev/stdin <<< 'all: ; rm -rf ~'",
            // cmake's portable commands, and Ruby's `sh` in `rake -e`.
            "cmake -E rm -rf ~",
            "cmake -E env FOO=1 rm -rf ~",
            "cmake -E chdir /tmp rm -rf ~",
            "rake -e 'sh \"rm -rf ~\"'",
        ] {
            assert!(programs(c).iter().any(|x| base(&x.0) == "rm" && x.1 == ["-rf", "~"]), "{c}: {:?}", programs(c));
        }
        assert_eq!(programs("cmake -E remove_directory build")[0].1, ["-rf", "build"]);
        // What is only data stays data: a recipe line that is not one, a message.
        assert_eq!(names("make -f - <<'EOF'\n# rm -rf ~\nall:\n\techo ok\nEOF"), ["echo", "make"]);
        assert_eq!(names("cmake -E echo 'rm -rf ~'"), ["cmake"]);
        assert_eq!(names("git commit -m \"$(printf 'fix: rm -rf cache')\""), ["printf", "git"]);
        // A variable used many times brings back at most a command's length of code to read.
        let many = format!("X='{}'; {}", "true; ".repeat(1000), "$X; ".repeat(1000));
        assert!(analyse(&many).calls.len() < 20_000);
        // Quote removal keeps a substitution as written, and takes the other quotes off.
        assert_eq!(dequote(r#"a"$(printf '%s' "x")"'b'"#), r#"a$(printf '%s' "x")b"#);
        assert_eq!(dequote("`echo 'a b'`'c'"), "`echo 'a b'`c");
    }

    #[test]
    fn a_script_written_then_run_is_read_and_lines_carry_what_they_set() {
        for c in [
            "cat > /tmp/cleanup.sh <<'EOF'\nrm -rf ~\nEOF\nbash /tmp/cleanup.sh",
            "printf '#!/bin/sh\\nrm -rf ~\\n' > x.sh && chmod +x x.sh && ./x.sh",
            "tee ./wipe.sh <<'EOF' >/dev/null\nrm -rf ~\nEOF\nsh wipe.sh",
            "echo 'rm -rf ~' > a.sh; source a.sh",
            // Lines carry what they set, as `;` does.
            "X=rm\n$X -rf ~",
            "cd ~\nrm -rf *",
        ] {
            let calls = programs(c);
            assert!(
                calls.iter().any(|x| base(&x.0) == "rm" && (x.1 == ["-rf", "~"] || x.1 == ["-rf", "~/*"])),
                "{c}: {calls:?}"
            );
        }
        // Written and not run, or another file run: data.
        assert_eq!(names("cat > notes.sh <<'EOF'\nrm -rf ~\nEOF\ncat notes.sh"), ["cat", "cat"]);
        assert_eq!(names("cat > a.sh <<'EOF'\nrm -rf ~\nEOF\nbash b.sh"), ["cat", "bash"]);
        // `>>` adds to what was written.
        assert_eq!(names("echo 'ls' > a.sh; echo 'rm -rf ~' >> a.sh; bash a.sh"), ["echo", "echo", "bash", "ls", "rm"]);
    }

    #[test]
    fn a_phone_or_board_on_usb_is_another_machine_when_a_call_changes_it() {
        let on_device = |c: &str| analyse(c).calls.iter().any(|x| x.remote);
        for c in [
            "adb -s emulator-5554 uninstall com.example.app",
            "adb install -r app-debug.apk",
            "adb shell pm clear com.example.app",
            "fastboot flash boot boot.img",
            "esptool.py --chip esp32 -p /dev/ttyUSB0 write_flash 0x0 build/fw.bin",
            "dfu-util -a 0 -s 0x08000000:leave -D build/app.bin",
            "openocd -f board/st_nucleo_f4.cfg -c 'program build/fw.elf verify reset exit'",
            "avrdude -p m328p -c arduino -P /dev/ttyACM0 -U flash:w:build/fw.hex",
            "pio run -e esp32dev -t upload",
            "arduino-cli upload -p /dev/ttyACM0 --fqbn arduino:avr:uno sketch",
            "mpremote cp main.py :main.py",
        ] {
            assert!(on_device(c), "{c}");
        }
        for c in [
            "adb devices",
            "adb logcat -d",
            "adb pull /sdcard/log.txt .",
            "esptool.py chip_id",
            "dfu-util -l",
            "pio run -e esp32dev",
            "arduino-cli board list",
            "mpremote ls",
        ] {
            assert!(!on_device(c), "{c}");
        }
        // What `adb shell` runs is judged, there.
        assert_eq!(
            programs("adb shell rm -rf /sdcard/DCIM")[0],
            ("rm".into(), vec!["-rf".into(), "/sdcard/DCIM".into()], true, false)
        );
    }

    #[test]
    fn chroot_runs_its_command_on_the_paths_under_its_root() {
        assert_eq!(
            programs("chroot /mnt/sysroot rm -rf /usr")[0],
            ("rm".into(), vec!["-rf".into(), "/mnt/sysroot/usr".into()], false, true)
        );
        assert_eq!(names("sudo chroot build/debian-root"), ["chroot"]);
        assert_eq!(programs("arch-chroot /mnt pacman -Rns linux")[0].0, "pacman");
        // `nsenter` into the first process's namespaces is this machine, as root.
        assert_eq!(
            programs("docker run --rm --privileged --pid=host alpine nsenter -t 1 -m -u -n -i sh -c 'rm -rf /etc'")[0],
            ("rm".into(), vec!["-rf".into(), "/etc".into()], false, true)
        );
    }

    #[test]
    fn an_applescript_runs_the_shell_scripts_it_names() {
        assert_eq!(
            programs("osascript -e 'do shell script \"rm -rf ~/Library\" with administrator privileges'")[0],
            ("rm".into(), vec!["-rf".into(), "~/Library".into()], false, true)
        );
        assert_eq!(names("osascript -l JavaScript -e 'app.doShellScript(\"git push -f\")'"), ["git", "osascript"]);
        // A message it displays is not a command.
        assert_eq!(names("osascript -e 'display notification \"rm -rf done\"'"), ["osascript"]);
    }

    #[test]
    fn wrappers_are_taken_off() {
        assert_eq!(
            programs("sudo -u root rm -rf /var/lib/x")[0],
            ("rm".into(), vec!["-rf".into(), "/var/lib/x".into()], false, true)
        );
        assert_eq!(names("FOO=1 env -i X=2 nice -n 5 ionice -c2 timeout -s KILL 10s rm a"), ["rm"]);
        assert_eq!(names("nohup time strace -o t.txt git push &"), ["git"]);
        let x = analyse("find . -name '*.pyc' | xargs -0 -n 1 rm -f").calls;
        assert_eq!((x[1].program.as_str(), x[1].xargs), ("rm", true));
        assert_eq!(names("find . -type f -exec rm -f {} +"), ["rm", "find"]);
        assert_eq!(names("bash -c 'cd / && rm -rf *'"), ["cd", "rm"]);
        assert_eq!(names("sh -ec \"git push --force\""), ["git"]);
        assert_eq!(names("watch -n 5 'kubectl delete pod x'"), ["kubectl"]);
        assert_eq!(names("eval \"rm -rf $DIR\""), ["rm"]);
        let remote = &programs("ssh -p 2222 -i key deploy@host 'sudo systemctl restart app'")[0];
        assert_eq!((remote.0.as_str(), remote.2, remote.3), ("systemctl", true, true));
        assert_eq!(programs("ssh host")[0].0, "ssh", "a login runs nothing else");
        assert!(programs("kubectl exec -it web -- rm -rf /data")[0].2);
        // kubectl's own options before its subcommand.
        for c in [
            "kubectl -n cache exec redis-0 --context prod -- redis-cli FLUSHALL",
            "kubectl --context=prod --namespace cache exec -it redis-0 -- redis-cli FLUSHALL",
            "kubectl -n jobs run once --image=redis --restart=Never -- redis-cli FLUSHALL",
            "oc rsh -n cache -c redis redis-0 redis-cli FLUSHALL",
            // OpenShift's `oc` is kubectl, and AKS runs a command given as text.
            "oc exec -n cache -c redis redis-0 -- redis-cli FLUSHALL",
            "az aks command invoke -g rg-prod -n aks-prod --command 'redis-cli FLUSHALL'",
        ] {
            let first = &programs(c)[0];
            assert_eq!((first.0.as_str(), first.2), ("redis-cli", true), "{c}");
        }
        assert_eq!(names("kubectl -n cache logs exec"), ["kubectl"]);
        assert_eq!(names("docker exec -u app web rm -rf /app/cache"), ["rm"]);
        assert_eq!(names("command -v rm"), ["command"]);
        let remote =
            &programs("gcloud compute ssh web-1 --zone us-central1-a --command 'sudo systemctl stop nginx'")[0];
        assert_eq!((remote.0.as_str(), remote.2, remote.3), ("systemctl", true, true));
        for (command, program) in [
            (
                "az vm run-command invoke -g rg -n vm-1 --command-id RunShellScript --scripts \"sudo rm -rf /srv/x\"",
                "rm",
            ),
            (
                "az vm run-command invoke -g rg -n vm-1 --command-id RunShellScript --scripts 'df -h' 'sudo reboot'",
                "reboot",
            ),
            (
                "aws ssm send-command --document-name AWS-RunShellScript --parameters 'commands=[\"sudo systemctl restart app\"]'",
                "systemctl",
            ),
            (
                "aws ssm send-command --instance-ids i-1 --document-name AWS-RunShellScript --parameters commands='yum update -y'",
                "yum",
            ),
        ] {
            let calls = programs(command);
            let call = calls.iter().find(|c| c.0 == program).unwrap_or_else(|| panic!("{command}: {calls:?}"));
            assert!(call.2, "{command} runs {program} on another machine");
        }
        // Another document's parameters are not a shell's.
        assert_eq!(
            names("aws ssm send-command --document-name AWS-RunPatchBaseline --parameters commands=Install"),
            ["aws"]
        );
        // A Docker daemon on another machine is another machine; a local one is this one.
        for elsewhere in [
            "DOCKER_HOST=ssh://deploy@web2 docker rm -f api",
            "env DOCKER_HOST=tcp://10.0.0.5:2376 docker volume rm data",
            "docker --context prod compose down -v",
            "docker -H ssh://deploy@web2 ps",
            "DOCKER_HOST=ssh://web2 docker exec api rm -rf /data",
            "docker --context prod exec web rm -rf /app/uploads",
        ] {
            assert!(analyse(elsewhere).calls.iter().all(|c| c.remote), "{elsewhere}");
        }
        assert_eq!(
            programs("docker --context prod exec web ls /app")[0],
            ("ls".into(), vec!["/app".into()], true, false)
        );
        for here in ["docker rm -f api", "docker --context default ps", "DOCKER_HOST=unix:///run/docker.sock docker ps"]
        {
            assert!(!analyse(here).calls[0].remote, "{here}");
        }
        // A connected device is another machine; `adb shell` alone opens a session there.
        assert_eq!(
            programs("adb -s emulator-5554 shell pm clear com.acme.app")[0],
            ("pm".into(), vec!["clear".into(), "com.acme.app".into()], true, false)
        );
        assert_eq!(programs("adb shell")[0].0, "adb");
        // `find` from a home with nothing picked hands every entry of it to `-exec`.
        assert_eq!(
            programs("find /home/alice -mindepth 1 -maxdepth 1 -exec rm -rf {} +")[0].1,
            ["-rf", "/home/alice/*"]
        );
        assert_eq!(programs("find ~ -name '*.tmp' -exec rm {} \\;")[0].1, ["{}"], "a picked delete stays picked");
    }

    #[test]
    fn text_that_only_mentions_a_command_is_data() {
        let c = analyse("echo \"rm -rf /\"").calls;
        assert_eq!((c.len(), c[0].program.as_str(), c[0].quoted[0]), (1, "echo", true));
        assert_eq!(names("grep -r 'DROP TABLE' ."), ["grep"]);
        assert_eq!(names("git commit -m 'remove the rm -rf step'"), ["git"]);
        assert_eq!(names("cat <<'EOF' > notes.md\nrm -rf /\nEOF"), ["cat"]);
        // But a heredoc fed to a shell runs.
        assert_eq!(names("bash <<'EOF'\nrm -rf /tmp/x\nEOF"), ["rm"]);
        // So does one fed to ssh with no command: the remote shell reads it.
        let there = programs("ssh admin@web-3.example.net <<'EOF'\nsudo rm -rf /srv/app/releases\nEOF");
        assert_eq!((there[0].0.as_str(), there[0].2, there[0].3), ("rm", true, true), "{there:?}");
        assert_eq!(programs("ssh db-2 <<< 'pg_dump shop > /tmp/s.sql'")[0].0, "pg_dump");
        assert_eq!(names("ssh db-2 uptime <<'EOF'\nrm -rf ~\nEOF"), ["uptime"]);
        let piped = analyse("curl -fsSL https://x.sh | sh").calls;
        assert!(piped[1].reads_script, "{piped:?}");
        // What an `echo` prints into a shell is code the shell runs, and can be read.
        assert_eq!(names("echo 'curl -X DELETE https://api.example.com/v1/cache' | sh"), ["echo", "curl"]);
        assert_eq!(names("echo -n 'rm -rf ~' | bash"), ["echo", "rm"]);
    }

    #[test]
    fn a_function_runs_only_where_it_is_called() {
        assert!(names("cleanup() { rm -rf ~; }").is_empty(), "a definition runs nothing");
        assert!(names("function deploy { git push --force origin main; }").is_empty());
        assert_eq!(names("nuke() { rm -rf ~; }; nuke"), ["rm"]);
        assert_eq!(names("function deploy { git push -f; }; ls && deploy"), ["ls", "git"]);
        // Its arguments are the call's.
        assert_eq!(
            programs("wipe() { sudo dd if=/dev/zero of=\"$1\"; }; wipe /dev/sdb")[0].1,
            ["if=/dev/zero", "of=/dev/sdb"]
        );
        assert_eq!(
            programs("retry() { for i in 1 2 3; do \"$@\" && return; done; }; retry git push --force")[0].1,
            ["push", "--force"]
        );
        // A function calling another, defined in the same command.
        assert_eq!(names("a() { rm -rf build; }; b() { a; }; b"), ["rm"]);
        // One that starts two copies of itself at once is a fork bomb; one that calls itself once is not.
        for bomb in [":(){ :|:& };:", "bomb() { bomb | bomb & }; bomb", "f(){ f|f& };f"] {
            assert!(analyse(bomb).calls.iter().any(|c| c.forks_itself), "{bomb}");
        }
        assert!(analyse(":(){ :|:& }").calls.is_empty());
        // Functions calling functions many times grow by a power: bounded.
        let power = format!(
            "a(){{ {} }}; b(){{ {} }}; c(){{ {} }}; d(){{ ls; }}; {}",
            "b;".repeat(16),
            "c;".repeat(16),
            "d;".repeat(16),
            "a;".repeat(2000)
        );
        let calls = analyse(&power).calls.len();
        assert!(calls <= 2000 + EXPANDED_MAX, "{calls}");
        let once = analyse("countdown() { [ \"$1\" -gt 0 ] && countdown $(( $1 - 1 )); }; countdown 3");
        assert!(!once.calls.iter().any(|c| c.forks_itself), "{once:?}");
    }

    #[test]
    fn a_decoded_payload_run_by_a_shell_is_read() {
        assert_eq!(names("echo cm0gLXJmIH4= | base64 -d | sh"), ["echo", "base64", "rm"]);
        let sudo = &programs("echo c3VkbyBybSAtcmYgLw== | base64 --decode | bash")[2];
        assert_eq!(
            (sudo.0.as_str(), sudo.1.as_slice(), sudo.3),
            ("rm", ["-rf".to_string(), "/".to_string()].as_slice(), true)
        );
        assert_eq!(names("bash -c \"$(echo cm0gLXJmIH4= | base64 -d)\"").last().map(String::as_str), Some("rm"));
        assert_eq!(names("eval \"$(echo cm0gLXJmIH4= | base64 -d)\"").last().map(String::as_str), Some("rm"));
        // Decoded and only printed, or written to a file, it is data; from a file it is unseen.
        assert_eq!(names("echo cm0gLXJmIH4= | base64 -d"), ["echo", "base64"]);
        assert_eq!(names("echo cm0gLXJmIH4= | base64 -d > notes/decoded.txt"), ["echo", "base64"]);
        assert!(analyse("base64 -d payload.b64 | sh").calls[1].reads_script);
        assert_eq!(base64_decode("Z2l0IHN0YXR1cw=="), Some("git status".into()));
        assert_eq!(base64_decode("not base64!"), None);
    }

    #[test]
    fn what_earlier_parts_of_a_command_set_later_parts_use() {
        assert_eq!(programs("X=rm; $X -rf ~")[0].1, ["-rf", "~"]);
        assert_eq!(programs("DIR=/var/lib/app && sudo rm -rf \"$DIR\"")[0].1, ["-rf", "/var/lib/app"]);
        assert_eq!(programs("cd ~ && rm -rf *")[1].1, ["-rf", "~/*"]);
        assert_eq!(programs("cd / ; sudo rm -rf .")[1].1, ["-rf", "/*"]);
        // A project's own directory is still the project's `.`.
        assert_eq!(programs("cd /home/dev/shop && git add .")[1].1, ["add", "."]);
        assert_eq!(programs("cd ~ && cd src && rm -rf *")[2].1, ["-rf", "*"]);
        // A loop's body, once for each of its words.
        let looped = programs("for d in ~ /srv/app; do rm -rf \"$d\"; done");
        assert_eq!((looped[0].1[1].as_str(), looped[1].1[1].as_str()), ("~", "/srv/app"));
        // Loops inside loops are read once each: eight deep, 8 calls, not 8^8.
        let deep = format!("{}rm -rf \"$a\"{}", "for a in 1 2 3 4 5 6 7 8; do ".repeat(8), "; done".repeat(8));
        assert_eq!(analyse(&deep).calls.len(), 8);
        assert_eq!(programs("export TARGET=/var/lib/app; rm -rf $TARGET")[1].1, ["-rf", "/var/lib/app"]);
        // What a pipe printed is what `xargs` passes on; a here-string is a heredoc.
        assert_eq!(programs("echo ~ | xargs rm -rf")[1].1, ["-rf", "~"]);
        assert_eq!(programs("echo /home/dev | xargs -I{} rm -rf {}")[1].1, ["-rf", "/home/dev"]);
        assert_eq!(names("sh <<< 'rm -rf ~'"), ["rm"]);
        assert_eq!(names("printf '%s\\n' 'git push --force' | bash"), ["printf", "git"]);
        assert_eq!(names("busybox rm -rf ~"), ["rm"]);
        assert_eq!(
            programs("sudo systemd-run --on-active=10m /sbin/reboot")[0],
            ("/sbin/reboot".into(), vec![], false, true)
        );
        assert_eq!(programs("systemd-run --on-active 10m --unit later reboot")[0].0, "reboot");
        assert!(programs("systemd-run -H admin@web1 systemctl restart nginx")[0].2);
        assert_eq!(
            programs("salt '*' cmd.run 'rm -rf /tmp/cache/*'")[0],
            ("rm".into(), vec!["-rf".into(), "/tmp/cache/*".into()], true, false)
        );
        // Parallel shells run their command on every machine they name.
        for c in [
            "dsh -g web -M -c -- 'sudo reboot'",
            "mussh -H hosts.txt -m 4 -c 'sudo reboot'",
            "rd adhoc -p ops -F 'web.*' -f -- sudo reboot",
            "pdsh -w web[01-04] 'sudo reboot'",
        ] {
            assert_eq!(programs(c)[0], ("reboot".into(), vec![], true, true), "{c}");
        }
        assert_eq!(names("rd jobs list -p ops"), ["rd"]);
        // `docker context use` points later `docker` calls at that daemon.
        let compose = analyse("docker context use prod && docker compose up -d");
        assert!(compose.calls[1].remote);
        assert!(!analyse("docker context use default && docker compose up -d").calls[1].remote);
    }

    #[test]
    fn the_words_the_shell_makes_are_read() {
        assert_eq!(programs("rm -rf ~/{.ssh,.gnupg}")[0].1, ["-rf", "~/.ssh", "~/.gnupg"]);
        assert_eq!(programs("{rm,-rf,~}")[0], ("rm".into(), vec!["-rf".into(), "~".into()], false, false));
        assert_eq!(programs("rm -rf {~,/tmp/x}")[0].1, ["-rf", "~", "/tmp/x"]);
        assert_eq!(programs("$(printf rm) -rf ~")[1].0, "rm");
        assert_eq!(programs("`echo rm` -rf ~")[1].0, "rm");
        // Not expansions: a variable, find's `{}`, a brace with no comma, a quoted word.
        assert_eq!(programs("rm -rf ${DIR}/{}")[0].1, ["-rf", "${DIR}/{}"]);
        assert_eq!(programs("find . -exec rm {} +")[0].0, "rm");
        assert_eq!(programs("echo '{rm,-rf,~}'")[0].1, ["{rm,-rf,~}"]);
        // Braces in braces, and a bound on what one word becomes.
        assert_eq!(programs("touch {a,b{1,2}}")[0].1, ["a", "b1", "b2"]);
        assert!(programs(&format!("touch {}", "{a,b,c,d}".repeat(12)))[0].1.len() <= EXPANSION_MAX);
    }

    #[test]
    fn what_an_interpreter_runs_inline_is_judged() {
        assert_eq!(names("python3 -c \"import os; os.system('rm -rf ~')\""), ["rm", "python3"]);
        assert_eq!(
            programs("sudo python3 -c \"import shutil; shutil.rmtree('/var/lib/docker')\"")[0],
            ("rm".into(), vec!["-rf".into(), "/var/lib/docker".into()], false, true)
        );
        assert_eq!(names("node -e \"console.log('rm -rf ~')\""), ["node"]);
        assert_eq!(names("perl -ne 'print if /DROP TABLE/' db/schema.sql"), ["perl"]);
        // Awk's `system()`, and what it only prints.
        assert_eq!(names("awk -F: 'BEGIN { system(\"rm -rf ~\") }'"), ["rm", "awk"]);
        assert_eq!(names("awk '/system/ { print \"rm -rf ~\" }' log.txt"), ["awk"]);
        assert_eq!(names("gawk -f cleanup.awk data.txt"), ["gawk"]);
        // A program past the inline bound is not read, by `-e` as by operand.
        let long = format!("BEGIN {{ system(\"rm -rf ~\") }} {}", "#".repeat(super::super::inline::CODE_MAX));
        assert_eq!(names(&format!("awk '{long}'")), ["awk"]);
        assert_eq!(names(&format!("gawk -e '{long}'")), ["gawk"]);
    }

    #[test]
    fn a_devices_output_filter_is_its_pattern() {
        // A router's `| include A|B` filters by one pattern, run on the device: no program `shutdown`.
        assert_eq!(names("ssh admin@sw-cell3 'show logging | include LINK-3-UPDOWN|shutdown'"), ["show", "include"]);
        assert_eq!(
            names("ssh admin@10.20.2.23 'display interface Gi1/0/17 | include error|drop|CRC'"),
            ["display", "include"]
        );
        // A pipe that is a shell's still is one: into a program, or past a quoted pattern.
        assert_eq!(names("ssh web1 'dmesg | grep -i error | shutdown -h now'"), ["dmesg", "grep", "shutdown"]);
        assert_eq!(names("ssh sw1 'show run | include \"a|b\"'"), ["show", "include"]);
    }

    #[test]
    fn what_cannot_be_read_says_so() {
        assert!(analyse(&"(".repeat(500)).unreadable);
        // Compound commands nested past any one-liner: unread, never a stack overflow.
        let nested = format!("{}rm -rf ~{}", "if true; then ".repeat(3000), "; fi".repeat(3000));
        assert!(analyse(&nested).unreadable);
        let cases = format!("{}ls{}", "case a in a) ".repeat(2000), ";; esac".repeat(2000));
        assert!(analyse(&cases).unreadable);
        assert!(analyse(&"a".repeat(COMMAND_MAX + 1)).unreadable);
        assert!(analyse("echo 'unterminated").unreadable);
        assert_eq!(dequote(r#"a"b\"c"'d e'\ f"#), "ab\"cd e f");
    }
}

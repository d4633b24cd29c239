//! PowerShell run from a shell (`pwsh -Command '...'`, `powershell -c ...`): the statements it
//! runs, each as the words of one call, so a cmdlet is judged as a program is. A cmdlet of a
//! cloud or directory module (`Remove-MgUser`, `Set-AzVM`, `Remove-ADUser`), one aimed at
//! another computer (`-ComputerName`, `-Session`), and, once the code has connected to a service
//! (`Connect-ExchangeOnline; Set-Mailbox ...`), any cmdlet that is not one of PowerShell's own
//! local ones, changes another machine (rule 4). `Invoke-RestMethod` and `Invoke-WebRequest` are
//! read as the `curl` calls they are.

use super::shell::base;

/// One statement PowerShell runs: its words (each with whether it was quoted), and whether it
/// runs on, or changes, another machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    pub words: Vec<(String, bool)>,
    pub remote: bool,
}

/// Whether a program is PowerShell.
pub fn is_powershell(program: &str) -> bool {
    matches!(base(program).to_ascii_lowercase().as_str(), "pwsh" | "pwsh.exe" | "powershell" | "powershell.exe")
}

/// A PowerShell parameter's name matched in any case, whole or, as PowerShell allows, cut short
/// to at least `min` letters (`-c`, `-Com`, `-command`).
fn param(word: &str, name: &str, min: usize) -> bool {
    let Some(given) = word.strip_prefix('-').map(|w| w.trim_start_matches('-')) else { return false };
    given.len() >= min && given.len() <= name.len() && name[..given.len()].eq_ignore_ascii_case(given)
}

/// The code `pwsh` runs from its arguments: all that follows `-Command` (`-c`), as PowerShell
/// joins it, or `-CommandWithArgs`'s one word.
pub fn code_of(args: &[(String, bool)]) -> Option<String> {
    let at = args.iter().position(|(a, _)| param(a, "command", 1) || param(a, "commandwithargs", 8) || a == "-cwa")?;
    let rest = &args[at + 1..];
    let with_args = !param(&args[at].0, "command", 1);
    match rest {
        [] => None,
        [(code, _), ..] if with_args => Some(code.clone()),
        _ => Some(rest.iter().map(|(w, _)| w.as_str()).collect::<Vec<_>>().join(" ")),
    }
}

/// The script `pwsh` runs: `-File`'s value (`-f`), or, with no `-Command`, its first operand
/// past its own options.
pub fn script_of(args: &[String]) -> Option<&str> {
    if let Some(at) = args.iter().position(|a| param(a, "file", 1)) {
        return args.get(at + 1).map(String::as_str);
    }
    // Its options that take a value.
    const VALUED: [(&str, usize); 8] = [
        ("executionpolicy", 2),
        ("configurationname", 4),
        ("workingdirectory", 2),
        ("inputformat", 2),
        ("outputformat", 1),
        ("windowstyle", 1),
        ("settingsfile", 1),
        ("custompipename", 2),
    ];
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if param(a, "command", 1) || param(a, "encodedcommand", 1) {
            return None;
        }
        if !a.starts_with('-') {
            return Some(a);
        }
        let valued = VALUED.iter().any(|(name, min)| param(a, name, *min)) || a.eq_ignore_ascii_case("-ep");
        i += if valued { 2 } else { 1 };
    }
    None
}

/// Keywords that start a statement which is no call: their conditions and bodies are read as
/// the statements they hold.
const KEYWORDS: [&str; 24] = [
    "if", "elseif", "else", "foreach", "for", "while", "do", "until", "switch", "try", "catch", "finally", "return",
    "throw", "param", "function", "filter", "begin", "process", "end", "exit", "break", "continue", "trap",
];

/// Nouns of PowerShell's own cmdlets, which work on this machine whatever the code connected
/// to (`Select-Object`, `Export-Csv`, `Get-Date`).
const LOCAL_NOUNS: &[&str] = &[
    "object",
    "item",
    "childitem",
    "content",
    "csv",
    "json",
    "xml",
    "html",
    "host",
    "output",
    "location",
    "path",
    "date",
    "variable",
    "member",
    "table",
    "list",
    "wide",
    "string",
    "sleep",
    "module",
    "command",
    "help",
    "random",
    "clipboard",
    "credential",
    "securestring",
    "alias",
    "itemproperty",
    "acl",
    "filehash",
    "error",
    "warning",
    "verbose",
    "information",
    "progress",
    "transcript",
    "null",
    "gridview",
    "psrepository",
    "file",
    "process",
    "service",
    "computer",
    "job",
    "history",
    "timespan",
    "culture",
    "printer",
    "psdrive",
    "executionpolicy",
    "package",
    "packageprovider",
    "unique",
    "event",
    "localuser",
    "localgroup",
    "localgroupmember",
    "netadapter",
    "netipaddress",
    "volume",
    "disk",
    "partition",
    "scheduledtask",
];

/// Prefixes of the nouns of cloud and directory modules, each followed by a capital
/// (`MgUser`, `AzVM`, `ADUser`, `EXOMailbox`, `PnPFile`, `SPOSite`, `CsOnlineUser`).
/// Group Policy's objects live in the domain's directory too (`New-GPLink`, `Set-GPRegistryValue`).
const REMOTE_PREFIXES: [&str; 12] =
    ["Mg", "Az", "AzureAD", "Msol", "AD", "EXO", "Exo", "PnP", "SPO", "Cs", "Team", "GP"];

/// Parameters that aim a cmdlet at another computer.
/// (`Invoke-GPUpdate -Computer`'s is `computer`.)
const AIMED: [&str; 7] = ["computername", "computer", "cimsession", "session", "hostname", "vmname", "containerid"];

/// PowerShell's approved verbs that change or read, as a command line's first word shows them.
const APPROVED: [&str; 48] = [
    "Get",
    "Set",
    "New",
    "Remove",
    "Add",
    "Clear",
    "Invoke",
    "Start",
    "Stop",
    "Restart",
    "Enable",
    "Disable",
    "Update",
    "Install",
    "Uninstall",
    "Register",
    "Unregister",
    "Import",
    "Export",
    "Test",
    "Move",
    "Rename",
    "Copy",
    "Reset",
    "Grant",
    "Revoke",
    "Lock",
    "Unlock",
    "Suspend",
    "Resume",
    "Publish",
    "Send",
    "Sync",
    "Search",
    "Find",
    "Show",
    "Write",
    "Read",
    "Mount",
    "Dismount",
    "Backup",
    "Restore",
    "Approve",
    "Deny",
    "Initialize",
    "Enter",
    "Connect",
    "Select",
];

/// Whether a command line is PowerShell's: its first statement (past `$x =`) calls a cmdlet
/// named with an approved verb and a capitalised noun (`Disable-ADAccount ...`, `$s =
/// New-PSSession ...`). Looked at only when it starts with a capital or a `$`, as no shell
/// command of a Unix machine's does but rarely.
pub fn is_cmdlet_line(command: &str) -> bool {
    let command = command.trim_start();
    if !command.starts_with(|c: char| c.is_ascii_uppercase() || c == '$') {
        return false;
    }
    let mut words = command.split_whitespace();
    let mut first = words.next().unwrap_or("");
    if first.starts_with('$') {
        if words.next() != Some("=") {
            return false;
        }
        first = words.next().unwrap_or("");
    }
    let first = first.trim_end_matches(';');
    cmdlet(first).is_some_and(|(verb, noun)| {
        APPROVED.contains(&verb) && noun.starts_with(|c: char| c.is_ascii_uppercase()) && noun.len() > 1
    })
}

/// A cmdlet's name, `Verb-Noun`: the verb and the noun.
pub(crate) fn cmdlet(word: &str) -> Option<(&str, &str)> {
    let (verb, noun) = word.split_once('-')?;
    let letters = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric());
    (letters(verb) && letters(noun) && verb.starts_with(|c: char| c.is_ascii_alphabetic())).then_some((verb, noun))
}

fn remote_noun(noun: &str) -> bool {
    REMOTE_PREFIXES
        .iter()
        .any(|p| noun.strip_prefix(p).is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase())))
        || noun.eq_ignore_ascii_case("Mailbox")
        || noun.starts_with("Mailbox")
        || noun.starts_with("DistributionGroup")
}

/// A cmdlet that only shapes, filters or prints the values given it, or waits: `Select-Object`,
/// `Where-Object`, `Sort-Object`, `Format-Table`, `ConvertTo-Json`, `Write-Host`, `Out-String`,
/// `Import-Module`, `Add-PSSnapin` (which loads one, in Windows PowerShell), `Get-Date`,
/// `Start-Sleep`. Not `Tee-Object`, which writes a file.
fn pure(verb: &str, noun: &str) -> bool {
    let is = |a: &str, b: &str| a.eq_ignore_ascii_case(b);
    (is(noun, "object") && !is(verb, "tee"))
        || ["format", "convertto", "convertfrom"].iter().any(|v| is(verb, v))
        || (is(verb, "write")
            && ["host", "output", "verbose", "warning", "information", "debug", "progress", "error"]
                .iter()
                .any(|n| is(noun, n)))
        || (is(verb, "out") && ["string", "host", "null", "gridview", "default"].iter().any(|n| is(noun, n)))
        || (is(verb, "import") && is(noun, "module"))
        || (is(verb, "add") && is(noun, "pssnapin"))
        || (is(verb, "get") && is(noun, "date"))
        || (is(verb, "start") && is(noun, "sleep"))
        || (["join", "split"].iter().any(|v| is(verb, v)) && is(noun, "path"))
}

/// A statement being read, and where the statements nested in it begin.
#[derive(Default)]
struct Frame {
    words: Vec<(String, bool)>,
    word: String,
    quoted: bool,
    started: bool,
    /// The character that closes this frame (`)` or `}`), none at the top.
    closer: Option<char>,
    /// Where, in the statements read, this frame's current statement's nested ones begin.
    nested_from: usize,
}

impl Frame {
    fn end_word(&mut self) {
        if self.started {
            self.words.push((std::mem::take(&mut self.word), self.quoted));
        }
        self.started = false;
        self.quoted = false;
    }
}

/// The statements of PowerShell code, nested ones (in `( )`, `$( )`, `@( )` and script blocks
/// `{ }`) before the one that holds them.
pub fn statements(code: &str) -> Vec<Statement> {
    let chars: Vec<char> = code.chars().collect();
    let mut out: Vec<Statement> = Vec::new();
    let mut state = State::default();
    let mut stack = vec![Frame::default()];
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let frame = stack.last_mut().expect("the top frame stays");
        match c {
            '\'' => {
                // A literal string; `''` is a quote in it.
                frame.started = true;
                frame.quoted = true;
                i += 1;
                while i < chars.len() {
                    if chars[i] == '\'' {
                        if chars.get(i + 1) == Some(&'\'') {
                            frame.word.push('\'');
                            i += 2;
                            continue;
                        }
                        break;
                    }
                    frame.word.push(chars[i]);
                    i += 1;
                }
            }
            '"' => {
                // An expandable string: a backtick escapes the next character; `""` is a quote.
                frame.started = true;
                frame.quoted = true;
                i += 1;
                while i < chars.len() {
                    match chars[i] {
                        '`' if i + 1 < chars.len() => {
                            frame.word.push(chars[i + 1]);
                            i += 2;
                            continue;
                        }
                        '"' if chars.get(i + 1) == Some(&'"') => {
                            frame.word.push('"');
                            i += 2;
                            continue;
                        }
                        '"' => break,
                        ch => frame.word.push(ch),
                    }
                    i += 1;
                }
            }
            '`' => {
                // A line continued, or a character escaped.
                if let Some(n) = next
                    && n != '\n'
                    && n != '\r'
                {
                    frame.started = true;
                    frame.word.push(n);
                }
                i += 1;
            }
            '<' if next == Some('#') => {
                let end = (i + 2..chars.len().saturating_sub(1)).find(|&j| chars[j] == '#' && chars[j + 1] == '>');
                i = end.map_or(chars.len(), |j| j + 1);
            }
            '#' if !frame.started => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            '(' | '{' => {
                // A nested group or script block: read as statements of its own; where it stands,
                // one word stands for its value. A hashtable's `Key = value` lines are no calls.
                frame.started = true;
                frame.word.push('_');
                let nested_from = out.len();
                stack.push(Frame { closer: Some(if c == '(' { ')' } else { '}' }), nested_from, ..Frame::default() });
            }
            ')' | '}' if frame.closer == Some(c) => {
                let mut done = stack.pop().expect("a nested frame");
                finish(&mut done, &mut out, &mut state);
            }
            ';' | '\n' | '\r' | '|' => {
                finish(frame, &mut out, &mut state);
                if c == '|' && next == Some('|') {
                    i += 1;
                }
            }
            '&' if next == Some('&') => {
                finish(frame, &mut out, &mut state);
                i += 1;
            }
            ' ' | '\t' => frame.end_word(),
            _ => {
                frame.started = true;
                frame.word.push(c);
            }
        }
        i += 1;
    }
    while let Some(mut frame) = stack.pop() {
        finish(&mut frame, &mut out, &mut state);
    }
    out
}

/// Ends a frame's statement: kept when it is a call, with the statements nested in it sent
/// where it sends its own.
/// What the statements read so far have done that later ones depend on.
#[derive(Default)]
struct State {
    /// The code connected to a service (`Connect-ExchangeOnline`).
    connected: bool,
    /// Variables holding an item the code made itself (`$d = New-Item -ItemType Directory ...`),
    /// lower case, with their `$`.
    made: Vec<String>,
}

fn finish(frame: &mut Frame, out: &mut Vec<Statement>, state: &mut State) {
    frame.end_word();
    let mut words = std::mem::take(&mut frame.words);
    let nested_from = std::mem::replace(&mut frame.nested_from, out.len());
    // `$x = CALL`, `[int]$n += CALL`: the call.
    let mut assigned = None;
    if words.len() > 1
        && words[0].0.contains('$')
        && !words[0].1
        && matches!(words[1].0.as_str(), "=" | "+=" | "-=" | "*=" | "/=" | "??=")
    {
        assigned = words[0].0.find('$').map(|at| words[0].0[at..].to_ascii_lowercase());
        words.drain(..2);
    }
    // The call operators: `& "C:\tools\x.exe" args`, `. ./helpers.ps1`.
    let called = words.first().is_some_and(|(w, q)| !q && (w == "&" || w == "."));
    if called {
        words.remove(0);
    }
    let Some((head, quoted)) = words.first().cloned() else { return };
    let no_call = (quoted && !called)
        || head.starts_with(['$', '-', '[', '@', '_', '.', '(', '{', '!', '+', '*', '/', '%', '<', '>', '='])
        || head.starts_with(|c: char| c.is_ascii_digit())
        || head.contains('=')
        || KEYWORDS.iter().any(|k| head.eq_ignore_ascii_case(k));
    if no_call {
        return;
    }
    let lower = head.to_ascii_lowercase();
    let (verb, noun) = cmdlet(&head).unwrap_or(("", ""));
    // Signing in, and what only shapes or prints values in the pipeline: no call to judge
    // (what a `ForEach-Object` block runs was read as its own statements).
    // A remoting session opened or closed (`$s = New-PSSession -ComputerName X`, `Remove-PSSession
    // $s`) changes nothing there: what runs in it is judged (`Invoke-Command -Session $s ...`).
    let connect = verb.eq_ignore_ascii_case("connect");
    let session = noun.eq_ignore_ascii_case("pssession")
        && ["new", "remove", "get", "disconnect", "exit"].iter().any(|v| verb.eq_ignore_ascii_case(v));
    if pure(verb, noun) || connect || session || verb.eq_ignore_ascii_case("disconnect") {
        state.connected |= connect;
        return;
    }
    if let Some(name) = assigned
        && matches!(lower.as_str(), "new-item" | "ni" | "new-temporaryfile")
    {
        state.made.push(name);
    }
    // Removing only what the code itself made (`$d = New-Item ...; ...; Remove-Item $d -Recurse`)
    // takes away nothing that was there before: no call to judge, as `mktemp`'s own file is not.
    let operands: Vec<&str> = words[1..].iter().map(|(w, _)| w.as_str()).filter(|w| !w.starts_with('-')).collect();
    if matches!(lower.as_str(), "remove-item" | "ri" | "rm" | "del" | "erase" | "rd" | "rmdir")
        && !operands.is_empty()
        && operands.iter().all(|w| state.made.contains(&w.to_ascii_lowercase()))
    {
        return;
    }
    let aimed =
        words.iter().any(|(w, q)| !q && AIMED.iter().any(|p| param(w.split(':').next().unwrap_or(w), p, p.len())));
    let local = LOCAL_NOUNS.iter().any(|n| noun.eq_ignore_ascii_case(n));
    let remote = aimed || remote_noun(noun) || (state.connected && !noun.is_empty() && !local);
    // What a remote block runs (`Invoke-Command -ComputerName X -ScriptBlock { ... }`) runs there,
    // and is all the call does, as `ssh HOST CMD` is CMD.
    if remote && (lower == "invoke-command" || lower == "icm") && out.len() > nested_from {
        for nested in &mut out[nested_from..] {
            nested.remote = true;
        }
        return;
    }
    let words = match lower.as_str() {
        "invoke-restmethod" | "irm" | "invoke-webrequest" | "iwr" => as_curl(&words[1..]),
        _ => words,
    };
    out.push(Statement { words, remote });
}

/// `Invoke-RestMethod -Method Post -Uri URL -Body $b -OutFile F` as the `curl` call it is.
fn as_curl(args: &[(String, bool)]) -> Vec<(String, bool)> {
    let value = |name: &str, min: usize| {
        args.iter().position(|(a, q)| !q && param(a, name, min)).and_then(|i| args.get(i + 1)).map(|(v, _)| v.clone())
    };
    let mut words = vec![("curl".to_string(), false)];
    if let Some(method) = value("method", 1) {
        words.extend([("-X".to_string(), false), (method.to_ascii_uppercase(), false)]);
    }
    let uri = value("uri", 1).or_else(|| args.iter().find(|(a, q)| *q || !a.starts_with('-')).map(|(a, _)| a.clone()));
    words.extend(uri.map(|u| (u, false)));
    if let Some(body) = value("body", 1) {
        words.extend([("-d".to_string(), false), (body, true)]);
    }
    if let Some(file) = value("infile", 2) {
        words.extend([("-T".to_string(), false), (file, false)]);
    }
    if let Some(file) = value("outfile", 1) {
        words.extend([("-o".to_string(), false), (file, false)]);
    }
    words
}

/// A statement's words as a shell would write them: quoted where PowerShell quoted them.
pub fn shell_line(words: &[(String, bool)]) -> String {
    words
        .iter()
        .map(|(w, q)| if *q { format!("'{}'", w.replace('\'', "'\\''")) } else { super::shell::quote(w) })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heads(code: &str) -> Vec<(String, bool)> {
        statements(code).into_iter().map(|s| (s.words[0].0.clone(), s.remote)).collect()
    }

    #[test]
    fn the_code_pwsh_runs() {
        let args = |s: &[&str]| s.iter().map(|a| (a.to_string(), false)).collect::<Vec<_>>();
        assert_eq!(code_of(&args(&["-NoProfile", "-Command", "Get-Date"])).as_deref(), Some("Get-Date"));
        assert_eq!(code_of(&args(&["-c", "Remove-Item", "-Recurse", "x"])).as_deref(), Some("Remove-Item -Recurse x"));
        assert_eq!(code_of(&args(&["-Com", "Get-Date"])).as_deref(), Some("Get-Date"));
        assert_eq!(code_of(&args(&["-File", "x.ps1"])), None);
        let words = |s: &[&str]| s.iter().map(|a| a.to_string()).collect::<Vec<_>>();
        assert_eq!(script_of(&words(&["-ExecutionPolicy", "Bypass", "-File", "./x.ps1"])), Some("./x.ps1"));
        assert_eq!(script_of(&words(&["-NoProfile", "-ep", "Bypass", "./sync.ps1", "-Apply"])), Some("./sync.ps1"));
        assert_eq!(script_of(&words(&["-c", "Get-Date"])), None);
    }

    #[test]
    fn cmdlets_of_a_connected_service_change_it() {
        assert_eq!(
            heads("Connect-ExchangeOnline -ShowBanner:$false; Set-Mailbox -Identity k@x.com -Type Shared"),
            [("Set-Mailbox".into(), true)]
        );
        // PowerShell's own cmdlets stay here, connected or not.
        assert_eq!(
            heads("Connect-MgGraph -NoWelcome; Get-MgUser -All | Select-Object Name | Export-Csv -Path u.csv"),
            [("Get-MgUser".into(), true), ("Export-Csv".into(), false)]
        );
        assert_eq!(heads("Remove-ADUser -Identity jdoe -Confirm:$false"), [("Remove-ADUser".into(), true)]);
        // Loading a snap-in is no call, as importing a module is none.
        assert_eq!(
            heads("Add-PSSnapin Citrix*; Get-BrokerMachine -MaxRecordCount 10"),
            [("Get-BrokerMachine".into(), false)]
        );
        assert_eq!(heads("Remove-Item -Recurse -Force C:\\build"), [("Remove-Item".into(), false)]);
    }

    #[test]
    fn nested_code_and_remote_blocks() {
        // A pipeline's script block, a subexpression, an assignment.
        let s = heads(
            "$sku = Get-MgSubscribedSku | Where-Object { $_.SkuPartNumber -eq 'E3' }; Get-MgUser -All | ForEach-Object { Remove-MgUser -UserId $_.Id }",
        );
        assert_eq!(
            s,
            [("Get-MgSubscribedSku".into(), true), ("Get-MgUser".into(), true), ("Remove-MgUser".into(), true)]
        );
        let s = heads("Invoke-Command -ComputerName fs01 -ScriptBlock { Stop-Service Spooler }");
        assert_eq!(s, [("Stop-Service".into(), true)]);
        let s = heads("Invoke-Command -ComputerName fs01 -FilePath C:\\ops\\fix.ps1");
        assert_eq!(s, [("Invoke-Command".into(), true)]);
        // Strings, comments, hashtables and keywords are no calls.
        assert!(heads("'Remove-MgUser -UserId x' # Remove-MgUser\n<# Remove-Mailbox #> @{Subject='x'}").is_empty());
        assert_eq!(heads("if ($x) { Restart-Computer -Force }"), [("Restart-Computer".into(), false)]);
    }

    #[test]
    fn removing_what_the_code_made_is_no_call_and_a_path_joined_is_none() {
        let s = heads(
            "$d = New-Item -ItemType Directory -Path (Join-Path $env:TEMP \"x-$(Get-Random)\"); winget export -o \"$d\\apps.json\"; Remove-Item $d -Recurse -Force",
        );
        assert_eq!(s, [("New-Item".into(), false), ("winget".into(), false)]);
        // A remoting session is no call; what it runs is.
        let s = heads(
            "$s = New-PSSession -ComputerName HV-02; Invoke-Command -Session $s -ScriptBlock { Get-VM }; Remove-PSSession $s",
        );
        assert_eq!(s, [("Get-VM".into(), true)]);
        // Not what it did not make.
        let s = heads("$d = Get-Item C:\\Data; Remove-Item $d -Recurse -Force");
        assert_eq!(s, [("Get-Item".into(), false), ("Remove-Item".into(), false)]);
    }

    #[test]
    fn rest_calls_are_curl() {
        let s = statements("Invoke-RestMethod -Method Post -Uri https://api.x.com/v1/revoke -Body $b");
        assert_eq!(shell_line(&s[0].words), "curl -X POST https://api.x.com/v1/revoke -d '$b'");
        let s = statements("irm https://api.x.com/v1/users");
        assert_eq!(shell_line(&s[0].words), "curl https://api.x.com/v1/users");
    }
}

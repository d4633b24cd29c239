//! `decisions install`: the machine payload, the project's config seed, and shipped catalogs.
//! A re-run updates rather than clobbers; nothing is written when any input is refused.

use std::path::{Path, PathBuf};

use decisions::Env;
use decisions::agent::settings::{Edit, Scope, hook_command, mcp_register, wire};
use decisions::agent::{Agent, HookEvent};
use decisions::install::{SHIPPED, check_provider, payload, payload_dir, permission_for, seed_config};

use crate::exit;
use crate::exit::CliError;
use crate::wiring::{Place, WiringArgs, find_project, hook_program, notes};

/// Install the payload (README, catalog schema, provider templates) and seed the project's config
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The provider to make active in the project [default: LEOPOLD_DECISIONS_PROVIDER]
    #[arg(long, value_name = "NAME")]
    provider: Option<String>,
    /// The project to seed [default: LEOPOLD_PROJECT_DIR, else the nearest one above the working directory]
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Shipped catalogs to copy into the project, comma-separated (an existing file is kept)
    #[arg(long, value_name = "a,b", value_delimiter = ',')]
    catalogs: Vec<String>,
    #[command(flatten)]
    wiring: WiringArgs,
    /// The hook event to wire, for the agents that have both: PreToolUse judges every shell
    /// call, PermissionRequest only those the agent would ask you about
    #[arg(long, value_name = "EVENT", value_parser = event, requires = "agents")]
    event: Option<HookEvent>,
    /// With --agent codex: have Codex trust exactly our hook entry, through Codex's own API
    /// (codex app-server), so it runs without the /hooks screen; never another hook
    #[arg(long, requires = "agents")]
    trust: bool,
    /// Also register the project's MCP server (`decisions mcp`) in each agent's own settings:
    /// Claude Code's .mcp.json, Codex's [mcp_servers.decisions], Gemini CLI's mcpServers
    #[arg(long, requires = "agents")]
    mcp: bool,
}

fn event(s: &str) -> Result<HookEvent, String> {
    HookEvent::parse(s)
        .filter(|e| matches!(e, HookEvent::PreToolUse | HookEvent::PermissionRequest))
        .ok_or_else(|| format!("expected PreToolUse or PermissionRequest, found {s:?}"))
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    let env = Env::Process;
    // Check everything before writing anything.
    let (mut provider, from_flag) = match args.provider {
        Some(p) => (Some(p), true),
        None => (env.get(decisions::PROVIDER_ENV), false),
    };
    if let Some(p) = &provider
        && let Err(e) = check_provider(p)
    {
        let what = if from_flag { "--provider" } else { decisions::PROVIDER_ENV };
        let e =
            if from_flag { CliError::usage(format!("{what}: {e}")) } else { CliError::fail(format!("{what}: {e}")) };
        return Err(e.into());
    }
    let mut catalogs: Vec<(&str, &str)> = Vec::new();
    for name in args.catalogs.iter().map(|c| c.trim()).filter(|c| !c.is_empty()) {
        match SHIPPED.iter().find(|(n, _)| *n == name) {
            Some(c) => catalogs.push(*c),
            None => {
                let known: Vec<&str> = SHIPPED.iter().map(|(n, _)| *n).collect();
                let e = CliError::usage(format!(
                    "--catalogs: no shipped catalog \"{name}\" (shipped: {})",
                    known.join(", ")
                ));
                return Err(e.into());
            }
        }
    }
    let project = match args.project {
        Some(dir) if dir.is_dir() => Some(dir),
        Some(dir) => return Err(CliError::usage(format!("--project {}: no such directory", dir.display())).into()),
        None => find_project(),
    };
    if project.is_none() && !catalogs.is_empty() {
        let e = CliError::fail("--catalogs needs a project, and none was found above the working directory");
        return Err(e.hint("pass --project DIR").into());
    }
    // The agents' settings: every edit is worked out, and every file read and parsed, before
    // anything is written; a file that does not parse stops the install with nothing written.
    if args.trust && !args.wiring.agents.contains(&Agent::Codex) {
        return Err(CliError::usage("--trust: only Codex keeps a trust of its hooks; pass --agent codex").into());
    }
    let mut wirings = plan_wiring(&args.wiring, args.event, project.as_deref(), &env)?;
    // Whether each hook entry changes, before a server entry in the same file joins its edit.
    let hooks_changed: Vec<bool> = wirings.iter().map(|(_, edit, ..)| *edit != Edit::Unchanged).collect();
    let servers = if args.mcp { plan_mcp(&args.wiring, project.as_deref(), &mut wirings)? } else { Vec::new() };
    // An agent wired into a project with no provider chosen, here or before, gets the model
    // inside the binary: the hook protects from the first minute, with no key.
    let mut defaulted = false;
    if provider.is_none()
        && !wirings.is_empty()
        && let Some(p) = &project
    {
        let config = decisions::load_config(&p.join(".leopold"));
        if !matches!(config, decisions::ConfigFile::Malformed { .. })
            && config.config().is_none_or(|c| c.provider.is_none())
        {
            provider = Some(decisions::builtin::NAME.to_string());
            defaulted = true;
        }
    }
    // The hook reads the project's permission.json: an agent wired into a project gets it,
    // with the bars fitted for the provider seeded.
    if !wirings.is_empty() && project.is_some() && !catalogs.iter().any(|(n, _)| *n == "permission") {
        catalogs.push(("permission", permission_for(provider.as_deref())));
    }
    if let Some(i) = catalogs.iter().position(|(n, _)| *n == "permission") {
        catalogs[i].1 = permission_for(provider.as_deref());
    }
    let decisions_dir = project.as_ref().map(|p| p.join(".leopold").join("decisions"));
    let seeded = match (&decisions_dir, &provider) {
        (Some(dir), Some(p)) => {
            let path = dir.join("config.json");
            // Only a config that is not there is seeded afresh: one that cannot be read is
            // never replaced.
            let existing = match decisions::read_project_file(&path) {
                Ok(text) => Some(text),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
                    return Err(CliError::fail(format!("{} is not a regular file", path.display()))
                        .hint("move it aside and run install again")
                        .into());
                }
                Err(e) => return Err(CliError::fail(format!("cannot read {}: {e}", path.display())).into()),
            };
            let text = seed_config(existing.as_deref(), &path, p).map_err(|e| CliError::fail(e.to_string()))?;
            Some((path, existing, text, p.clone()))
        }
        _ => None,
    };

    let dir = payload_dir(&env);
    for (name, contents) in payload() {
        write_if_changed(&dir.join(name), &contents)?;
    }
    println!("payload: {}", dir.display());
    if let Some((path, existing, text, p)) = &seeded {
        if existing.as_deref() == Some(text.as_str()) {
            println!("config: {} unchanged (provider {p})", path.display());
        } else {
            write_if_changed(path, text)?;
            let verb = if existing.is_some() { "updated" } else { "seeded" };
            let why = if defaulted {
                ": the model inside this binary, no key and no network; --provider NAME chooses another, --provider none keeps the hook silent"
            } else {
                ""
            };
            println!("config: {verb} {} (provider {p}{why})", path.display());
        }
    } else if let Some(dir) = &decisions_dir {
        let path = dir.join("config.json");
        let why = format!("no provider chosen: pass --provider NAME, or set {}", decisions::PROVIDER_ENV);
        if path.exists() {
            println!("config: {} left as it is ({why})", path.display());
        } else {
            println!("config: none written to {} ({why})", path.display());
        }
    } else {
        println!(
            "config: none seeded: no project found at or above the working directory (no .leopold, no git top level); name one with --project DIR"
        );
    }
    if let Some((path, _, text, p)) = &seeded {
        for line in todo(path, text, p) {
            println!("todo: {line}");
        }
    }
    if let Some(dir) = &decisions_dir {
        for (name, text) in catalogs {
            let path = dir.join(format!("{name}.json"));
            if path.exists() {
                println!("catalog: {} kept as it is", path.display());
            } else {
                write_if_changed(&path, text)?;
                println!("catalog: {} copied", path.display());
            }
        }
    }
    let mut changed = Vec::new();
    for ((place, edit, event, command), did) in wirings.iter().zip(hooks_changed) {
        place.apply(edit).map_err(|e| CliError::fail(format!("cannot write {}: {e}", place.path.display())))?;
        let how = if did { "wired into" } else { "already wired in" };
        println!("agent: {} {how} {} ({}): {command}", place.agent.name(), place.path.display(), event.name());
        changed.push(did);
    }
    for server in &servers {
        let did = match &server.own {
            Some((place, edit)) => {
                place.apply(edit).map_err(|e| CliError::fail(format!("cannot write {}: {e}", place.path.display())))?
            }
            None => server.changed,
        };
        let how = if did { "registered in" } else { "already registered in" };
        println!("mcp: {} {how} {}: {} mcp", server.agent.name(), server.path.display(), server.program);
        for note in crate::wiring::mcp_notes(server.agent).iter().filter(|_| did) {
            println!("todo: {note}");
        }
    }
    // What each agent still needs, said once every entry is written (Copilot's reads Claude
    // Code's); Codex's trust, when asked for, is Codex's own write.
    let root = project.clone().or_else(|| std::env::current_dir().ok()).unwrap_or_default();
    let mut trust_failed = None;
    for ((place, _, event, command), did) in wirings.iter().zip(changed) {
        let mut trusted = false;
        if args.trust && place.agent == Agent::Codex {
            match crate::codex::trust(&root, &place.path, command) {
                Ok((file, hook)) => {
                    println!(
                        "agent: codex trusts `{command}` ({}, {}), written by Codex into {}",
                        hook.key,
                        hook.current_hash,
                        file.display()
                    );
                    trusted = true;
                }
                Err(e) => trust_failed = Some(e),
            }
        }
        let (todos, warnings) = notes(place.agent, place.scope, *event, &root, &env);
        // Codex's trust, each run until it is given; the rest when the entry is new or changed.
        if place.agent == Agent::Codex && !trusted {
            println!("todo: {}", crate::wiring::codex_trust_todo());
        }
        for note in todos.iter().filter(|_| did) {
            println!("todo: {note}");
        }
        for w in warnings {
            println!("warning: {w}");
        }
    }
    if let Some(e) = trust_failed {
        return Err(CliError::fail(format!("--trust: {e}; the hook is wired, and Codex does not trust it yet"))
            .hint(crate::wiring::CODEX_TRUST_ROUTES)
            .into());
    }
    if !wirings.is_empty() {
        println!(
            "next: `decisions doctor --probe` says whether the hook reaches a model; `decisions hook test \"rm -rf ~\"` shows what it would do"
        );
    }
    Ok(exit::OK)
}

/// Each agent's settings with our hook wired in, read and worked out, not yet written.
fn plan_wiring(
    args: &WiringArgs,
    event: Option<HookEvent>,
    project: Option<&Path>,
    env: &Env,
) -> anyhow::Result<Vec<(Place, Edit, HookEvent, String)>> {
    if args.agents.is_empty() {
        return Ok(Vec::new());
    }
    let root = match (project, args.scope) {
        (Some(p), _) => p.to_path_buf(),
        (None, Scope::User) => PathBuf::new(),
        (None, Scope::Project) => {
            let e = CliError::fail(
                "--agent with --scope project needs a project, and none was found above the working directory",
            );
            return Err(e.hint("pass --project DIR, or --scope user").into());
        }
    };
    let program = hook_program();
    let mut planned = Vec::new();
    for &agent in &args.agents {
        if planned.iter().any(|(p, ..): &(Place, Edit, HookEvent, String)| p.agent == agent) {
            continue;
        }
        // Gemini CLI has one event that can deny.
        let event = match event {
            None => agent.events()[0],
            Some(e) if agent.events().contains(&e) => e,
            Some(e) => {
                let e = CliError::usage(format!(
                    "--event {}: {} has only {}",
                    e.name(),
                    agent.name(),
                    agent.events()[0].name()
                ));
                return Err(e.into());
            }
        };
        let place = Place::read(agent, args.scope, &root, env).map_err(|e| CliError::fail(e.to_string()))?;
        let command = hook_command(&program, agent);
        let edit = wire(place.text.as_deref(), agent, event, &command, &place.path)
            .map_err(|e| CliError::fail(e.to_string()).hint("fix the file, or move it aside, and run install again"))?;
        planned.push((place, edit, event, command));
    }
    Ok(planned)
}

/// Our MCP server's entry in one agent's settings, worked out, not yet written.
struct McpPlan {
    agent: Agent,
    path: PathBuf,
    program: String,
    /// Whether our entry changes.
    changed: bool,
    /// The edit of a file of its own; none when the file is the one the hook is wired in
    /// (Codex's config.toml, Gemini CLI's settings.json): that edit then carries both.
    own: Option<(Place, Edit)>,
}

/// Each agent's MCP settings with our server registered, read and worked out on top of the
/// hook's edits, not yet written.
fn plan_mcp(
    args: &WiringArgs,
    project: Option<&Path>,
    wirings: &mut [(Place, Edit, HookEvent, String)],
) -> anyhow::Result<Vec<McpPlan>> {
    let Some(project) = project.filter(|_| args.scope == Scope::Project) else {
        let e = CliError::usage(
            "--mcp registers a project's server, in the project's settings: it needs a project and --scope project",
        );
        return Err(e.hint("pass --project DIR").into());
    };
    let program = hook_program();
    let mut planned = Vec::new();
    for &agent in &args.agents {
        if planned.iter().any(|p: &McpPlan| p.agent == agent) {
            continue;
        }
        let fix = |e: String| CliError::fail(e).hint("fix the file, or move it aside, and run install again");
        let place = Place::read_mcp(agent, project).map_err(|e| fix(e.to_string()))?.ok_or_else(|| {
            CliError::usage(format!(
                "--mcp: {} is not one we register the server with (claude-code, codex, gemini)",
                agent.name()
            ))
        })?;
        let shared = wirings.iter_mut().find(|(p, ..)| p.path == place.path);
        let before = match &shared {
            Some((hook_place, hook_edit, ..)) => hook_place.after(hook_edit),
            None => place.text.clone(),
        };
        let edit = mcp_register(before.as_deref(), agent, &program, &place.path).map_err(|e| fix(e.to_string()))?;
        let changed = edit != Edit::Unchanged;
        let own = match shared {
            Some((_, hook_edit, ..)) => {
                if changed {
                    *hook_edit = edit;
                }
                None
            }
            None => Some((place.clone(), edit)),
        };
        planned.push(McpPlan { agent, path: place.path, program: program.clone(), changed, own });
    }
    Ok(planned)
}

/// What the seeded provider still needs before it can be asked, and where to set it: a
/// descriptor field left empty (generic's endpoint and model, a gateway's model), the key
/// variable, and for an uncalibrated provider, catalogs with bars of its own.
fn todo(path: &Path, config: &str, provider: &str) -> Vec<String> {
    let config = decisions::parse_config(config, path.to_path_buf());
    let Ok(d) = decisions::descriptor_for(provider, &config) else { return Vec::new() };
    if d.name == decisions::NONE {
        return Vec::new();
    }
    let mut out = Vec::new();
    let in_process = d.name == decisions::builtin::NAME;
    let fields: Vec<&str> = [("endpoint", &d.endpoint), ("model", &d.model)]
        .into_iter()
        .filter(|(f, v)| v.trim().is_empty() && !(in_process && *f == "endpoint"))
        .map(|(f, _)| f)
        .collect();
    if !fields.is_empty() {
        let quoted: Vec<String> = fields.iter().map(|f| format!("\"{f}\"")).collect();
        out.push(format!(
            "fill in {} under \"providers\" > \"{provider}\" in {}",
            quoted.join(" and "),
            path.display()
        ));
    }
    if let Some(var) = d.auth_env.as_ref().filter(|v| !v.is_empty() && Env::Process.get(v).is_none()) {
        out.push(format!("export {var} with the key (it is read at call time, never stored)"));
    }
    if !d.calibrated {
        out.push(format!(
            "\"{provider}\" is uncalibrated: each catalog needs \"thresholds_for\": \"{provider}\" and bars of its own (docs/providers.md, \"Starting an uncalibrated provider\")"
        ));
    }
    if !out.is_empty() {
        out.push("`decisions doctor` says when it is ready".into());
    }
    out
}

/// Write a file only when its contents differ, so a repeated install changes no byte. The
/// write is atomic: a crash never leaves a half-written config.
fn write_if_changed(path: &Path, contents: &str) -> anyhow::Result<()> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == contents) {
        return Ok(());
    }
    decisions::file::write_atomic(path, contents.as_bytes())
        .map_err(|e| CliError::fail(format!("cannot write {}: {e}", path.display())).into())
}

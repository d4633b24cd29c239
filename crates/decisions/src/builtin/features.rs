//! What the model sees of one call: its program, its subcommands, its flags, the kinds of path
//! it names, where it writes, and whether it runs as root, elsewhere or from code it cannot see.
//! Each is a string, hashed into one of [`BUCKETS`]. Words of text a call takes as data (an
//! `echo`'s arguments, a commit message, a search pattern) are not features: they say nothing
//! of what the call does.

use super::shell::{
    Call, FIND_PICKS, SQL_CLIENTS, base, database_client, first_operand, in_lines, juju_run_targets, option_values,
};

/// How many buckets the features are hashed into.
pub const BUCKETS: usize = 1 << 16;

/// Programs that write a device's firmware.
const FLASHERS: [&str; 19] = [
    "esptool.py",
    "esptool",
    "espflash",
    "dfu-util",
    "dfu-programmer",
    "avrdude",
    "flashrom",
    "openocd",
    "st-flash",
    "stm32flash",
    "nrfjprog",
    "probe-rs",
    "picotool",
    "fastboot",
    "heimdall",
    "west",
    "idf.py",
    "pio",
    "arduino-cli",
];

/// Programs whose arguments are text they print, search for or store, never a command.
const DATA_TOOLS: [&str; 18] = [
    "echo", "printf", "grep", "egrep", "fgrep", "rg", "ag", "ack", "awk", "sed", "jq", "yq", "cat", "less", "head",
    "tail", "wc", "sort",
];
/// The LVM tools, whose `--test` is a dry run.
const LVM: [&str; 10] = [
    "lvremove", "vgremove", "pvremove", "lvcreate", "vgcreate", "pvcreate", "lvextend", "lvreduce", "lvresize",
    "vgreduce",
];
/// Options whose value is a message or a title: data.
const MESSAGE_FLAGS: [&str; 10] =
    ["-m", "--message", "--title", "-t", "--body", "-b", "--notes", "--description", "--subject", "--comment"];

/// Programs that run a script file named by their first argument.
const INTERPRETERS: [&str; 14] = [
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "python",
    "python3",
    "node",
    "ruby",
    "perl",
    "pwsh",
    "pwsh.exe",
    "powershell",
    "powershell.exe",
];

/// The features of one call, as strings.
pub fn of(call: &Call) -> Vec<String> {
    let mut f = Vec::with_capacity(32);
    let program = call.program.to_ascii_lowercase();
    let tool = base(&program).to_string();
    f.push("bias".to_string());
    let script = script(call, &program, &tool);
    if let Some(s) = &script {
        f.push("x=script".into());
        for w in words(base(s)) {
            f.push(format!("n={w}"));
        }
    } else {
        f.push(format!("t={tool}"));
    }
    // Every script is one program to the features that follow: its name is all that differs.
    let tool = if script.is_some() { "<script>".to_string() } else { tool };
    let t = |s: &str| format!("t={tool}|{s}");
    if call.reads_script {
        f.push("x=reads_script".into());
    }
    if call.remote {
        f.push("remote".into());
        f.push(t("remote"));
    }
    if call.elevated {
        f.push("sudo".into());
        f.push(t("sudo"));
    }
    if call.xargs {
        f.push("xargs".into());
        f.push(t("xargs"));
    }
    let data = DATA_TOOLS.contains(&tool.as_str());
    let rolled_back = rolls_back(call, &tool);
    let args = &call.args[..own_args(call, &tool)];
    // Subcommands: the leading words that are not flags or paths (`git push`, `aws s3 rm`).
    let mut subs = Vec::new();
    // The two bare words after those, for the verbs of a deeper command tree (`gcloud compute
    // instances delete`, `az group delete`): they stay operands to every other feature.
    let mut deeper: Vec<String> = Vec::new();
    let mut skip_next = false;
    let mut valued = false;
    // Azure's options take lists of bare words (`--secret-permissions get list`): its command
    // tree's words all come before its first option.
    let mut tree_ended = false;
    for (i, a) in args.iter().enumerate() {
        if skip_next {
            skip_next = false;
            continue;
        }
        let quoted = call.quoted.get(i).copied().unwrap_or(false);
        if let Some(flag) = a.strip_prefix('-').filter(|_| a.len() > 1) {
            for fl in flags(flag) {
                f.push(format!("f={fl}"));
                f.push(t(&format!("f={fl}")));
                if let Some(s) = subs.first() {
                    f.push(format!("t={tool}|s={s}|f={fl}"));
                }
            }
            tree_ended = tool == "az" && !subs.is_empty();
            let name = a.split('=').next().unwrap_or(a);
            // gsutil's `-m` is no message but its switch to run in parallel (`gsutil -m rsync
            // ...`): the word after it is its subcommand.
            skip_next = MESSAGE_FLAGS.contains(&name) && !a.contains('=') && !(name == "-m" && tool == "gsutil");
            // A message's own text is skipped; the word after it is no option's value.
            valued = !skip_next && takes_value(a);
            continue;
        }
        // The word after a long option that takes a value is that value (`--config Release`,
        // `--ks-key-alias upload`), not a subcommand; where a subcommand would be, it is not
        // an operand either, as a subcommand is not.
        let value = std::mem::take(&mut valued);
        // A capitalised name (`-configuration Release`, `-scheme Acme`, `open -a Safari`) is no
        // subcommand: those are lower case, or all capitals (`redis-cli FLUSHALL`).
        let named = a.starts_with(|c: char| c.is_ascii_uppercase()) && a.chars().any(|c| c.is_ascii_lowercase());
        if subs.len() < 2 && !quoted && is_subcommand(a) && !named {
            if !value {
                subs.push(a.to_ascii_lowercase());
            }
            continue;
        }
        if !value && !named && !tree_ended && deeper.len() < 2 && !quoted && is_subcommand(a) {
            deeper.push(a.to_ascii_lowercase());
        }
        let class = if i > 0 && host_option(&args[i - 1], a) { "host" } else { path_class(a) };
        f.push(format!("p={class}"));
        f.push(t(&format!("p={class}")));
        if let Some(s) = subs.first() {
            f.push(format!("t={tool}|s={s}|p={class}"));
        }
        // A statement handed to a database client or an API is what it does; an SQL comment in
        // it is not (`SELECT 1; -- DROP TABLE users`), nor is a value the shell puts there
        // (`psql "$(heroku config:get DATABASE_URL)"`, `"$DATABASE_URL"`): its words are a name.
        if quoted && !data && !rolled_back && a.len() < 2000 && !a.starts_with('$') {
            let code = if SQL_CLIENTS.contains(&tool.as_str()) { sql_code(a) } else { a.clone() };
            for w in words(&code).into_iter().take(12) {
                f.push(format!("q={w}"));
                f.push(t(&format!("q={w}")));
            }
        }
    }
    // A program named for what it does (`dropdb`, `lvcreate`, `userdel`, `mongorestore`): the
    // kind of verb in its name, so one no row names is judged by it too.
    let verbs = match &script {
        Some(_) => Vec::new(),
        None => cmdlet_verbs(&call.program).unwrap_or_else(|| name_verbs(&tool)),
    };
    for kind in &verbs {
        f.push(format!("v={kind}"));
    }
    // What the labelling rules turn on, read off the call: the model learns what each is worth.
    let facts = facts(call, &tool, &verbs, args, &subs, &deeper);
    // Rule 4: on another machine, a call that changes anything is 3; a program named for
    // changing (`apps:destroy`, `useradd`) changes.
    let reads = |x: &&str| matches!(*x, "read" | "read_verb" | "db_read" | "print" | "help" | "dry_run" | "download");
    let named_change = verbs.iter().any(|v| *v != "read");
    // Output thrown away (`2>/dev/null`) is no write.
    let writes = call.writes.iter().any(|(_, target)| target != "/dev/null");
    if call.remote && (facts.iter().any(|x| !reads(x)) || named_change || writes) {
        f.push("R=remote_change".into());
    }
    // Aimed at another machine by an address, not a shell there (`serve deploy --address
    // http://ray-head:52365`, `mlflow gc --backend-store-uri postgresql://...@db/...`), with a
    // verb or option that changes, destroys or restores: what rule 4 says of a remote command.
    let acts = |x: &&str| {
        matches!(*x, "destroy_verb" | "change_verb" | "restore_verb" | "destroy_option" | "db_restore" | "publish_verb")
    };
    // A restore written to a file here (`litestream restore -o data/app.db s3://...`) restores
    // from there, not onto it.
    let output = || args.iter().any(|a| a == "-o" || a == "--output" || a.starts_with("--output="));
    let elsewhere = |x: &&str| acts(x) && !(matches!(*x, "restore_verb" | "db_restore") && output());
    if !call.remote
        && facts.iter().any(elsewhere)
        && !facts.iter().any(reads)
        && (aims_elsewhere(args) || sap_host_elsewhere(&tool, args))
        && !local_emulator(&tool, args)
    {
        f.push("R=elsewhere_change".into());
    }
    // Made by a client whose every change is made on a server or a service: a cluster's scheduler
    // (`scontrol`, `sacctmgr`), a hosting platform (`fly`), a Workspace tenant (`gam`). Not what
    // it publishes (a scheduler's `release` lets a held job run), nor what only reads.
    // Cobbler's own records (`system`, `profile`, `distro`, ...) are what it serves; importing a
    // distribution or updating its signatures changes this machine, as kolla-ansible's
    // `install-deps` does.
    let first = subs.first().map_or("", String::as_str);
    let records = match tool.as_str() {
        "cobbler" => matches!(first, "system" | "profile" | "distro" | "repo" | "image" | "menu"),
        "kolla-ansible" => first != "install-deps",
        // Pacemaker's `pcs -f FILE` and HPE's `ilorest set` without `--commit` change a draft
        // here, not the cluster or the server.
        "pcs" | "ilorest" => !drafts_here(&tool, args),
        // tldr's `xe` is an `xargs`: only Citrix Hypervisor's `xe NOUN-VERB` is a pool's.
        "xe" => xe_command(args).is_some(),
        "pmrep" => first != "connect",
        "condor_off" | "condor_on" | "condor_restart" | "condor_reconfig" => {
            ["-all", "-name", "-pool", "-addr"].iter().any(|o| call.args.iter().any(|a| a == o))
        }
        // PHP's `composer` works here: only IBM Workload Scheduler's, given one quoted command, is
        // the scheduler's database.
        "composer" => iws_command(call, args).is_some(),
        "planman" => !matches!(first, "crtfc" | "crttp"),
        _ => true,
    };
    // So are Dell PowerMax's arrays, through Solutions Enabler, and HPE 3PAR's.
    if (SERVED.contains(&tool.as_str()) || SYMCLI.contains(&tool.as_str()) || threepar_fact(&tool).is_some())
        && records
        && facts.iter().any(|x| *x != "publish_verb" && acts(x))
        && !facts.iter().any(reads)
    {
        f.push("R=served_change".into());
    }
    // Production, and nothing says the call only reads it.
    if facts.contains(&"production") && !facts.iter().any(reads) {
        f.push("R=production_change".into());
    }
    for fact in &facts {
        f.extend(fact_features(call, fact));
    }
    // The flags together, and with each kind of path: `rm -rf ~` is more than its parts.
    let mut all_flags: Vec<String> =
        args.iter().filter(|a| a.starts_with('-') && a.len() > 1).flat_map(|a| flags(&a[1..])).collect();
    all_flags.sort();
    all_flags.dedup();
    let joined = all_flags.join("");
    let classes: std::collections::BTreeSet<&str> =
        args.iter().filter(|a| !a.starts_with('-')).map(|a| path_class(a)).collect();
    f.push(t(&format!("F={joined}")));
    for c in &classes {
        f.push(t(&format!("F={joined}|p={c}")));
        f.push(format!("F={joined}|p={c}"));
    }
    // What tldr-pages says the program (or the program and its subcommand) does.
    if script.is_none() {
        let keys = [
            subs.get(1).map(|s2| format!("{tool} {} {s2}", subs[0])),
            subs.first().map(|s1| format!("{tool} {s1}")),
            Some(tool.clone()),
        ];
        let page = keys.iter().flatten().find_map(|key| Some((key, super::dictionary::about(key)?)));
        match page {
            Some((key, words)) => {
                // Each word also with the kinds of verb the call's subcommands and name say
                // (`x=destroy|d=database`, `x=restore|d=database`): what a verb does depends on
                // what the program works on, which a sum of the two alone cannot say.
                let mut kinds: Vec<&str> = facts.iter().filter_map(|x| x.strip_suffix("_verb")).collect();
                kinds.extend(verbs.iter().copied());
                kinds.sort();
                kinds.dedup();
                for w in words.split(' ') {
                    f.push(format!("d={w}"));
                    for k in &kinds {
                        f.push(format!("x={k}|d={w}"));
                    }
                }
                // And what its example closest to this call says that form does.
                let sub = subs.first().filter(|_| *key == tool).map(String::as_str);
                let example = super::dictionary::example(key, args, sub);
                for w in example.iter().flat_map(|w| w.split(' ')) {
                    f.push(format!("e={w}"));
                }
                // And what the example's first word says that form does, as the rules' verbs
                // name it (`vercel --prod` "deploy current directory production" publishes), when
                // no subcommand or name says it already: the same word read twice is not twice
                // the evidence. Not the words prose uses otherwise: files are merged (`samtools
                // merge` "merge multiple files") and sent to the trash, processes fork, a job is
                // submitted to a scheduler and a held one released, a function is invoked here,
                // a variable post-incremented.
                let first = example
                    .as_deref()
                    .and_then(|w| w.split(' ').next())
                    .filter(|v| !matches!(*v, "merge" | "send" | "fork" | "release" | "submit" | "invoke" | "post"));
                // Nor for a call that only previews or asks for help: `git push --dry-run --tags` is
                // no publish, whatever "push tags" does.
                if let Some(kind) = first.and_then(verb_kind)
                    && !facts.iter().any(|x| x.strip_suffix("_verb") == Some(kind) || matches!(*x, "dry_run" | "help"))
                {
                    f.push(format!("R=example_{kind}"));
                }
            }
            None => f.push("d=none".into()),
        }
    }
    if let Some(s) = subs.first() {
        for part in s.split(SUBCOMMAND_JOINS).filter(|p| p.len() >= 3 && *p != s.as_str()) {
            f.push(format!("s={part}"));
        }
        f.push(format!("s={s}"));
        f.push(t(&format!("s={s}")));
        if let Some(s2) = subs.get(1) {
            f.push(format!("s2={s2}"));
            f.push(format!("t={tool}|s={s}|s2={s2}"));
        }
    } else {
        f.push(t("nosub"));
    }
    for (op, target) in &call.writes {
        if target == "/dev/null" || target.starts_with("&") {
            continue;
        }
        let how = if op.contains(">>") { "append" } else { "write" };
        f.push(format!("r={how}"));
        f.push(format!("r={how}|p={}", path_class(target)));
    }
    f
}

/// The kinds of verb a program's name is made of, at its start or end: `dropdb` destroys,
/// `lvcreate` changes, `pg_restore` restores, `kubectl` none.
fn name_verbs(tool: &str) -> Vec<&'static str> {
    const VERBS: [(&str, &[&str]); 5] = [
        (
            "destroy",
            &["drop", "del", "delete", "remove", "destroy", "purge", "wipe", "erase", "kill", "prune", "clean"],
        ),
        ("restore", &["restore", "load", "import"]),
        ("change", &["create", "add", "mod", "modify", "update", "set", "init", "make"]),
        // Not `post`: a program named so is Postfix's or PostgreSQL's (`postqueue`, `postconf`,
        // `postgres`), not one that posts.
        ("send", &["push", "send", "upload", "publish", "deploy", "release", "notify", "pub"]),
        (
            "read",
            &[
                "list", "show", "stat", "status", "info", "view", "dump", "check", "diff", "get", "top", "ls", "cat",
                "printenv",
            ],
        ),
    ];
    let name: String = tool.chars().filter(char::is_ascii_alphabetic).collect();
    let parts: Vec<&str> = tool.split(['-', '_']).collect();
    let mut out = Vec::new();
    for (kind, verbs) in VERBS {
        // The verb and at least two letters of something else: `dropdb`, not `drop` or `make`;
        // or, destroying or sending, a verb between dashes (`kafka-delete-records`,
        // `amqp-delete-queue`).
        let between = matches!(kind, "destroy" | "send") && parts.len() > 1;
        if verbs.iter().any(|v| {
            name.len() >= v.len() + 2 && (name.starts_with(v) || name.ends_with(v)) || between && parts.contains(v)
        }) {
            out.push(kind);
        }
    }
    out
}

/// Clients whose changes are all made on a server or a service, not on this machine: a cluster's
/// scheduler, a hosting platform, a Workspace tenant, a transfer service, a secrets server (`vault`),
/// a DNS server's zone data (`pdnsutil`), a directory (FreeIPA's `ipa`, Keycloak's `kcadm.sh`), an
/// Alertmanager (`amtool`), a Ceph cluster (`ceph`, `rbd`, `radosgw-admin`), Elastic Beanstalk's
/// environments (`eb`), a CDN's services (`fastly`), Kamal's servers (`kamal`).
const SERVED: [&str; 151] = [
    "scontrol",
    "sacctmgr",
    "gam",
    "fly",
    "flyctl",
    "gigalixir",
    "globus",
    "vercel",
    "netlify",
    "vault",
    "pdnsutil",
    "ipa",
    "kcadm.sh",
    "amtool",
    "ceph",
    "rbd",
    "radosgw-admin",
    "rados",
    "eb",
    "fastly",
    "kamal",
    // Pantheon's sites and environments.
    "terminus",
    // Redis Enterprise's cluster manager; Active Directory's command-line tools; xCAT's and
    // Warewulf's node database and power; Patroni's and Teleport's clusters; Knot's served zones;
    // GPFS's file systems.
    "rladmin",
    "dsrm",
    "dsmod",
    "dsadd",
    "dsmove",
    "chdef",
    "rmdef",
    "mkdef",
    "rpower",
    // Servers' management controllers: IPMI's, Dell's iDRAC, HPE's iLO; Juju's models and MAAS's
    // regions; Mattermost's, Cobbler's, Kudu's and Greenbone's servers, and kolla-ansible's
    // OpenStack hosts.
    "mmctl",
    "cobbler",
    "kudu",
    "gvm-cli",
    "kolla-ansible",
    "ipmitool",
    "juju",
    "maas",
    "racadm",
    "ilorest",
    "rinstall",
    "wwctl",
    "patronictl",
    "tctl",
    "knotc",
    "mmchconfig",
    "mmdelfileset",
    "mmdelsnapshot",
    // Satellite's `hammer`; Oracle Grid Infrastructure's cluster and ASM clients, its cluster
    // registry and Data Guard's broker.
    "hammer",
    "srvctl",
    "crsctl",
    "asmcmd",
    "ocrconfig",
    "dgmgrl",
    // Uyuni's and Spacewalk's server.
    "spacecmd",
    // Kapacitor's tasks and recordings, Fleet's hosts and queries, Velociraptor's clients and
    // hunts, PythonAnywhere's web apps and tasks, Deployer's hosts, Teradata's loaders and its
    // Data Stream Controller's jobs. (Not `astro`: Astro's own `astro add` works here.)
    "kapacitor",
    "fleetctl",
    "velociraptor",
    "pa",
    "dep",
    "tbuild",
    "tdload",
    "fastload",
    "mload",
    "tpump",
    "dsc",
    // IBM Storage Protect's administrative client; StackStorm's actions, rules, keys and packs;
    // Northflank's services; Meteor Up's servers; CFEngine's agents run on other hosts and its
    // cloud hosts (`cf-runagent`, `cf-remote`); Cohesity's cluster (`iris_cli`).
    "dsmadmc",
    "st2",
    "northflank",
    "mup",
    "cf-runagent",
    "cf-remote",
    "iris_cli",
    // Netezza's loader, its restore and its copy between systems.
    "nzload",
    "nzrestore",
    "nz_migrate",
    // Oracle E-Business Suite's online patching and its password changes; PeopleSoft's App Engine
    // and Data Mover; Oracle's Data Pump import; Convex's deployments.
    "adop",
    "afpasswd",
    "psae",
    "psdmtx",
    "impdp",
    "convex",
    // Check Point's management server; Zeabur's and Appwrite's hosted projects.
    "mgmt_cli",
    "zeabur",
    "appwrite",
    // Pacemaker's cluster; Riak's and FoundationDB's clusters and FoundationDB's backups;
    // SeaweedFS's cluster; AutoSys's and Control-M's schedulers.
    "pcs",
    "crm_resource",
    "crm_attribute",
    "stonith_admin",
    "riak-admin",
    "fdbcli",
    "fdbdr",
    "fdbbackup",
    "fdbrestore",
    "weed",
    "sendevent",
    "jil",
    "archive_events",
    "ctm",
    "ctmpsm",
    "ctmorder",
    "ctmvar",
    "ctmcontb",
    "emdef",
    // TIBCO's BusinessWorks domains; Citrix Hypervisor's pools; HTCondor's pools and LSF's
    // clusters.
    "bwadmin",
    "appmanage",
    "xe",
    "condor_rm",
    "condor_drain",
    "condor_qedit",
    "condor_advertise",
    "condor_hold",
    "condor_release",
    "condor_vacate",
    "condor_userprio",
    "condor_off",
    "condor_on",
    "condor_restart",
    "condor_reconfig",
    "tibemsadmin",
    "badmin",
    "lsadmin",
    "lsfshutdown",
    "lsfrestart",
    // IBM Workload Scheduler's plan and database.
    // Informatica's services and repository (not `pmrep connect`, which saves a connection
    // here); DataStage's server; MaxDB's database servers.
    "pmcmd",
    "pmrep",
    "infacmd",
    "infacmd.sh",
    "dsjob",
    "dbmcli",
    // HPE Ezmeral's (MapR's) clusters.
    "maprcli",
    // Veritas InfoScale's clusters.
    "hagrp",
    "hares",
    "hasys",
    "hacli",
    "vradmin",
    // IBM Spectrum Virtualize's systems.
    "svctask",
    "satask",
    // Hitachi's arrays, through CCI.
    "raidcom",
    "pairsplit",
    "paircreate",
    "pairresync",
    "horctakeover",
    "conman",
    "composer",
    "optman",
    "planman",
    "jnextplan",
    "resetplan",
    // Qumulo's file system cluster (`qq snapshot_delete_snapshot`, `qq fs_delete`).
    "qq",
];

/// The kinds of verb of a PowerShell cmdlet's name (`Remove-MgUser`, `Invoke-MgWipe...`,
/// `Get-Mailbox`), by what PowerShell's approved verbs are documented to do; none for a name
/// that is no cmdlet's (`git-lfs`, `docker-compose`: lower case).
fn cmdlet_verbs(program: &str) -> Option<Vec<&'static str>> {
    let (verb, noun) = super::powershell::cmdlet(program)?;
    let capital =
        |w: &str| w.starts_with(|c: char| c.is_ascii_uppercase()) && w.chars().all(|c| c.is_ascii_alphanumeric());
    if !capital(verb) || !capital(noun) || !verb[1..].chars().all(|c| c.is_ascii_lowercase()) {
        return None;
    }
    let kind = match verb.to_ascii_lowercase().as_str() {
        // `Format-Volume` and `Format-Partition` write a new file system over a volume's; the other
        // `Format-` cmdlets format output.
        "format" if matches!(noun, "Volume" | "Partition") => "destroy",
        "get" | "find" | "search" | "test" | "show" | "read" | "measure" | "compare" | "resolve" | "trace"
        | "watch" | "wait" | "receive" | "select" | "format" => "read",
        "remove" | "clear" | "uninstall" | "unregister" | "revoke" => "destroy",
        "send" | "publish" | "deploy" | "submit" | "push" => "send",
        "restore" => "restore",
        "new" | "set" | "add" | "update" | "sync" | "invoke" | "start" | "stop" | "restart" | "suspend" | "resume"
        | "enable" | "disable" | "install" | "register" | "grant" | "block" | "unblock" | "lock" | "unlock"
        | "reset" | "move" | "rename" | "copy" | "import" | "initialize" | "mount" | "dismount" | "save" | "write"
        | "edit" | "merge" | "split" | "join" | "approve" | "deny" | "complete" | "close" | "open" | "protect"
        | "unprotect" | "repair" | "optimize" | "limit" | "request" | "rotate" => "change",
        // A backup or an export copies what it names, which it leaves as it was (`Backup-GPO -All
        // -Path C:\Temp\gpo`): it reads there, whatever it writes here.
        "backup" | "export" => "read",
        _ => return Some(Vec::new()),
    };
    Some(vec![kind])
}

/// Verbs that publish or send (rule 5): a platform's, a package manager's.
const PUBLISH: [&str; 18] = [
    "publish",
    "release",
    "deploy",
    "upload",
    "push",
    "promote",
    "submit",
    "ship",
    "merge",
    "rollout",
    "send",
    "notify",
    "post",
    "invoke",
    "trigger",
    "fork",
    "shelve",
    "distribute",
];
/// Verbs that destroy (rule 7).
const DESTROY: [&str; 37] = [
    "yank",
    "unpublish",
    "deprecate",
    "revoke",
    "archive",
    "close",
    "forget",
    "delete",
    "destroy",
    "remove",
    "rm",
    "rb",
    "terminate",
    "drop",
    "purge",
    "uninstall",
    "down",
    "prune",
    "wipe",
    "reset",
    "erase",
    "kill",
    "deregister",
    "del",
    "teardown",
    "deprovision",
    "flushall",
    "flushdb",
    "truncate",
    "cancel",
    "expunge",
    "decommission",
    "unregister",
    "nuke",
    "obliterate",
    "expire",
    // Pure Storage's `purevol eradicate`: a destroyed volume removed for good.
    "eradicate",
];
/// Verbs that change.
const CHANGE: [&str; 47] = [
    "apply",
    "create",
    "up",
    "install",
    "upgrade",
    "scale",
    "drain",
    "cordon",
    "set",
    "put",
    "update",
    "patch",
    "edit",
    "import",
    "mb",
    "label",
    "modify",
    "stop",
    "restart",
    "hold",
    "suspend",
    "resume",
    "lock",
    "unlock",
    "detach",
    "attach",
    "failover",
    "switchover",
    "transfer",
    "enable",
    "disable",
    "unset",
    "grant",
    "requeue",
    "rotate",
    "add",
    "alter",
    "replace",
    "seek",
    "resize",
    "activate",
    "deactivate",
    "approve",
    "renew",
    "swap",
    "uncordon",
    "setenv",
];
/// A URL whose last path segment is an endpoint that only searches or queries what a server holds
/// (`https://es:9200/orders/_search?size=0`, `http://prom:9090/api/v1/query`, a vector store's
/// `.../points/count` and `.../points/scroll`, Elasticsearch's `_cluster/allocation/explain`).
fn queries(url: &str) -> bool {
    const QUERIES: [&str; 16] = [
        "_search",
        "_msearch",
        "_count",
        "_mget",
        "_field_caps",
        "_sql",
        "query",
        "query_range",
        "search",
        "_explain",
        "count",
        "scroll",
        "explain",
        // An RPC-style listing (Nutanix's `POST .../api/nutanix/v3/vms/list`).
        "list",
        // A token's lookup (Dynatrace's `POST .../apiTokens/lookup`) and a Grail query
        // (`POST .../query:execute`).
        "lookup",
        "query:execute",
    ];
    // Or a Schema Registry's compatibility test of a schema (`.../compatibility/subjects/S/versions/latest`),
    // which registers nothing.
    let tests_compatibility =
        url.contains("://") && url.split(['?', '#']).next().is_some_and(|p| p.contains("/compatibility/subjects/"));
    // IBM Spectrum Virtualize's REST API takes every command as a POST: its `ls...` commands list
    // (`POST https://fs9200:7443/rest/v1/lsvdisk`).
    let lists = url.contains("/rest/")
        && last_segment(url).is_some_and(|last| last.starts_with("ls") && last.chars().all(|c| c.is_ascii_lowercase()));
    // Not one whose query string names an action that is no read (NSX's `POST
    // .../node/services/search?action=restart` restarts the search service).
    let acts = url.split_once('?').is_some_and(|(_, query)| {
        query.split('&').filter_map(|kv| kv.split_once('=')).any(|(k, v)| {
            k.eq_ignore_ascii_case("action") && verb_kind(&v.to_ascii_lowercase()).is_some_and(|kind| kind != "read")
        })
    });
    !url.starts_with('-')
        && !acts
        && (tests_compatibility
            || lists
            || last_segment(url).is_some_and(|last| QUERIES.contains(&last.to_ascii_lowercase().as_str())))
}

/// The last segment of a URL's path, without its query or fragment (`validate` in
/// `http://connect:8083/connectors/s3/config/validate?x=1`); none for a word with no `/`.
fn last_segment(url: &str) -> Option<&str> {
    if !url.contains('/') {
        return None;
    }
    url.split(['?', '#']).next().and_then(|path| path.trim_end_matches('/').rsplit('/').next())
}

/// Whether an ansible network module's arguments give it only commands that show
/// (`-m junos_command -a "commands='show system alarms'"`, `commands=['show version', 'show ip
/// route']`): a device's `show`, `display`, `ping` and `traceroute` read.
fn shows_only(a: &str) -> bool {
    // `ios_command`'s list, or `cli_command`'s one command (`command='show running-config'`).
    let Some(list) = a.trim().strip_prefix("commands=").or_else(|| a.trim().strip_prefix("command=")) else {
        return false;
    };
    let items: Vec<&str> = list.split([',', '[', ']', '\'', '"']).map(str::trim).filter(|i| !i.is_empty()).collect();
    !items.is_empty()
        && items.iter().all(|i| matches!(i.split_whitespace().next(), Some("show" | "display" | "ping" | "traceroute")))
}

/// An HTTP client's method, in capitals, given by the first of these options with a value.
/// A short option's value may be attached (`curl -XDELETE`), a long one's given with `=`
/// (`--request=DELETE`).
fn request_method(args: &[String], flags: &[&str]) -> Option<String> {
    args.iter().enumerate().find_map(|(i, a)| {
        if flags.contains(&a.as_str()) {
            return args.get(i + 1).map(|m| m.to_ascii_uppercase());
        }
        // The short option last in a run of switches (`curl -sX DELETE URL`, `-fsSLX POST`).
        let clustered = flags.iter().filter(|f| f.len() == 2 && !f.starts_with("--")).any(|f| {
            a.strip_prefix('-')
                .and_then(|run| run.strip_suffix(&f[1..]))
                .is_some_and(|before| !before.is_empty() && before.chars().all(|c| "sSfLkviIgN".contains(c)))
        });
        if clustered {
            return args.get(i + 1).map(|m| m.to_ascii_uppercase());
        }
        flags.iter().find_map(|f| {
            let rest = a.strip_prefix(f)?;
            let value = if f.starts_with("--") { rest.strip_prefix('=')? } else { rest };
            (!value.is_empty() && !value.starts_with('-')).then(|| value.to_ascii_uppercase())
        })
    })
}

/// Whether an HTTP method changes what the server holds.
fn changes_server(method: &str) -> bool {
    // A cache's `PURGE` and `BAN` (Varnish, Fastly) drop what it holds.
    matches!(method, "POST" | "PUT" | "PATCH" | "DELETE" | "PURGE" | "BAN")
}

/// A fact added once: a call's readings can say the same thing twice.
fn add(out: &mut Vec<&'static str>, fact: &'static str) {
    if !out.contains(&fact) {
        out.push(fact);
    }
}

/// What a network device's shell reads with: its reading commands and its output filters.
const DEVICE_READS: [&str; 10] =
    ["show", "display", "count", "match", "include", "exclude", "except", "begin", "section", "no-more"];
/// IBM Power's commands read by [`facts`]: an HMC's, VIOS's `ioscli` and AIX's.
const POWER_COMMANDS: [&str; 36] = [
    "chsysstate",
    "chsyscfg",
    "chhwres",
    "chdev",
    "chvg",
    "chlv",
    "mkvg",
    "mklv",
    "extendvg",
    "mkvdev",
    "mksysplan",
    "mkauthkeys",
    "rmsyscfg",
    "rmvdev",
    "rmdev",
    "reducevg",
    "migrlpar",
    "lpar_netboot",
    "rstprofdata",
    "bkprofdata",
    "hmcshutdown",
    "updlic",
    "startdump",
    "alt_disk_copy",
    "bootlist",
    "errclear",
    "sysdumpstart",
    "ioscli",
    "lssyscfg",
    "lshwres",
    "lsmap",
    "lsvg",
    "lspv",
    "errpt",
    "viosbr",
    "updateios",
];

/// Verbs that only read.
const READ: [&str; 25] = [
    "get", "list", "ls", "describe", "show", "status", "logs", "log", "top", "info", "view", "inspect", "plan", "diff",
    "history", "version", "stat", "stats", "du", "validate", "tree", "cat", "wait", "lookup", "details",
];

/// The fact a gRPC method's leading verb gives (`pkg.v1.OrderService/CancelOrder` destroys,
/// `.../GetOrder` reads, a health `Check` or a `Watch` reads); none for a word that is no method.
fn grpc_method_verb(a: &str) -> Option<&'static str> {
    let (service, method) = a.rsplit_once('/')?;
    if a.starts_with('-')
        || a.contains("://")
        || service.is_empty()
        || !method.starts_with(|c: char| c.is_ascii_uppercase())
    {
        return None;
    }
    let end = method[1..].find(|c: char| !c.is_ascii_lowercase()).map_or(method.len(), |i| i + 1);
    let verb = method[..end].to_ascii_lowercase();
    match verb.as_str() {
        "check" | "watch" | "search" | "query" | "count" | "lookup" | "find" | "fetch" | "read" => Some("read_verb"),
        v => verb_kind(v).map(|kind| match kind {
            "publish" => "publish_verb",
            "destroy" => "destroy_verb",
            "change" => "change_verb",
            _ => "read_verb",
        }),
    }
}

/// Dell PowerMax's Solutions Enabler's commands for its arrays.
const SYMCLI: [&str; 10] =
    ["symsg", "symaccess", "symsnapvx", "symrdf", "symdev", "symcfg", "symconfigure", "symclone", "symmir", "symsnap"];
/// Its verbs that only read.
const SYMCLI_READS: [&str; 7] = ["list", "show", "query", "verify", "preview", "prepare", "validate"];

/// A Solutions Enabler command's verb, its first word that is one (`symrdf -sid 412 -sg SG
/// failover`); none for `symcfg discover`, which rebuilds this host's own database of arrays.
fn symcli_verb(tool: &str, args: &[String]) -> Option<&'static str> {
    if !SYMCLI.contains(&tool) {
        return None;
    }
    let verb = args.iter().find_map(|a| SYMCLI_VERBS.iter().find(|v| a.eq_ignore_ascii_case(v)).copied());
    verb.filter(|v| !(tool == "symcfg" && *v == "discover"))
}

/// Solutions Enabler's verbs, read or not (`symrdf ... failover`, `symsg ... show SG`).
const SYMCLI_VERBS: [&str; 36] = [
    "list",
    "show",
    "query",
    "verify",
    "preview",
    "prepare",
    "validate",
    "discover",
    "delete",
    "terminate",
    "free",
    "restore",
    "link",
    "relink",
    "unlink",
    "create",
    "establish",
    "split",
    "failover",
    "failback",
    "swap",
    "set",
    "move",
    "remove",
    "add",
    "commit",
    "release",
    "ready",
    "not_ready",
    "rename",
    "convert",
    "enable",
    "disable",
    "suspend",
    "resume",
    "write_disable",
];

/// The objects of Citrix Hypervisor's `xe NOUN-VERB` commands.
const XE_NOUNS: [&str; 24] = [
    "vm",
    "vdi",
    "vbd",
    "vif",
    "sr",
    "pbd",
    "pif",
    "host",
    "pool",
    "network",
    "snapshot",
    "template",
    "appliance",
    "vm-appliance",
    "patch",
    "update",
    "task",
    "secret",
    "vlan",
    "bond",
    "tunnel",
    "message",
    "vgpu",
    "pgpu",
];

/// Citrix Hypervisor's `xe` command among a call's words (`vm-uninstall`), lower case.
fn xe_command(args: &[String]) -> Option<String> {
    args.iter()
        .map(|a| a.to_ascii_lowercase())
        .find(|a| a.split_once('-').is_some_and(|(noun, verb)| XE_NOUNS.contains(&noun) && !verb.is_empty()))
}

/// IBM Workload Scheduler's command given to `conman` or `composer` as one quoted word (`conman
/// "cancel FTA#JOB;noask"`, `composer "delete js=..."`), lower case: PHP's `composer` is given
/// none such.
fn iws_command(call: &Call, args: &[String]) -> Option<String> {
    let first = args.first()?;
    let one_command = first.contains([' ', ';', '=']) || first.chars().all(|c| c.is_ascii_lowercase());
    (call.quoted.first().copied().unwrap_or(false) && one_command).then(|| first.to_ascii_lowercase())
}

/// BusinessWorks 5's `AppManage` actions.
const APPMANAGE_VERBS: [&str; 8] = ["deploy", "undeploy", "delete", "start", "stop", "upload", "export", "config"];

/// The fact of a Brocade Fabric OS command, by its name: any `...show` reads (`fabricshow`,
/// `cfgshow`, `chassisshow`); clearing or deleting zoning, restoring defaults or removing a
/// licence destroys; a downloaded configuration or firmware restored puts one back; saving,
/// enabling, creating or adding zoning, a port disabled or renamed, a failover, a fast boot, a
/// firmware commit, counters cleared or a logging or clock server set changes the switch; those
/// that only print without their setting's arguments (`portname 3/14`, `defzone --show`,
/// `tsclockserver`) read. None for any other name.
fn fabric_os_fact(program: &str, args: &[String]) -> Option<&'static str> {
    let shows = args.iter().any(|a| a == "--show" || a == "-show");
    Some(match program {
        p if p.len() >= 6 && p.ends_with("show") && p.chars().all(|c| c.is_ascii_lowercase()) => "read_verb",
        "cfgclear" | "cfgdelete" | "zonedelete" | "alidelete" | "configdefault" | "licenseremove" | "cfgremove"
        | "zoneremove" | "aliremove" => "destroy_verb",
        "configdownload" | "firmwarerestore" => "restore_verb",
        "portname" | "tsclockserver" | "switchname" | "chassisname" | "ipaddrset" if args.len() < 2 => "read_verb",
        "defzone" | "syslogadmin" | "userconfig" | "snmpconfig" | "aaaconfig" if shows => "read_verb",
        "cfgsave" | "cfgenable" | "cfgdisable" | "cfgadd" | "cfgcreate" | "zonecreate" | "zoneadd" | "alicreate"
        | "aliadd" | "defzone" | "portdisable" | "portenable" | "portname" | "fastboot" | "hafailover" | "hareboot"
        | "firmwaredownload" | "firmwarecommit" | "statsclear" | "slotstatsclear" | "syslogadmin" | "tsclockserver"
        | "switchdisable" | "switchenable" | "fosexec" | "userconfig" | "ipaddrset" | "licenseadd" | "snmpconfig"
        | "aaaconfig" | "switchname" | "chassisname" | "configupload" => "change_verb",
        p if p.starts_with("portcfg") && !p.ends_with("show") => "change_verb",
        _ => return None,
    })
}

/// The fact of an HPE 3PAR or Primera CLI command, by its name: a verb joined to one of the
/// array's objects (`showvv`, `removevlun`, `growvv`, `servicemag`, `shutdownsys`). Shows, checks
/// and statistics read; a removal or a freed or dismissed object destroys; a promoted snapshot
/// is put back over its base; any other verb changes the array. None for any other name.
fn threepar_fact(program: &str) -> Option<&'static str> {
    const NOUNS: [&str; 24] = [
        "vv",
        "vvset",
        "cpg",
        "vlun",
        "sv",
        "pd",
        "ld",
        "host",
        "hostset",
        "rcopy",
        "rcopygroup",
        "rcopytarget",
        "rcopylink",
        "alert",
        "task",
        "sys",
        "node",
        "cage",
        "sched",
        "vvcopy",
        "flashcache",
        "port",
        "mag",
        "domain",
    ];
    const VERBS: [(&str, &str); 22] = [
        ("show", "read_verb"),
        ("check", "read_verb"),
        ("stat", "read_verb"),
        ("hist", "read_verb"),
        ("remove", "destroy_verb"),
        ("free", "destroy_verb"),
        ("dismiss", "destroy_verb"),
        ("promote", "restore_verb"),
        ("create", "change_verb"),
        ("set", "change_verb"),
        ("grow", "change_verb"),
        ("tune", "change_verb"),
        ("compact", "change_verb"),
        ("start", "change_verb"),
        ("stop", "change_verb"),
        ("cancel", "change_verb"),
        ("shutdown", "change_verb"),
        ("update", "change_verb"),
        ("import", "change_verb"),
        ("admit", "change_verb"),
        ("control", "change_verb"),
        ("service", "change_verb"),
    ];
    VERBS.iter().find_map(|(verb, fact)| program.strip_prefix(verb).filter(|noun| NOUNS.contains(noun)).map(|_| *fact))
}

/// The fact of a client's verb once its reading and destroying words are known: any other verb
/// changes what the client serves (MAAS's, Kudu's, kolla-ansible's, Greenbone's).
fn verb_fact(reads: bool, destroys: bool) -> &'static str {
    if reads {
        "read_verb"
    } else if destroys {
        "destroy_verb"
    } else {
        "change_verb"
    }
}

/// Whether a word is espefuse's command (or idf.py's) that burns eFuses or write- or
/// read-protects them: `burn_efuse`, `burn_key`, `burn_bit`, `write_protect_efuse`,
/// `efuse-burn-key`.
fn burns_efuse(word: &str) -> bool {
    let w = word.replace('-', "_");
    w.starts_with("burn_")
        || matches!(w.as_str(), "write_protect_efuse" | "read_protect_efuse" | "set_flash_voltage")
        || ["efuse_burn", "efuse_write_protect", "efuse_read_protect"].iter().any(|c| w.starts_with(c))
}

/// Whether a call only changes a draft here, which another command sends: Pacemaker's `pcs -f
/// FILE ...` edits that file, not the cluster; HPE's `ilorest set Attributes/...` without
/// `--commit` stages the change in ilorest's local cache until `ilorest commit`.
fn drafts_here(tool: &str, args: &[String]) -> bool {
    let has = |f: &str| args.iter().any(|a| a == f || a.starts_with(&format!("{f}=")));
    match tool {
        "pcs" => has("-f"),
        "ilorest" => args.iter().any(|a| a.eq_ignore_ascii_case("set")) && !has("--commit"),
        _ => false,
    }
}

/// The fact a management controller's command gives, by the first of its words that is a verb:
/// powering the server off, cycling or resetting it is `power` (rule 7); clearing its event log,
/// its configuration or its disks destroys; setting, updating, flashing or resetting the
/// controller itself changes; showing, listing or printing reads (`chassis power status`).
/// xCAT's `rpower NODES reset` resets the nodes, as IPMI's `power reset` does.
fn controller_fact(words: &[String], power: bool) -> Option<&'static str> {
    let mut after_power = power;
    for word in words {
        let w = word.split([':', '=']).next().unwrap_or(word);
        let fact = match w {
            "off" | "cycle" | "soft" | "diag" | "powercycle" | "hardreset" | "powerdown" | "graceshutdown"
            | "gracereboot" | "reboot" | "boot" => Some("power"),
            "reset" if after_power => Some("power"),
            "clear" | "clrsel" | "racresetcfg" | "systemerase" | "factorydefaults" | "resetconfig" | "deletevd"
            | "delete" => Some("destroy_verb"),
            "status" | "stat" | "state" | "list" | "elist" | "print" | "info" | "get" | "getsysinfo" | "getsel"
            | "getconfig" | "getsvctag" | "swinventory" | "hwinventory" | "view" | "summary" | "serverinfo"
            | "powerstatus" | "types" | "sdr" | "sensor" | "fru" | "help" => Some("read_verb"),
            "on" | "powerup" | "set" | "config" | "update" | "reset" | "raw" | "bootdev" | "iloreset" | "racreset"
            | "flashfwpkg" | "firmwareupdate" | "createvd" | "enable" | "disable" | "bootorder" | "uploadcomp"
            | "deactivate" => Some("change_verb"),
            _ => None,
        };
        if fact.is_some() {
            return fact;
        }
        after_power = power || w == "power";
    }
    None
}

/// Whether a call makes a new migration's file here (`wrangler d1 migrations create prod-db
/// add_keys`, `supabase migration new`): its words hold `migrations` then `create` or `new`.
// Kept out of `facts`: written inline there, the same test grew the release binary by 29 KB.
#[inline(never)]
fn new_migration(subs: &[String], deeper: &[String]) -> bool {
    let pair = |a: &str, b: &str| matches!(a, "migrations" | "migration" | "migrate") && matches!(b, "create" | "new");
    subs.windows(2).any(|w| pair(&w[0], &w[1]))
        || deeper.windows(2).any(|w| pair(&w[0], &w[1]))
        || subs.last().zip(deeper.first()).is_some_and(|(a, b)| pair(a, b))
}

/// The kind of a verb, as the rules' facts name them: `publish`, `destroy`, `change`, `read`.
fn verb_kind(word: &str) -> Option<&'static str> {
    [("publish", &PUBLISH[..]), ("destroy", &DESTROY[..]), ("change", &CHANGE[..]), ("read", &READ[..])]
        .into_iter()
        .find_map(|(kind, verbs)| verbs.contains(&word).then_some(kind))
}

/// The facts of a call that the labelling rules (model/labels/RULES.md) decide levels by: what
/// it destroys and where, what it sends or publishes, what it changes on the machine, and what
/// only reads. Each is a plain reading of the call's program, subcommands, flags and paths; how
/// much each is worth is learned from the labels.
///
/// `args` are the call's own ([`own_args`]): what it prints or echoes decides nothing.
fn facts(
    call: &Call,
    tool: &str,
    named: &[&str],
    args: &[String],
    subs: &[String],
    deeper: &[String],
) -> Vec<&'static str> {
    let mut out = Vec::new();
    let has = |f: &str| args.iter().any(|a| a == f || a.starts_with(&format!("{f}=")));
    let short = |c: char| args.iter().any(|a| super::shell::clusters_switch(a, c));
    let sub = subs.first().map(String::as_str).unwrap_or("");
    let sub2 = subs.get(1).map(String::as_str).unwrap_or("");
    // A new migration's file, made here (`wrangler d1 migrations create prod-db add_keys`,
    // `supabase migration new`): the database it names is not touched.
    let new_migration = new_migration(subs, deeper);
    let paths: Vec<&'static str> = args.iter().filter(|a| !a.starts_with('-')).map(|a| path_class(a)).collect();
    let broad = |p: &&str| matches!(*p, "root" | "home" | "home_top" | "system_top" | "parent");
    let mut text = args.join(" ").to_ascii_lowercase();
    if let Some(fed) = &call.stdin_text {
        text.push(' ');
        text.push_str(&fed.to_ascii_lowercase());
    }
    // `-n` is a dry run for the programs whose manuals say so.
    let dash_n = short('n')
        && (matches!(
            tool,
            "rsync" | "make" | "gmake" | "rake" | "mke2fs" | "apt-get" | "ansible-playbook" | "zfs" | "borg" | "wipefs" | "rclone"
        // mke2fs's, as `mkfs.ext4` and the like, and mkntfs's; not `mkfs.vfat -n GHLOGS`, a
        // volume's name, nor `mkfs.xfs -n size=...` or `mkfs.btrfs -n 16k`, its naming or node size.
        ) || matches!(tool, "mkfs.ext2" | "mkfs.ext3" | "mkfs.ext4" | "mkfs.ntfs" | "mkntfs")
            // The OpenLDAP clients' `-n`: show what would be done, do nothing.
            || matches!(tool, "ldapmodify" | "ldapadd" | "ldapdelete" | "ldapmodrdn" | "ldappasswd" | "ldapsearch")
            || (tool == "gsutil" && sub == "rsync")
            // ZFS's `zpool create -n`, `add -n`, `split -n`, `remove -n`: the layout shown, not made.
            || (tool == "zpool" && matches!(sub, "create" | "add" | "split" | "remove"))
            || (tool == "git" && matches!(sub, "clean" | "rm" | "mv" | "add" | "push")));
    // Or whose tldr page spells it so, as any short flag that page gives a dry run's long name
    // (`act -n`, `-n|--dryrun`). Looked up last, and only for a call with a short flag: the hook
    // asks this on every call.
    let page_says = || {
        args.iter().any(|a| a.len() > 1 && a.starts_with('-') && !a.starts_with("--"))
            && [format!("{tool} {sub}"), tool.to_string()]
                .iter()
                .find_map(|key| super::dictionary::about(key).map(|_| super::dictionary::dry_run_shorts(key)))
                .is_some_and(|shorts| shorts.into_iter().any(short))
    };
    // A dry run's option in any case, with a dash or an underscore (`hugo deploy --dryRun`, `bq
    // query --dry_run`). Not when its value turns it off (`--dry-run=false`, kubectl's
    // `--dry-run=none`).
    let off = |v: &str| matches!(v.to_ascii_lowercase().as_str(), "false" | "none" | "0" | "no" | "off");
    let has_any_case = |f: &str| {
        args.iter().any(|a| {
            let (name, value) = a.split_once('=').unwrap_or((a, ""));
            same_option(name, f) && !off(value)
        })
    };
    let dry = dash_n
        || [
            "--dry-run",
            "--dryrun",
            "--what-if",
            // PowerShell's (`Remove-MgUser ... -WhatIf`).
            "-whatif",
            // The Octopus CLI's (`octo delete-releases ... --whatIf`).
            "--whatif",
            "--check",
            "--noop",
            "--simulate",
            "--no-act",
            // opkg's (`opkg remove --noaction vw-agent`).
            "--noaction",
            "--dry",
            "--preview",
            "--preview-only",
            "--why-run",
            // A deploy that only checks (`sfdx force:source:deploy --checkonly`).
            "--checkonly",
            "--check-only",
            "--validate-only",
            "--validateonly",
            // The SQL a migration would run, printed instead (Doctrine's `--dump-sql`).
            "--dump-sql",
            "--print-sql",
        ]
        .iter()
        .any(|f| has_any_case(f))
        // Alembic's offline mode prints the migration's SQL (`alembic upgrade head --sql`); Deployer's
        // `--plan` prints the tasks a deploy would run.
        || (tool == "alembic" && has("--sql"))
        || (tool == "dep" && has("--plan"))
        // Nomad's `job run -output` prints the job's JSON instead of submitting it.
        || (tool == "nomad" && matches!(sub, "job" | "run") && has("-output"))
        // A build's property that asks for one (`mvn release:prepare -DdryRun=true`, Gradle's
        // `-PdryRun`).
        || args.iter().any(|a| {
            let property = a.strip_prefix("-D").or_else(|| a.strip_prefix("-P")).unwrap_or("");
            let (name, value) = property.split_once('=').unwrap_or((property, "true"));
            let name = format!("--{name}");
            (same_option(&name, "--dry-run") || same_option(&name, "--dryrun")) && !off(value)
        })
        // swaks told to quit before it sends a message's data (`--quit-after RCPT`) only talks
        // to the server.
        || (tool == "swaks"
            && value_after(args, &["--quit-after", "-q"]).is_some_and(
                |v| {
                    matches!(
                        v.to_ascii_uppercase().as_str(),
                        "CONNECT" | "BANNER" | "FIRST-HELO" | "FIRST-EHLO" | "TLS" | "HELO" | "EHLO" | "AUTH" | "MAIL" | "FROM" | "RCPT" | "TO"
                    )
                },
            ))
        // SteamPipe's `+run_app_build -preview` builds the depots and uploads nothing.
        || (tool == "steamcmd" && has("-preview"))
        // Salt's `test=True` reports what a state would change.
        || args.iter().any(|a| a.eq_ignore_ascii_case("test=true"))
        // Azure's `what-if` subcommand previews a deployment; a subcommand that simulates (`aws
        // iam simulate-principal-policy`) only evaluates.
        || subs.iter().chain(deeper).any(|w| w == "what-if" || w == "simulate" || w.starts_with("simulate-"))
        || (has("-s") && tool == "apt-get")
        || (has("-N") && tool.starts_with("mkfs"))
        // sgdisk's `--pretend` (`-P`) changes only its copy in memory and writes nothing to the
        // disk (`sgdisk --pretend --zap-all /dev/mapper/mpathm`).
        || (tool == "sgdisk" && (has("--pretend") || short('P')))
        // OpenWrt's `sysupgrade -T` only checks the image.
        || (tool == "sysupgrade" && (has("-T") || has("--test")))
        // The LVM tools' `--test` (`-t`) changes no metadata.
        || ((has("--test") || short('t')) && LVM.contains(&tool))
        // HP-UX's Software Distributor previews a removal or an installation with `-p`.
        || (matches!(tool, "swremove" | "swinstall") && short('p'))
        // Deployer's `--plan` prints which hosts a task would run on, in which order.
        || (tool == "dep" && has("--plan"))
        // Liquibase's `update-sql`, `rollback-sql`, ...: the SQL it would run, printed.
        || (tool == "liquibase" && sub.ends_with("-sql"))
        // GAM changes messages only with `doit`: without it, it shows what it would do.
        || (tool == "gam" && args.iter().any(|a| a == "messages" || a == "message") && !has("doit"))
        // `flux create ... --export` only prints the object it would create.
        || (tool == "flux" && sub == "create" && has("--export"))
        // OpenShift's `oc adm prune` only says what it would prune without `--confirm`.
        || (tool == "oc" && sub == "adm" && sub2 == "prune" && !has("--confirm"))
        // A Rails console in a sandbox rolls back every change it makes when it ends.
        || ((tool == "rails" || call.program.ends_with("/rails"))
            && matches!(sub, "console" | "c")
            && (has("--sandbox") || short('s')))
        // `cargo release` only says what it would do without `--execute`.
        || (tool == "cargo" && sub == "release" && !has("--execute") && !short('x'))
        // eksctl's commands that plan unless told `--approve` (`eksctl upgrade cluster --name
        // prod`, `eksctl create iamserviceaccount`, `eksctl utils update-kube-proxy`, and deleting
        // node groups or service accounts a config file lists); not `utils write-kubeconfig`,
        // which writes at once, nor `delete iamserviceaccount --name`, which deletes.
        || (tool == "eksctl"
            && !has("--approve")
            && ((sub == "upgrade" && sub2 == "cluster")
                || (sub == "create" && sub2 == "iamserviceaccount")
                || (sub == "utils" && sub2 != "write-kubeconfig")
                || (sub == "delete"
                    && matches!(sub2, "nodegroup" | "iamserviceaccount")
                    && (has("--config-file") || short('f')))))
        // Doctrine's commands that drop or change a schema only say what they would do without
        // `--force` (`bin/console doctrine:database:drop`).
        || (args.iter().any(|a| matches!(a.as_str(), "doctrine:database:drop" | "doctrine:schema:drop" | "doctrine:schema:update"))
            && !has("--force")
            && !short('f'))
        // Velero's `create` told to print the object (`-o yaml`) prints it instead of making it.
        || (tool == "velero" && (sub == "create" || sub2 == "create") && (has("-o") || has("--output")))
        // sanoid's `--readonly` takes and prunes no snapshot, it says what it would.
        || (tool == "sanoid" && has("--readonly"))
        // duplicity's `remove-older-than`, `remove-all-but-n-full`, `remove-all-inc-of-but-n-full`
        // and `cleanup` only list what they would delete without `--force`.
        || (tool == "duplicity" && (sub.starts_with("remove-") || sub == "cleanup") && !has("--force"))
        // `fly deploy --build-only --local-only` builds the image here and deploys nothing.
        || (matches!(tool, "fly" | "flyctl") && sub == "deploy" && has("--build-only") && has("--local-only"))
        // Kafka's `kafka-consumer-groups --reset-offsets` prints the offsets it would set unless
        // told `--execute`.
        || (tool.trim_end_matches(".sh") == "kafka-consumer-groups" && has("--reset-offsets") && !has("--execute"))
        // pypi-cleanup deletes nothing without `--do-it`, nor 389 Directory Server's `dsctl
        // INSTANCE remove`.
        || (tool == "pypi-cleanup" && !has("--do-it"))
        || (tool == "dsctl" && args.iter().any(|a| a == "remove") && !has("--do-it"))
        // Kafka's `--generate` only proposes a reassignment.
        || (tool.starts_with("kafka-reassign-partitions") && has("--generate") && !has("--execute"))
        // A long option whose last word is a simulation (redis-cli's `--cluster-simulate`).
        || args.iter().any(|a| {
            let name = a.strip_prefix("--").map(|n| n.split('=').next().unwrap_or(n)).unwrap_or("");
            !name.starts_with("no-") && name.rsplit(['-', '_']).next() == Some("simulate")
        })
        // A request whose URL asks for a dry run (Elasticsearch's `_cluster/reroute?dry_run=true`,
        // Kubernetes' `?dryRun=All`).
        || args.iter().any(|a| {
            let query = if a.contains("://") || a.starts_with('/') { a.split_once('?').map(|(_, q)| q) } else { None };
            query.is_some_and(|q| {
                q.split(['&', '#']).any(|p| {
                    let (key, value) = p.split_once('=').unwrap_or((p, "true"));
                    // Or a request only validated (Dynatrace's `?validateOnly=true`).
                    (names_dry_run(key) || key.eq_ignore_ascii_case("validateonly")) && !off(value)
                })
            })
        })
        // Or a long option's value that names a dry run (Lambda's `--invocation-type DryRun`,
        // `--mode=dry-run`).
        || args.iter().enumerate().any(|(i, a)| {
            let value = match a.split_once('=') {
                Some((option, value)) if option.starts_with("--") => value,
                _ if i > 0 && args[i - 1].starts_with("--") && !args[i - 1].contains('=') => a.as_str(),
                _ => "",
            };
            names_dry_run(value)
        })
        // Or in a request's body or an argument's mapping (`-d '{"dryRun": true}'`, `--args
        // '{days: 14, dry_run: true}'`).
        || dry_run_key(&text)
        || text.match_indices("--dry-run=").any(|(i, m)| {
            !off(text[i + m.len()..].split(|c: char| !c.is_ascii_alphanumeric()).next().unwrap_or(""))
        })
        || page_says();
    if dry {
        out.push("dry_run");
    }
    // A function that starts two copies of itself at once takes the machine down (settled 54).
    if call.forks_itself {
        out.push("fork_bomb");
    }
    if has("--help")
        || has("-help")
        // The AWS CLI's skeleton of a request's input, printed without sending it.
        || has("--generate-cli-skeleton")
        // OCI's: the request's JSON template, printed instead of sent.
        || has("--generate-full-command-json-input")
        || has("--generate-param-json-input")
        // Vault's request printed as a `curl` command, or as the policy it would need, instead of
        // being made (`vault delete -output-policy secret/data/x`).
        || (tool == "vault"
            && (has("-output-curl-string") || has("--output-curl-string") || has("-output-policy") || has("--output-policy")))
        || args.last().is_some_and(|a| a == "-h")
        || sub == "help"
        // Db2's command line processor's help (`db2 "? drop database"`).
        || (tool == "db2" && args.first().is_some_and(|a| a.trim_start().starts_with('?')))
        || tool == "man"
        // A shell's `help` builtin and a console's `help` (`help utils dbreplication reset`) show
        // what a command would do.
        || tool == "help"
        || (has("--version") && args.len() == 1)
        || has("-V") && args.len() == 1
        // The cloud CLIs' help is a last word (`aws s3 rb help`).
        || (matches!(tool, "aws" | "az" | "gcloud") && args.last().is_some_and(|a| a == "help"))
        // A device's context help, a last `?` on another machine (`ssh sw1 'chassis reboot ?'`
        // lists what may follow); here a `?` is a glob.
        || (call.remote && args.last().is_some_and(|a| a == "?"))
    {
        out.push("help");
    }
    match tool {
        // RouterOS's menus over ssh, by their command, the last word that sets nothing: `print`,
        // `export`, `monitor`, a ping or a bandwidth test read; `remove` and a reset of the
        // configuration destroy; the rest (`reboot`, `set`, `add`, `disable`) change the router.
        _ if routeros(call, &call.program) => {
            let words: Vec<&str> =
                std::iter::once(tool).chain(args.iter().map(String::as_str)).filter(|w| !w.contains('=')).collect();
            let verb = words.last().copied().unwrap_or(tool);
            let reads =
                matches!(verb, "print" | "export" | "monitor" | "get" | "ping" | "bandwidth-test" | "traceroute")
                    || words
                        .iter()
                        .any(|w| w.starts_with("monitor") || matches!(*w, "print" | "export" | "bandwidth-test"));
            out.push(verb_fact(reads, matches!(verb, "remove" | "reset-configuration")));
        }
        // OpenVMS's DCL, by its verb (`PURGE /KEEP=1 ...`, `STOP /ID=...`, `SHOW SYSTEM`).
        _ if dcl_fact(&call.program, &text).is_some() => out.extend(dcl_fact(&call.program, &text)),
        "rm" | "rmdir" | "unlink" | "srm" | "trash" | "trash-put" => {
            // `srm` is `rm` that overwrites first, as `shred -u` does: nothing is left to restore.
            if tool == "srm" {
                out.push("device_write");
            }
            let recursive = short('r') || short('R') || has("--recursive");
            // A system directory itself (`/var/lib/docker`, `/etc/nginx`), not a file picked
            // in one, and the trash, are rule 7's.
            let system_dir = args.iter().any(|a| {
                let dir = a.trim_end_matches(['*', '/']);
                path_class(a) == "system"
                    && !dir.contains('*')
                    && dir.matches('/').count() <= 3
                    && !dir.rsplit('/').next().unwrap_or("").contains('.')
            });
            let trash = args.iter().any(|a| a.contains("/Trash") || a.contains("/.Trash"));
            if recursive && (paths.iter().any(broad) || system_dir || trash) {
                out.push("delete_broad");
            } else if paths.iter().any(|p| matches!(*p, "system" | "home_file" | "device")) {
                out.push("delete_outside");
            } else if paths.contains(&"here_all") && recursive {
                out.push("delete_project_all");
            } else {
                out.push("delete_local");
            }
        }
        "dd" => {
            if args.iter().any(|a| a.starts_with("of=/dev/") && !a.starts_with("of=/dev/null")) {
                out.push("device_write");
            } else if args.iter().any(|a| a.starts_with("of=")) || !call.writes.is_empty() {
                out.push("file_write");
            } else {
                // Without `of=` it copies to standard output: it reads (`dd if=/dev/sda | gzip`).
                out.push("read");
            }
        }
        // `wipefs` without `-a` or an offset only lists signatures.
        "wipefs" if !(short('a') || has("--all") || short('o') || has("--offset")) => out.push("read"),
        // `sgdisk` only prints, verifies or backs up with these; any other option writes.
        "sgdisk"
            if args.iter().filter(|a| a.starts_with('-')).all(|a| {
                matches!(a.as_str(), "-p" | "--print" | "-i" | "--info" | "-v" | "--verify" | "-b" | "--backup")
                    || a.starts_with("--info=")
                    || a.starts_with("--backup=")
            }) =>
        {
            out.push("read")
        }
        // A pool's upkeep (`scrub`, `trim`) and its listings are not a device write.
        "zpool" if matches!(sub, "status" | "list" | "iostat" | "history" | "get" | "events") => out.push("read"),
        "zpool" if !matches!(sub, "destroy" | "create" | "labelclear" | "replace" | "attach" | "split") => {}
        "shred" | "wipefs" | "wipe" | "blkdiscard" | "sgdisk" | "zpool" if !dry => out.push("device_write"),
        // `mke2fs -n` only says what it would do (a dry run, above).
        t if (t.starts_with("mkfs") || t.starts_with("mke2fs") || t == "mkswap") && !dry => out.push("device_write"),
        // `sfdisk` writes the layout its input gives, unless an option says it only shows one
        // (`-d`, `--list`, `--json`); `parted` given a command that changes the table (`mklabel`,
        // `mkpart`, `rm`) writes it. Without one, `parted` and `fdisk` open an editor.
        "sfdisk" => {
            let shows = args.iter().any(|a| {
                matches!(
                    a.as_str(),
                    "-d" | "--dump"
                        | "-l"
                        | "--list"
                        | "-s"
                        | "--show-size"
                        | "-J"
                        | "--json"
                        | "-V"
                        | "--verify"
                        | "-g"
                        | "--show-geometry"
                        | "-F"
                        | "--list-free"
                )
            });
            if shows {
                out.push("read");
            } else if !dry {
                out.push("device_write");
            }
        }
        "parted"
            if !dry
                && args.iter().any(|a| {
                    matches!(
                        a.as_str(),
                        "mklabel"
                            | "mktable"
                            | "mkpart"
                            | "mkpartfs"
                            | "rm"
                            | "resizepart"
                            | "resize"
                            | "move"
                            | "rescue"
                    )
                }) =>
        {
            out.push("device_write")
        }
        "fdisk" | "parted" | "gdisk" if !short('l') && !has("--list") && sub != "print" => out.push("device_edit"),
        "fdisk" | "parted" | "gdisk" | "lsblk" | "blkid" => out.push("read"),
        "shutdown" | "reboot" | "halt" | "poweroff" if !has("-c") && !has("--show") => out.push("power"),
        "init" | "telinit" if args.iter().any(|a| a == "0" || a == "6") => out.push("power"),
        // Every process on the machine.
        "killall5" => out.push("kill_many"),
        // `badblocks -w` writes every block; without it, it reads.
        "badblocks" => out.push(if short('w') { "device_write" } else { "read" }),
        // Rule 7: the permissions or owner of the whole system, changed recursively, are not
        // restored by anything but a reinstall (`chmod -R 777 /`, `chown -R alice /usr`).
        "chmod" | "chown" | "chgrp"
            if (short('R') || has("--recursive")) && paths.iter().any(|p| matches!(*p, "root" | "system_top")) =>
        {
            out.push("perm_broad")
        }
        "find" if has("-delete") => {
            let start = args.iter().find(|a| !a.starts_with('-')).map_or("here_all", |a| path_class(a));
            let broad = matches!(start, "root" | "home" | "home_top" | "system_top" | "tmp");
            // Files picked by name, pattern, age or size are settled point 19's 2, wherever.
            let picked = FIND_PICKS.iter().any(|f| has(f));
            out.push(match (broad, picked) {
                (true, false) => "delete_broad",
                (true, true) => "delete_outside",
                _ => "delete_local",
            });
        }
        "systemctl" if matches!(sub, "reboot" | "poweroff" | "halt" | "kexec" | "suspend" | "hibernate") => {
            out.push("power")
        }
        ":" | "true" if !call.writes.is_empty() => out.push("empties"),
        // Writing or erasing a device's firmware overwrites what it held, as `dd` onto a disk
        // does (rule 7): a flasher's verb (`esptool.py write_flash`, `west flash`, `st-flash
        // erase`, `probe-rs download`, `fastboot flash`) or option (`dfu-util -D`, `avrdude -U
        // flash:w:...`, `flashrom -w`, `nrfjprog --program`, `openocd -c "program ..."`).
        t if FLASHERS.contains(&t)
            && !dry
            && !has("--help")
            && args.iter().any(|a| {
                matches!(
                    a.as_str(),
                    "flash"
                        | "write_flash"
                        | "write-flash"
                        | "erase_flash"
                        | "erase-flash"
                        | "erase"
                        | "write"
                        | "program"
                        | "download"
                        | "load"
                        | "upload"
                        | "unlock"
                        | "-D"
                        | "--download"
                        | "-w"
                        | "--write"
                        | "-E"
                        | "--erase"
                        | "--program"
                        | "--eraseall"
                ) || a.contains(":w:")
                    || a.split([';', '"', '\'']).any(|c| {
                        let c = c.trim_start();
                        c.starts_with("program ") || c.starts_with("flash write") || c.starts_with("flash erase")
                    })
            }) =>
        {
            out.push("device_write")
        }
        // On another machine, `set` given a word is an appliance's statement, not the shell's
        // builtin (NSX's `set ntp-server ...`, NetScaler's `set ns param ...`, CUCM's `set network
        // dns ...`): it changes that machine's configuration.
        // And an ILOM's, given a target's path (`set /SP/network pendingipaddress=...`).
        "set" if call.remote && args.first().is_some_and(|a| is_word(a) || a.len() > 1 && a.starts_with('/')) => {
            out.push("change_verb")
        }
        // Burning a chip's eFuses is for good (`espefuse.py burn_efuse JTAG_DISABLE`, `burn_key`,
        // `write_protect_efuse`, `idf.py efuse-burn`); with `--virt`, espefuse burns virtual ones
        // in memory.
        "espefuse.py" | "espefuse" | "idf.py"
            if args.iter().any(|a| burns_efuse(a)) && !has("--help") && !has("-h") =>
        {
            out.push(if has("--virt") { "dry_run" } else { "device_write" })
        }
        // An FPGA programmer's bitstream or erase writes the board's flash (`iceprog top.bin`).
        // (`programs_fpga` knows the programmers: no other program matches here.)
        t if super::shell::programs_fpga(t, args) => out.push("device_write"),
        "kubectl" if sub == "cp" && args.last().is_some_and(|a| a.contains(':')) => out.push("send"),
        // Every process the user has (`kill -9 -1`, `pkill -u "$USER"`), not the ones named.
        "kill" | "pkill" | "killall" => {
            out.push(if has("-1") || has("-u") || has("--user") { "kill_many" } else { "kill" })
        }
        "crontab" if short('r') => out.push("delete_broad"),
        // Removing an account changes the machine (rule 8), as adding one does (`useradd`): its
        // files stay. Removing its home with it destroys (rule 7, `userdel -r`).
        "userdel" | "deluser" => {
            out.push(if short('r') || has("--remove") || has("--remove-home") || has("--remove-all-files") {
                "delete_broad"
            } else {
                "change_verb"
            })
        }
        "scp" | "sftp" => {
            if args.last().is_some_and(|a| remote_operand(a)) {
                out.push("send");
            } else {
                out.push("download");
            }
        }
        // OpenLDAP's clients act on the directory server `-H` (or `-h`) names: another machine
        // unless it is this one (`ldapi:///`, `ldap://localhost`). `ldapdelete` destroys entries;
        // `ldapadd`, `ldapmodify` (whose LDIF may delete too), `ldapmodrdn` and `ldappasswd` change
        // them; `ldapsearch`, `ldapwhoami` and `ldapcompare` read (rule 4, settled point 14).
        "ldapdelete" | "ldapadd" | "ldapmodify" | "ldapmodrdn" | "ldappasswd" | "ldapsearch" | "ldapwhoami"
        | "ldapcompare"
            if !dry =>
        {
            let server = value_after(args, &["-H", "-h"]).map(|s| s.to_ascii_lowercase()).unwrap_or_default();
            let here = server.starts_with("ldapi:") || this_machine(url_host(&server).map_or(&server, |(_, h)| h));
            out.push(match (tool, here) {
                ("ldapsearch" | "ldapwhoami" | "ldapcompare", _) => "db_read",
                ("ldapdelete", true) => "db_destroy",
                ("ldapdelete", false) => "db_destroy_remote",
                (_, true) => "db_change",
                (_, false) => "db_change_remote",
            });
        }
        // IBM MQ's `runmqsc QMGR` runs the MQSC commands fed to it (`echo 'DELETE QLOCAL(Q) PURGE' |
        // runmqsc QM`): `DISPLAY` and `PING` read; `DELETE`, `CLEAR`, `RESET` and `PURGE` destroy
        // (messages, queues, a cluster's member); any other (`ALTER`, `DEFINE`, `STOP`, `REFRESH`)
        // changes the queue manager, one elsewhere with `-c`. With `-v` it only checks them. Those
        // it is not shown (`< changes.mqsc`) stay unseen. A control socket fed through `socat` is
        // read alike (HAProxy's `echo 'show stat' | socat stdio /run/haproxy/admin.sock` reads,
        // `set server ... state maint` changes, `clear table` destroys), elsewhere when its address
        // is another machine's (`TCP4:10.20.1.5:9999`). So are Oracle RMAN's commands (`rman target
        // / <<< 'DELETE NOPROMPT OBSOLETE;'` destroys backups, `LIST` and `REPORT` read).
        "runmqsc" | "socat" | "rman" if call.stdin_text.is_some() && !(tool == "runmqsc" && short('v')) => {
            let fed = call.fed().unwrap_or_default().to_ascii_uppercase();
            let verbs: Vec<&str> = fed.lines().filter_map(|l| l.split_whitespace().next()).collect();
            let elsewhere = if tool == "socat" {
                args.iter().any(|a| {
                    let a = a.to_ascii_lowercase();
                    let to =
                        a.strip_prefix("tcp4:").or_else(|| a.strip_prefix("tcp6:")).or_else(|| a.strip_prefix("tcp:"));
                    to.is_some_and(|to| !this_machine(to))
                })
            } else {
                tool == "runmqsc" && short('c')
            };
            if verbs.iter().all(|v| {
                matches!(*v, "DIS" | "DISPLAY" | "PING" | "SHOW" | "GET" | "HELP" | "LIST" | "REPORT")
                    || v.starts_with('*')
            }) {
                out.push("db_read");
            } else if verbs.iter().any(|v| matches!(*v, "DELETE" | "CLEAR" | "RESET" | "PURGE")) {
                out.push(if elsewhere { "db_destroy_remote" } else { "db_destroy" });
            } else {
                out.push(if elsewhere { "db_change_remote" } else { "db_change" });
            }
        }
        // Postfix's `postsuper -d` deletes queued mail for good (settled point 44); `-h`, `-H` and
        // `-r` hold, release or requeue it. Dovecot's `doveadm expunge` and `mailbox delete` delete
        // stored mail.
        "postsuper" if short('d') => out.push("db_destroy"),
        "postsuper" if short('h') || short('H') || short('r') => out.push("db_change"),
        "doveadm" if sub == "expunge" || (sub == "mailbox" && sub2 == "delete") => out.push("db_destroy"),
        // gh-ost changes a table on the server `--host` names only with `--execute`; without it,
        // it runs a no-op migration.
        "gh-ost" => out.push(if !has("--execute") {
            "dry_run"
        } else if aims_elsewhere(args) {
            "db_change_remote"
        } else {
            "db_change"
        }),
        // Salt's `manage` runner reports which minions are up, down or present (`salt-run
        // manage.down`), unless told to remove the keys of those down (`removekeys=True`).
        "salt-run"
            if sub.strip_prefix("manage.").is_some_and(|f| {
                matches!(f, "status" | "up" | "down" | "present" | "not_present" | "alived" | "not_alived")
                    || matches!(f, "joined" | "not_joined" | "allowed" | "not_allowed" | "versions")
                    || f.starts_with("list_")
            }) && !args.iter().any(|a| a.to_ascii_lowercase().starts_with("removekeys=true")) =>
        {
            out.push("read_verb");
        }
        // IBM i's `system "CLRPFM FILE(HFDATA/ORDTMP)"` runs a CL command, whose name's first
        // letters say what it does: `DLT`, `CLR`, `RMV` and `INZ` destroy, `RST` restores, `PWR`
        // powers the system down, `DSP`, `WRK`, `RTV`, `PRT` and `CHK` read (unless they write an
        // outfile), the rest (`CHG`, `END`, `STR`, `SBM`, `SAV`, `APY`, ...) change it, as `CRT`
        // and `CPY` do on another machine. A program it calls (`CALL PGM(...)`) is code not shown.
        "system" => {
            let cl = args.iter().filter(|a| !a.starts_with('-')).cloned().collect::<Vec<_>>().join(" ");
            let name = cl.split(|c: char| c.is_whitespace() || c == '(').next().unwrap_or("");
            if (3..=10).contains(&name.len()) && name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()) {
                let outfile = cl.contains("OUTFILE(") || cl.contains("*OUTFILE");
                match &name[..3] {
                    "DLT" | "CLR" | "RMV" | "INZ" => out.push("destroy_verb"),
                    "RST" => out.push("restore_verb"),
                    "PWR" => out.push("power"),
                    "DSP" | "WRK" | "RTV" | "PRT" | "CHK" if !outfile => out.push("read_verb"),
                    "CAL" => {}
                    // Made or copied here, something new (rule 6); there, a change (rule 4).
                    "CRT" | "CPY" if !call.remote => {}
                    _ => out.push("change_verb"),
                }
            }
        }
        // The Jenkins CLI (`java -jar jenkins-cli.jar -s URL delete-node NODE`) acts on the
        // controller its URL names (or `JENKINS_URL`'s): its command, past the connection's
        // options, reads (`list-jobs`, `get-job`, `who-am-i`), destroys (`delete-job`,
        // `clear-queue`) or changes (`build`, `disable-job`, `safe-restart`) what runs there.
        "jenkins-cli" => {
            let mut words = args.iter();
            let mut command = "";
            while let Some(a) = words.next() {
                if matches!(a.as_str(), "-s" | "-auth" | "-i" | "-user" | "-bearer" | "-logger" | "-p") {
                    words.next();
                } else if !a.starts_with('-') {
                    command = a;
                    break;
                }
            }
            let url = value_after(args, &["-s"]);
            let here = url.and_then(|u| url_host(u)).is_some_and(|(_, h)| this_machine(h));
            let reads = ["list-", "get-", "who-am-i", "version", "help", "console", "session-id"];
            if reads.iter().any(|r| command.starts_with(r)) {
                out.push("read");
            } else if command.starts_with("delete-") || command == "clear-queue" {
                out.push(if here { "db_destroy" } else { "db_destroy_remote" });
            } else if !command.is_empty() && !command.starts_with("groovy") {
                // A Groovy script it runs there (`groovy = < script.groovy`) is code not shown.
                out.push(if here { "send_local" } else { "send" });
            }
        }
        "rsync" => {
            let last = args.iter().rev().find(|a| !a.starts_with('-'));
            let onto = last.map_or("", |a| path_class(a));
            if last.is_some_and(|a| remote_operand(a)) {
                out.push("send");
            }
            // `--delete` (`--delete-after`, ...) deletes what the source lacks: onto a home, the
            // root or a system directory itself, all of it (settled point 55).
            if args.iter().any(|a| a.starts_with("--delete")) {
                out.push(if broad(&onto) { "delete_broad" } else { "delete_local" });
            }
        }
        // A mail client sends only to someone; alone it reads the mailbox.
        "mail" | "sendmail" | "mutt" | "mailx" | "swaks" if args.iter().any(|a| a.contains('@')) => out.push("send"),
        "mail" | "mutt" | "mailx" => out.push("read"),
        // `nc -z` scans, `nc -l` listens: only a connection that carries data sends it.
        "nc" | "ncat" | "netcat" => out.push(if short('z') {
            "read"
        } else if short('l') || !call.writes.is_empty() {
            "download"
        // A Unix socket (`-U`) is a process of this machine's.
        } else if short('U') || text.contains("localhost") || text.contains("127.0.0.1") {
            "send_local"
        } else if call.stdin_text.as_deref().is_some_and(|fed| asks_only(fed, false)) {
            "read"
        } else {
            "send"
        }),
        "telnet" => out.push("download"),
        // A server's management controller (IPMI's `ipmitool -H BMC`, Dell's `racadm -r IDRAC`,
        // HPE's `ilorest --url ILO`, xCAT's `rpower`), by the verb among its operands.
        "ipmitool" | "racadm" | "ilorest" | "rpower" => {
            // Its options' values (a host, a user) are no verbs, whichever options take one.
            let words: Vec<String> =
                args.iter().filter(|a| !a.starts_with('-')).map(|a| a.to_ascii_lowercase()).collect();
            // `ilorest bootorder` alone shows the boot order; given an order or a one-time boot,
            // it sets it. `ilorest set` without `--commit` stages a change here, which `commit`
            // sends to the server.
            let boot_option = |a: &String| {
                ["--onetimeboot", "--continuousboot", "--disablebootflag", "--commit", "--securebootkeys"]
                    .iter()
                    .any(|o| a.starts_with(o))
            };
            if tool == "ilorest" && drafts_here(tool, args) {
                out.push("file_write");
            } else if tool == "ilorest" && words == ["bootorder"] && !args.iter().any(boot_option) {
                out.push("read_verb");
            } else if let Some(fact) = controller_fact(&words, tool == "rpower") {
                out.push(fact);
            }
        }
        // Juju's `ssh`/`exec` carry a command, judged as run on the units' machines: the call itself
        // only connects. `config APP KEY=VALUE` sets, `config APP` prints; `refresh` upgrades a
        // charm in the model.
        "juju"
            if matches!(sub, "ssh" | "exec") || (sub == "run" && juju_run_targets(args.iter().map(String::as_str))) =>
        {
            out.push("read")
        }
        "juju" if sub == "config" => {
            out.push(if operands(args).skip(2).any(|a| a.contains('=')) { "change_verb" } else { "read_verb" })
        }
        "juju" if sub == "refresh" => out.push("change_verb"),
        // Satellite's `hammer RESOURCE [SUBRESOURCE] ACTION`, by its last word: `list`, `info` and a
        // job's `output` read; a delete, a remove or a purge destroys; a publish, a promotion, a
        // synchronisation, an export or import, a refresh, a create or an update (`content-export`,
        // `refresh-manifest`) changes what the Satellite server holds. Another word (`ping`, a
        // task's `progress`) says nothing the model does not learn elsewhere.
        "hammer" if !sub.is_empty() => {
            let action = subs.iter().chain(deeper).next_back().map_or(sub, String::as_str);
            let lead = action.split('-').next().unwrap_or(action);
            let destroys = matches!(lead, "delete" | "remove" | "purge" | "destroy");
            let changes = verb_kind(lead).is_some_and(|kind| kind != "read")
                || matches!(
                    lead,
                    "synchronize" | "sync" | "refresh" | "export" | "import" | "content" | "associate" | "run"
                );
            if matches!(action, "list" | "info" | "show" | "status" | "output" | "help") {
                out.push("read_verb");
            } else if destroys || changes {
                out.push(verb_fact(false, destroys));
            }
        }
        // ASM's `cp` of a file out of a disk group into one here reads the disk group (rule 6).
        "asmcmd" if sub == "cp" && operands(args).last().is_some_and(|to| !to.starts_with('+')) => out.push("download"),
        // Oracle Grid Infrastructure's clients, by their verb: `srvctl` and `crsctl` stop, start,
        // move, add or remove the cluster's resources (`srvctl relocate service -d ORDPRD ...`,
        // `crsctl stop cluster -all`, `crsctl delete resource`); ASM's `asmcmd` removes files from a
        // disk group or drops one (`rm -rf +RECO/...`, `dropdg`) or changes one (`setattr`, `chdg`);
        // their `status`, `config`, `check`, `stat`, `query` and listings read.
        "srvctl" | "crsctl" | "asmcmd" if !sub.is_empty() => {
            let reads =
                matches!(sub, "status" | "config" | "getenv" | "check" | "stat" | "query" | "help" | "find" | "du")
                    || sub.starts_with("ls")
                    || sub == "pwd";
            out.push(verb_fact(reads, matches!(sub, "remove" | "delete" | "rm" | "dropdg" | "rmalias" | "drop")));
        }
        // IBM's Power commands (an HMC's, VIOS's `ioscli`, AIX's), by the verb their names lead with:
        // a listing reads (`lssyscfg`, `lsmap`, `errpt`); a removal destroys (`rmsyscfg -r lpar`,
        // `rmvdev`, `reducevg`, `errclear`); the rest change a partition, a managed system or this
        // AIX machine (`chsysstate -o shutdown`, `migrlpar`, `chsyscfg`, `mkvdev`, `bootlist`).
        _ if POWER_COMMANDS.contains(&tool) => {
            let name = if tool == "ioscli" { sub } else { tool };
            // A partition's migration only validated (`migrlpar -o v`).
            let validates = name == "migrlpar" && value_after(args, &["-o"]).is_some_and(|o| o == "v");
            let reads = name.starts_with("ls") || name == "errpt" || has("--help") || validates;
            let destroys = name.starts_with("rm") || matches!(name, "reducevg" | "errclear");
            out.push(verb_fact(reads, destroys));
        }
        // Kapacitor's `kapacitor [-url URL] VERB ...`: a listing, a `show`, its stats or a backup
        // of its database here read; a `delete` destroys; a `define`, an `enable`, a `record` or a
        // `replay` (`-real-clock` or not, its alerts fire) changes the server's tasks.
        "kapacitor" => {
            if let Some(verb) = operands(args).find(|a| is_word(a)) {
                let reads = ["list", "show", "stats", "vars", "version", "help", "watch", "logs", "backup"]
                    .iter()
                    .any(|r| verb.starts_with(r));
                out.push(verb_fact(reads, verb == "delete"));
            }
        }
        // FleetDM's `fleetctl` (and CoreOS fleet's): `get`, a live `query` of osquery's tables, a
        // `preview` and a unit's `status` or `journal` read; a `delete` or a `destroy` destroys;
        // an `apply`, a `gitops`, a `trigger` or a unit's `start` changes what the server runs. Its
        // `login`, `config` and `package` work here.
        "fleetctl" if !matches!(sub, "login" | "logout" | "config" | "package" | "") => {
            let reads = matches!(sub, "get" | "query" | "preview" | "status" | "journal" | "cat" | "help" | "version")
                || sub.starts_with("list");
            out.push(verb_fact(reads, matches!(sub, "delete" | "destroy")));
        }
        // Velociraptor's VQL (`velociraptor --api_config F query "SELECT ..."`), by the functions
        // it calls on the server: a deletion (`hunt_delete`, `client_delete`) destroys; a
        // collection from a client, a hunt or an update changes what the clients run; a plain
        // `SELECT` of its tables reads. An artifact collected here whose name deletes
        // (`Server.Utils.DeleteManyFlows`) destroys what the server stored.
        "velociraptor" if matches!(sub, "query" | "artifacts") => {
            let vql = &text;
            let calls = |names: &[&str]| names.iter().any(|n| vql.contains(&format!("{n}(")));
            let deletes = vql.contains("_delete(") || (sub == "artifacts" && vql.contains(".delete"));
            if deletes {
                out.push("destroy_verb");
            } else if calls(&["collect_client", "hunt", "hunt_update", "hunt_add", "label", "execve", "quarantine"])
                || vql
                    .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                    .any(|w| ["_update", "_set", "_add", "_create"].iter().any(|end| w.ends_with(end)))
            {
                out.push("change_verb");
            } else if sub == "query" && vql.contains("select") {
                out.push("read_verb");
            }
        }
        // PythonAnywhere's `pa NOUN VERB`: a listing or a `get` reads; a delete (`delete-logs`)
        // destroys; a `reload`, a `set`, a `create` or an `update` changes the hosted site.
        "pa" if !sub2.is_empty() => {
            let reads = matches!(sub2, "get" | "list" | "ls" | "tree" | "show" | "logs");
            out.push(verb_fact(reads, sub2.starts_with("delete")));
        }
        // Astronomer's `astro deployment [NOUN] VERB`, by its last word: a listing, an `inspect` or
        // `logs` read; a delete destroys; a create or an update changes the deployment. `astro dev
        // kill` removes the local Airflow's containers and its metadata database's volume.
        "astro" if sub == "deployment" && !sub2.is_empty() => {
            const READS: [&str; 6] = ["list", "inspect", "logs", "ls", "get", "show"];
            let known = |w: &&String| READS.contains(&w.as_str()) || verb_kind(w).is_some();
            let verb = subs[1..].iter().chain(deeper).rfind(known).map_or(sub2, String::as_str);
            out.push(verb_fact(READS.contains(&verb), verb == "delete"));
        }
        "astro" if sub == "dev" && sub2 == "kill" => out.push("destroy_verb"),
        // PHP Deployer's `dep TASK [STAGE|HOST]`: a task run on the hosts named (`rollback
        // production`, `database:migrate production`, `deploy:unlock`) changes them; `list`, `tree`
        // and the `config:` reports read. Go's retired `dep` (`ensure`, `status`) is another tool.
        // Its `run CMD` and `ssh` carry a command to the hosts, which the call does not read.
        "dep" if !matches!(sub, "init" | "ensure" | "status" | "prune" | "check" | "version" | "run" | "ssh" | "") => {
            let reads = matches!(sub, "list" | "tree" | "help" | "hosts" | "releases") || sub.starts_with("config:");
            if reads || operands(args).nth(1).is_some() {
                out.push(verb_fact(reads, false));
            }
        }
        // Teradata's loaders (TPT's `tbuild`, `tdload`, FastLoad, MultiLoad, TPump) load rows into
        // the warehouse's tables; a TPT job that says it exports (`-j gl_export_202405`, `tdload`
        // with a source and no target system) copies rows out to files here. The Data Stream
        // Controller's `dsc` runs, deletes or lists backup and restore jobs.
        "tbuild" | "tdload" | "fastload" | "mload" | "tpump" if !has("-h") && !has("--help") => {
            let exports =
                text.contains("export") || (tool == "tdload" && has("--SourceTdpId") && !has("--TargetTdpId"));
            out.push(if exports { "download" } else { "change_verb" });
        }
        "dsc" if !sub.is_empty() => {
            let reads = sub.starts_with("list") || sub.contains("status") || sub == "help";
            out.push(verb_fact(reads, sub.starts_with("delete")));
        }
        // IBM Storage Protect's `dsmadmc [-se=S -id=U ...] "COMMAND ..."`, by the command's first
        // word: a query, a `select` or a `show` reads, and so does an audit told `fix=no`; a
        // delete, a remove, an expiry or a volume labelled over (`label libvolume ...
        // overwrite=yes`) destroys; any other (`update`, `move`, `checkout`, `halt`, `run`)
        // changes the server.
        "dsmadmc" => {
            let command = operands(args).collect::<Vec<_>>().join(" ").to_ascii_lowercase();
            let mut words = command.split_whitespace();
            if let Some(verb) = words.next() {
                let reads = matches!(verb, "query" | "q" | "select" | "show" | "help" | "validate")
                    || (verb == "audit" && command.contains("fix=no"))
                    || command.contains("preview=yes");
                let destroys = matches!(verb, "delete" | "del" | "remove" | "expire")
                    || (verb == "label" && command.contains("overwrite=yes"));
                out.push(verb_fact(reads, destroys));
            }
        }
        // StackStorm's `st2 NOUN VERB` (`st2 key set`, `st2 pack remove`, `st2 execution re-run`)
        // and `st2 run ACTION`: a listing, a `get`, a `show` reads; a delete or a remove destroys;
        // a run, a set, an install, an enable or a response to an inquiry changes what it runs.
        "st2" if !sub.is_empty() && !matches!(sub, "login" | "whoami" | "--version") => {
            let verb = if matches!(sub, "run" | "action-alias") || sub2.is_empty() { sub } else { sub2 };
            let reads = matches!(verb, "list" | "get" | "show" | "search" | "describe" | "tail" | "status" | "version");
            out.push(verb_fact(reads, matches!(verb, "delete" | "remove")));
        }
        // StackStorm's services reloaded, restarted or cleaned on its host (`st2ctl reload
        // --register-all`); `status` reads.
        "st2ctl" if !sub.is_empty() => out.push(verb_fact(sub == "status", sub == "clean")),
        // Northflank's `northflank VERB NOUN ...`: `get` and `list` read; `delete` destroys; `exec`,
        // `pause`, `start`, `create`, `update`, `scale` change the service. `forward` connects;
        // `exec --cmd CMD` runs CMD in the service, read as such.
        "northflank" if !matches!(sub, "forward" | "login" | "context" | "exec" | "") => {
            out.push(verb_fact(matches!(sub, "get" | "list"), sub == "delete"))
        }
        // Meteor Up's `mup setup|deploy|stop|restart|reconfig ...` on its servers; `logs`,
        // `status` and `validate` read; `init` writes its configuration here.
        "mup" if sub != "init" && !sub.is_empty() => {
            out.push(verb_fact(matches!(sub, "logs" | "status" | "validate" | "help"), false))
        }
        // Cohesity's `iris_cli [options] NOUN VERB`: a listing or a `get` reads, a delete destroys,
        // any other verb (`run`, `cancel`) changes the cluster. (Vultr's and Alibaba Cloud's
        // clients are trained on: reading them otherwise moves the weights.)
        "iris_cli" if !sub2.is_empty() => {
            let reads = matches!(sub2, "list" | "get" | "ls" | "show" | "info");
            out.push(verb_fact(reads, matches!(sub2, "delete" | "destroy" | "rm")));
        }
        // CFEngine's `cf-runagent -H HOSTS` runs the agents of other hosts; `cf-remote` installs on,
        // spawns or destroys them (`cf-remote destroy --all`); its `info` and `show` read.
        "cf-runagent" => out.push("change_verb"),
        "cf-remote" if !sub.is_empty() => out.push(verb_fact(
            matches!(sub, "info" | "show" | "list" | "version"),
            matches!(sub, "destroy" | "uninstall"),
        )),
        // SAP's `sapcontrol -nr NN -function F` and the host agent's `saphostctrl -function F`:
        // a `Get...`, a `List...`, a status read; any other (`Stop`, `RestartInstance`,
        // `StopDatabase`) changes the instance. HANA's `hdbnsutil -sr_state` reads; its
        // replication's registration, takeover or unregistration changes the pair's machines.
        "sapcontrol" | "saphostctrl" => {
            if let Some(function) = value_after(args, &["-function"]) {
                let f = function.to_ascii_lowercase();
                let reads = ["get", "list", "abapget", "health", "check", "wait"].iter().any(|r| f.starts_with(r))
                    || f.contains("status")
                    || f.contains("info");
                out.push(verb_fact(reads, false));
            }
        }
        "hdbnsutil" => {
            if args.iter().any(|a| a.starts_with("-sr_") && !a.starts_with("-sr_state")) {
                out.push("change_verb");
            } else if args.iter().any(|a| a.starts_with("-sr_state")) {
                out.push("read_verb");
            }
        }
        // Pacemaker's `crm` shell: a node put in standby, a resource stopped, moved or cleaned up
        // changes the cluster; `status` and the `show`s read.
        "crm" if !sub.is_empty() => {
            let verb = if matches!(sub, "node" | "resource" | "configure" | "cluster") { sub2 } else { sub };
            if !verb.is_empty() {
                let reads = matches!(verb, "status" | "show" | "list" | "locate" | "verify" | "help");
                out.push(verb_fact(reads, matches!(verb, "delete" | "remove")));
            }
        }
        // Netezza: `nz_migrate` told to truncate the target's table first destroys its rows, a
        // copy otherwise adds them; `nzrestore` puts a database back from a backup set; its
        // loader loads rows; `nzstop`/`nzstart` stop or start the system.
        "nz_migrate" => {
            let truncates = args
                .windows(2)
                .any(|w| w[0].eq_ignore_ascii_case("-TruncateTargetTable") && w[1].eq_ignore_ascii_case("yes"));
            out.push(if truncates { "destroy_verb" } else { "change_verb" });
        }
        "nzrestore" => out.push("restore_verb"),
        "nzload" | "nzstop" | "nzstart" => out.push("change_verb"),
        // HP-UX: Software Distributor's `swlist` reads, `swinstall` installs, `swremove` removes;
        // Serviceguard's `cmviewcl`, `cmquerycl`, `cmcheckconf`, `cmgetconf` read, its
        // `cmdeleteconf` deletes a package's or the cluster's configuration, and its other
        // commands halt, run, modify or apply (`cmhaltpkg`, `cmrunpkg`, `cmmodpkg -d`,
        // `cmapplyconf`); `kctune NAME=VALUE` sets a kernel tunable; `frecover -r` restores.
        "swlist" | "cmviewcl" | "cmquerycl" | "cmcheckconf" | "cmgetconf" => out.push("read_verb"),
        "swinstall" => out.push("change_verb"),
        "swremove" | "cmdeleteconf" => out.push("destroy_verb"),
        _ if tool.starts_with("cm") && ["halt", "run", "mod", "apply"].iter().any(|v| tool[2..].starts_with(v)) => {
            out.push("change_verb")
        }
        "kctune" => out.push(if operands(args).any(|a| a.contains('=')) { "change_verb" } else { "read_verb" }),
        "frecover" if short('r') || short('x') => out.push("restore_verb"),
        // Junos's operational commands: a `request` reboots, halts, zeroizes or adds software
        // (its `support information` reads); a `clear` with what it clears (`clear log
        // messages`, `clear bgp neighbor`) throws state away; `restart PROCESS` restarts a
        // daemon; `file delete` deletes a file on the device.
        "request" if !sub.is_empty() => {
            out.push(verb_fact(sub == "support", text.contains("zeroize")));
        }
        "clear" if call.remote && !sub.is_empty() => out.push("destroy_verb"),
        "restart" if !sub.is_empty() => out.push("change_verb"),
        "file" if sub == "delete" => out.push("destroy_verb"),
        // Oracle E-Business Suite's `adop phase=...` (prepare, apply, finalize, cutover, cleanup,
        // abort, fs_clone) patches the applications and their database; `-status` and
        // `-validate` read. `AFPASSWD` changes a password in the database.
        "adop" => out.push(if has("-status") || has("-validate") { "read_verb" } else { "change_verb" }),
        "afpasswd" => out.push("change_verb"),
        // PeopleSoft: `psadmin -c VERB -d DOMAIN` boots, shuts down, cleans or configures a domain;
        // its status commands read. Tuxedo's `tmshutdown` stops its servers. App Engine (`psae`)
        // runs a program against the database, Data Mover (`psdmtx`) runs a script there.
        "psadmin" => {
            if let Some(verb) = value_after(args, &["-c"]) {
                let reads = verb.ends_with("status") || matches!(verb.as_str(), "pslist" | "list" | "help");
                out.push(verb_fact(reads, false));
            }
        }
        // A Data Mover script that says it exports copies rows out to a file here.
        "psdmtx" if text.contains("export") => out.push("download"),
        "tmshutdown" | "psae" | "psdmtx" => out.push("change_verb"),
        // Oracle's Data Pump import: told to replace or truncate the tables it finds
        // (`table_exists_action=replace`), it destroys their rows; otherwise it adds. With
        // `sqlfile=` it only writes the DDL it would run to a file.
        "impdp" if text.contains("sqlfile=") => out.push("read_verb"),
        "impdp" => {
            let over = ["table_exists_action=replace", "table_exists_action=truncate"];
            out.push(if over.iter().any(|o| text.contains(o)) { "destroy_verb" } else { "change_verb" });
        }
        // OCI's `compute instance action --action STOP|SOFTSTOP|RESET|START` powers an instance.
        "oci" if sub2 == "instance" && has("--action") => out.push("change_verb"),
        // Convex's `convex run --prod FUNCTION` runs a function on the production deployment.
        "convex" if sub == "run" && has("--prod") => out.push("change_verb"),
        // Check Point's `mgmt_cli VERB ...`: a `show` reads; a delete destroys; a `discard` throws
        // away a session's changes; an `add`, a `set`, a `publish`, an `install-policy` or a
        // `run-script` changes the management server or its gateways. Its `login` and `logout`
        // open and close a session.
        "mgmt_cli" if !matches!(sub, "login" | "logout" | "") => {
            let reads = sub.starts_with("show") || sub == "where-used" || sub.starts_with("verify");
            out.push(verb_fact(reads, sub.starts_with("delete") || sub == "discard"));
        }
        // Dynatrace's OneAgent and CrowdStrike's sensor report their settings with `--get...`
        // (`oneagentctl --get-host-group`, `falconctl -g --rfm-state`) and change them with
        // `--set...` (`falconctl -s`).
        "oneagentctl" | "falconctl" => {
            let gets = args.iter().any(|a| a.starts_with("--get") || a == "-g" || a == "--version");
            let sets = args.iter().any(|a| a.starts_with("--set") || a == "-s" || a == "-d");
            if gets || sets {
                out.push(verb_fact(!sets, false));
            }
        }
        // Zeabur's and Appwrite's clients: `zeabur service restart|redeploy|suspend --id ...`,
        // `appwrite functions create-execution ...`; a listing or a `get` reads, a delete
        // destroys, any other verb changes the hosted project.
        "zeabur" | "appwrite" if !sub2.is_empty() => {
            let reads = sub2.starts_with("list") || sub2.starts_with("get") || sub2 == "logs";
            out.push(verb_fact(reads, sub2.starts_with("delete")));
        }
        // Pacemaker's `pcs`: its status, config and listings read; `cluster destroy` destroys the
        // cluster; the rest (`resource move|disable|cleanup`, `property set`, `stonith fence`,
        // `cluster stop --all`) change it. With `-f FILE` it edits that file, not the cluster.
        "pcs" if !sub.is_empty() && !drafts_here(tool, args) => {
            let reads = matches!(sub, "status" | "config" | "help")
                // `cluster cib FILE` saves the configuration to a file; `cib-push` changes it.
                || matches!(sub2, "status" | "config" | "show" | "list" | "describe" | "agents" | "cib")
                // What refers to a resource, the cluster's check of its configuration, the
                // daemons' status (`constraint ref vip`, `cluster verify`, `cluster
                // pcsd-status`), and corosync's configuration shown (`cluster corosync`).
                || matches!(sub2, "ref" | "verify" | "pcsd-status")
                || (sub == "cluster" && sub2 == "corosync");
            out.push(verb_fact(reads, sub == "cluster" && sub2 == "destroy"));
        }
        // With `-f FILE` it edits that file, a draft of the configuration, and not the cluster
        // (`pcs -f cib-draft.xml resource delete vip`), whatever its verb.
        "pcs" if !sub.is_empty() => out.push("file_write"),
        // Pacemaker's lower-level tools: a resource banned, moved, cleaned up or restarted, an
        // attribute updated or deleted, a node fenced, corosync reloaded change the cluster; a
        // listing, a query or a `--why` reads.
        "crm_resource" | "crm_attribute" | "stonith_admin" | "corosync-cfgtool" => {
            let changes = [
                "--ban",
                "--move",
                "--clear",
                "--cleanup",
                "--restart",
                "--update",
                "--delete",
                "--reboot",
                "--off",
                "--fence",
                "-B",
                "-F",
                "-R",
                "-k",
                "-v",
                "-D",
                "-C",
                "-M",
                // A resource forced into a state, a parameter set or deleted, a failure
                // recorded, its history refreshed, a node unfenced.
                "--force-promote",
                "--force-demote",
                "--force-start",
                "--force-stop",
                "--set-parameter",
                "--delete-parameter",
                "--refresh",
                "--fail",
                "--unfence",
            ];
            if args.iter().any(|a| changes.iter().any(|c| a == c || a.starts_with(&format!("{c}=")))) {
                out.push(verb_fact(false, has("--delete") || has("-D")));
            } else if !args.is_empty() {
                out.push("read_verb");
            }
        }
        // DRBD's `drbdadm`: its states and `verify` read; a forced promotion, a connection that
        // discards this side's data, new metadata forced or a resync forced (`invalidate`)
        // destroy what the device held; the rest (`adjust`, `down`, `connect`) change it.
        // `-d` only prints what it would run.
        "drbdadm" if has("-d") || has("--dry-run") => out.push("dry_run"),
        "drbdadm" if !sub.is_empty() => {
            let reads = matches!(
                sub,
                "status" | "dstate" | "cstate" | "role" | "show-gi" | "get-gi" | "dump" | "verify" | "sh-resources"
            );
            let destroys = matches!(sub, "invalidate" | "invalidate-remote" | "wipe-md")
                || has("--discard-my-data")
                || has("--clear-bitmap")
                || (matches!(sub, "create-md" | "primary") && has("--force"));
            out.push(verb_fact(reads, destroys));
        }
        // Riak's `riak-admin`: a `cluster plan`, its statuses and listings read; a forced removal
        // destroys a member; joining, leaving, replacing, committing, resizing the ring or a bucket
        // type's change changes the cluster.
        "riak-admin" if !sub.is_empty() => {
            let reads = matches!(
                sub,
                "status" | "member-status" | "ring-status" | "transfers" | "test" | "diag" | "aae-status"
            ) || matches!(sub2, "plan" | "status" | "list");
            out.push(verb_fact(reads, sub2 == "force-remove"));
        }
        // FoundationDB's `fdbcli --exec 'CMD; CMD'`, by its commands: a `clear` or `clearrange`
        // destroys keys; `set`, `setclass`, `configure`, `lock`, `maintenance on` and an `exclude`
        // or a `kill` naming processes change the cluster; `status`, `get` and those two with
        // nothing named read.
        "fdbcli" => {
            if let Some(code) = value_after(args, &["--exec"]) {
                let mut fact = "read_verb";
                for command in code.to_ascii_lowercase().split(';') {
                    let words: Vec<&str> = command.split_whitespace().collect();
                    let named = words.len() > 1;
                    match words.first().copied() {
                        Some("clear" | "clearrange") => fact = "destroy_verb",
                        Some(
                            "set" | "setclass" | "configure" | "lock" | "unlock" | "maintenance" | "include"
                            | "throttle" | "datadistribution" | "profile" | "tssq",
                        ) if fact != "destroy_verb" => fact = "change_verb",
                        Some("exclude" | "kill" | "coordinators" | "suspend") if named && fact != "destroy_verb" => {
                            fact = "change_verb"
                        }
                        _ => {}
                    }
                }
                out.push(fact);
            }
        }
        // FoundationDB's backup tools: a restore put back (`fdbrestore start`); a backup's
        // deletion or expiry destroys it; a status or a listing reads; the rest change.
        "fdbdr" | "fdbbackup" | "fdbrestore" if !sub.is_empty() => {
            out.push(if matches!(sub, "status" | "list" | "describe" | "dump" | "query" | "tags") {
                "read_verb"
            } else if tool == "fdbrestore" && sub == "start" {
                "restore_verb"
            } else if matches!(sub, "delete" | "expire" | "cleanup") {
                "destroy_verb"
            } else {
                "change_verb"
            })
        }
        // SeaweedFS's `weed shell` fed its commands: a deletion (`volume.delete`,
        // `collection.delete`, `fs.rm`, `s3.bucket.delete`) destroys; a balance, an encoding, an
        // evacuation or a configuration changes the cluster; listings read.
        "weed" if sub == "shell" => {
            let fed = call.stdin_text.as_deref().unwrap_or("").to_ascii_lowercase();
            let commands: Vec<&str> = fed.split([';', '\n']).map(str::trim).collect();
            let first = |c: &&str| c.split_whitespace().next().unwrap_or("").to_string();
            // A balance, an evacuation, a replica fix or a configuration only plans without
            // `-force` (or `-apply`).
            let plans = |c: &&str| {
                let n = first(c);
                ["balance", "evacuate", "configure", "replication", "move"].iter().any(|v| n.ends_with(v))
                    && !c.contains("-force")
                    && !c.contains("-apply")
            };
            let names: Vec<String> =
                commands.iter().filter(|c| !plans(c)).map(first).filter(|w| w.contains('.')).collect();
            if names.iter().any(|n| n.ends_with(".delete") || n == "fs.rm" || n.ends_with(".rm")) {
                out.push("destroy_verb");
            } else if names.iter().any(|n| {
                !(n.ends_with(".list")
                    || n.ends_with(".ls")
                    || n.ends_with(".du")
                    || n.ends_with(".check")
                    || n.ends_with(".cat"))
            }) {
                out.push("change_verb");
            } else if !names.is_empty() {
                out.push("read_verb");
            }
        }
        // AutoSys: `sendevent -E EVENT` starts, kills or sets a job's status; `jil` loads job
        // definitions (`delete_job:`, `delete_box:` destroy); `archive_events` deletes old events;
        // `autorep`, `forecast` and `job_depends` read.
        "sendevent" => out.push("change_verb"),
        "jil" => out.push(if text.contains("delete_") {
            "destroy_verb"
        } else if has("-syntax") {
            "read_verb"
        } else {
            "change_verb"
        }),
        "archive_events" => out.push("destroy_verb"),
        "autorep" | "forecast" | "job_depends" | "autostatus" => out.push("read_verb"),
        // Control-M: `ctm run` orders jobs or sets their state (`jobs:status::get` reads), `ctm
        // config ...::delete` destroys, `ctm deploy` changes; `ctmpsm`, `ctmorder`, `ctmvar -ACTION
        // SET` and `emdef` change the server; `ctmcontb -DELETE` deletes a condition.
        "ctm" if !matches!(sub, "environment" | "env" | "session" | "") => {
            let words: Vec<String> = args.iter().map(|a| a.to_ascii_lowercase()).collect();
            // `ctm build` checks definitions on the server without deploying them.
            let reads = sub == "build"
                || words.iter().any(|w| w.ends_with("::get") || w.ends_with("::list") || w.contains("status::get"));
            let destroys = words.iter().any(|w| w.ends_with("::delete") || w == "delete");
            out.push(verb_fact(reads, destroys));
        }
        "ctmpsm" if args.iter().any(|a| a.starts_with("-LIST")) => out.push("read_verb"),
        "ctmpsm" | "ctmorder" | "ctmvar" | "emdef" => out.push("change_verb"),
        "ctmcontb" => out.push(if has("-DELETE") {
            "destroy_verb"
        } else if has("-LIST") {
            "read_verb"
        } else {
            "change_verb"
        }),
        // Progress OpenEdge's utilities, by their qualifier (`proutil DB -C tabanalys`, `rfutil DB
        // -C aimage extent empty`): analyses, listings and statuses read; a forced truncation of
        // the before-image (`truncate bi -F`), a truncated area, an emptied after-image extent
        // and `prodel` destroy; a load of rows and a roll forward put data back; the rest (an
        // index rebuild, `aimage end`, a shutdown) change the database. `prorest -vp`/`-vf`/`-list`
        // only check a backup; `probkup -estimate` only sizes one.
        "proutil" | "rfutil" | "dsrutil" | "proshut" if value_after(args, &["-C"]).is_some() => {
            let i = args.iter().position(|a| a == "-C").map_or(0, |i| i + 1);
            let words: Vec<String> = args[i..].iter().take(3).map(|a| a.to_ascii_lowercase()).collect();
            let w = |k: usize| words.get(k).map_or("", String::as_str);
            let reads = matches!(
                w(0),
                "busy"
                    | "holder"
                    | "describe"
                    | "dbanalys"
                    | "tabanalys"
                    | "idxanalys"
                    | "chanalys"
                    | "viewb2"
                    | "iostats"
                    | "idxcheck"
                    | "status"
                    | "list"
                    | "dbipcs"
            ) || (w(0) == "aimage"
                && matches!(w(1), "list" | "query" | "scan" | "full" | "extent")
                && w(2) != "empty");
            let destroys = (w(0) == "truncate" && (w(1) == "area" || has("-F")))
                || (w(0) == "aimage" && (w(1) == "truncate" || (w(1) == "extent" && w(2) == "empty")));
            // What it destroys or puts back is a database's rows, as `dropdb`'s and `pg_restore`'s.
            if matches!(w(0), "load" | "bulkload" | "roll") {
                out.extend(["restore_verb", "db_restore"]);
            } else if matches!(w(0), "dump" | "dumpspecified") {
                out.push("download");
            } else if destroys {
                out.extend(["destroy_verb", "db_destroy"]);
            } else {
                out.push(verb_fact(reads, false));
            }
        }
        "proshut" if has("-by") || has("-bn") || has("-byF") || has("-shutdownTimeout") => out.push("change_verb"),
        "prodel" => out.extend(["destroy_verb", "db_destroy"]),
        // Solutions Enabler's daemons on this host: a listing reads; the rest start or stop them.
        "stordaemon" if !sub.is_empty() => out.push(verb_fact(matches!(sub, "list" | "show" | "help"), false)),
        // Citrix Hypervisor's toolstack restarted on a host.
        "xe-toolstack-restart" => out.push("change_verb"),
        // HTCondor's daemons told to stop, start or reconfigure: another machine's when the call
        // names one or all (`-all`, `-name`, `-pool`, `-addr`), as [`SERVED`]'s records say.
        "condor_off" | "condor_on" | "condor_restart" | "condor_reconfig" if !has("-help") => out.push("change_verb"),
        "prorest" if has("-vp") || has("-vf") || has("-list") => out.push("read_verb"),
        "prorest" => out.extend(["restore_verb", "db_restore"]),
        "probkup" if has("-estimate") => out.push("read_verb"),
        "prostrct" if !sub.is_empty() => out.push(verb_fact(matches!(sub, "list" | "statistics"), false)),
        // Dell PowerMax's Solutions Enabler (`symsg -sid 412 delete SG_OLD -force -nop`): the
        // array named is another machine. Its first verb: a listing, a `show`, a `query`, a
        // `verify` or a `preview` reads; a delete, a snapshot's termination or freed tracks
        // destroy; a snapshot restored or linked over a group's devices puts data back; any other
        // (`split`, `failover`, `swap`, `set`, `move`, `commit`, `release`) changes the array.
        tool if SYMCLI.contains(&tool) => {
            if has("-h") || has("-help") {
                out.push("help");
            } else if let Some(v) = symcli_verb(tool, args) {
                out.push(if matches!(v, "restore" | "link" | "relink") {
                    "restore_verb"
                } else {
                    verb_fact(SYMCLI_READS.contains(&v), matches!(v, "delete" | "terminate" | "free"))
                });
            }
        }
        // Frappe's `bench [--site SITE] COMMAND`: a restore puts a backup over the site's database;
        // a trim, a dropped site or an uninstalled app destroys its rows; a method run by
        // `execute` is read by its name (`frappe.client.delete`, `...purge_old_transactions`,
        // `frappe.client.get_count`); listings, versions and help read; a migration, an update,
        // an install, a setup or a setting changes the site or the bench.
        "bench" if !sub.is_empty() => {
            let method = operands(args).nth(1).map(str::to_ascii_lowercase).unwrap_or_default();
            let last = method.rsplit('.').next().unwrap_or("");
            let named = |verbs: &[&str]| last.split('_').any(|w| verbs.contains(&w));
            if has("--help") || has("--dry-run") {
                out.push(if has("--dry-run") { "dry_run" } else { "help" });
            } else if sub == "restore" || sub == "partial-restore" {
                out.extend(["restore_verb", "db_restore"]);
            } else if sub == "backup" {
                out.push("download");
            } else if sub == "execute" {
                out.push(verb_fact(
                    named(&["get", "count", "list", "exists", "show", "info"]),
                    named(&["delete", "purge", "drop", "truncate", "trim", "remove", "clear"]),
                ));
            } else if matches!(sub, "trim-tables" | "trim-database" | "drop-site" | "uninstall-app" | "reinstall") {
                out.extend(["destroy_verb", "db_destroy"]);
            } else if matches!(
                sub,
                "list-apps" | "version" | "doctor" | "show-config" | "show-pending-jobs" | "list-sites" | "src"
            ) {
                out.push("read_verb");
            } else if matches!(
                sub,
                "migrate"
                    | "install-app"
                    | "remove-app"
                    | "update"
                    | "switch-to-branch"
                    | "set-maintenance-mode"
                    | "set-config"
                    | "setup"
                    | "restart"
                    | "set-admin-password"
                    | "new-site"
                    | "get-app"
            ) {
                out.push("change_verb");
            }
        }
        // HPE 3PAR's and Primera's CLI (`ssh 3paradm@array growvv ...`), by its command's name.
        tool if threepar_fact(tool).is_some() => out.extend(threepar_fact(tool)),
        // TIBCO BusinessWorks 6's `bwadmin VERB ...` and BusinessWorks 5's `AppManage -VERB`: a
        // `show`, a `help` or an export reads; an undeploy, a delete or a removal destroys what
        // the domain ran; a start, a stop, a deploy, an upload or a configuration changes it.
        "bwadmin" if !sub.is_empty() && !has("-f") => {
            out.push(if matches!(sub, "show" | "help" | "version" | "export") {
                "read_verb"
            } else {
                verb_fact(false, matches!(sub, "undeploy" | "delete" | "remove"))
            })
        }
        "appmanage" => {
            let verb = args.iter().find_map(|a| a.strip_prefix('-').filter(|v| APPMANAGE_VERBS.contains(v)));
            if let Some(v) = verb {
                out.push(if v == "export" { "download" } else { verb_fact(false, matches!(v, "undeploy" | "delete")) });
            }
        }
        // TIBCO EMS's `tibemsadmin` fed its commands (`printf 'purge queue Q\n' | tibemsadmin
        // -server tcp://...`), line by line: a `show`, an `info`, a `help` reads; a purge or a
        // delete destroys messages or destinations; a create, a `set`, a `setprop`, a grant or a
        // shutdown changes the server.
        "tibemsadmin" => {
            let fed = call.fed().unwrap_or_default().to_ascii_lowercase();
            let mut fact = None;
            for line in fed.lines() {
                let verb = line.split_whitespace().next().unwrap_or("");
                let this = match verb {
                    "" | "commit" | "connect" | "disconnect" | "exit" | "quit" | "time" | "whoami" | "echo" => None,
                    v if v.starts_with("show") || matches!(v, "info" | "help" | "h") => Some("read_verb"),
                    "purge" | "delete" => Some("destroy_verb"),
                    _ => Some("change_verb"),
                };
                fact = match (fact, this) {
                    (Some("destroy_verb"), _) | (_, None) => fact,
                    (Some("change_verb"), Some("read_verb")) => fact,
                    _ => this,
                };
            }
            out.extend(fact);
        }
        // Citrix Hypervisor's and XCP-ng's `xe NOUN-VERB ...` (`xe vm-uninstall`, `xe sr-forget`,
        // `xe pool-restore-database`): its listings and parameters read, a dump or an export
        // writes a file here; a destroy, an uninstall or a forget destroys; a revert or a
        // database restored puts data back; the rest (`vm-shutdown`, `host-evacuate`,
        // `pool-eject`) change the pool. Not tldr's `xe` (an `xargs`), whose words are no such pair.
        "xe" => {
            if let Some(command) = xe_command(args) {
                let verb = command.split_once('-').map_or("", |(_, v)| v);
                out.push(if verb.ends_with("list") || verb.starts_with("param-get") || verb.starts_with("get-") {
                    "read_verb"
                } else if verb.starts_with("export") || verb == "dump-database" {
                    "download"
                } else if matches!(verb, "revert" | "restore-database") {
                    "restore_verb"
                } else {
                    verb_fact(false, matches!(verb, "destroy" | "uninstall" | "forget" | "data-destroy"))
                });
            } else if sub == "help" {
                out.push("help");
            }
        }
        // HTCondor's pool and IBM Spectrum LSF's cluster: a job removed destroys it; a drain, a
        // job's or a priority's edit, an ad invalidated, a host or a queue closed, a daemon
        // reconfigured or restarted across the cluster changes it; `-help` and LSF's
        // `ckconfig`/`showstatus` read. HTCondor's daemons told off, on or to reconfigure are
        // this machine's unless the call names others (`-all`, `-name`, `-pool`, `-addr`).
        "condor_rm" if !has("-help") => out.push("destroy_verb"),
        "condor_drain" | "condor_qedit" | "condor_advertise" | "condor_hold" | "condor_release" | "condor_vacate"
            if !has("-help") =>
        {
            out.push("change_verb")
        }
        "condor_userprio"
            if args.iter().any(|a| a.starts_with("-set") || a.starts_with("-reset") || a == "-delete") =>
        {
            out.push("change_verb")
        }
        "condor_config_val" if args.iter().any(|a| matches!(a.as_str(), "-rset" | "-set" | "-unset" | "-runset")) => {
            out.push("change_verb")
        }
        "badmin" | "lsadmin" if !sub.is_empty() => {
            out.push(verb_fact(matches!(sub, "ckconfig" | "showstatus" | "showconf" | "help" | "perfmon"), false))
        }
        "lsfshutdown" | "lsfrestart" | "lsfstartup" => out.push("change_verb"),
        // Brocade Fabric OS's commands, run on a switch (`ssh admin@sw 'cfgsave'`): see
        // [`fabric_os_fact`].
        tool if fabric_os_fact(tool, args).is_some() => out.extend(fabric_os_fact(tool, args)),
        // `date` given a time (`date 0611143024`, `date -s "2024-06-11 14:30"`) sets the clock.
        "date"
            if has("-s")
                || has("--set")
                || (!["-d", "--date", "-r", "--reference", "-f", "--file"].iter().any(|o| has(o))
                    && operands(args).any(|o| o.len() >= 8 && o.chars().all(|c| c.is_ascii_digit() || c == '.'))) =>
        {
            out.push("change_verb")
        }
        // IBM Workload Scheduler's `conman "VERB ARGS;OPTIONS"` and `composer "VERB ..."` (not PHP's
        // `composer`, whose words are not one quoted command), by the verb: a `show...` (`sc`,
        // `sj`, `ss`, ...), a `display`, a `list`, a `validate` read, and so does composer's
        // `extract` (old name `create`), which writes the definitions to a file here; composer's
        // `delete` destroys definitions; the rest (`cancel`, `rerun`, `release`, `reply`,
        // `stop`, `replace`, `unlock`) change the plan or the database. `optman chg`,
        // `planman unlock|deploy|reset`, `JnextPlan` change them; `ResetPlan` and `rmstdlist`
        // (without `-p`) destroy plans and job logs.
        "conman" | "composer" if iws_command(call, args).is_some() => {
            let command = iws_command(call, args).unwrap_or_default();
            let verb = command.split([' ', ';']).next().unwrap_or("");
            let reads = verb.starts_with("show")
                || matches!(
                    verb,
                    "sc" | "sj"
                        | "ss"
                        | "sp"
                        | "sr"
                        | "sf"
                        | "sd"
                        | "status"
                        | "version"
                        | "v"
                        | "help"
                        | "display"
                        | "di"
                        | "list"
                        | "l"
                        | "print"
                        | "p"
                        | "validate"
                        | "extract"
                        | "ex"
                        | "create"
                        | "cr"
                );
            out.push(if tool == "composer" && matches!(verb, "extract" | "ex" | "create" | "cr") {
                "download"
            } else {
                verb_fact(reads, tool == "composer" && matches!(verb, "delete" | "de"))
            });
        }
        "optman" if !sub.is_empty() => out.push(verb_fact(matches!(sub, "ls" | "show" | "list"), false)),
        // `planman crtfc`/`crttp` write a forecast or trial plan to a file here.
        "planman" if matches!(sub, "crtfc" | "crttp") => out.push("download"),
        "planman" if !sub.is_empty() => {
            out.push(verb_fact(matches!(sub, "showinfo" | "history" | "showstat"), sub == "reset"))
        }
        "jnextplan" if !has("-help") => out.push("change_verb"),
        "resetplan" => out.push("destroy_verb"),
        "rmstdlist" => out.push(if has("-p") { "read_verb" } else { "destroy_verb" }),
        // Hitachi's CCI: `raidcom VERB OBJECT` (`get` reads; `delete` destroys, and so does an
        // LDEV's initialisation, a format; `add`, `modify`, `extend`, `map` change the array), and
        // its pair commands: a split, a creation, a resync or a takeover changes the pairs (a
        // resync told `-restore` copies the secondary back over the primary); a display, a
        // check or a wait reads.
        "raidcom" if !sub.is_empty() && !has("-h") => out.push(match sub {
            "get" => "read_verb",
            "delete" | "initialize" => "destroy_verb",
            _ => "change_verb",
        }),
        "pairresync" if has("-restore") => out.push("restore_verb"),
        "pairsplit" | "paircreate" | "pairresync" | "horctakeover" | "pairsyncwait" if !has("-h") => {
            out.push("change_verb")
        }
        "pairdisplay" | "pairvolchk" | "pairevtwait" | "raidqry" | "inqraid" | "raidscan" => out.push("read_verb"),
        // IBM Spectrum Virtualize's (Storwize's, FlashSystem's) `svctask CMD` and `satask CMD`, by
        // the command: an `ls...` reads, an `rm...` destroys, the rest (`mkvdisk`, `chpartnership`,
        // `stopfcmap`, `applysoftware`) change the system; `svcinfo` and `sainfo` read. A
        // configuration backup written there changes it; one restored puts one back.
        "svctask" | "satask" if !sub.is_empty() => {
            out.push(if sub.starts_with("ls") { "read_verb" } else { verb_fact(false, sub.starts_with("rm")) })
        }
        "svcinfo" | "sainfo" => out.push("read_verb"),
        "svcconfig" if !sub.is_empty() => out.push(if sub == "restore" { "restore_verb" } else { "change_verb" }),
        // Informatica PowerCenter's `pmcmd VERB` (workflows started, stopped, aborted or scheduled
        // on the Integration Service; `get...details` and `ping...` read), `pmrep VERB` (the
        // repository: a deletion or a truncated log destroys, an export writes a file here, a
        // listing or a validation reads, an import or a deployment changes it; `connect` saves
        // the connection here) and `infacmd SERVICE VERB` (the domain: a removal or a purge
        // destroys, a listing or a `get` reads). DataStage's `dsjob -run`/`-stop` runs or stops
        // jobs on its server; its listings and logs read.
        "pmcmd" if !sub.is_empty() => {
            out.push(verb_fact(["get", "ping", "show", "version", "help"].iter().any(|r| sub.starts_with(r)), false))
        }
        "pmrep" if !sub.is_empty() => out.push(if sub == "objectexport" {
            "download"
        } else {
            verb_fact(
                ["list", "validate", "version", "help", "get", "find", "show"].iter().any(|r| sub.starts_with(r)),
                ["delete", "truncate", "purge", "cleanup"].iter().any(|d| sub.starts_with(d)),
            )
        }),
        "infacmd" | "infacmd.sh" if !sub2.is_empty() => out.push(verb_fact(
            ["list", "get", "ping", "help", "show"].iter().any(|r| sub2.starts_with(r)),
            ["remove", "delete", "purge"].iter().any(|d| sub2.starts_with(d)),
        )),
        "dsjob" => {
            if has("-run") || has("-stop") || has("-unlock") {
                out.push("change_verb");
            } else if ["-ljobs", "-lprojects", "-jobinfo", "-logsum", "-logdetail", "-report", "-lparams", "-lstages"]
                .iter()
                .any(|o| has(o))
            {
                out.push("read_verb");
            }
        }
        // SAP MaxDB's `dbmcli [-n HOST] -d DB -U KEY COMMAND`, by its command: a listing, a
        // state, an info or a `get` reads; a database dropped destroys; a recovery or an
        // activation from a backup puts one back; the rest (`db_offline`, `db_restart`,
        // `param_directput`, `backup_start`) change the database server.
        "dbmcli" if operands(args).any(|w| w == "help") => out.push("help"),
        "dbmcli" => {
            let command = operands(args)
                .map(str::to_ascii_lowercase)
                .find(|w| w.contains('_') && w.chars().all(|c| c.is_ascii_lowercase() || c == '_'));
            if let Some(c) = command {
                out.push(if c.starts_with("recover") || (c == "db_activate" && text.contains("recover")) {
                    "restore_verb"
                } else {
                    verb_fact(
                        ["list", "state", "info", "get", "show", "enum"].iter().any(|r| c.contains(r)),
                        matches!(c.as_str(), "db_drop" | "db_clear"),
                    )
                });
            }
        }
        // SONiC's `config ...` (saved, reloaded, loaded, a BGP neighbour or a port shut down) and
        // `config-setup factory` (the factory configuration, over the switch's own); its
        // `sonic-db-cli DB COMMAND` as Redis's commands; NVIDIA Cumulus's `nv`: `show` reads,
        // `set`/`unset`/`config` change the switch, `action reboot` restarts it; FRR's `vtysh -c
        // CMD`: `show` reads, a `clear` resets sessions, the rest configure.
        "config" if !sub.is_empty() && !has("-h") && !has("--help") => out.push("change_verb"),
        "config-setup" if sub == "factory" => out.push("destroy_verb"),
        "sonic-db-cli" if !sub2.is_empty() => out.push(match sub2 {
            "del" | "hdel" | "flushdb" | "flushall" => "destroy_verb",
            "hget" | "hgetall" | "keys" | "get" | "exists" | "hexists" | "scan" | "hkeys" | "info" => "read_verb",
            _ => "change_verb",
        }),
        "warm-reboot" | "fast-reboot" | "soft-reboot" if !has("-h") => out.push("power"),
        "nv" if sub == "action" && sub2 == "reboot" => out.push("power"),
        "nv" if !sub.is_empty() => out.push(verb_fact(matches!(sub, "show" | "list-commands" | "help"), false)),
        "vtysh" => {
            let commands: Vec<String> = args
                .iter()
                .enumerate()
                .filter(|(i, _)| *i > 0 && matches!(args[i - 1].as_str(), "-c" | "--command"))
                .map(|(_, a)| a.trim().to_ascii_lowercase())
                .collect();
            if !commands.is_empty() {
                let reads = commands.iter().all(|c| c.starts_with("show") || c.starts_with("sh ") || c == "exit");
                out.push(verb_fact(reads, false));
            }
        }
        // OpenSC's `pkcs11-tool` on a token: a token initialised or an object deleted destroys
        // keys; a key generated, an object written or a PIN set changes it; listings, an info, an
        // object read and the self-test read.
        "pkcs11-tool" => {
            if has("--init-token") || has("--delete-object") || has("-b") {
                out.push("destroy_verb");
            } else if [
                "--keypairgen",
                "--keygen",
                "--write-object",
                "--init-pin",
                "--change-pin",
                "--unwrap",
                "-k",
                "-w",
            ]
            .iter()
            .any(|o| has(o))
            {
                out.push("change_verb");
            } else if args.iter().any(|a| {
                a.starts_with("--list-")
                    || matches!(a.as_str(), "--show-info" | "--read-object" | "--test" | "-L" | "-O" | "-I" | "-r")
            }) {
                out.push("read_verb");
            }
        }
        // Apache Accumulo's `accumulo shell -e "CMD"`, by the command: a listing, a scan, a
        // `help` reads; a table deleted, rows deleted or a table dropped destroys; the rest
        // (`config -s`, `setauths`, `revoke`, `offline`, `merge`, `importdirectory`) change the
        // instance. `accumulo init` over an instance destroys it; `rfile-info` reads.
        "accumulo" if sub == "shell" => {
            if let Some(command) = value_after(args, &["-e", "--execute-command"]) {
                let c = command.to_ascii_lowercase();
                let verb = c.split_whitespace().next().unwrap_or("");
                out.push(verb_fact(
                    matches!(
                        verb,
                        "tables" | "scan" | "help" | "info" | "whoami" | "users" | "getauths" | "du" | "grep"
                    ) || (verb == "config" && !c.contains(" -s ") && !c.contains(" -d ")),
                    matches!(verb, "deletetable" | "deleterows" | "droptable" | "deletemany" | "droprows" | "delete"),
                ));
            }
        }
        "accumulo" if sub == "init" => out.push("destroy_verb"),
        "accumulo" if matches!(sub, "rfile-info" | "info" | "version" | "help") => out.push("read_verb"),
        // HPE Ezmeral's (MapR's) `maprcli NOUN [NOUN] VERB`: `list`, `info`, `show` read; `delete`
        // and `remove` destroy; the rest (`modify`, `create`, `rename`, `unmount`, `enable`,
        // `restart` through `node services`) change the cluster.
        "maprcli" if !sub.is_empty() => {
            let words: Vec<String> = operands(args).map(str::to_ascii_lowercase).take(3).collect();
            let verb = words
                .iter()
                .find(|w| matches!(w.as_str(), "list" | "info" | "show" | "cldbmaster" | "delete" | "remove"))
                .or(words.get(1))
                .map_or("", String::as_str);
            out.push(verb_fact(
                matches!(verb, "list" | "info" | "show" | "cldbmaster" | "summary"),
                matches!(verb, "delete" | "remove"),
            ));
        }
        // Veritas InfoScale's cluster (VCS): `hagrp`, `hares`, `hasys` by their option: a state, a
        // listing, a display or a value reads; a deletion destroys what the cluster ran; the rest
        // (`-switch`, `-offline`, `-freeze`, `-modify`, `-clear`, `-force`) change it. `hastop`,
        // `haconf`, `hacli -cmd`, `gabconfig -U` change it; Volume Replicator's `vradmin` takeover
        // or migration changes the replication; `vxdg destroy` and `vxdiskunsetup` destroy a disk
        // group's or a disk's setup.
        "hagrp" | "hares" | "hasys" => {
            let reads = ["-state", "-list", "-display", "-value", "-dep", "-resources", "-nodeid", "-help"];
            if args.iter().any(|a| reads.contains(&a.as_str())) {
                out.push("read_verb");
            } else if args.iter().any(|a| a.starts_with('-')) {
                out.push(verb_fact(false, has("-delete")));
            }
        }
        "hastop" | "haconf" | "hacli" if !has("-help") => out.push("change_verb"),
        "gabconfig" if has("-U") || has("-x") || has("-c") => out.push("change_verb"),
        "vradmin" | "vxdg" => {
            // The verb past the disk group `-g` names (`vxdg -g nfsdg free`).
            let g = args.iter().position(|a| a == "-g").map(|k| k + 1);
            let verb =
                args.iter().enumerate().find(|(k, a)| !a.starts_with('-') && Some(*k) != g).map(|(_, a)| a.as_str());
            if let Some(v) = verb {
                out.push(verb_fact(
                    matches!(
                        v,
                        "printrvg" | "printvol" | "repstatus" | "verifydata" | "stats" | "list" | "free" | "spare"
                    ),
                    matches!(v, "delpri" | "delsec" | "destroy"),
                ));
            }
        }
        "vxdiskunsetup" => out.push("destroy_verb"),
        // A router's own command lines over ssh: Huawei VRP's `display ...` and the session's
        // `screen-length ... temporary` and `quit` read; Nokia SR OS's `admin save`, `admin
        // reboot` and `admin rollback revert` change the router.
        "display" | "screen-length" | "quit" if call.remote => out.push("read_verb"),
        "admin" if call.remote && (matches!(sub, "save" | "reboot") || (sub == "rollback" && sub2 == "revert")) => {
            out.push("change_verb")
        }
        // Rake's listings of its tasks (`rake -T`, `--tasks`, `-D`, `-W`, `-P`) run none of them.
        "rake" if ["-T", "--tasks", "-D", "--describe", "-W", "--where", "-P", "--prereqs"].iter().any(|o| has(o)) => {
            out.push("read")
        }
        // Uyuni's and Spacewalk's `spacecmd [-s SERVER] -- NOUN_VERB ...`, by the verb its command
        // ends with: a listing, a details or a search reads; a delete or a remove destroys; a
        // reboot, an upgrade, an apply, a sync, a clone, a cancel or another verb changes what the
        // server manages.
        "spacecmd" => {
            let command = operands(args).map(str::to_ascii_lowercase).find(|a| a.contains('_'));
            if let Some(command) = command {
                let verb = command.rsplit('_').next().unwrap_or("");
                // A report, or an export into a file here (`activationkey_export KEY -f FILE`).
                let reads = ["list", "details", "search", "show", "get", "diff", "info", "status", "export"]
                    .iter()
                    .any(|r| verb.starts_with(r))
                    || command.starts_with("report_");
                let destroys = verb.starts_with("delete") || verb.starts_with("remove") || verb == "removeorphans";
                out.push(verb_fact(reads, destroys));
            }
        }
        // The cluster registry put back from a backup (`ocrconfig -restore FILE`); `-showbackup`
        // lists the backups.
        "ocrconfig" => add(
            &mut out,
            if has("-restore") {
                "restore_verb"
            } else if has("-showbackup") || has("-help") {
                "read_verb"
            } else {
                "change_verb"
            },
        ),
        // Data Guard's broker, by its command: a switchover, a failover, a reinstatement or an edit
        // of a database's state changes the configuration's databases; `show` and `validate` read.
        "dgmgrl" => {
            let changes = ["switchover", "failover", "reinstate", "convert", "edit ", "enable ", "disable ", "remove "];
            if changes.iter().any(|c| text.contains(c)) {
                add(&mut out, if text.contains("remove ") { "destroy_verb" } else { "change_verb" });
            } else if text.contains("show ") || text.contains("validate ") {
                add(&mut out, "read_verb");
            }
        }
        // MAAS's `maas PROFILE NOUN VERB`: `read` reads; a verb that deletes destroys; any other
        // (`create`, `update`, `mark-broken`, `set-config`, `import`) changes the region's state.
        "maas" if !matches!(sub, "login" | "logout" | "list" | "refresh" | "init" | "config" | "apikey") => {
            let ops: Vec<&str> = operands(args).collect();
            if let Some(verb) = ops.get(2) {
                let verb = verb.to_ascii_lowercase();
                let reads = ["read", "details", "query", "power-parameters", "query-power-state"];
                out.push(verb_fact(
                    reads.contains(&verb.as_str()) || verb.starts_with("get") || verb.starts_with("list"),
                    verb.contains("delete") || verb.contains("erase"),
                ));
            }
        }
        // Kudu's `kudu NOUN VERB MASTERS ...`: a verb that lists, describes, scans or checks reads,
        // one that deletes or drops destroys, any other (`rename_table`, `rebalance`,
        // `unsafe_replace_tablet`, `quiesce`) changes the cluster the masters run.
        "kudu" if !sub2.is_empty() => {
            let reads = ["list", "get", "describe", "scan", "ksck", "dump", "locate", "status", "check", "statistics"];
            out.push(verb_fact(
                reads.iter().any(|r| sub2.starts_with(r)) || has("--report_only"),
                sub2.contains("delete") || sub2.contains("drop"),
            ));
        }
        // kolla-ansible's action on its inventory's OpenStack hosts: `prechecks` and `check` read,
        // `destroy` and `prune-images` destroy, the rest (`deploy`, `reconfigure`, `upgrade`,
        // `stop`) change them; `install-deps` installs its Ansible collections here.
        "kolla-ansible" if !sub.is_empty() && sub != "install-deps" => {
            out.push(verb_fact(matches!(sub, "prechecks" | "check"), matches!(sub, "destroy" | "prune-images")))
        }
        // Greenbone's `gvm-cli ... --xml "<delete_report .../>"`: the request's element names what
        // it does (`get_*` reads, `delete_*` and `empty_trashcan` destroy, the rest change).
        "gvm-cli" => {
            let xml = value_after(args, &["--xml", "-X"])
                .map(|x| x.trim_start().trim_start_matches('<').to_ascii_lowercase());
            if let Some(element) =
                xml.as_deref().and_then(|x| x.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').next())
            {
                let verb = element.split('_').next().unwrap_or("");
                out.push(verb_fact(matches!(verb, "get" | "describe" | "help"), matches!(verb, "delete" | "empty")));
            }
        }
        // Informix's server utilities: `onmode -k` takes the server offline, `oninit -i` and
        // `onspaces -d` destroy its disk space, `onbar -r` and `ontape -r` restore it; the rest
        // of `onmode`'s and `onspaces`' options change it.
        "onmode" | "oninit" | "onspaces" | "onbar" | "ontape" => {
            let flags: String = args.iter().filter_map(|a| a.strip_prefix('-')).collect();
            let fact = match tool {
                "onmode" if flags.starts_with('k') => Some("db_destroy"),
                "oninit" | "onspaces" if flags.contains(if tool == "oninit" { 'i' } else { 'd' }) => Some("db_destroy"),
                "onbar" | "ontape" if flags.starts_with('r') => Some("db_restore"),
                "onmode" | "onspaces" if !flags.is_empty() => Some("db_change"),
                _ => None,
            };
            out.extend(fact);
        }
        // `iisreset /status` only reports.
        "iisreset" if args.iter().any(|a| a.eq_ignore_ascii_case("/status")) => out.push("read"),
        // Varnish's CLI changes the cache with a ban, a VCL loaded or used, a parameter set or the
        // child stopped or started, on the machine `-T` names.
        "varnishadm"
            if text.split_whitespace().any(|w| {
                matches!(w, "ban" | "stop" | "start" | "param.set" | "vcl.load" | "vcl.use" | "vcl.discard")
            }) =>
        {
            let there = value_after(args, &["-T"]).is_some_and(|h| !this_machine(h));
            out.push(if there { "db_change_remote" } else { "db_change" });
        }
        // A backup or sync tool's remote: rclone's are configured names (`gdrive:photos`,
        // `b2:bucket/dir`); a restic repository elsewhere is named by its backend (`-r
        // sftp:backup@nas:/srv/restic`, `b2:bucket:/path`). Copying, moving or syncing onto
        // one, or backing up into one, sends (rule 5).
        "rclone" => {
            let remote = |a: &str| {
                a.split_once(':').is_some_and(|(name, _)| {
                    name.len() > 1 && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                })
            };
            let ops: Vec<&str> = operands(args).collect();
            if let [verb, _, .., onto] = ops.as_slice()
                && matches!(*verb, "sync" | "copy" | "move" | "copyto" | "moveto" | "bisync")
                && remote(onto)
            {
                out.push("send");
            }
        }
        "restic" => {
            let repo = args
                .windows(2)
                .find(|w| matches!(w[0].as_str(), "-r" | "--repo"))
                .map(|w| w[1].as_str())
                .or_else(|| args.iter().find_map(|a| a.strip_prefix("--repo=")));
            let elsewhere = repo.and_then(|r| r.split_once(':')).is_some_and(|(backend, _)| {
                matches!(backend, "sftp" | "s3" | "b2" | "azure" | "gs" | "swift" | "rest" | "rclone")
            });
            if elsewhere && operands(args).any(|a| a == "backup") {
                out.push("send");
            }
        }
        // A file-transfer client's own commands, given with `-e` or `-c` (`lftp -e "mirror -R
        // --delete ./public /www; bye" ftp.example.com`, `smbclient //nas/share -c 'del *.psd'`):
        // what each does on the server. Uploading, deleting or changing there sends (rule 4);
        // fetching downloads; listing reads.
        "lftp" | "smbclient" => {
            let given = args.windows(2).filter(|w| matches!(w[0].as_str(), "-e" | "-c")).map(|w| w[1].as_str());
            for command in given.flat_map(|s| s.split([';', '\n']).flat_map(|c| c.split("&&"))) {
                let words: Vec<&str> = command.split_whitespace().collect();
                let Some(verb) = words.first().map(|w| w.to_ascii_lowercase()) else { continue };
                // `mirror --dry-run` only lists what it would transfer and delete.
                if words.contains(&"--dry-run") {
                    add(&mut out, "dry_run");
                    continue;
                }
                let reverse = words.iter().any(|w| matches!(*w, "-R" | "--reverse"));
                let deletes = words.iter().any(|w| w.starts_with("--delete") || *w == "-e");
                let facts: &[&'static str] = match verb.as_str() {
                    "mirror" if reverse && deletes => &["send", "destroy_option"],
                    "mirror" if reverse => &["send"],
                    "mirror" if deletes => &["download", "delete_local"],
                    "rm" | "mrm" | "rmdir" | "del" | "deltree" | "rd" => &["send", "destroy_verb"],
                    "put" | "mput" | "reput" | "mv" | "rename" | "chmod" | "mkdir" | "md" | "setmode" | "ln" => {
                        &["send"]
                    }
                    "mirror" | "get" | "mget" | "pget" | "reget" => &["download"],
                    "ls" | "cls" | "dir" | "find" | "du" | "cat" | "more" | "zcat" | "pwd" | "stat" | "allinfo" => {
                        &["read"]
                    }
                    _ => &[],
                };
                for fact in facts {
                    add(&mut out, fact);
                }
            }
        }
        // `gh api` and `glab api`: the forge's API, GET unless told or given fields (then POST);
        // a GraphQL request sends what its query does (a `mutation` changes, a query reads).
        "gh" | "glab" if sub == "api" => {
            let fields = ["-f", "-F", "--field", "--raw-field", "--input"].iter().any(|f| has(f));
            let graphql = sub2 == "graphql" || args.iter().any(|a| a == "graphql");
            let method = request_method(args, &["-X", "--method"]);
            let query = args.iter().find_map(|a| a.strip_prefix("query=")).map(str::trim_start);
            // A query read from a file (`-F query=@q.graphql`) is code the command does not show:
            // neither fact.
            let unseen = graphql && query.is_some_and(|q| q.starts_with('@'));
            let sends = if graphql {
                query.is_some_and(|q| q.starts_with("mutation"))
            } else {
                method.as_deref().map_or(fields, changes_server)
            };
            if !unseen {
                out.push(if sends { "send" } else { "read" });
            }
        }
        // `az rest --method post --url ...`: Azure's own HTTP client, GET unless told.
        "az" if sub == "rest" => {
            let sends = request_method(args, &["--method", "-m"]).as_deref().is_some_and(changes_server);
            out.push(if sends { "send" } else { "download" });
        }
        "curl" | "wget" | "http" | "https" | "xh" => {
            let method = request_method(args, &["-X", "--request", "--method"]);
            // A body sent with an explicit GET is a query (settled 27).
            let body = [
                "-d",
                "--data",
                "--data-raw",
                "--data-binary",
                "--data-urlencode",
                "-F",
                "--form",
                "-T",
                "--upload-file",
                "--json",
                "--post-data",
                "--post-file",
            ]
            .iter()
            .any(|f| has(f));
            // So is one posted to an endpoint that only searches or queries (`.../_search`,
            // Prometheus's `/api/v1/query`, a Notion database's `/query`): what settled 27 means.
            // And one sent to an endpoint that only checks what it is sent (Kafka Connect's
            // `PUT .../config/validate`), whatever the method short of a DELETE.
            // And a GraphQL query that only reads, posted (`-d '{"query": "{ health { status } }"}'`).
            let validates = |a: &String| last_segment(a) == Some("validate");
            // And a command posted to a control API that only reads (Kea's `{"command":
            // "lease4-get"}`, JSON-RPC's `"method": "eth_getBalance"`, Arista's `runCmds` of `show`
            // commands).
            let graphql = args.windows(2).any(|w| BODY_FLAGS.contains(&w[0].as_str()) && body_reads(&w[1]));
            // A POST with no body asks the same (Spectrum Virtualize's `POST .../rest/v1/lsvdisk`).
            let query = (body || method.as_deref() == Some("POST"))
                && method.as_deref().is_none_or(|m| m != "DELETE")
                && (args.iter().any(validates)
                    || !method.as_deref().is_some_and(|m| matches!(m, "PUT" | "PATCH"))
                        && (graphql || args.iter().any(|a| queries(a))));
            let sends = method.as_deref().is_some_and(changes_server)
                || (body && method.is_none() && !short('G') && !has("--get"))
                || (matches!(tool, "http" | "https" | "xh")
                    && matches!(sub, "post" | "put" | "patch" | "delete" | "POST" | "PUT" | "PATCH" | "DELETE"));
            let local = text.contains("localhost") || text.contains("127.0.0.1");
            out.push(match (sends, local) {
                _ if query => "read",
                (true, false) => "send",
                (true, true) => "send_local",
                _ => "download",
            });
            let saves = short('o') || short('O') || has("--output") || has("--remote-name") || has("--remote-name-all");
            if call.writes.is_empty() && !saves && tool == "curl" {
                out.push("print");
            }
        }
        "git" => match sub {
            "push" => out.push(
                if has("--force")
                    || has("-f")
                    || has("--force-with-lease")
                    || has("--mirror")
                    || has("--delete")
                    || short('f')
                    || short('d')
                    || args.iter().any(|a| a.starts_with(':') || a.starts_with('+'))
                {
                    "force_push"
                } else {
                    "push"
                },
            ),
            "reset" if has("--hard") => out.push("discard_work"),
            "clean" if short('f') && !short('n') => out.push("discard_work"),
            "checkout" | "restore" if args.iter().any(|a| a == "." || a == "--") && !has("--staged") => {
                out.push("discard_work")
            }
            "stash" if matches!(sub2, "drop" | "clear") => out.push("discard_work"),
            "branch" if has("-D") || has("--delete") && has("--force") => out.push("discard_work"),
            "filter-branch" | "filter-repo" => out.push("rewrite_history"),
            "rebase" if has("--abort") || has("--quit") => out.push("vcs_local"),
            "remote" if !matches!(sub2, "" | "show" | "get-url" | "-v") => out.push("vcs_local"),
            "rebase" | "gc" | "prune" | "reflog" => out.push("rewrite_history"),
            "status" | "log" | "diff" | "show" | "blame" | "grep" | "ls-files" | "remote" | "rev-parse"
            | "describe" | "shortlog" => out.push("read"),
            _ => out.push("vcs_local"),
        },
        _ => {}
    }
    // Verbs that fetch into files here (rule 6: a download written into a file).
    const FETCH: [&str; 4] = ["download", "pull", "fetch", "clone"];
    // Azure's and Google Cloud's command groups nest, their verb last: where a deeper word is a
    // verb, the words before it are groups (`az appservice plan update` updates a plan; its
    // `plan` is no dry run's).
    let groups = matches!(tool, "az" | "gcloud") && deeper.first().is_some_and(|d| verb_kind(d).is_some());
    let sub_words: Vec<&str> =
        if groups { Vec::new() } else { subs.iter().flat_map(|s| s.split(SUBCOMMAND_JOINS)).collect() };
    let sub_verb = sub_words.iter().any(|v| verb_kind(v).is_some());
    // Not xcodebuild's actions, which all build (`archive` is a build for distribution).
    // An SQL client's words are where it connects and its statements (`psql -U ls_admin -d ledger
    // -c 'DROP TABLE ...'`: `ls_admin` is a user, not a listing), its reading is its statements'.
    // CockroachDB's has subcommands of its own.
    let sql_client = SQL_CLIENTS.contains(&tool) && tool != "cockroach";
    if !matches!(tool, "git" | "rm" | "curl" | "wget" | "docker" | "podman" | "xcodebuild") {
        // A deeper word counts whole (`gcloud compute instances delete`), never its parts: an
        // operand (`kubectl delete pod logs-collector`) is often a name made of words.
        // Where no subcommand is a verb, the first deeper word's leading verb is the verb of a
        // deeper tree (`az storage blob delete-batch`, `az keyvault secret set-attributes`).
        // Not after a subcommand that serves, builds or tests here: `supabase functions serve
        // notify-courier` names a function, not a verb. (A pipeline started, `tkn pipeline start
        // deploy-api`, runs what its name says, elsewhere.)
        let runs_here = sub_words.iter().any(|v| matches!(*v, "serve" | "dev" | "test" | "build" | "watch"));
        let lead = deeper
            .first()
            .filter(|_| !runs_here && !sub_verb)
            .and_then(|d| d.split_once(SUBCOMMAND_JOINS))
            .map(|(verb, _)| verb)
            .filter(|v| verb_kind(v).is_some());
        let verbs: Vec<&str> = sub_words.iter().copied().chain(deeper.iter().map(String::as_str)).chain(lead).collect();
        // A reading second word names what is done to the first: `kubectl rollout history`,
        // `gh release view`, `aws ec2 describe-instances` only read; so does a reading deeper
        // word (`yc compute instance list`).
        // So does one that asks whether it may (`ceph osd safe-to-destroy osd.3`, `ok-to-stop`).
        // And one that asks whether a user may (`kubectl auth can-i delete pvc`).
        let asks = subs
            .iter()
            .chain(deeper.iter())
            .any(|w| w.starts_with("safe-to-") || w.starts_with("ok-to-") || w == "can-i")
            // And a query in Kusto's language, which reads logs (`az monitor app-insights query`,
            // `az monitor log-analytics query`), or of Azure's Resource Graph (`az graph query`).
            || (tool == "az"
                && matches!(sub, "monitor" | "graph")
                && subs.iter().chain(deeper.iter()).any(|w| w == "query"))
            // And the Salesforce CLI's report on a deploy or a retrieve (`sf project deploy
            // report`), which only asks how it went.
            || (tool == "sf" && deeper.iter().any(|w| w == "report"))
            // ZFS's `holds` lists the holds on a snapshot (its `hold` adds one).
            || (tool == "zfs" && sub == "holds")
            // Ceph's reports on a map (`ceph osd perf`, `ceph osd df`, `ceph mon dump`).
            || (tool == "ceph" && matches!(sub2, "perf" | "df" | "dump" | "utilization" | "blocked-by"))
            // Linkerd's viz extension only shows the mesh's traffic (`linkerd viz edges deploy`:
            // `deploy` is the kind of resource it shows).
            || (tool == "linkerd"
                && sub == "viz"
                && matches!(sub2, "stat" | "top" | "tap" | "edges" | "routes" | "check" | "list" | "dashboard" | "authz"))
            // A second word that checks what the first would do (`nova-status upgrade check`).
            || (matches!(sub2, "check" | "precheck" | "pre-check") && verb_kind(sub).is_some_and(|kind| kind != "read"))
            // libvirt's reports on a domain, a network, a pool or a volume (`virsh dumpxml
            // instance-0001`, `dominfo`, `net-dumpxml`, `domblklist`, `nodeinfo`).
            || (tool == "virsh"
                && (sub.ends_with("dumpxml")
                    || sub.ends_with("info")
                    || matches!(sub, "domstate" | "domstats" | "domblklist" | "domiflist" | "capabilities")));
        // The second word's verb leads it (`describe-instances`; `delete-log-group` deletes, its
        // `log` is a noun), or follows its colon (`pg:info`, `releases:rollback`).
        let sub2_verb =
            if groups { "" } else { sub2.rsplit(':').next().and_then(|w| w.split('-').next()).unwrap_or("") };
        // Phoenix's `mix assets.deploy` builds the digested assets a release serves, here; decK's
        // `deck file merge|render|patch|...` makes a state file here from others (`-o kong.yaml`).
        // Elixir's `mix release` and shadow-cljs's `release BUILD` compile a release here; they
        // publish nothing.
        let builds_assets = (tool == "mix" && matches!(sub, "assets.deploy" | "release"))
            || (tool == "deck" && sub == "file")
            || (tool == "shadow-cljs" && sub == "release")
            // Consul's `tls ca create` and `tls cert create` write a CA's or a certificate's files
            // here; they change no agent.
            || (tool == "consul" && sub == "tls")
            // A draft changed here (`pcs -f FILE ...`, ilorest's `set` without `--commit`).
            || drafts_here(tool, args);
        // A second word that displays or prints what the first names (`puppet config print`,
        // `r10k deploy display`), or names the record a verb leaves (`divio app deploy-log`,
        // `deploy-status`, `build-history`), unless that verb destroys it (`delete-logs`).
        // The word's lead is a verb (`b2:acme-logs` is a bucket).
        let record = sub2.rsplit_once('-').is_some_and(|(lead, last)| {
            matches!(last, "log" | "logs" | "status" | "history")
                && lead.split('-').next().and_then(verb_kind).is_some_and(|kind| kind != "destroy")
        });
        let prints = matches!(sub2, "display" | "print") || record;
        // The words that may say what is done, in order: a cloud CLI's first word is a service or
        // a group, not a verb (`aws logs`); a second word's verb is its lead (`delete-log-group`
        // reads no log).
        let noun_first = matches!(tool, "aws" | "az" | "gcloud");
        let ordered: Vec<&str> = subs
            .iter()
            .enumerate()
            .flat_map(|(i, s)| match i {
                0 if noun_first => Vec::new(),
                1 => vec![sub2_verb],
                _ => s.split(SUBCOMMAND_JOINS).collect(),
            })
            .chain(deeper.iter().map(String::as_str))
            .chain(lead)
            .collect();
        // Satellite's `hammer RESOURCE [SUBRESOURCE] ACTION` says what it does last: `content-view
        // version delete` deletes a version, `content-view publish` publishes a view, `content-view
        // version list` reads.
        let verb_last = (tool == "hammer").then(|| ordered.iter().rev().find_map(|v| verb_kind(v))).flatten();
        let acts = !asks
            && !builds_assets
            && !new_migration
            && !prints
            && verb_last.is_none_or(|kind| kind != "read")
            && (verb_last.is_some()
                || (!READ.contains(&sub2_verb)
                    && !deeper.iter().map(String::as_str).chain(lead).any(|v| READ.contains(&v))));
        if asks {
            out.push("read_verb");
        }
        // A patch stack's `push` applies the next patches to the files here (quilt's, guilt's,
        // StGit's `stg push`).
        if acts && verbs.iter().any(|v| PUBLISH.contains(v)) && !matches!(tool, "quilt" | "guilt" | "stg") {
            out.push("publish_verb");
        }
        // GitLab's `glab repo archive` downloads a repository's archive (GitHub's `gh repo
        // archive` archives the repository).
        if tool == "glab" && sub == "repo" && sub2 == "archive" {
            out.push("download");
        } else if acts && verbs.iter().any(|v| DESTROY.contains(v)) {
            out.push("destroy_verb");
        }
        if acts && verbs.iter().any(|v| CHANGE.contains(v)) {
            out.push("change_verb");
        }
        // Putting a backup back over what is there now (`gitlab-backup restore`, `etcdctl
        // snapshot restore`).
        if acts && verbs.iter().any(|v| matches!(*v, "restore" | "load")) {
            out.push("restore_verb");
        }
        if acts && verbs.iter().any(|v| matches!(*v, "restore" | "load" | "import")) && names_database(args) {
            out.push("db_restore");
        }
        // A package manager's `pub get`, `deps get`, `mod download` fetch dependencies into the
        // project (rule 6), which its plain `get` (`kubectl get`) does not.
        let fetches_deps = matches!(sub, "pub" | "deps" | "mod" | "packages")
            && matches!(sub2, "get" | "download" | "fetch" | "upgrade");
        let reading = verb_last.map_or_else(|| ordered.iter().any(|v| READ.contains(v)), |kind| kind == "read");
        // Solutions Enabler's verb says what it does: an object's name is none (`delete view`).
        let symcli_acts = symcli_verb(tool, args).is_some_and(|v| !SYMCLI_READS.contains(&v));
        if (reading || prints) && !fetches_deps && !sql_client && !symcli_acts {
            out.push("read_verb");
        }
        // A server's snapshot saved into a file here (`etcdctl snapshot save`, `vault operator raft
        // snapshot save`, `consul snapshot save`) reads the server and writes the file (rule 6).
        let saves_snapshot = matches!(tool, "etcdctl" | "vault" | "consul" | "nomad")
            && (text.starts_with("snapshot save") || text.contains(" snapshot save"));
        if fetches_deps || saves_snapshot || verbs.iter().any(|v| FETCH.contains(v)) {
            out.push("download");
        }
        // A pull request, issue or release opened or changed on a forge is published (rule 5), and
        // a workflow dispatched or a run started again runs there (`gh workflow run deploy.yml`,
        // `gh run rerun 948 --failed`).
        if matches!(sub, "pr" | "mr" | "issue" | "issues" | "release" | "pulls")
            && matches!(sub2, "create" | "merge" | "comment" | "close" | "edit" | "delete" | "reopen" | "review")
            || tool == "gh" && matches!((sub, sub2), ("workflow", "run") | ("run", "rerun"))
        {
            out.push("publish_verb");
        }
    }
    // A gRPC call does what its method's leading verb says (`grpcurl -d '{...}' HOST
    // orders.v1.OrderService/CancelOrder` destroys, `.../GetOrder` and `grpc.health.v1.Health/Check`
    // read): the method names it as a subcommand would.
    if matches!(tool, "grpcurl" | "grpc_cli")
        && let Some(kind) = args.iter().rev().find_map(|a| grpc_method_verb(a))
    {
        add(&mut out, kind);
    }
    // An ansible module does what it is named for: one that gathers or prints reads, any other
    // puts the hosts in the state its arguments say (`-m apt -a "upgrade=dist"`, `-m
    // ansible.builtin.service -a "state=restarted"`, `-m user -a "state=absent"`).
    if tool == "ansible"
        && let Some(i) = args.iter().position(|a| a == "-m" || a == "--module-name")
        && let Some(module) = args.get(i + 1).map(|m| m.rsplit('.').next().unwrap_or(m))
    {
        // Listing the hosts or tasks, or checking the syntax, runs no module (and a run in check
        // mode changes nothing: read by [`of_seen`], since training reads `-m apt ... --check` so).
        let lists = super::shell::ANSIBLE_LISTS.iter().any(|o| has(o));
        let reads = matches!(module, "ping" | "setup" | "debug" | "gather_facts" | "stat" | "slurp" | "fetch" | "find")
            || module.ends_with("_facts")
            || module.ends_with("_info")
            || (module.ends_with("_command") && args.iter().any(|a| shows_only(a)))
            || lists;
        add(&mut out, if reads { "read_verb" } else { "change_verb" });
    }
    // A playbook run does the same to its inventory's hosts: it puts them in the state its tasks
    // say (`ansible-playbook -i inventories/prod site.yml --limit web`). Not a check, a listing or
    // a syntax check, nor a run whose only host is this machine (`-c local`, `-i localhost,`).
    if tool == "ansible-playbook"
        && !dry
        && !has("--help")
        && !args.iter().any(|a| super::shell::ansible_runs_nothing(a))
        && !has("local")
        && !has("--connection=local")
        && !value_after(args, &["-i", "--inventory"])
            .is_some_and(|i| i.trim_matches(['\'', '"']).starts_with("localhost,"))
    {
        add(&mut out, "change_verb");
    }
    // Active Directory's command-line tools say what they do in their names.
    match tool {
        "dsrm" => add(&mut out, "destroy_verb"),
        "dsmod" | "dsadd" | "dsmove" => add(&mut out, "change_verb"),
        _ => {}
    }
    // A program whose verbs are options (`kafka-topics --list`, `kafka-consumer-groups
    // --describe`, `dpkg --status`): such an option that reads says the call reads. Not one
    // that qualifies another verb (`rsync --stats`, `git commit --status`).
    // Nor one beside a subcommand's verb (`aws iam update-access-key --status Inactive`).
    let reads_by_option = !sub_verb
        && args.iter().any(|a| {
            a.strip_prefix("--").is_some_and(|o| {
                matches!(o, "list" | "ls" | "describe" | "show" | "get" | "info" | "view" | "inspect" | "status")
            })
        });
    // And such an option that changes, on a server the call names (`kafka-configs
    // --bootstrap-server kafka-b1:9092 --alter ...`, `kafka-topics ... --create`, `kafka-acls
    // ... --add`): a change there. Not one on this machine (`tar --create`).
    let changes_by_option = !sub_verb
        && tool != "git"
        && args.iter().any(|a| matches!(a.as_str(), "--alter" | "--create" | "--add" | "--remove"))
        && aims_elsewhere(args);
    if changes_by_option {
        add(&mut out, "change_verb");
    }
    // A network device's shell over ssh, whose commands are verbs (`ssh edge1 'show route ...
    // | count'`, `display interface brief`) and whose output filters are words (`| match Estab`,
    // `| include up`): a read there is no program to know, and the address it names is no host
    // to change.
    let device_reads = call.remote && DEVICE_READS.contains(&tool);
    if reads_by_option && tool != "git" || device_reads {
        add(&mut out, "read_verb");
    }
    // What such a filter is given is a pattern (`| include up`), not a verb.
    if device_reads {
        out.retain(|x| !x.ends_with("_verb") || *x == "read_verb");
    }
    // And the device's commands that change it, each with what it acts on (`clear ip bgp *`,
    // `request system zeroize`, `copy running-config startup-config`, `write memory`, `reload`):
    // no program of this machine's has such a name and such words (`clear` alone is a terminal's).
    let device_changes = call.remote
        && match tool {
            // Junos's `request support information` gathers a report.
            "request" if sub == "support" => false,
            "clear" | "request" | "copy" | "configure" | "commit" | "save" | "undo" => {
                args.iter().any(|a| !a.starts_with('-'))
            }
            "write" => args.first().is_some_and(|a| matches!(a.as_str(), "memory" | "mem" | "erase")),
            "reload" => true,
            _ => false,
        };
    if device_changes {
        add(&mut out, "change_verb");
    }
    // A build told to publish what it builds (`electron-builder --publish always`), unless told
    // never. Docker's `--publish` maps a port.
    let publish_option = |i: usize, a: &str| {
        let value = a
            .strip_prefix("--publish=")
            .or_else(|| (a == "--publish").then(|| args.get(i + 1).map_or("", String::as_str)));
        value.is_some_and(|v| !matches!(v, "never" | "false" | "none"))
    };
    let ports = matches!(tool, "docker" | "podman" | "nerdctl" | "docker-compose" | "podman-compose");
    if has("--push") || (!ports && args.iter().enumerate().any(|(i, a)| publish_option(i, a))) {
        out.push("publish_verb");
    }
    // SteamPipe's upload of a build to Steam (`steamcmd +login ... +run_app_build app.vdf`).
    if tool == "steamcmd" && args.iter().any(|a| a.eq_ignore_ascii_case("+run_app_build")) {
        add(&mut out, "publish_verb");
    }
    // fastlane's actions that upload a build to a store (`fastlane supply`, `deliver`, `pilot`).
    if tool == "fastlane"
        && matches!(
            sub,
            "supply" | "deliver" | "pilot" | "upload_to_play_store" | "upload_to_app_store" | "upload_to_testflight"
        )
    {
        add(&mut out, "publish_verb");
    }
    // A program named for what it does (`dropuser`, `vgremove`, `sendmail`, `useradd`; `named`,
    // its [`name_verbs`]): the rules' fact of the verb, as a subcommand's. Not one named for
    // killing (`killall`, `pkill`), which ends processes, not data, for cleaning (`pyclean`),
    // which removes what a build remakes, for deleting an account (`userdel`, `groupdel`), which
    // keeps its files unless told (level 2), for releasing (`semantic-release` is a dry run
    // outside CI), for notifying (`notify-send` shows a desktop notification) or with `post` in
    // it (`postgres`, `postconf`: Postfix and PostgreSQL, not a post). Restoring only into a
    // database the call names (rule 14: loading a dump or rows into one is restoring over it,
    // `pg_restore -d app x.dump`, `mongoimport --db shop`): into a new machine or file
    // (`qmrestore`, `litestream restore -o`) it destroys nothing, and the name does not say which.
    for kind in named {
        let fact = match *kind {
            "destroy" if !tool.contains("kill") && !tool.contains("clean") && !tool.ends_with("del") => "destroy_verb",
            "send" if !["release", "notify", "post"].iter().any(|w| tool.contains(w)) => "publish_verb",
            "change" => "change_verb",
            "restore" if names_database(args) => "db_restore",
            // A cmdlet whose approved verb reads (`Get-WebAppPoolState`, `Test-Connection`) reads,
            // as a subcommand's `get` does: PowerShell's verbs say what a cmdlet does.
            "read" if cmdlet_verbs(&call.program).is_some() => "read_verb",
            _ => continue,
        };
        add(&mut out, fact);
    }
    // An option that says the call destroys as it goes (`mongorestore --drop`, `rclone sync
    // --delete-excluded`, `gh pr merge --delete-branch`), whatever the program. Not
    // `--overwrite`: a formatter's write in place (`caddy fmt --overwrite`, level 1) says it as
    // often as a restore's, and a restore has facts of its own.
    // A word of the option's name is the verb, or begins with it (`--eraseinstall`); so does a
    // single-dash option's whole name (`sysadminctl -deleteUser`, `dsmc archive -deletefiles`),
    // not the verb alone (`find -delete` has its own reading).
    const DESTROYING: [&str; 6] = ["drop", "delete", "destroy", "wipe", "erase", "prune"];
    let begins = |w: &str| DESTROYING.iter().any(|v| w.len() >= v.len() + 3 && w.starts_with(v));
    // Not one that deletes a build's own outputs, which the build makes again (build_runner's
    // `--delete-conflicting-outputs`).
    let long_words = args
        .iter()
        .filter_map(|a| a.strip_prefix("--"))
        .map(|a| a.split('=').next().unwrap_or(a))
        .filter(|a| !a.split(['-', '_']).any(|w| w == "outputs"))
        .flat_map(|a| a.split(['-', '_']))
        .any(|w| DESTROYING.contains(&w) || begins(w));
    let single = args
        .iter()
        .filter_map(|a| a.strip_prefix('-').filter(|n| !n.starts_with('-')))
        .map(|n| n.split('=').next().unwrap_or(n).to_ascii_lowercase())
        .any(|n| n.chars().all(|c| c.is_ascii_alphabetic()) && begins(&n));
    // Ansible's module arguments that remove what they name (`-a "name=jdoe state=absent"`).
    let absent = tool.starts_with("ansible") && args.iter().any(|a| a.split_whitespace().any(|w| w == "state=absent"));
    if long_words || single || absent {
        out.push("destroy_option");
    }
    // A call aimed at production (`vercel --prod`, `deploy.sh production`, `-n prod`,
    // `db.prod.example.com`, `RAILS_ENV=production rake db:migrate`): data words (a message, a
    // pattern, a statement) do not count.
    if !DATA_TOOLS.contains(&tool)
        && !new_migration
        && (call.production
            || args.iter().enumerate().any(|(i, a)| {
                !call.quoted.get(i).copied().unwrap_or(false)
                    && words(a).iter().any(|w| matches!(w.as_str(), "prod" | "production"))
            }))
    {
        out.push("production");
    }
    if matches!(tool, "docker" | "podman") {
        match sub {
            "push" => out.push("publish_verb"),
            "rm" | "rmi" | "stop" | "kill" => out.push("container_remove"),
            "system" | "volume" | "network" | "image" | "container" | "builder"
                if matches!(sub2, "prune" | "rm" | "remove") =>
            {
                out.push(if has("--volumes") || sub == "volume" { "delete_broad" } else { "container_remove" })
            }
            "ps" | "images" | "logs" | "inspect" | "version" | "info" | "stats" => out.push("read"),
            _ => {}
        }
    }
    // `compose down -v` removes the project's named volumes with its containers: their data goes
    // for good, as with `docker volume rm` (rule 7), unless it is a dry run.
    let compose_down = match tool {
        "docker" | "podman" => sub == "compose" && sub2 == "down",
        "docker-compose" | "podman-compose" => sub == "down",
        _ => false,
    };
    if compose_down && (has("-v") || has("--volumes")) && !dry {
        out.push("delete_broad");
    }
    // A statement to a database, in a quoted argument: what it does to the data.
    // Any other program handed a statement (`snowsql -q 'DROP ...'`, `bq query 'DELETE ...'`,
    // `wrangler d1 execute DB --command '...'`): the statement is what it does.
    // Only a statement option's value or a quoted operand: a message (`git commit -m`) is data.
    // A request whose JSON body carries a statement (`curl -X POST .../api/2.0/sql/statements -d
    // '{"statement": "SELECT ..."}'`, `databricks api post ... --json`, D1's `/query` with
    // `{"sql": ...}`) does what the statement does, on the service's server: rule 5 and settled
    // point 5, not a post.
    let client = database_client(tool) || DATA_TOOLS.contains(&tool);
    let in_body: Vec<String> = if client {
        Vec::new()
    } else {
        args.iter()
            .enumerate()
            .filter(|(i, a)| {
                let before = i.checked_sub(1).and_then(|b| args.get(b)).map_or("", String::as_str);
                (BODY_FLAGS.contains(&before) || call.quoted.get(*i).copied().unwrap_or(false))
                    && a.trim_start().starts_with('{')
                    && a.len() < 100_000
            })
            .flat_map(|(_, a)| body_statements(a))
            .collect()
    };
    // Velociraptor's VQL is read by its functions, in `facts`.
    let statements: Vec<&String> = if client || tool == "velociraptor" {
        Vec::new()
    } else if !in_body.is_empty() {
        in_body.iter().collect()
    } else {
        const GIVES: [&str; 10] =
            ["-q", "--query", "-e", "--execute", "--command", "-c", "--sql", "--query-string", "-s", "-execute"];
        args.iter()
            .enumerate()
            .filter(|(i, a)| {
                let before = i.checked_sub(1).and_then(|b| args.get(b)).map_or("", String::as_str);
                let quoted = call.quoted.get(*i).copied().unwrap_or(false);
                let given = GIVES.contains(&before) || (quoted && !MESSAGE_FLAGS.contains(&before));
                given && a.len() < 2000 && (STATEMENT.is_match(a) || (tool == "influx" && INFLUXQL.is_match(a)))
            })
            .map(|(_, a)| a)
            .collect()
    };
    if database_client(tool) || !statements.is_empty() {
        // What an SQL client runs: its statements without their comments.
        let text = if !statements.is_empty() {
            statements.iter().map(|a| sql_code(a).to_ascii_lowercase()).collect::<Vec<_>>().join(" ")
        } else if SQL_CLIENTS.contains(&tool) {
            // Where it connects is no statement: an Aurora endpoint's `.cluster-ro-` is no
            // `CLUSTER`, nor a database named `create_test` a `CREATE`.
            let mut code: Vec<String> = args
                .iter()
                .zip(&call.quoted)
                .enumerate()
                .filter(|(i, (a, _))| !connection_value(args, *i) && !is_connection_option(a) && uri_host(a).is_none())
                .map(|(_, (a, q))| if *q { sql_code(a) } else { a.clone() }.to_ascii_lowercase())
                .collect();
            code.extend(call.stdin_text.iter().map(|fed| sql_code(fed).to_ascii_lowercase()));
            code.join(" ")
        } else if matches!(tool, "redis-cli" | "valkey-cli") {
            // Redis's command is its operands: an option's value is no command (`--scan
            // --pattern '*delete*'` lists keys).
            let mut code: Vec<String> = operands(args).map(str::to_ascii_lowercase).collect();
            code.extend(call.stdin_text.iter().map(|fed| fed.to_ascii_lowercase()));
            code.join(" ")
        } else {
            text.clone()
        };
        // The server is another machine: a host named (`-h db.example.com`, `--host=...`), a
        // connection URI's (`postgresql://app@db.example.com/shop`, `mongodb://mongo-a:27017`),
        // or `--remote`.
        let elsewhere = |h: &str| !h.is_empty() && !matches!(h, "localhost" | "127.0.0.1" | "::1" | "[::1]");
        let remote_db = value_after(args, &["-h", "--host"]).is_some_and(|h| elsewhere(h))
            || args.iter().any(|a| a == "--remote" || a.strip_prefix("--host=").is_some_and(elsewhere))
            || args.iter().filter_map(|a| uri_host(a)).any(elsewhere)
            || (!in_body.is_empty() && !args.iter().any(|a| a.contains("localhost") || a.contains("127.0.0.1")))
            // BTEQ's `.LOGON TDPID/USER,PASSWORD`: the system it logs on to.
            || (tool == "bteq"
                && text.split(".logon ").nth(1).and_then(|r| r.split('/').next()).is_some_and(|h| elsewhere(h.trim())))
            // A client's own option for its server: Netezza's and InfluxDB 1's `-host HOST`, HANA's
            // `hdbsql -n HOST:PORT`, Impala's shell's `-i HOST:PORT`.
            || {
                let (options, port): (&[&str], bool) = match tool {
                    "nzsql" | "influx" => (&["-host"], false),
                    "hdbsql" => (&["-n"], true),
                    "impala-shell" => (&["-i", "--impalad"], true),
                    "exaplus" => (&["-c"], true),
                    _ => (&[], false),
                };
                value_after(args, options)
                    .is_some_and(|h| elsewhere(if port { h.rsplit_once(':').map_or(h.as_str(), |(h, _)| h) } else { h }))
            }
            // A cloud warehouse's own client: its server is the service's (`snowsql -c prod`,
            // `snow sql`, `bq query`).
            || matches!(tool, "snowsql" | "snow" | "bq")
            // Exasol's `exaplus -profile NAME`: a saved connection to its cluster.
            || (tool == "exaplus" && has("-profile"));
        // Its words, whole: `deleted_at` deletes nothing, nor `updated_at` updates, nor SQL's
        // functions of those names (`replace(email, ...)`, MySQL's `truncate(price, 2)`); a
        // method is a call (`db.users.drop()`).
        let words = statement_words(&text);
        // Db2's own commands: `UPDATE DB CFG` sets a configuration parameter, not rows, and `OF
        // DEL` names a file format (`EXPORT TO f.del OF DEL SELECT ...`).
        let db2 = tool == "db2";
        let db2_config =
            db2 && words.windows(2).any(|w| w[0].0 == "update" && matches!(w[1].0, "db" | "dbm" | "database"));
        // InfluxQL's `SELECT ... INTO measurement` writes its points over the ones of the same
        // series and times.
        let select_into =
            tool == "influx" && words.iter().any(|(w, _)| *w == "select") && words.iter().any(|(w, _)| *w == "into");
        let destroys = select_into
            || words.iter().any(|(w, function)| {
                DB_DESTROYS.contains(w) && !function && !(db2 && (*w == "del" || (*w == "update" && db2_config)))
            });
        // A function whose name says it drops, purges, closes or ends something changes the
        // server when a `SELECT` calls it (Vertica's `DROP_PARTITIONS(...)`, `PURGE_TABLE`,
        // `CLOSE_ALL_SESSIONS`); a verb alone is SQL's own function (`truncate(price, 2)`).
        let admin_function = words.iter().any(|(w, function)| {
            *function
                && w.contains('_')
                && w.split('_').any(|p| {
                    matches!(p, "drop" | "purge" | "close" | "terminate" | "kill" | "rebalance" | "delete" | "truncate")
                })
        });
        let words: Vec<&str> = words.into_iter().map(|(w, _)| w).collect();
        // A statement that changes the server without destroying rows: schema, grants, upkeep,
        // replication and the admin functions (`CREATE INDEX`, `VACUUM`, `SELECT
        // pg_terminate_backend(...)`, `CONFIG SET`), 2 on a database here and 3 on a server
        // elsewhere (settled points 5 and 14).
        // Redis's writes go by its command's name (`SET`, `HSET`, `EXPIRE`): the first word that
        // is no option and no option's value (`-h HOST`, `-n 2`).
        let redis = matches!(tool, "redis-cli" | "valkey-cli");
        let redis_command: Vec<String> = if redis {
            args.iter()
                .enumerate()
                .filter(|(i, a)| {
                    let value = i.checked_sub(1).is_some_and(|b| {
                        matches!(
                            args[b].as_str(),
                            "-h" | "-p" | "-n" | "-a" | "-u" | "-s" | "-r" | "-i" | "--user" | "--pass"
                        )
                    });
                    !a.starts_with('-') && !value
                })
                .map(|(_, a)| a.to_ascii_lowercase())
                .take(2)
                .collect()
        } else {
            Vec::new()
        };
        let redis_write = redis_command.first().is_some_and(|c| REDIS_WRITES.contains(&c.as_str()));
        // A command that only reads (`CLUSTER NODES`, `CONFIG GET`, `TTL`): its words are no
        // statement's (`cluster` is PostgreSQL's rewrite of a table, not Redis's).
        let redis_reads = redis_reads(&redis_command);
        // `redis-cli --cluster VERB HOST:PORT`: the cluster manager's verb, on that node's cluster.
        let at = args.iter().position(|a| a == "--cluster");
        let cluster = at.and_then(|i| args.get(i + 1)).map(|v| v.to_ascii_lowercase());
        let cluster_changes = cluster.as_deref().is_some_and(|v| {
            matches!(v, "create" | "add-node" | "del-node" | "reshard" | "rebalance" | "fix" | "import" | "set-timeout")
        });
        let cluster_node_elsewhere = cluster.is_some()
            && at
                .and_then(|i| args.get(i + 2))
                .is_some_and(|node| elsewhere(node.rsplit_once(':').map_or(node, |(h, _)| h)));
        let remote_db = remote_db || cluster_node_elsewhere;
        let changes = !redis_reads
            && (redis_write || cluster_changes || admin_function || db2_config || changes_database(&words));
        let destroys = destroys && !redis_reads;
        let reads = redis_reads
            || cluster.as_deref().is_some_and(|v| matches!(v, "check" | "info"))
            || words.iter().any(|w| DB_READS.contains(w))
            // T-SQL's and SAP ASE's reporting procedures (`sp_who`, `sp_helptext`, `sp_spaceused`).
            || words.iter().any(|w| {
                w.starts_with("sp_help") || matches!(*w, "sp_who" | "sp_who2" | "sp_lock" | "sp_spaceused" | "sp_monitor")
            })
            || text.contains("\\d")
            || text.contains("find(");
        // `EXPLAIN` plans a statement without running it; `EXPLAIN ANALYZE` runs it.
        // So does MongoDB's, as a command or a method (`db.runCommand({explain: {delete: ...}})`,
        // `db.orders.explain().deleteMany(...)`), which applies no write.
        let explained = (text.contains("explain ") || text.contains("explain:") || text.contains(".explain("))
            && !text.contains("analyze")
            // T-SQL's and SAP ASE's `SET NOEXEC ON` and SQL Server's `SET SHOWPLAN_ALL ON` compile
            // a batch and run none of it.
            || text.contains("set noexec on")
            || text.contains("set showplan_")
            // Delta's `VACUUM t DRY RUN` lists what it would delete: the statement ends so.
            || text.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, ';' | '"' | '\'')).ends_with(" dry run");
        // A client with no statement to run, no script and nothing fed to it opens a session.
        let session = statements.is_empty()
            && !call.args.iter().zip(&call.quoted).any(|(a, q)| {
                *q || a.starts_with("-c") || matches!(a.as_str(), "-e" | "--eval" | "-f" | "--command" | "--file")
            })
            && !call.reads_script;
        // Db2's command line processor runs its own commands and exits: `connect to DB`, a
        // `list`, a `get`, a `describe` and `terminate` read (no session is left open).
        let db2_reads = db2 && matches!(words.first(), Some(&("connect" | "list" | "get" | "describe" | "terminate")));
        let known = out.len();
        if explained || rolls_back(call, tool) || db2_reads {
            out.push("db_read");
        } else if session && !destroys && !changes && !reads {
            out.push("db_session");
        } else if destroys {
            out.push(if remote_db { "db_destroy_remote" } else { "db_destroy" });
        } else if changes {
            out.push(if remote_db { "db_change_remote" } else { "db_change" });
        } else if reads {
            out.push("db_read");
        }
        // What the body's statement does, when it says, is what the request does.
        if !in_body.is_empty() && out.len() > known {
            out.retain(|x| !matches!(*x, "send" | "send_local" | "publish_verb" | "download" | "read"));
        }
    }
    if paths.contains(&"store_url") && (DESTROY.contains(&sub2) || DESTROY.contains(&sub)) {
        out.push("store_delete");
    }
    // A copy or sync between a store and here: which way it goes. An option's value is no end
    // (`aws s3 cp out.csv s3://bucket/ --acl public-read` uploads).
    if matches!(sub2, "cp" | "sync" | "mv") || matches!(sub, "cp" | "sync" | "copy" | "copyto") {
        let ops: Vec<&str> = operands(args).collect();
        let ends: Vec<&str> = ops.iter().map(|a| path_class(a)).collect();
        let to_stdout = ops.last() == Some(&"-");
        match ends.last() {
            // Copied out to standard output, to be read (`aws s3 cp s3://b/manifest.json - | jq`).
            _ if to_stdout && ends.contains(&"store_url") => out.push("read"),
            Some(&"store_url") => out.push("send"),
            Some(_) if ends.contains(&"store_url") => out.push("download"),
            _ => {}
        }
    }
    for (op, target) in &call.writes {
        let class = path_class(target);
        if class == "device" {
            out.push("device_write");
        } else if !op.contains(">>") && matches!(class, "system" | "home_file" | "abs") {
            out.push("overwrite_outside");
        }
    }
    if empties_outside(call, tool) {
        out.push("empties_outside");
    }
    if call.reads_script {
        out.push("runs_unseen_code");
    }
    out
}

/// How many of a call's arguments are its own, not data. What `echo` and `printf` print is data
/// from their first operand on, quoted or not: in `echo git push --force`, `--force` is no flag
/// and `git` no subcommand (their own options come first, `echo -n`). What redis's `ECHO`
/// echoes, and the commands its `COMMAND` (`COMMAND DOCS FLUSHALL`) and `redis-cli`'s `HELP`
/// describe, are data too: they flush nothing.
fn own_args(call: &Call, tool: &str) -> usize {
    match tool {
        "echo" | "printf" => first_operand(&call.args),
        "redis-cli" | "valkey-cli" => call
            .args
            .iter()
            .position(|a| ["echo", "command", "help"].iter().any(|w| a.eq_ignore_ascii_case(w)))
            .map_or(call.args.len(), |i| i + 1),
        _ => call.args.len(),
    }
}

/// The options that give an HTTP request its body (curl's, wget's, the cloud CLIs' `--json`).
const BODY_FLAGS: [&str; 9] =
    ["-d", "--data", "--data-raw", "--data-binary", "--json", "--body", "--post-data", "--payload", "--input-json"];

/// The SQL a request's JSON body carries: a statement key's string (`statement`, `sql`, ksqlDB's
/// `ksql`), or a
/// query key's that reads as a statement (`{"query": "SELECT ..."}`). A GraphQL query or a search
/// engine's (`{"query": "category:discontinued"}`) is no SQL.
fn body_statements(body: &str) -> Vec<String> {
    fn walk(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(map) => {
                for (key, v) in map {
                    let key = key.to_ascii_lowercase();
                    match v {
                        serde_json::Value::String(s)
                            if matches!(
                                key.as_str(),
                                "statement" | "sql" | "stmt" | "sqltext" | "sql_text" | "ksql"
                            ) || (matches!(key.as_str(), "query" | "q") && STATEMENT.is_match(s)) =>
                        {
                            out.push(s.clone());
                        }
                        _ => walk(v, out),
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(body) {
        walk(&value, &mut out);
    }
    out
}

/// Whether a request's JSON body only asks to read, read once for both questions: a GraphQL query
/// ([`graphql_reads`]) or a command to a control API ([`rpc_reads`]).
fn body_reads(body: &str) -> bool {
    // Solace's SEMP v1 takes every request as an XML `<rpc>`: one that only shows reads
    // (`<rpc><show><config-sync/></show></rpc>`).
    let xml = body.trim_start().to_ascii_lowercase();
    if let Some(rest) = xml.strip_prefix("<rpc") {
        let inner = rest.split_once('>').map_or("", |(_, i)| i.trim_start());
        return inner.starts_with("<show>") || inner.starts_with("<show ");
    }
    if body.len() > 100_000 || !body.trim_start().starts_with('{') {
        return false;
    }
    let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(body) else {
        return false;
    };
    graphql_reads(&map) || rpc_reads(&map)
}

/// Whether a request's JSON body is a GraphQL query that only reads: its `query` is a query
/// operation, shorthand or named (`{ health { status } }`, `query Orders($n: Int) { ... }`), and
/// no operation in it is a `mutation` or a `subscription`.
fn graphql_reads(map: &serde_json::Map<String, serde_json::Value>) -> bool {
    let Some(serde_json::Value::String(q)) = map.get("query") else {
        return false;
    };
    let q = q.trim_start();
    let operation = q.starts_with('{')
        || q.strip_prefix("query")
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_whitespace() || c == '{' || c == '('));
    let words: Vec<&str> = q.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').collect();
    operation && !words.iter().any(|w| matches!(*w, "mutation" | "subscription"))
}

/// Whether a JSON body posted to a control API asks it only to read: the command or method it
/// names (`"command": "lease4-get-by-hw-address"`, `"method": "eth_getBalance"`,
/// `"getblockchaininfo"`) has a reading word and no changing one, or every command it carries is
/// a `show` (Arista's `{"method": "runCmds", "params": {"cmds": ["show version"]}}`).
fn rpc_reads(map: &serde_json::Map<String, serde_json::Value>) -> bool {
    use serde_json::Value;
    // ExtremeXOS's JSON-RPC carries its CLI commands as the `params` of the method `cli`.
    let cli = map.get("method").and_then(Value::as_str) == Some("cli");
    // NVIDIA Onyx's JSON API carries its CLI commands as `cmd` (`{"cmd": "show interfaces
    // ethernet status"}`), or as `commands`.
    let cmds = map
        .get("params")
        .and_then(|p| p.get("cmds"))
        .or_else(|| map.get("cmds"))
        .or_else(|| map.get("commands"))
        .or_else(|| map.get("params").filter(|_| cli));
    let shows = |c: &Value| {
        let c = c.as_str().or_else(|| c.get("cmd").and_then(Value::as_str)).unwrap_or("");
        let first = c.split_whitespace().next().unwrap_or("").to_ascii_lowercase();
        first == "show" || first == "enable"
    };
    if let Some(Value::Array(cmds)) = cmds {
        return !cmds.is_empty() && cmds.iter().all(shows) && cmds.iter().any(|c| c != "enable");
    }
    if let Some(cmd @ Value::String(one)) = map.get("cmd") {
        return shows(cmd) && one.trim() != "enable";
    }
    let Some(name) = ["command", "method"].iter().find_map(|k| map.get(*k).and_then(Value::as_str)) else {
        return false;
    };
    names_read(name)
}

/// Whether a command's or method's name (`lease4-get-by-hw-address`, `eth_getBalance`,
/// `CoreShowChannels`) has a reading word and no changing one.
fn names_read(name: &str) -> bool {
    let words = camel_words(name);
    const READS: [&str; 13] = [
        "get", "list", "show", "status", "describe", "query", "search", "fetch", "read", "info", "version", "ping",
        // FreeIPA's JSON-RPC (`user_find`, `host_find`).
        "find",
    ];
    const CHANGES: [&str; 24] = [
        "set", "add", "del", "delete", "remove", "update", "write", "reload", "reset", "push", "create", "send", "put",
        "shutdown", "restart", "wipe", "reclaim", "commit", "apply", "start", "stop", "clear", "flush", "purge",
    ];
    let reads = words.iter().any(|w| READS.contains(&w.as_str()))
        || words.first().is_some_and(|w| ["get", "list", "show"].iter().any(|r| w.starts_with(r)));
    reads && !words.iter().any(|w| CHANGES.contains(&w.as_str()))
}

/// Whether a word, its dashes and underscores aside, is `dryrun` in any case (`dry_run`,
/// `dryRun`, `DryRun`, `dry-run`): a query's key or an option's value that asks a dry run.
fn names_dry_run(word: &str) -> bool {
    word.replace(['_', '-'], "").eq_ignore_ascii_case("dryrun")
}

/// Whether a text asks a dry run as a key of a mapping, JSON's or YAML's (`"dryRun":true`,
/// `dry_run: true`), in lower case. Scanned by hand, not by a regex: the hook asks this on
/// every call, and compiling a pattern costs more than the scan.
fn dry_run_key(text: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    ["dryrun", "dry_run", "dry-run"].iter().any(|key| {
        text.match_indices(key).any(|(i, _)| {
            if text[..i].chars().next_back().is_some_and(word) {
                return false;
            }
            let rest = text[i + key.len()..].trim_start_matches(['"', '\'']).trim_start();
            let Some(value) = rest.strip_prefix(':') else { return false };
            let value = value.trim_start().trim_start_matches(['"', '\'']);
            ["true", "yes", "1"].iter().any(|v| value.strip_prefix(v).is_some_and(|after| !after.starts_with(word)))
        })
    })
}

/// An SQL statement: what a text handed to a program starts with, when it is one.
static STATEMENT: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?is)^\s*(?:select\s|with\s+\w+\s+as\s|show\s|describe\s|explain\s|drop\s+(?:table|database|schema|index|view|user|role|keyspace|collection)\b|delete\s+from\s|truncate\s|update\s+\S+\s+set\s|alter\s+(?:table|database|schema|user|account|warehouse|role|stage|view|sequence|index)\s|remove\s+@|insert\s+(?:into|overwrite)\s|merge\s+into\s|create\s+(?:or\s+replace\s+)?(?:table|database|schema|index|view)\s|grant\s|revoke\s)",
    )
    .unwrap_or_else(|e| unreachable!("a fixed pattern: {e}"))
});

/// InfluxQL's own statements that no SQL has (`DROP SERIES`, `DROP MEASUREMENT`, `DELETE WHERE`,
/// `ALTER RETENTION POLICY`), given to InfluxDB 1's `influx -execute`.
static INFLUXQL: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?is)^\s*(?:drop\s+(?:series|measurement|shard|retention\s+policy|continuous\s+query)\b|delete\s+where\s|(?:alter|create)\s+retention\s+policy\s|create\s+continuous\s+query\s)",
    )
    .unwrap_or_else(|e| unreachable!("a fixed pattern: {e}"))
});

/// What a statement to a database destroys or overwrites rows with, as whole words: SQL's,
/// MongoDB's methods (`deleteMany`), Redis's commands.
const DB_DESTROYS: [&str; 30] = [
    "drop",
    "delete",
    "truncate",
    "update",
    "alter",
    "insert",
    "replace",
    "merge",
    "upsert",
    "shutdown",
    "dropdatabase",
    "remove",
    "deleteone",
    "deletemany",
    "updateone",
    "updatemany",
    "insertone",
    "insertmany",
    "replaceone",
    "findoneanddelete",
    "findoneandupdate",
    "findoneandreplace",
    "bulkwrite",
    "flushall",
    "flushdb",
    "del",
    "unlink",
    // Sybase ASE's `DUMP TRAN db WITH TRUNCATE_ONLY` (or `NO_LOG`): the log's transactions thrown
    // away, with no dump made.
    "truncate_only",
    "no_log",
    // HANA's (and Db2's) `RECOVER DATABASE ... UNTIL ...`: the database put back as it was.
    "recover",
];

/// What a statement to a database reads with, as whole words: `count(*)`, not `account_id`.
const DB_READS: [&str; 8] = ["select", "show", "describe", "explain", "keys", "get", "count", "countdocuments"];

/// What a statement to a database changes it with, short of destroying rows, as whole words.
const DB_CHANGES: [&str; 69] = [
    // Db2's commands: a database rolled forward, taken over from its HADR primary or quiesced.
    "rollforward",
    // Impala's `INVALIDATE METADATA`: the catalog's cached metadata dropped and reloaded.
    "invalidate",
    "takeover",
    "quiesce",
    "create",
    "grant",
    "revoke",
    "vacuum",
    "reindex",
    "cluster",
    "checkpoint",
    "analyze",
    "refresh",
    "call",
    "lock",
    "rename",
    "optimize",
    "flush",
    "kill",
    "pause",
    "resume",
    "reload",
    "pg_terminate_backend",
    "pg_cancel_backend",
    "pg_drop_replication_slot",
    "pg_reload_conf",
    "pg_promote",
    // PostgreSQL's other functions that change a server when a `SELECT` calls them: replay paused
    // on a standby, the WAL switched, a slot made, a restore point set, statistics reset.
    "pg_wal_replay_pause",
    "pg_wal_replay_resume",
    "pg_switch_wal",
    "pg_create_physical_replication_slot",
    "pg_create_logical_replication_slot",
    "pg_create_restore_point",
    "pg_rotate_logfile",
    "pg_stat_reset",
    "pg_stat_statements_reset",
    "pg_replication_origin_drop",
    // A logical slot advanced or read with `get` (not `peek`): the changes are consumed.
    "pg_replication_slot_advance",
    "pg_logical_slot_get_changes",
    "pg_logical_slot_get_binary_changes",
    "setval",
    "createindex",
    "createcollection",
    "dropindex",
    "createuser",
    "renamecollection",
    // MongoDB's administration helpers and commands (`rs.stepDown()`, `sh.stopBalancer()`,
    // `db.adminCommand({removeShard: ...})`) and pg_cron's `cron.unschedule(...)`.
    "stepdown",
    "reconfig",
    "freeze",
    "initiate",
    "stopbalancer",
    "startbalancer",
    "setbalancerstate",
    "addshard",
    "removeshard",
    "enablesharding",
    "shardcollection",
    "movechunk",
    "setfeaturecompatibilityversion",
    "setparameter",
    "compact",
    "createrole",
    "updateuser",
    "changeuserpassword",
    "grantrolestouser",
    "revokerolesfromuser",
    "unschedule",
    // Teradata's `MODIFY USER|DATABASE` (its space, its password) and its sessions aborted
    // (`SELECT SYSLIB.AbortSessions(...)`).
    "modify",
    "abortsessions",
];

/// Two words that change a database together (`STOP REPLICA`, `CONFIG SET`, `LOAD DATA`).
const DB_CHANGE_PAIRS: [(&str, &[&str]); 7] = [
    ("comment", &["on"]),
    ("stop", &["replica", "slave"]),
    ("start", &["replica", "slave"]),
    ("change", &["master", "replication"]),
    ("reset", &["replica", "slave", "master"]),
    ("config", &["set"]),
    ("load", &["data"]),
];

/// Redis commands that write a key, by name: not `DEL`, `FLUSHALL` and `FLUSHDB`, which destroy.
const REDIS_WRITES: [&str; 26] = [
    "set", "setex", "psetex", "setnx", "mset", "msetnx", "append", "incr", "incrby", "decr", "decrby", "hset", "hmset",
    "hdel", "lpush", "rpush", "lpop", "rpop", "lrem", "sadd", "srem", "zadd", "zrem", "xadd", "expire", "rename",
];

/// Whether a Redis command (its first two words, lower case) only reads: a read of keys or of
/// the server (`GET`, `TTL`, `INFO`, `DBSIZE`), or a container command's reading subcommand
/// (`CLUSTER NODES`, `CONFIG GET`, `CLIENT LIST`, `MEMORY USAGE`, `SLOWLOG GET`).
fn redis_reads(command: &[String]) -> bool {
    const READS: [&str; 52] = [
        "get",
        "mget",
        "getrange",
        "strlen",
        "exists",
        "type",
        "ttl",
        "pttl",
        "keys",
        "scan",
        "randomkey",
        "dbsize",
        "hget",
        "hmget",
        "hgetall",
        "hkeys",
        "hvals",
        "hlen",
        "hexists",
        "hscan",
        "lrange",
        "llen",
        "lindex",
        "lpos",
        "smembers",
        "scard",
        "sismember",
        "srandmember",
        "sscan",
        "zrange",
        "zrevrange",
        "zrangebyscore",
        "zscore",
        "zcard",
        "zcount",
        "zrank",
        "zscan",
        "xrange",
        "xrevrange",
        "xlen",
        "xpending",
        "xread",
        "pfcount",
        "bitcount",
        "info",
        "ping",
        "time",
        "lastsave",
        "role",
        "monitor",
        "geopos",
        "geodist",
    ];
    const CONTAINERS: [&str; 12] = [
        "cluster", "config", "client", "acl", "memory", "slowlog", "function", "script", "module", "latency", "xinfo",
        "object",
    ];
    const READING: [&str; 31] = [
        // `ACL DRYRUN USER CMD`: whether the user may run CMD, which it does not run.
        "dryrun",
        "info",
        "nodes",
        "slots",
        "shards",
        "myid",
        "keyslot",
        "countkeysinslot",
        "getkeysinslot",
        "links",
        "get",
        "list",
        "getname",
        "id",
        "users",
        "whoami",
        "getuser",
        "cat",
        "usage",
        "stats",
        "doctor",
        "len",
        "exists",
        "latest",
        "history",
        "encoding",
        "freq",
        "idletime",
        "refcount",
        "stream",
        "groups",
    ];
    match command {
        [first, rest @ ..] if CONTAINERS.contains(&first.as_str()) => {
            rest.first().is_some_and(|second| READING.contains(&second.as_str()) || second == "consumers")
        }
        [first, ..] => READS.contains(&first.as_str()),
        [] => false,
    }
}

/// The words of a statement (lower case), as a database splits them (`account_id` is one), each
/// with whether it is called as a function (`replace(email, ...)`; a method, `db.users.drop()`,
/// is not one).
fn statement_words(text: &str) -> Vec<(&str, bool)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
        match (start, c.is_ascii_alphanumeric() || c == '_') {
            (None, true) => start = Some(i),
            (Some(s), false) => {
                let function = text[i..].trim_start().starts_with('(') && !text[..s].ends_with('.');
                out.push((&text[s..i], function));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// Whether a statement's words change the database short of destroying rows. `EXPLAIN ANALYZE`
/// runs the statement it plans, which says what it changes; its own `ANALYZE` changes nothing.
/// `COPY t FROM` loads rows; `COPY (SELECT ...) TO` only reads them.
fn changes_database(words: &[&str]) -> bool {
    words.iter().enumerate().any(|(i, w)| {
        let next = words.get(i + 1).copied().unwrap_or("");
        let after = |word: &str| i.checked_sub(1).is_some_and(|p| words[p] == word);
        // `SHOW CREATE TABLE t` prints the statement that would make it.
        (DB_CHANGES.contains(w) && !(*w == "analyze" && after("explain")) && !(*w == "create" && after("show")))
            || DB_CHANGE_PAIRS.iter().any(|(first, then)| w == first && then.contains(&next))
            || *w == "copy"
                && next != "select"
                && words[i + 1..].iter().take(8).take_while(|x| **x != "to").any(|x| *x == "from")
    })
}

/// The options of an SQL client that say where it connects and as whom, each given a value:
/// the host, port, user, database and server of `psql`, `mysql`, `sqlcmd`, `clickhouse-client`
/// and the like. (`mysql -p` takes no separate value; what follows it is taken only when it is
/// no option.)
const CONNECTION_OPTIONS: [&str; 16] = [
    "-h",
    "--host",
    "-p",
    "-P",
    "--port",
    "-u",
    "-U",
    "--user",
    "--username",
    "-d",
    "-D",
    "--dbname",
    "--database",
    "-S",
    "--server",
    "--password",
];

/// Whether an argument names where an SQL client connects as its own option's value
/// (`--host=db.example.com`, `-hdb.example.com` is left alone: too short to tell).
fn is_connection_option(a: &str) -> bool {
    a.split_once('=').is_some_and(|(name, _)| name.starts_with("--") && CONNECTION_OPTIONS.contains(&name))
}

/// Whether the argument at `i` is the value of a connection option before it (`-h HOST`).
fn connection_value(args: &[String], i: usize) -> bool {
    i.checked_sub(1).is_some_and(|b| CONNECTION_OPTIONS.contains(&args[b].as_str())) && !args[i].starts_with('-')
}

/// The host of a database connection URI (`postgresql://app@db.example.com:5432/shop` names
/// `db.example.com`); none for any other argument.
fn uri_host(a: &str) -> Option<&str> {
    let (scheme, host) = url_host(a)?;
    let scheme = scheme.to_ascii_lowercase();
    let known =
        ["postgres", "postgresql", "mysql", "mariadb", "mongodb", "mongodb+srv", "redis", "rediss", "clickhouse"];
    if !known.contains(&scheme.strip_prefix("jdbc:").unwrap_or(&scheme)) {
        return None;
    }
    if host.starts_with('[') { host.split_inclusive(']').next() } else { host.split([':', ',']).next() }
}

/// A URL's scheme and its host with any port, without the login (`postgresql://app@db:5432/shop`
/// gives `postgresql` and `db:5432`); none for a word that is no URL.
fn url_host(a: &str) -> Option<(&str, &str)> {
    let (scheme, rest) = a.split_once("://")?;
    let authority = rest.split(['/', '?']).next().unwrap_or("");
    Some((scheme, authority.rsplit_once('@').map_or(authority, |(_, h)| h)))
}

/// SQL with its comments taken out: `--` to the end of the line and `/* ... */`, outside string
/// literals (`SELECT '--'; DROP TABLE t` still drops). What a string literal holds is data
/// (`SELECT 'TRUNCATE ' || tablename FROM pg_tables` prints statements, it runs none), so it is
/// taken out too, unless the SQL runs text as statements (`EXECUTE`, psql's `\gexec`).
fn sql_code(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    let mut in_string = false;
    let lower = sql.to_ascii_lowercase();
    let runs_text = ["execute", "gexec", "exec(", "exec ", "prepare"].iter().any(|w| lower.contains(w));
    while let Some(c) = chars.next() {
        match c {
            '\'' => in_string = !in_string,
            _ if in_string && !runs_text => continue,
            '-' if !in_string && chars.peek() == Some(&'-') => {
                chars.by_ref().find(|x| *x == '\n');
                out.push('\n');
                continue;
            }
            '/' if !in_string && chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                chars.by_ref().find(|x| std::mem::replace(&mut last, *x) == '*' && *x == '/');
                out.push(' ');
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    out
}

/// A transaction rolled back where the server rolls back a `DROP` too (PostgreSQL, SQLite,
/// DuckDB, CockroachDB, SQL Server): `psql -c "BEGIN; DROP TABLE t; ROLLBACK;"`, `sqlcmd -Q
/// "BEGIN TRAN; DELETE ...; ROLLBACK TRAN;"` change nothing (rule 1). MySQL commits a `DROP` at
/// once, so its clients are not read so.
fn rolls_back(call: &Call, tool: &str) -> bool {
    if !matches!(tool, "psql" | "sqlite3" | "duckdb" | "cockroach" | "sqlcmd" | "isql" | "sqsh" | "sqlplus") {
        return false;
    }
    // A quoted statement, or the batch fed to the client (`isql ... <<< $'begin tran ...\ngo'`),
    // whose last `go` ends it.
    let fed = call.fed();
    let quoted = call.args.iter().zip(&call.quoted).filter(|(_, q)| **q).map(|(a, _)| a.clone());
    quoted.chain(fed).any(|a| {
        let s = a.trim().to_ascii_lowercase();
        let s = s.strip_suffix("go").map_or(s.as_str(), str::trim_end).trim_end_matches(';').trim();
        // T-SQL names what it rolls back: `ROLLBACK TRAN`, `ROLLBACK TRANSACTION`, `ROLLBACK WORK`.
        let s = ["tran", "transaction", "work"].iter().find_map(|w| s.strip_suffix(w)).unwrap_or(s).trim_end();
        // Oracle opens a transaction with its first change and commits one only when told, or
        // before a statement that defines something (`DROP`, `CREATE`, `ALTER`, `TRUNCATE`).
        let oracle = tool == "sqlplus"
            && !statement_words(s)
                .iter()
                .any(|(w, _)| matches!(*w, "drop" | "create" | "alter" | "truncate" | "grant" | "revoke"));
        let s = if tool == "sqlplus" {
            ["exit", "quit"]
                .iter()
                .find_map(|w| s.strip_suffix(w))
                .unwrap_or(s)
                .trim_end()
                .trim_end_matches(';')
                .trim_end()
        } else {
            s
        };
        (s.starts_with("begin") || s.starts_with("start transaction") || oracle)
            && s.ends_with("rollback")
            && !s.contains("commit")
    })
}

/// Rule 7: a file outside the project emptied for good (`truncate -s 0 ~/.zsh_history`, or in
/// `/tmp`; `cat
/// /dev/null > /var/log/syslog`, `cp /dev/null ~/.ssh/authorized_keys`, `: > ~/.bash_history`,
/// `ln -sf /dev/null ~/.bash_history`); in the project, version control or a rebuild has it.
fn empties_outside(call: &Call, tool: &str) -> bool {
    let outside = |a: &str| matches!(path_class(a), "home_top" | "home_file" | "system" | "abs");
    let args = &call.args;
    let operands: Vec<&str> = args.iter().map(String::as_str).filter(|a| !a.starts_with('-')).collect();
    let into_outside = call.writes.iter().any(|(op, target)| !op.contains(">>") && outside(target));
    match tool {
        "truncate" => {
            let zero = args.iter().any(|a| matches!(a.as_str(), "-s0" | "--size=0"))
                || args.windows(2).any(|w| matches!(w[0].as_str(), "-s" | "--size") && w[1] == "0");
            // A file in `/tmp` is outside the project too: what it held is gone (`truncate -s 0
            // /tmp/debug.log`, level 3 in all 29 of the sets by others).
            zero && operands.iter().any(|a| outside(a) || path_class(a) == "tmp")
        }
        "cat" => operands == ["/dev/null"] && into_outside,
        ":" | "true" => operands.is_empty() && into_outside,
        // echo's options are `-n`, `-e` and `-E`; any other word, `-- rollback: ...` too, is
        // printed.
        "echo" => {
            let option =
                |a: &String| a.len() > 1 && a.starts_with('-') && a[1..].chars().all(|c| matches!(c, 'n' | 'e' | 'E'));
            args.iter().all(option) && into_outside
        }
        "cp" | "ln" => operands.first() == Some(&"/dev/null") && operands.last().is_some_and(|a| outside(a)),
        _ => false,
    }
}

/// The script a call runs, when it runs one: a program run by its path
/// (`./scripts/cleanup.sh`) or a script an interpreter runs is code the command does not show,
/// and only its name says anything.
fn script(call: &Call, program: &str, tool: &str) -> Option<String> {
    if routeros(call, program) {
        return None;
    }
    // Deployer installed by Composer (`vendor/bin/dep`) is Deployer, not the project's script.
    let system =
        ["/usr/", "/bin/", "/sbin/"].iter().any(|d| program.starts_with(d)) || program.ends_with("vendor/bin/dep");
    if program.contains('/') && !system {
        Some(program.to_string())
    } else if super::powershell::is_powershell(tool) {
        super::powershell::script_of(&call.args).map(str::to_string)
    } else if INTERPRETERS.contains(&tool) {
        call.args.iter().find(|a| !a.starts_with('-')).filter(|a| looks_like_script(a)).cloned()
    } else {
        None
    }
}

/// A call's program, as the key the model lists the programs its rows named by (32 bits of the
/// hash of `t=rm`), none for a script: whether the model has seen it decides how sure it may be
/// of the call. A key, not a bucket: a bucket some other feature reached would say a program no
/// row named was seen.
pub fn program(call: &Call) -> Option<u32> {
    let program = call.program.to_ascii_lowercase();
    let tool = base(&program);
    script(call, &program, tool).is_none().then(|| (fnv1a(format!("t={tool}").as_bytes()) >> 32) as u32)
}

fn looks_like_script(a: &str) -> bool {
    let ext = a.rsplit('.').next().unwrap_or("");
    a.contains('/') || matches!(ext, "sh" | "bash" | "py" | "js" | "mjs" | "rb" | "pl" | "ts" | "ps1")
}

/// The words of a call that are neither options nor a long option's value (`--acl public-read`).
/// The value after the first of these options (`-H ldap://...`), if one follows it.
fn value_after<'a>(args: &'a [String], options: &[&str]) -> Option<&'a String> {
    args.iter().position(|a| options.contains(&a.as_str())).and_then(|i| args.get(i + 1))
}

fn operands(args: &[String]) -> impl Iterator<Item = &str> {
    args.iter().enumerate().filter_map(|(i, a)| {
        let value = i.checked_sub(1).is_some_and(|b| takes_value(&args[b]));
        // A lone `-` is an end too: standard input or output (`aws s3 cp s3://b/k - | jq`).
        ((!a.starts_with('-') || a == "-") && !value).then_some(a.as_str())
    })
}

/// Whether a call names the database it works on: an option for one (`--dbname`, `--db`,
/// `--uri`, `--server.database`, `-d`), or a database URL (`mongodb://...`, `postgres://...`).
fn names_database(args: &[String]) -> bool {
    args.iter().any(|a| {
        let option = a.strip_prefix("--").map(|o| o.split('=').next().unwrap_or(o));
        option.is_some_and(|o| o.split(['-', '_', '.']).any(|w| matches!(w, "db" | "dbname" | "database" | "uri")))
            || a == "-d"
            || ["mongodb://", "mongodb+srv://", "postgres://", "postgresql://", "mysql://"]
                .iter()
                .any(|scheme| a.starts_with(scheme))
    })
}

/// Whether a long option given without `=` takes the next word as its value: any but the
/// common switches (`--force`, `--all`, `--yes`, a `--no-` form, ...), in any case (`--dryRun`). A
/// global option's value before the subcommand is skipped too (`aws --region eu-west-1 s3 rb`).
fn takes_value(a: &str) -> bool {
    const SWITCHES: [&str; 45] = [
        "force",
        // A TLS connection (`redis-cli -u "$REDIS_URL" --tls FLUSHDB`).
        "tls",
        "all",
        "yes",
        "recursive",
        "verbose",
        "quiet",
        "dry-run",
        "dryrun",
        "prod",
        "production",
        "delete",
        "purge",
        "debug",
        "help",
        "version",
        "watch",
        "detach",
        "rm",
        "interactive",
        "tty",
        "global",
        "save",
        "save-dev",
        "amend",
        "hard",
        "soft",
        "squash",
        "rebase",
        "tags",
        "follow-tags",
        "set-upstream",
        "force-with-lease",
        "insecure",
        "silent",
        "json",
        "wait",
        "now",
        "permanent",
        "auto-approve",
        "confirm",
        "remote",
        "local",
        "update",
        "list",
    ];
    let Some(long) = a.strip_prefix("--") else { return false };
    !long.is_empty()
        && !long.contains('=')
        && !long.get(..3).is_some_and(|n| n.eq_ignore_ascii_case("no-"))
        && !SWITCHES.iter().any(|s| same_option(s, long))
}

/// Whether two option names are one, in any case and with `_` for `-` (`--dryRun`, `--dry_run`
/// are `--dry-run`): compared byte by byte, since the hook asks this of every option it reads.
fn same_option(a: &str, b: &str) -> bool {
    let norm = |c: u8| if c == b'_' { b'-' } else { c.to_ascii_lowercase() };
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| norm(x) == norm(y))
}

/// What joins the words of a subcommand (`db:drop`, `delete-bucket`, `purge_queue`, `vm.destroy`).
const SUBCOMMAND_JOINS: [char; 4] = [':', '-', '_', '.'];

/// A word where a subcommand stands: a plain word, or an object and a verb joined by a dot
/// (`govc vm.destroy`, `xo-cli vm.delete`, `mix ecto.reset`) whose verb destroys, publishes or
/// changes, so a file's name (`notes.txt`, `app.log`) is none.
fn is_subcommand(a: &str) -> bool {
    is_word(a)
        || a.rsplit_once('.')
            .is_some_and(|(object, verb)| is_word(object) && verb_kind(verb).is_some_and(|kind| kind != "read"))
}

/// A subcommand-like word: letters first, then letters, digits and `-_:`; no path, no value.
fn is_word(a: &str) -> bool {
    a.len() <= 40
        && a.starts_with(|c: char| c.is_ascii_alphabetic())
        && a.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':'))
}

/// A flag's names: `-rf` is `-r` and `-f`, `--force=yes` is `--force`.
fn flags(after_dash: &str) -> Vec<String> {
    if let Some(long) = after_dash.strip_prefix('-') {
        return vec![format!("--{}", long.split('=').next().unwrap_or(long).to_ascii_lowercase())];
    }
    // Short flags glued together (`-rf`, `-xvzf`); a longer word after one dash is one flag
    // (`-help`, `-force`, `-destroy`, as Go tools spell them).
    if after_dash.len() <= 4 && after_dash != "help" && after_dash.chars().all(|c| c.is_ascii_alphabetic()) {
        return after_dash.chars().map(|c| format!("-{c}")).collect();
    }
    vec![format!("-{}", after_dash.split('=').next().unwrap_or(after_dash).chars().take(12).collect::<String>())]
}

/// The lowercase words of a text, three letters or more.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| w.len() >= 3 && w.len() <= 24)
        .map(str::to_ascii_lowercase)
        .collect()
}

/// The kind of thing an argument names.
pub fn path_class(a: &str) -> &'static str {
    let a = a.trim();
    let home = ["~", "~/", "$HOME", "${HOME}", "$HOME/", "${HOME}/"];
    if matches!(a, "/" | "/*" | "/.") {
        return "root";
    }
    if home.contains(&a) || a == "~/*" || a == "$HOME/*" || a == "${HOME}/*" {
        return "home";
    }
    // A home, or a directory straight under one (`~/Documents`, `/home/alice`), is a home
    // directory (settled 19); what is picked deeper is a file in it.
    let under_home = ["~/", "$HOME/", "${HOME}/"].iter().find_map(|p| a.strip_prefix(p)).or_else(|| {
        ["/home/", "/Users/"]
            .iter()
            .find_map(|p| a.strip_prefix(p))
            .map(|rest| rest.split_once('/').map_or("", |(_, r)| r))
    });
    if let Some(rest) = under_home.or_else(|| a.strip_prefix("/root/").or((a == "/root").then_some(""))) {
        let rest = rest.trim_end_matches(['/', '*']);
        return if rest.is_empty() || !rest.contains('/') { "home_top" } else { "home_file" };
    }
    if a.starts_with("/dev/") {
        // A terminal (`/dev/tty`, a virtual console, a pseudo-terminal) only shows what is written
        // to it; a serial line (`/dev/ttyUSB0`) is a device.
        let terminal = a.strip_prefix("/dev/tty").is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()))
            || a.starts_with("/dev/pts/");
        return if a.starts_with("/dev/null") || a.starts_with("/dev/std") || terminal { "dev_null" } else { "device" };
    }
    const SYSTEM: [&str; 11] =
        ["/etc", "/usr", "/var", "/boot", "/bin", "/sbin", "/lib", "/opt", "/sys", "/proc", "/srv"];
    if SYSTEM.iter().any(|s| a == *s || a.starts_with(&format!("{s}/"))) {
        return if SYSTEM.contains(&a.trim_end_matches(['/', '*'])) { "system_top" } else { "system" };
    }
    if a.starts_with("/tmp") {
        return "tmp";
    }
    if a.contains("://") {
        return if a.starts_with("http") { "url" } else { "store_url" };
    }
    if a.starts_with('/') {
        return "abs";
    }
    if a == ".." || a.starts_with("../") {
        // `..` itself or everything in it takes the project with its siblings; a sibling
        // picked by name is one directory (settled 23).
        let mut rest = a;
        while let Some(r) = rest.strip_prefix("../") {
            rest = r;
        }
        return if matches!(rest, "" | ".." | "*" | ".") { "parent" } else { "sibling" };
    }
    if a == "." || a == "./" || a == "*" || a == "./*" {
        return "here_all";
    }
    if a.contains('$') {
        return "variable";
    }
    if is_host(a) {
        return "host";
    }
    if let Some((host, _)) = a.split_once(':')
        && !host.is_empty()
        && (host.contains('@') || host.contains('.'))
        && !host.contains('/')
    {
        return "remote_path";
    }
    if a.contains('*') || a.contains('?') {
        return "glob";
    }
    if a.contains('/') || a.contains('.') {
        return "rel";
    }
    if a.chars().all(|c| c.is_ascii_digit()) {
        return "number";
    }
    "name"
}

/// An operand of a copy between machines (`scp`, `rsync`) on another one: `user@host:path`,
/// `host.example.com:path`, or a host named alone (`dtn01:/archive/`, `backup::module`); not a
/// drive letter (`C:\\x`) or a path with a colon in it (`./a:b`).
fn remote_operand(a: &str) -> bool {
    path_class(a) == "remote_path"
        || a.split_once(':').is_some_and(|(host, _)| {
            host.len() > 1
                && !host.starts_with('-')
                && host.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '@'))
        })
}

/// Whether a word names another machine: a login at one, `user@host` (not a package's
/// `name@version`), an IPv4 address (`10.0.0.5`, `10.0.0.0/16`), or either with a port. A bare domain name is not
/// one: as often it names a certificate, a site or a zone (`certbot delete --cert-name
/// staging.example.com`) as a machine reached.
fn is_host(a: &str) -> bool {
    let ipv4 = |h: &str| {
        let h =
            h.split_once('/').map_or(h, |(ip, bits)| if bits.parse::<u8>().is_ok_and(|b| b <= 32) { ip } else { "" });
        let parts: Vec<&str> = h.split('.').collect();
        parts.len() == 4 && parts.iter().all(|p| !p.is_empty() && p.len() <= 3 && p.parse::<u8>().is_ok())
    };
    // With a port, a name is a machine's: `api.example.com:443`, `db.example.com:27017`; of
    // two parts, only under a common top-level name (`notes.md:12` is a file and a line).
    if let Some((host, port)) = a.rsplit_once(':')
        && !port.is_empty()
        && port.len() <= 5
        && port.chars().all(|c| c.is_ascii_digit())
    {
        let common = host
            .rsplit('.')
            .next()
            .is_some_and(|t| matches!(t, "com" | "net" | "org" | "io" | "dev" | "internal" | "local" | "lan"));
        return ipv4(host) || (is_domain(host) && (host.split('.').count() >= 3 || common));
    }
    if let Some((user, host)) = a.split_once('@') {
        return !user.is_empty() && !a.contains('/') && (ipv4(host) || is_domain(host));
    }
    ipv4(a)
}

/// Whether a word is a domain name: dotted, of letters, digits and hyphens, ending in a name of
/// letters (`db.example.com`; `localhost` is this machine).
fn is_domain(h: &str) -> bool {
    h.contains('.')
        && h.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
        && h.rsplit('.').next().is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()))
}

/// Whether a call names another machine it works on: a URL's host that is not this machine's
/// (`http://ray-head.ml.internal:8265`, `postgresql://app@db/x`), a login or address (`user@host`,
/// `10.0.3.21`, `db.example.com:5432`), or a host option's value (`--host db.example.com`).
fn aims_elsewhere(args: &[String]) -> bool {
    let local = |h: &str| this_machine(h.rsplit_once('@').map_or(h, |(_, h)| h));
    args.iter().enumerate().any(|(i, a)| {
        // A Windows share on another machine (`robocopy src \\fs01\deploy$ /MIR`; the shell
        // leaves one backslash of the two).
        if a.strip_prefix('\\').is_some_and(|rest| {
            let host = rest.trim_start_matches('\\');
            host.starts_with(|c: char| c.is_ascii_alphanumeric()) && !host.to_ascii_lowercase().starts_with("localhost")
        }) {
            return true;
        }
        let value = if a.starts_with('-') { a.split_once('=').map_or("", |(_, v)| v) } else { a.as_str() };
        if let Some((scheme, host)) = url_host(value) {
            return scheme != "file" && !local(host);
        }
        let named = i.checked_sub(1).is_some_and(|b| host_option(&args[b], value))
            || a.split_once('=').is_some_and(|(o, v)| host_option(o, v));
        (named || is_host(value)) && !local(value)
    })
}

/// The fact of an OpenVMS DCL command, by its verb in capitals (`PURGE /KEEP=1 MFG$DATA:[...]`,
/// `BACKUP /IMAGE /INITIALIZE DKA100: MKA500:...`, `RMU /RESTORE ...`): none for a program whose
/// name is not all capitals, or a verb it does not know.
fn dcl_fact(program: &str, text: &str) -> Option<&'static str> {
    if program.len() < 3 || !program.chars().all(|c| c.is_ascii_uppercase()) {
        return None;
    }
    Some(match program {
        "PURGE" | "DELETE" | "INITIALIZE" => "destroy_verb",
        "BACKUP" if text.contains("/init") => "destroy_verb",
        "RMU" if text.contains("/restore") => "restore_verb",
        "RMU" if ["/dump", "/show", "/analyze", "/verify"].iter().any(|q| text.contains(q)) => "read_verb",
        "SHOW" | "DIRECTORY" | "DIR" | "TYPE" | "SEARCH" | "DIFFERENCES" | "HELP" => "read_verb",
        "RMU" | "BACKUP" | "STOP" | "DISMOUNT" | "REPLY" | "SET" | "MOUNT" | "SUBMIT" | "RUN" | "START" | "INSTALL"
        | "RENAME" | "COPY" | "CREATE" | "SHUTDOWN" => "change_verb",
        _ => return None,
    })
}

/// MikroTik RouterOS's menus, run over ssh (`/interface wifi registration-table print`, `/system
/// reboot`, `/export`): a path of one word, which no file of another machine's is.
fn routeros(call: &Call, program: &str) -> bool {
    const MENUS: [&str; 18] = [
        "interface",
        "ip",
        "ipv6",
        "system",
        "tool",
        "export",
        "routing",
        "queue",
        "user",
        "file",
        "log",
        "ppp",
        "certificate",
        "snmp",
        "caps-man",
        "radius",
        "ping",
        "disk",
    ];
    call.remote && program.strip_prefix('/').is_some_and(|menu| MENUS.contains(&menu))
}

/// SAP's control programs pointed at another host by name (`sapcontrol -nr 10 -host s4pci01
/// -function RestartSystem`).
fn sap_host_elsewhere(tool: &str, args: &[String]) -> bool {
    matches!(tool, "sapcontrol" | "saphostctrl") && value_after(args, &["-host"]).is_some_and(|h| !this_machine(h))
}

/// A cloud CLI pointed at an emulator on this machine: LocalStack's `awslocal`, or an
/// `--endpoint-url` on this machine (`aws --endpoint-url http://localhost:4566 s3 mb s3://dev`).
/// Its bucket's address names no other machine.
fn local_emulator(tool: &str, args: &[String]) -> bool {
    tool == "awslocal"
        || args.iter().enumerate().any(|(i, a)| {
            let value = match a.strip_prefix("--endpoint-url=") {
                Some(v) => Some(v),
                None if a == "--endpoint-url" => args.get(i + 1).map(String::as_str),
                None => None,
            };
            value.and_then(url_host).is_some_and(|(_, host)| this_machine(host) || host.starts_with("localstack"))
        })
}

/// Whether `nc` carries only questions ([`asks_only`] with its later reading), wherever it is
/// sent: a JSON-RPC method named for reading (`StatusGet`), Asterisk's manager actions that show
/// (`Action: CoreShowChannels`), a Zebra printer's host queries (`~HS`) and `getvar`, a socket
/// asked its `status`, and ZooKeeper's four-letter words sent to this machine's port over ssh.
/// Its send facts give way to a read's; training's rows read `nc` without it, so the weights are
/// the same.
fn nc_asks(call: &Call) -> bool {
    let short = |c: char| call.args.iter().any(|a| a.starts_with('-') && !a.starts_with("--") && a[1..].contains(c));
    matches!(base(&call.program.to_ascii_lowercase()), "nc" | "ncat" | "netcat")
        && !short('z')
        && !short('l')
        && call.writes.is_empty()
        && call.stdin_text.as_deref().is_some_and(|fed| asks_only(fed, true))
}

/// A call's features with [`nc_asks`]'s reading: its send facts
/// (and the change on another machine they made) replaced by a read's.
fn read_not_sent(call: &Call, f: &mut Vec<String>) {
    let sent = |x: &String| {
        x.strip_prefix("R=")
            .is_some_and(|r| matches!(r.split('|').next(), Some("send" | "send_local" | "remote_change")))
    };
    f.retain(|x| !sent(x));
    for x in fact_features(call, "read") {
        if !f.contains(&x) {
            f.push(x);
        }
    }
}

/// What a mail server's queue or store tool does, by its options: Exim's `-Mrm` removes queued
/// messages and `-Mg` gives them up (bounced), both for good; `-M`, `-qf`, `-qff`, `-R` and
/// Sendmail's `-q` with a selection (`-qSfailed.example.net`) deliver now, which sends; Cyrus's
/// `cyr_expire` with `-X` or `-D` expunges and deletes stored mail, `ipurge` deletes it. The rows
/// were fitted without this, so the weights are the same.
fn mail_queue_act(call: &Call) -> Option<&'static str> {
    let program = call.program.to_ascii_lowercase();
    let tool = base(&program);
    let has = |o: &str| call.args.iter().any(|a| a == o);
    let starts = |o: &str| call.args.iter().any(|a| a.starts_with(o));
    match tool {
        "exim" | "exim4" | "sendmail" => {
            if has("-Mrm") || has("-Mg") {
                Some("destroy")
            } else if has("-M")
                || has("-qf")
                || has("-qff")
                || has("-R")
                || (tool == "sendmail" && ["-qS", "-qR", "-qI", "-qf"].iter().any(|o| starts(o)))
            {
                Some("publish")
            } else {
                None
            }
        }
        "cyr_expire" if ["-X", "-D"].iter().any(|o| has(o)) => Some("destroy"),
        "ipurge" if !has("-h") => Some("destroy"),
        _ => None,
    }
}

/// Whether what a text protocol is fed only asks: every line a question of a cache's, a
/// coordinator's or a key-value server's (memcached's `stats`, ZooKeeper's four-letter `ruok` and
/// `mntr`, Redis's `PING` and `INFO`), or the `quit` that ends the session. `printf`'s escapes
/// (`stats\r\nquit\r\n`) end lines too.
///
/// With `more`, a reading the rows were fitted without ([`nc_asks`]): a JSON request that reads,
/// Asterisk's manager actions that show, a Zebra printer's queries, `status` and `show`.
fn asks_only(fed: &str, more: bool) -> bool {
    // A JSON request that reads (JSON-RPC's `{"method": "StatusGet"}`), ended by a NUL as Q-SYS's
    // control protocol has it.
    let request = fed.trim().trim_end_matches("\\0").trim_end_matches('\0').trim_end();
    if more && request.starts_with('{') {
        return body_reads(request);
    }
    let fed = in_lines(&fed.replace("\\r", "\n"));
    let mut lines = fed.split(['\n', '\r']).map(str::trim).filter(|l| !l.is_empty()).peekable();
    let ami = more && fed.lines().any(|l| l.trim_start().get(..7).is_some_and(|k| k.eq_ignore_ascii_case("action:")));
    lines.peek().is_some()
        && lines.all(|line| {
            let mut words = line.split_whitespace().map(str::to_ascii_lowercase);
            let first = words.next().unwrap_or_default();
            // Asterisk's manager interface takes `Key: value` lines: its actions read when each
            // logs in or out or names a read (`Action: CoreShowChannels`, `Command: core show
            // channels`); its other keys (`Username:`, `Secret:`) say who asks.
            if let Some((key, value)) = line.split_once(':').filter(|(k, _)| ami && is_word(k)) {
                return match key.to_ascii_lowercase().as_str() {
                    "action" | "command" => {
                        matches!(value.trim().to_ascii_lowercase().as_str(), "login" | "logoff") || names_read(value)
                    }
                    _ => true,
                };
            }
            matches!(
                first.as_str(),
                "stats"
                    | "version"
                    | "ruok"
                    | "stat"
                    | "srvr"
                    | "mntr"
                    | "conf"
                    | "cons"
                    | "envi"
                    | "wchs"
                    | "isro"
                    | "ping"
                    | "info"
                    | "quit"
            ) || (first == "lru_crawler" && words.next().as_deref() == Some("metadump"))
                || (more && matches!(first.as_str(), "status" | "show"))
                // An instrument's SCPI queries (`*IDN?`, `:SYST:ERR?`), and a device's `get`, first
                // or after its object (Shure's `< GET 0 ALL >`, Biamp's `DEVICE get version`).
                || (more && first.ends_with('?'))
                || (more && (first == "get" || line.split_whitespace().nth(1).is_some_and(|w| w.eq_ignore_ascii_case("get"))))
                // TL1's retrievals (`RTRV-ALM-ALL:TID::CTAG;`) and its session's log in and out.
                || (more && {
                    let verb = first.split(':').next().unwrap_or_default();
                    verb.starts_with("rtrv-") || matches!(verb, "act-user" | "canc-user")
                })
                // A Zebra printer's host queries (`~HS`, `~HI`) and its Set-Get-Do `getvar`.
                || (more && first.starts_with("~h") && first.len() <= 5)
                || (more
                    && first == "!"
                    && words.next().as_deref() == Some("u1")
                    && words.next().as_deref() == Some("getvar"))
        })
}

/// Whether a host (its port may follow) is this machine: none, `localhost`, a loopback or the
/// any-address.
fn this_machine(host: &str) -> bool {
    host.is_empty() || ["localhost", "127.", "0.0.0.0", "[::1]"].iter().any(|local| host.starts_with(local))
}

/// The options whose value names the machine a program talks to (`psql -h db.example.com`,
/// `mongosh --host`): a domain name there is another machine's, with at least three parts
/// after `-h` or `-H`, where a file (`du -h notes.md`) could stand.
fn host_option(option: &str, value: &str) -> bool {
    match option {
        "--host" | "--hostname" | "--server" | "--broker" => is_domain(value),
        // A Supabase project, hosted (`supabase secrets set ... --project-ref qzvh...`).
        "--project-ref" => !value.is_empty() && !value.starts_with('-'),
        "-h" | "-H" => is_domain(value) && value.split('.').count() >= 3,
        // Windows tools' computer (`manage-bde -cn LT-0098 ...`, `-ComputerName`), SQL Server's
        // instance in its PowerShell modules (dbatools' `-SqlInstance sqlprod01`, `Invoke-Sqlcmd
        // -ServerInstance`), and a failover cluster's or a CIM session's (`Stop-Cluster -Cluster
        // CLU-HV-PRD01`, `Update-StoragePool -CimSession S2D-CLU02`); not this machine's (`.`,
        // `(local)`).
        _ if ["-cn", "-computername", "-sqlinstance", "-serverinstance", "-cluster", "-clustername", "-cimsession"]
            .iter()
            .any(|o| option.eq_ignore_ascii_case(o)) =>
        {
            !value.is_empty()
                && !value.starts_with(['-', '/', '.', '('])
                && !value.to_ascii_lowercase().starts_with("localhost")
        }
        _ => false,
    }
}

/// Which of 65,536 parts a key falls in: the held-out tools and the folds are picked by it, so
/// they stay the same whatever [`BUCKETS`] is (an experiment with more buckets is measured on
/// the same rows).
pub fn part(key: &str) -> usize {
    (fnv1a(key.as_bytes()) % (1 << 16)) as usize
}

/// How many buckets, at the top, the rule facts (`R=`) have to themselves. Training barely
/// regularises a fact, so its weights are large: a word or flag sharing its bucket took them on
/// (`trayer --widthtype` was denied for `R=send`'s, `systemd-repart --root /` for
/// `R=db_destroy`'s), and pulled the fact's weights towards what it does. No other feature can
/// land here, and the facts the rows have do not share a bucket (a test holds both).
pub const RULE_BUCKETS: usize = 1 << 13;

/// The rule facts whose hash meets another fact's bucket, each put where the hash's higher bits
/// say instead: `R=db_restore|remote` (a restore into a database over ssh, first met in
/// `model/fresh-27/`) met `R=destroy_option|sudo`, and would have taken its weights. Moving the
/// newer fact leaves every trained weight where it was; the test that no two facts share a bucket
/// says when another must be added.
const MOVED_FACTS: [&str; 1] = ["R=db_restore|remote"];

/// A feature's bucket, by FNV-1a: a rule fact's among the top [`RULE_BUCKETS`], any other's
/// below them.
pub fn bucket(feature: &str) -> usize {
    let h = fnv1a(feature.as_bytes());
    if feature.starts_with("R=") {
        let h = if MOVED_FACTS.contains(&feature) { h >> 32 } else { h };
        BUCKETS - RULE_BUCKETS + (h % RULE_BUCKETS as u64) as usize
    } else {
        (h % (BUCKETS - RULE_BUCKETS) as u64) as usize
    }
}

/// FNV-1a, 64 bits, of bytes: a feature's bucket, and a model's name from its weights.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The buckets of a call's features, each once.
pub fn buckets(call: &Call) -> Vec<usize> {
    hashed(of(call).iter())
}

/// The buckets of a call whose program no labelled row names: its features, and the verb an
/// administrator's own command language joins to its object (`rmvdisk`, `mkhost`, `lsqueue`,
/// `removeuser`, `vol_destroy`), when nothing else gave the call one ([`joined_verb_facts`]).
/// Only the embedded model asks for these, for a program it has never seen; training sees no
/// such call (every program it fits on is one a row names), so the weights are the same. It
/// asks for a script's too, whose code it never sees: what a script gains here is only the
/// commands an option gives it (`/opt/eap/bin/jboss-cli.sh --command="undeploy app.war"`), which
/// training, reading every call with [`of`], does not read.
pub fn unseen_buckets(call: &Call) -> Vec<usize> {
    hashed(of_unseen(call).iter())
}

/// The features of a call whose program no labelled row names ([`unseen_buckets`]).
pub fn of_unseen(call: &Call) -> Vec<String> {
    let mut f = of(call);
    // What a call's words say it does outright replaces the facts read so far: a move between a
    // console's modes reads nothing and changes nothing, whatever its mode is named (`scope org
    // /Prod-ESX`); a device's command line given its statements as words does what they do
    // (Onyx's `cli -h "enable" "configure terminal" "no vlan 310"`); a path of contexts whose
    // objects are picked by `select` and whose action after them only reads, reads (Oracle ZFS
    // Storage's `shares select prod-db select oradata01 show`): what is picked is named, not changed.
    let said = if NAVIGATES.contains(&base(&call.program.to_ascii_lowercase())) {
        Some("read")
    } else {
        device_statements(call).or_else(|| selects_then_reads(call).then_some("read"))
    };
    if let Some(kind) = said {
        f.retain(|x| !x.starts_with("R="));
        f.extend(verb_facts(call, kind));
        return f;
    }
    let mut extra = joined_verb_facts(call, &f);
    if extra.is_empty() && (script_sends(call, &f) || runner_sends(call, &f)) {
        extra = reaching_facts(call, "publish");
    } else if extra.is_empty()
        && let Some(kind) = snmp_acts(call, &f)
    {
        extra = reaching_facts(call, kind);
    }
    f.extend(extra);
    if nc_asks(call) {
        read_not_sent(call, &mut f);
    }
    if let Some(kind) = mail_queue_act(call) {
        f.extend(reaching_facts(call, kind));
    }
    if script_looks(call, &f) || tree_previews(call) {
        f.extend(fact_features(call, "dry_run"));
    }
    if writes_tape(call) {
        // (`mkltfs -n NAME` names the volume: no dry run.)
        f.retain(|x| x != "R=dry_run" && !x.starts_with("R=dry_run|"));
        f.extend(fact_features(call, "device_write"));
    }
    if f.iter().any(|x| x == "R=read_verb") && read_after_verb(call) {
        // Its first verb says what it does; a read word after it names what it acts on (PAN-OS's
        // `request system software install version 11.1.2`).
        f.retain(|x| x != "R=read_verb" && !x.starts_with("R=read_verb|"));
    }
    if changes_unseen(call, &f) {
        // A console given or fed statements that change (`printf "drop 't'\n" | hbase shell -n`,
        // `cmsh -c "device; remove node204"`) is a client: they run on its server.
        if names_shared_object(call) || console_changes(call) {
            f.push("R=served_change".into());
        } else if names_another_machine(call) {
            f.push("R=elsewhere_change".into());
        }
    }
    f
}

/// The buckets of a call whose program a labelled row names: its features as training read them
/// ([`of_seen`]).
pub fn seen_buckets(call: &Call) -> Vec<usize> {
    hashed(of_seen(call).iter())
}

/// The features of a call whose program a labelled row names: [`of`], and the one reading
/// training never sees, a task runner's target named for sending ([`runner_sends`]). Training's
/// rows of such targets (`make deploy`, `npm run release`) are `unsure` (rule 11), so it fits
/// them spread; but rule 11 labels them by the least their name says, and a deploy's least is 3,
/// the top: nothing is left to spread over. With this the hook denies them.
///
/// Three more, the same way: an ad-hoc `ansible` run that lists its hosts or runs in check mode
/// changes nothing (training's one such row with a module, `-m apt ... --check`, is read by its
/// module); a statement that destroys a database's rows destroys them whoever runs
/// its client (`sudo -u postgres psql -c 'TRUNCATE sessions'`), so `sudo` there says nothing (its
/// weights, fitted on `sudo apt install` and the like, pull such a call towards level 2); and a
/// GET whose address names an action on the server it reaches (`curl -s
/// https://app/admin/cache/purge`, `.../ingester/shutdown`) does it ([`url_action`]).
pub fn of_seen(call: &Call) -> Vec<String> {
    // kubectl's options before its subcommand are read where the rows have them, after it.
    let moved = super::shell::kubectl_options_last(call);
    let call = moved.as_ref().unwrap_or(call);
    let mut f = of(call);
    let add = |f: &mut Vec<String>, facts: Vec<String>| {
        for fact in facts {
            if !f.contains(&fact) {
                f.push(fact);
            }
        }
    };
    if runner_sends(call, &f) {
        add(&mut f, reaching_facts(call, "publish"));
    }
    let destroys =
        |x: &String| matches!(x.as_str(), "R=db_destroy" | "R=db_destroy_remote" | "R=db_drop" | "R=db_clear");
    // Rows or tables, by the statement's own words: not `ALTER SYSTEM SET`, a server's setting.
    // Looked for only under `sudo` with such a fact: every call of a known program comes here.
    let names_rows = || {
        call.args.iter().flat_map(|a| a.split(|c: char| !c.is_ascii_alphabetic())).any(|w| {
            w.eq_ignore_ascii_case("truncate") || w.eq_ignore_ascii_case("delete") || w.eq_ignore_ascii_case("drop")
        })
    };
    if call.elevated && f.iter().any(destroys) && names_rows() {
        f.retain(|x| x != "sudo" && !x.ends_with("|sudo"));
    }
    // An ad-hoc run that lists its hosts or runs in check mode changes nothing, whatever its
    // module or command (`ansible all -m raw -a reboot --list-hosts`, `-m command -a '...'
    // --check`): a reading, since training's rows read `-m apt ... --check` by its module.
    if base(&call.program.to_ascii_lowercase()) == "ansible"
        && call.args.iter().any(|a| super::shell::ansible_runs_nothing(a))
    {
        f.retain(|x| x != "R=change_verb" && !x.starts_with("R=change_verb|"));
        add(&mut f, verb_facts(call, "read"));
    }
    if tree_previews(call) {
        add(&mut f, fact_features(call, "dry_run"));
    }
    if nc_asks(call) {
        read_not_sent(call, &mut f);
    }
    if let Some(kind) = mail_queue_act(call) {
        add(&mut f, reaching_facts(call, kind));
    }
    if playbook_changes_hosts(call, &f) {
        add(&mut f, reaching_facts(call, "change"));
    }
    if let Some(kind) = hdfs_act(call).filter(|_| !previews(call, &f)) {
        add(&mut f, reaching_facts(call, kind));
    }
    if writes_tape(call) {
        add(&mut f, fact_features(call, "device_write"));
    }
    if let Some(kind) = url_action(call, &f) {
        f.retain(|x| !matches!(x.as_str(), "R=download" | "R=print"));
        add(&mut f, reaching_facts(call, kind));
    }
    f
}

/// Whether a playbook run puts its inventory's hosts in the state its tasks say: on another
/// machine, like a command run there by `ssh` (rule 4: `ansible-playbook -i inventory/prod.yml
/// playbooks/ntp.yml --limit dc2`). Of the sets by others' `ansible-playbook` calls, 495 are level
/// 3; of those below it, all but 11 check, list, ask for help or run on this machine, and each of
/// the 11 runs a playbook named for reading ([`PLAYBOOK_READS`]: `backup.yml`, `collect_facts.yml`).
/// Training's rows read the run as unsure (rule 11: the tasks are not shown); this is a reading.
fn playbook_changes_hosts(call: &Call, features: &[String]) -> bool {
    if base(&call.program.to_ascii_lowercase()) != "ansible-playbook"
        || !features.iter().any(|x| x == "R=change_verb")
        || previews(call, features)
    {
        return false;
    }
    const VALUED: [&str; 6] = ["-i", "--inventory", "-e", "--extra-vars", "--vault-password-file", "--private-key"];
    let args = &call.args;
    let playbooks = args.iter().enumerate().filter(|&(i, a)| {
        (a.ends_with(".yml") || a.ends_with(".yaml")) && !(i > 0 && VALUED.contains(&args[i - 1].as_str()))
    });
    let mut names = playbooks.map(|(_, a)| a.rsplit('/').next().unwrap_or(a)).peekable();
    names.peek().is_some() && !names.any(|name| camel_words(name).iter().any(|w| PLAYBOOK_READS.contains(&w.as_str())))
}

/// What an HDFS command does to the cluster's files or its namenode, which are on other machines
/// (rule 4): `hdfs dfs -rm -r -skipTrash /data/x` and `hadoop fs -expunge` destroy, `hdfs dfs
/// -put`, `-mkdir`, `-setrep`, `-chmod`, `hdfs dfsadmin -safemode enter`, `hdfs balancer` change.
/// Of the sets by others' such calls, every one run (36) is level 3; those below it are
/// mentions. Reading (`-ls`, `-cat`, `-get`, `dfsadmin -report`, `-safemode get`) is none.
fn hdfs_act(call: &Call) -> Option<&'static str> {
    let program = call.program.to_ascii_lowercase();
    // Asked of every call of a known program: only HDFS's own gather their words.
    if !matches!(base(&program), "hdfs" | "hadoop") {
        return None;
    }
    let args: Vec<&str> = call.args.iter().map(String::as_str).collect();
    let (sub, rest) = args.split_first()?;
    let option = rest.first().copied().unwrap_or("");
    match (base(&program), *sub) {
        ("hdfs", "dfs") | ("hadoop", "fs" | "dfs") => {
            const DESTROYS: [&str; 6] = ["-rm", "-rmr", "-rmdir", "-expunge", "-truncate", "-deleteSnapshot"];
            const CHANGES: [&str; 17] = [
                "-mv",
                "-put",
                "-copyFromLocal",
                "-moveFromLocal",
                "-mkdir",
                "-setrep",
                "-chmod",
                "-chown",
                "-chgrp",
                "-touchz",
                "-touch",
                "-appendToFile",
                "-cp",
                "-createSnapshot",
                "-renameSnapshot",
                "-setfacl",
                "-setfattr",
            ];
            if DESTROYS.contains(&option) { Some("destroy") } else { CHANGES.contains(&option).then_some("change") }
        }
        ("hdfs", "dfsadmin") => {
            let reads =
                matches!(option, "-report" | "-printTopology" | "-listOpenFiles" | "-getDatanodeInfo" | "-help")
                    || (option == "-safemode" && matches!(rest.get(1).copied(), Some("get" | "wait")))
                    || option.is_empty();
            (!reads).then_some("change")
        }
        ("hdfs", "balancer") => (!rest.contains(&"-help")).then_some("change"),
        ("hdfs", "namenode") => rest.contains(&"-format").then_some("destroy"),
        ("hdfs", "fsck") => rest.iter().any(|a| matches!(*a, "-delete" | "-move")).then_some("destroy"),
        ("hdfs", "haadmin") => {
            matches!(option, "-transitionToActive" | "-transitionToStandby" | "-failover").then_some("change")
        }
        _ => None,
    }
}

/// Whether a call writes a tape, over what it held from where it is (rule 7, as `dd` onto a disk):
/// `tar` creating an archive on a tape drive (`tar -cvf /dev/nst0 /srv/finance`), `mbuffer`'s
/// output to one (`-o /dev/nst0`), or LTFS's `mkltfs`, which formats a cartridge. Reading one back
/// (`tar -tvf /dev/nst0`, `dd if=/dev/nst0`) does not.
fn writes_tape(call: &Call) -> bool {
    let tape = |a: &str| {
        let name = a.strip_prefix("/dev/").unwrap_or("");
        let drive =
            |prefix: &str| name.strip_prefix(prefix).is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit()));
        name.starts_with("tape") || ["st", "nst", "sa", "nsa"].iter().any(|p| drive(p))
    };
    let args = &call.args;
    let after = |options: &[&str]| {
        args.iter().enumerate().any(|(i, a)| {
            options.iter().any(|o| a.strip_prefix(o).and_then(|v| v.strip_prefix('=')).is_some_and(tape))
                || (options.contains(&a.as_str()) && args.get(i + 1).is_some_and(|v| tape(v)))
        })
    };
    match base(&call.program.to_ascii_lowercase()) {
        "tar" | "gtar" | "bsdtar" => {
            // `-c` in a cluster of switches, `--create`, or an old-style first word (`tar cvf`).
            let old_style = args.first().is_some_and(|a| a.contains('c') && a.chars().all(|c| c.is_ascii_alphabetic()));
            let creates = old_style || args.iter().any(|a| a == "--create" || super::shell::clusters_switch(a, 'c'));
            let file = args.iter().enumerate().any(|(i, a)| {
                let cluster = a.starts_with('-') && !a.starts_with("--") || i == 0;
                (cluster && a.ends_with('f') && args.get(i + 1).is_some_and(|v| tape(v)))
                    || a.strip_prefix("--file=").is_some_and(tape)
            });
            creates && (file || after(&["--file"]))
        }
        "mbuffer" => after(&["-o"]),
        "mkltfs" => {
            !args.is_empty() && !args.iter().any(|a| matches!(a.as_str(), "-h" | "--help" | "-V" | "--version"))
        }
        _ => false,
    }
}

/// A fact's features as [`of`] writes each of a call's facts: `R=FACT`, and with `|remote` and
/// `|sudo` when the call runs on another machine or as another user.
fn fact_features(call: &Call, fact: &str) -> Vec<String> {
    let mut out = vec![format!("R={fact}")];
    if call.remote {
        out.push(format!("R={fact}|remote"));
    }
    if call.elevated {
        out.push(format!("R={fact}|sudo"));
    }
    out
}

/// The words of a playbook's name that say it reads or renders ([`playbook_changes_hosts`]).
const PLAYBOOK_READS: [&str; 21] = [
    "backup",
    "backups",
    "collect",
    "facts",
    "gather",
    "render",
    "report",
    "audit",
    "inventory",
    "ffdc",
    "show",
    "status",
    "check",
    "verify",
    "validate",
    "list",
    "dump",
    "export",
    "fetch",
    "ping",
    "health",
];

/// The words that, last in a GET's address, name an action the server takes ([`url_action`]):
/// the verbs that destroy, and those that stop, restart or reset what serves (not `install` or
/// `deploy`, which name the script a GET fetches: `https://bun.sh/install`).
const URL_ACTIONS: [(&str, &[&str]); 2] = [
    (
        "destroy",
        &["delete", "remove", "purge", "erase", "drop", "wipe", "truncate", "destroy", "revoke", "clear", "flush"],
    ),
    ("change", &["reset", "reboot", "restart", "shutdown", "poweroff", "halt", "stop", "failover", "disable"]),
];

/// The kind of action a GET with no body asks of the server by its address's last part
/// (`https://app/admin/cache/purge?scope=all`, `/snapshot/delete_all`, `/ingester/shutdown`):
/// its first word one of [`URL_ACTIONS`]'s, and no word that reads (`.../purge_history_status`).
/// Not a directory (`.../drop-requests/`), a file (`.../reset.sh`) or a pattern of names
/// (`_cat/indices/*-to-delete-*`), whose GET fetches or lists it, nor a name whose action word
/// comes later (an index policy's `logs-30d-hot-warm-delete`).
fn url_action(call: &Call, features: &[String]) -> Option<&'static str> {
    let program = call.program.to_ascii_lowercase();
    if !matches!(base(&program), "curl" | "wget" | "http" | "https" | "xh")
        || !features.iter().any(|f| f == "R=download")
    {
        return None;
    }
    call.args.iter().find_map(|a| {
        let rest = a.strip_prefix("https://").or_else(|| a.strip_prefix("http://"))?;
        if let Some(kind) = query_action(rest) {
            return Some(kind);
        }
        let path = rest.split(['?', '#']).next()?;
        let (_, last) = path.rsplit_once('/')?;
        if last.is_empty() || !last.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            return None;
        }
        let words = camel_words(last);
        if words.iter().any(|w| joined_kind(w, false) == Some("read")) {
            return None;
        }
        let first = words.first()?;
        URL_ACTIONS.iter().find(|(_, verbs)| verbs.contains(&first.as_str())).map(|(kind, _)| *kind)
    })
}

/// The kind of action a URL's query names by its `action=` (`/gf/partition.xml?action=delete`,
/// `/solr/admin/collections?action=DELETEREPLICA`, `/axis-cgi/pwdgrp.cgi?action=remove`): a verb
/// of [`URL_ACTIONS`] or one that updates, reloads, restores or sets, whole or, for a long one,
/// the start of one word (Solr's `DELETEALIAS`); none for one that reads (`action=CLUSTERSTATUS`,
/// `action=LIST`, `action=query`, `action=show`). Of the sets by others' commands with an
/// `action=` in an address, 57 are level 3 and 28 of those were let through; below level 3 they
/// read, are mentions, or create a test collection on this machine (`action=CREATE`, left).
fn query_action(address: &str) -> Option<&'static str> {
    const CHANGES: [&str; 9] = ["update", "reload", "restore", "replace", "kill", "set", "del", "move", "upgrade"];
    let (_, query) = address.split_once('?')?;
    let value = query.split('&').find_map(|pair| pair.strip_prefix("action="))?;
    let words = camel_words(value);
    if words.iter().any(|w| joined_kind(w, false) == Some("read")) {
        return None;
    }
    let first = words.first()?;
    let names = |verb: &&str| first == verb || (verb.len() >= 5 && first.starts_with(verb));
    URL_ACTIONS
        .iter()
        .find(|(_, verbs)| verbs.iter().any(names))
        .map(|(kind, _)| *kind)
        .or_else(|| CHANGES.iter().any(names).then_some("change"))
}

/// What an SNMP tool does to the agent it names: `snmpset` sets its values (`IF-MIB::ifAdminStatus.12
/// i 2` shuts a port), `snmptrap` and `snmpinform` send it a notification; none on a call for help.
/// Of the sets by others' 38 level 3 `snmpset` calls, 34 were let through (1.7 to 2.3); every
/// `snmpset` below level 3 there is a mention or a call for help.
fn snmp_acts(call: &Call, features: &[String]) -> Option<&'static str> {
    let kind = match base(&call.program.to_ascii_lowercase()) {
        "snmpset" => "change",
        "snmptrap" | "snmpinform" => "publish",
        _ => return None,
    };
    (!previews(call, features) && !call.args.is_empty()).then_some(kind)
}

/// A verb's facts and a change that reaches another machine (the rubric's level 3: it sends,
/// publishes, deploys or acts on a server), as rule 4's is: the publish verb's for a script or a
/// task runner's target named for sending ([`script_sends`], [`runner_sends`]), and the verb of a
/// GET that acts ([`url_action`]).
fn reaching_facts(call: &Call, kind: &str) -> Vec<String> {
    let mut f = verb_facts(call, kind);
    if !f.iter().any(|x| x == "R=remote_change") {
        f.push("R=remote_change".into());
    }
    f
}

/// The targets a task runner is told to run, whose code the command does not show (rule 11):
/// `make`'s (options, their values and assignments aside), a package manager's script (`npm run
/// deploy:docs`, `yarn release`), `just`'s, `rake`'s, go-task's and mage's, and Gradle's and
/// Maven's tasks and phases.
fn runner_targets<'a>(call: &'a Call, tool: &str) -> Vec<&'a str> {
    let args = &call.args;
    let valued = |i: usize, options: &[&str]| i > 0 && options.contains(&args[i - 1].as_str());
    let plain = |i: usize, a: &String, options: &[&str]| {
        !a.starts_with('-') && !a.contains('=') && !a.contains('/') && !valued(i, options)
    };
    match tool {
        "make" | "gmake" | "just" | "task" | "mage" | "rake" => {
            const VALUED: [&str; 8] = ["-C", "-f", "--file", "--directory", "-I", "-j", "--justfile", "--taskfile"];
            args.iter().enumerate().filter(|(i, a)| plain(*i, a, &VALUED)).map(|(_, a)| a.as_str()).collect()
        }
        "npm" | "pnpm" | "yarn" | "bun" => {
            const VALUED: [&str; 6] = ["--prefix", "-C", "--dir", "-w", "--workspace", "--filter"];
            let words: Vec<&str> =
                args.iter().enumerate().filter(|(i, a)| plain(*i, a, &VALUED)).map(|(_, a)| a.as_str()).collect();
            match words.first() {
                Some(&"run" | &"run-script") => words.get(1).copied().into_iter().collect(),
                // Yarn's, pnpm's and Bun's scripts run by name too (`yarn release`).
                Some(first) if tool != "npm" => vec![*first],
                _ => Vec::new(),
            }
        }
        "gradle" | "gradlew" | "mvn" | "mvnw" => {
            // Not an option's value (`--configuration releaseRuntimeClasspath`, `-x publish`).
            const VALUED: [&str; 20] = [
                "--configuration",
                "-x",
                "--exclude-task",
                "--tests",
                "-p",
                "--project-dir",
                "-b",
                "--build-file",
                "-c",
                "--settings-file",
                "-I",
                "--init-script",
                "--console",
                "--max-workers",
                "-pl",
                "--projects",
                "-f",
                "--file",
                "-s",
                "--settings",
            ];
            args.iter().enumerate().filter(|(i, a)| plain(*i, a, &VALUED)).map(|(_, a)| a.as_str()).collect()
        }
        // Babashka's tasks (`bb release`, `bb run deploy`), and the namespace or function it is
        // told to run (`bb -m acme.clojars.deploy`, `-x acme.tasks/publish`).
        "bb" => {
            const VALUED: [&str; 8] = ["-e", "--eval", "-f", "--file", "-cp", "--classpath", "--config", "--deps-root"];
            if let Some(at) = args.iter().position(|a| matches!(a.as_str(), "-m" | "--main" | "-x" | "--exec")) {
                return args.get(at + 1).map(|a| vec![a.as_str()]).unwrap_or_default();
            }
            let words: Vec<&str> =
                args.iter().enumerate().filter(|(i, a)| plain(*i, a, &VALUED)).map(|(_, a)| a.as_str()).collect();
            match words.first() {
                Some(&"run") => words.get(1).copied().into_iter().collect(),
                Some(first) if !first.contains('.') => vec![*first],
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    }
}

/// Whether a call runs a task runner's target named for sending ([`SCRIPT_SENDS`]: `make deploy`,
/// `npm run deploy:prod`, `make docker-push`, `./gradlew publish`) and for nothing that spares it
/// ([`SCRIPT_SPARES`]: `make release-notes`, `npm run deploy:local`), with no dry run or call for
/// help (`make -n deploy`). Gradle's and Maven's tasks by their first word only: a build variant's
/// name comes last (`bundleRelease` builds).
fn runner_sends(call: &Call, features: &[String]) -> bool {
    let program = call.program.to_ascii_lowercase();
    let tool = base(&program);
    let java = matches!(tool, "gradle" | "gradlew" | "mvn" | "mvnw");
    let sends = |target: &&str| {
        let task = target.rsplit(':').next().unwrap_or(target);
        let words = if java { camel_words(task).into_iter().take(1).collect() } else { camel_words(target) };
        words.iter().any(|w| SCRIPT_SENDS.contains(&w.as_str()))
            && !camel_words(target).iter().any(|w| SCRIPT_SPARES.contains(&w.as_str()))
    };
    runner_targets(call, tool).iter().any(sends) && !previews(call, features)
}

/// Whether a call only previews or asks for help: a dry run's or help's fact, or a call for help
/// (`make -n deploy`, `./deploy.sh --help`).
fn previews(call: &Call, features: &[String]) -> bool {
    features.iter().any(|f| matches!(f.as_str(), "R=dry_run" | "R=help")) || asks_for_help(call)
}

/// The lowercase words of a name, split at punctuation and where a lower-case letter meets an
/// upper-case one (`deploy:docs`, `docker-push`, `publishToMavenLocal`).
fn camel_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut before = ' ';
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() || (c.is_ascii_uppercase() && before.is_ascii_lowercase()) {
            words.extend((!word.is_empty()).then(|| std::mem::take(&mut word)));
        }
        if c.is_ascii_alphanumeric() {
            word.push(c.to_ascii_lowercase());
        }
        before = c;
    }
    words.extend((!word.is_empty()).then_some(word));
    words
}

/// What the statements NVIDIA Onyx's `cli -h` is given on another machine do, each a word after
/// `-h` (`cli -h "enable" "show interfaces status"`): they read when each is a `show`, or moves
/// between modes (`enable`, `configure terminal`, `exit`, `end`) or sets the terminal; any other
/// statement changes the switch (`interface ethernet 1/17 shutdown`, `no vlan 310`, `reload`).
fn device_statements(call: &Call) -> Option<&'static str> {
    let at = call.args.iter().position(|a| a == "-h")?;
    if !call.remote || base(&call.program.to_ascii_lowercase()) != "cli" || at + 1 >= call.args.len() {
        return None;
    }
    let reads = |statement: &String| {
        let words: Vec<String> = statement.split_whitespace().map(str::to_ascii_lowercase).collect();
        let first = words.first().map_or("", String::as_str);
        matches!(first, "show" | "enable" | "exit" | "end" | "terminal")
            || (first == "configure" && words.get(1).is_some_and(|w| w == "terminal") && words.len() == 2)
    };
    Some(if call.args[at + 1..].iter().all(reads) { "read" } else { "change" })
}

/// Whether a call picks its objects by `select NAME` and what follows the last one is an action
/// that reads, with no verb that changes (`shares select prod-db snapshots list`, `... select fs1
/// get space_used quota`, `maintenance logs select alert list -n 50`).
fn selects_then_reads(call: &Call) -> bool {
    let words: Vec<String> = call.args.iter().map(|a| a.to_ascii_lowercase()).collect();
    let Some(last) = words.iter().rposition(|w| w == "select") else {
        return false;
    };
    let kinds: Vec<&str> = words
        .iter()
        .skip(last + 2)
        .filter(|w| !w.starts_with('-') && is_word(w))
        .filter_map(|w| verb_kind(w))
        .collect();
    kinds.first() == Some(&"read") && kinds.iter().all(|k| *k == "read")
}

/// The words a script's name sends by: a deploy, a release, a push of what it built (rule 5), and
/// a flash of firmware onto a board or a device (`make flash BOARD=...`, `./scripts/flash_all.sh`):
/// it changes another machine (rule 4); of 28 such commands in the sets by others, all are level 3.
const SCRIPT_SENDS: [&str; 11] =
    ["deploy", "redeploy", "publish", "release", "promote", "rollout", "push", "upload", "ship", "flash", "reflash"];

/// The words that make a sending script's name one that checks, prepares, builds or runs here
/// (`check_release.sh`, `package_release.sh`, `poll_deploy_status.sh`, `deploy-local.sh`).
const SCRIPT_SPARES: [&str; 46] = [
    "check",
    "status",
    "poll",
    "verify",
    "validate",
    "test",
    "tests",
    "lint",
    "preview",
    "plan",
    "diff",
    "dry",
    "dryrun",
    "list",
    "show",
    "report",
    "health",
    "watch",
    "wait",
    "notes",
    "changelog",
    "draft",
    "prepare",
    "package",
    "build",
    "bump",
    "tag",
    "smoke",
    "get",
    "print",
    "render",
    "gen",
    "generate",
    "local",
    "dev",
    "docs",
    "doc",
    "monitor",
    "tail",
    "logs",
    "log",
    "stats",
    "version",
    "info",
    "zip",
    "archive",
];

/// The words of a script's name that say it only looks (`check_raid.sh`, `collect-diagnostics.sh`,
/// `ptf_prereq_check.sh`, `health.py`).
const SCRIPT_LOOKS: [&str; 14] = [
    "check",
    "checks",
    "precheck",
    "prereq",
    "status",
    "health",
    "healthcheck",
    "verify",
    "diag",
    "diagnostics",
    "collect",
    "show",
    "list",
    "inventory",
];

/// The words of a script's name or arguments that act, besides the verbs ([`verb_kind`]): a
/// looking script's name with one of them does something more (`backfill-invoice-status.js`).
const SCRIPT_ACTS: [&str; 20] = [
    "fix", "repair", "force", "yes", "commit", "mail", "backfill", "sync", "migrate", "clean", "cleanup", "refresh",
    "rebuild", "reindex", "seed", "load", "fill", "heal", "recover", "restore",
];

/// Whether a call runs on another machine a script whose name says it only looks
/// ([`SCRIPT_LOOKS`]), with no word of its name or its arguments that acts (a verb that changes,
/// destroys or sends: `check_tms_health.py --auto-restart`, `--notify`; or `fix`, `repair`):
/// rule 11 labels a script by the least its name says, and a check's least is a read, which on
/// another machine is still 0 (rule 4). Training reads a script by its name's words alone, so the
/// weights are the same.
fn script_looks(call: &Call, features: &[String]) -> bool {
    let names: Vec<&str> = features.iter().filter_map(|f| f.strip_prefix("n=")).collect();
    let acts = |w: &str| verb_kind(w).is_some_and(|k| k != "read") || SCRIPT_ACTS.contains(&w);
    let arg_words =
        call.args.iter().flat_map(|a| a.split(|c: char| !c.is_ascii_alphanumeric())).map(str::to_ascii_lowercase);
    call.remote
        && features.iter().any(|f| f == "x=script")
        && names.iter().any(|w| SCRIPT_LOOKS.contains(w))
        && !names.iter().any(|w| acts(w))
        && !arg_words.into_iter().any(|w| acts(&w))
}

/// The words that, just after a verb that deploys, upgrades or installs in a command's tree (or one
/// word after it), ask only what it would do (`sf project deploy preview`, `isi upgrade cluster
/// assess`, `deploy validate`). Not after a verb that adds or removes, where `preview` names
/// an environment (`vercel env rm KEY preview`).
const TREE_PREVIEWS: [&str; 8] =
    ["preview", "assess", "precheck", "prechecks", "what-if", "whatif", "simulate", "validate"];

/// Whether a call's command tree (its first words, up to its first option) has a verb that
/// deploys, upgrades or installs and, one or two words after it, a word that asks only what it
/// would do ([`TREE_PREVIEWS`]): the dry run of that verb. Of the sets by others' such calls,
/// every one is level 0 or 1.
fn tree_previews(call: &Call) -> bool {
    let words: Vec<String> =
        call.args.iter().take(6).take_while(|a| !a.starts_with('-')).map(|a| a.to_ascii_lowercase()).collect();
    words
        .iter()
        .position(|w| {
            matches!(w.as_str(), "deploy" | "upgrade" | "install" | "update" | "apply" | "migrate" | "release")
        })
        .is_some_and(|v| words.iter().skip(v + 1).take(2).any(|w| TREE_PREVIEWS.contains(&w.as_str())))
}

/// Whether a call runs a script whose name says it sends (`./scripts/deploy.sh production`,
/// `bash release-crate.sh 1.4.0`, `python3 tools/push_config.py`) and nothing that spares it
/// ([`SCRIPT_SPARES`]), with no call for help or dry run: rule 11 labels a script by the least
/// its name says, and a deploy's least is 3. Training reads a script by its name's words alone,
/// and never with this (it reads every call with [`of`]), so the weights are the same.
fn script_sends(call: &Call, features: &[String]) -> bool {
    let names: Vec<&str> = features.iter().filter_map(|f| f.strip_prefix("n=")).collect();
    features.iter().any(|f| f == "x=script")
        && names.iter().any(|w| SCRIPT_SENDS.contains(w))
        && !names.iter().any(|w| SCRIPT_SPARES.contains(w))
        && !previews(call, features)
}

/// Whether the first verb of the rules' lists ([`verb_kind`]) among a call's program name and its
/// first words (options aside) changes or destroys, and a read word comes after it
/// (`install version 11.1.2`).
fn read_after_verb(call: &Call) -> bool {
    let program = call.program.to_ascii_lowercase();
    let kinds: Vec<&str> = std::iter::once(base(&program).to_string())
        .chain(call.args.iter().take(8).map(|a| a.to_ascii_lowercase()))
        .filter(|w| !w.starts_with('-') && is_word(w))
        .filter_map(|w| verb_kind(&w))
        .collect();
    kinds.first().is_some_and(|k| *k != "read") && kinds.contains(&"read")
}

/// What lives on a server, an array or a cluster rather than on this machine: the objects an
/// administrator's command language changes (`clmgr delete cluster`, `svctask rmvdisk`,
/// `tabcmd deletesite`, `uemcli /stor/prov/luns/lun -id sv_1 delete`).
const SHARED_OBJECTS: [&str; 27] = [
    "cluster",
    "lun",
    // Nimble OS's volumes (`vol --create`, `vol --offline`).
    "vol",
    "vdisk",
    "mdisk",
    "pool",
    "aggregate",
    "aggr",
    "vserver",
    "svm",
    "qtree",
    "array",
    "datastore",
    "tenant",
    "site",
    "replica",
    "replicat",
    "lpar",
    "volume",
    "fileset",
    "filesystem",
    "hostgroup",
    "igroup",
    "initiator",
    "license",
    "tablespace",
    "resource_group",
];

/// The kind of verb a word starts with when what follows it is a shared object
/// ([`SHARED_OBJECTS`]): a two-letter verb counts here, at the start of a name (`rmvdisk`,
/// `mkvdiskhostmap`), as it does not alone (`rmadison`).
fn shared_after_verb(word: &str) -> Option<&'static str> {
    joined(word, true).filter(|(_, rest)| SHARED_OBJECTS.iter().any(|o| rest.starts_with(o))).map(|(kind, _)| kind)
}

/// Whether a call names an object that lives on a server, an array or a cluster
/// ([`SHARED_OBJECTS`]), as a word (`delete cluster`, `NODES=n2`, `-volume v1`) or joined to its
/// verb (`rmvdisk`, `deletesite`): what one that [`changes_unseen`] changes there is rule 4's
/// change made through a client, as `R=served_change` is for the clients the model knows serve one.
fn names_shared_object(call: &Call) -> bool {
    let shared = |w: &str| {
        let w = w.trim_start_matches('-').to_ascii_lowercase();
        let one = w.strip_suffix('s').filter(|o| o.len() >= 3).unwrap_or(&w);
        SHARED_OBJECTS.contains(&one) || shared_after_verb(&w).is_some()
    };
    let program = call.program.to_ascii_lowercase();
    std::iter::once(base(&program).rsplit(':').next().unwrap_or(""))
        .chain(call.args.iter().take(8).map(|a| a.split('=').next().unwrap_or("")))
        .filter(|w| is_word(w.trim_start_matches('-')))
        .any(shared)
}

/// Whether a call of a program no labelled row names changes or destroys by its verb, and
/// nothing says it only reads: not a script, a call on another machine (rule 4 has it already),
/// a call for help or a dry run ([`asks_for_help`]), one that asks after an object (`gluster
/// volume remove-brick gv0 ... status`), nor one aimed at this machine (`bench --site
/// app.localhost set-config`).
fn changes_unseen(call: &Call, features: &[String]) -> bool {
    let has = |facts: &[&str]| facts.iter().any(|x| features.iter().any(|f| f.strip_prefix("R=") == Some(x)));
    let told = features.iter().any(|f| matches!(f.as_str(), "x=script" | "remote"));
    let acts = has(&["destroy_verb", "change_verb", "restore_verb", "destroy_option"]);
    let reads =
        has(&["read_verb", "db_read", "print", "help", "dry_run", "download", "served_change", "elsewhere_change"]);
    let asks =
        |a: &String| READ.contains(&a.as_str()) || ["localhost", "127.0.0.1", "[::1]"].iter().any(|h| a.contains(h));
    acts && !reads && !told && !asks_for_help(call) && !call.args.iter().any(asks)
}

/// Whether a call asks for help, a dry run (`-n` is many a tool's: `amrmtape -n`) or a
/// comparison (a router's `show configuration | compare rollback 1`). `-h` before a machine's
/// name is a host (`naviseccli -h vnx-spa.corp.local`); `-n` to a console fed its statements is
/// no dry run of them (`printf "disable 't'\ndrop 't'\n" | hbase shell -n`: not interactive).
fn asks_for_help(call: &Call) -> bool {
    let args = &call.args;
    let fed = call.printed.is_some() || call.stdin_text.is_some();
    args.iter().enumerate().any(|(i, a)| match a.as_str() {
        "-h" => !args.get(i + 1).is_some_and(|v| is_domain(v)),
        "-n" => !fed,
        "--help" | "help" | "-?" | "/?" | "compare" => true,
        _ => a.contains("dry"),
    })
}

/// Whether a call of a program no labelled row names is aimed at another machine: by an address
/// [`aims_elsewhere`] knows, or by a machine's full name after a short or host-like option
/// (`naviseccli -h vnx-spa.corp.local`, `uemcli -d unity01.mgmt.corp.local`), not a file's.
fn names_another_machine(call: &Call) -> bool {
    const OPTIONS: [&str; 12] =
        ["host", "hostname", "server", "array", "system", "target", "address", "addr", "endpoint", "url", "mgmt", "sp"];
    const FILES: [&str; 24] = [
        "json", "yaml", "yml", "xml", "txt", "csv", "log", "conf", "cfg", "ini", "sh", "py", "sql", "gz", "tgz", "bin",
        "zip", "tar", "iso", "rpm", "deb", "pem", "key", "crt",
    ];
    let machine = |v: &str| {
        is_domain(v)
            && v.split('.').count() >= 3
            && !this_machine(v)
            && v.rsplit('.').next().is_some_and(|end| !FILES.contains(&end.to_ascii_lowercase().as_str()))
    };
    aims_elsewhere(&call.args)
        || call.args.windows(2).any(|pair| {
            let option = pair[0].trim_start_matches('-');
            pair[0].starts_with('-') && (option.len() == 1 || OPTIONS.contains(&option)) && machine(&pair[1])
        })
        // An option for the machine at the other end (DS8000's `-remotedev IBM.2107-75GHJ72`,
        // `--remote-host dr01`), given one.
        || call.args.windows(2).any(|pair| {
            pair[0].starts_with('-')
                && pair[0].to_ascii_lowercase().contains("remote")
                && !pair[0].contains('=')
                && !pair[1].starts_with('-')
                && !pair[1].is_empty()
        })
}

/// The verbs an unfamiliar command language joins to its objects, as the rules' verb facts name
/// them. The two-letter ones are the Unix tradition's (`rm`, `mk`, `ch`, `ls`) that storage and
/// cluster CLIs follow (`rmvdisk`, `mkhost`, `chvdisk`, `lsvdisk`). Not `mod`, `new` or `set`
/// (`models`, `news` and `settings` read), nor `format`, `start`, `release` or `submit`, which a
/// formatter, a dev server, a build and a scheduler use for what changes nothing elsewhere.
const JOINED: [(&str, &[&str]); 3] = [
    (
        "destroy",
        &[
            "decommission",
            "obliterate",
            "eradicate",
            "undeploy",
            "terminate",
            "uninstall",
            "truncate",
            "destroy",
            "delete",
            "remove",
            "revoke",
            "purge",
            "erase",
            "drop",
            "wipe",
            "del",
            "rm",
        ],
    ),
    (
        "read",
        &[
            "describe", "display", "status", "lookup", "report", "search", "verify", "query", "check", "print", "show",
            "list", "view", "info", "find", "stat", "get", "ls",
        ],
    ),
    (
        "change",
        &[
            "deactivate",
            "unconfigure",
            "unregister",
            "commit",
            "quiesce",
            "evacuate",
            "upgrade",
            "install",
            "deploy",
            "grant",
            "rollback",
            "restore",
            "poweroff",
            "offline",
            "online",
            "activate",
            "register",
            "shutdown",
            "restart",
            "failover",
            "promote",
            "unmount",
            "replace",
            "create",
            "modify",
            "update",
            "enable",
            "disable",
            "attach",
            "detach",
            "expand",
            "extend",
            "resize",
            "rename",
            "reboot",
            "cancel",
            "umount",
            "mount",
            "reset",
            "shrink",
            "fence",
            "halt",
            "move",
            "stop",
            "grow",
            "add",
            "mk",
            "ch",
        ],
    ),
];

/// The kind of verb a word of an unfamiliar command language starts with, joined to at least two
/// more letters (three after a two-letter verb: `rmvdisk`, `lsqueue`, `removeuser`; not `ls`,
/// `chat` or `adder`), or is (`display`, `restart`, `cancel`). `two` allows the two-letter verbs:
/// a program's name made of one is often no verb (`rmadison`).
fn joined_kind(word: &str, two: bool) -> Option<&'static str> {
    joined(word, two).map(|(kind, _)| kind)
}

/// [`joined_kind`], with what follows the verb (`vdiskhostmap` of `rmvdiskhostmap`).
fn joined(word: &str, two: bool) -> Option<(&'static str, &str)> {
    if !word.chars().all(|c| c.is_ascii_lowercase()) {
        return None;
    }
    // Words that only start like a short verb: `delay`, `delta`, `delegate`, `deliver`, `chart`,
    // `chain`, `check`, `chrome`, `address`, `addon`.
    let word_not_verb = |v: &str, rest: &str| match v {
        "del" => rest.starts_with(['a', 'e', 'i', 't']),
        "ch" => rest.starts_with(['a', 'e', 'i', 'o', 'r']),
        "add" => rest.starts_with(['r', 'o', 'e']),
        _ => false,
    };
    JOINED.iter().find_map(|(kind, verbs)| {
        verbs.iter().filter(|v| two || v.len() > 2).find_map(|v| {
            word.strip_prefix(v)
                .filter(|rest| {
                    (rest.is_empty() && v.len() > 3 || rest.len() >= 2.max(5usize.saturating_sub(v.len())))
                        && !word_not_verb(v, rest)
                })
                .map(|rest| (*kind, rest))
        })
    })
}

/// The verb facts of a call of an unfamiliar program whose features give it none: the kind of
/// verb its name starts with or is (`removeuser`, `ps:restart`), or its first word's (`svctask
/// rmvdisk`, `qadm lsqueue`, `execute reboot`), or a first option's (`hagrp -delete`), as `facts` gives a
/// verb of its lists: the fact, its pairings with another machine and `sudo`, and on another
/// machine a change. Not for a script, which is judged by its name, nor a call for help.
fn joined_verb_facts(call: &Call, features: &[String]) -> Vec<String> {
    let known = features.iter().any(|f| {
        f.starts_with("v=")
            || f == "x=script"
            || f.starts_with("R=")
                && (f.ends_with("_verb") || f.starts_with("R=db_") || matches!(f.as_str(), "R=help" | "R=dry_run"))
    });
    let program = call.program.to_ascii_lowercase();
    let name = base(&program);
    // A name written in mixed case is no administrator's command (`isDeleted` in a PowerShell
    // filter, a word in backquotes); one in capitals may be (OpenVMS's `@SYS$SYSTEM:SHUTDOWN`).
    let shown = base(&call.program);
    let capitals = shown.chars().any(|c| c.is_ascii_uppercase()) && shown.chars().any(|c| c.is_ascii_lowercase());
    if asks_for_help(call) {
        return Vec::new();
    }
    // A script's own content is unseen, but not the commands an option gives it, which it runs
    // as they are written (`/opt/eap/bin/jboss-cli.sh -c --command="undeploy app.war"`).
    // Not an interpreter's code (`python3 -c "print('... rm ...')"`), which is read as code.
    let script = features.iter().any(|f| f == "x=script") && call.program.contains('/');
    if script && !features.iter().any(|f| f.starts_with("R=") && f.ends_with("_verb")) {
        return fed_verb(call).map(|kind| verb_facts(call, kind)).unwrap_or_default();
    }
    if known || capitals || matches!(name, "help" | "man" | "info" | "compare") {
        return Vec::new();
    }
    let first = call.args.first().map(String::as_str);
    // A name's verb may follow a colon (Dokku's `ps:restart`, `letsencrypt:enable` over ssh), or
    // a product's prefix of two or three letters (Storage Scale's `mmdelfs`, `mmchconfig`,
    // `mmlsnsd`), where `cr` is create (`mmcrfs`): at least five letters after it.
    let prefixed = |n: &str| {
        // A two-letter verb only after a two-letter prefix: `fourmolu` and `charmcraft` are no
        // `rm`s.
        [2, 3].into_iter().filter_map(|at| Some((at, n.get(at..)?))).filter(|(_, rest)| rest.len() >= 5).find_map(
            |(at, rest)| {
                joined_kind(rest, at == 2)
                    .or_else(|| rest.strip_prefix("cr").filter(|noun| noun.len() >= 3).map(|_| "change"))
            },
        )
    };
    let fed = || fed_verb(call);
    let kind = name
        .rsplit(':')
        .next()
        .and_then(|n| {
            joined_kind(n, false)
                .or_else(|| n.chars().all(|c| c.is_ascii_lowercase()).then(|| prefixed(n)).flatten())
                .or_else(|| shared_after_verb(n))
                // A verb joined to its object by `-` or `_` (UCS Manager's `commit-buffer`).
                .or_else(|| n.split_once(['-', '_']).and_then(|(v, _)| joined_kind(v, false)))
                // An appliance's `del` alone, on another machine (NSX's `del ntp-server 10.0.0.5`).
                .or_else(|| (call.remote && n == "del").then_some("destroy"))
        })
        // A start on another machine or of what a cluster or an array holds (`ssh mgr 'start
        // service manager'`, `clmgr start cluster`, Check Point's `cpstart`, a router's `startup
        // saved-configuration FILE`); here, a start is a dev server's, and changes nothing that
        // lasts (`swa start http://localhost:5000`).
        .or_else(|| {
            let start = |w: &str| w.starts_with("start") || w.strip_suffix("start").is_some_and(|p| p.len() == 2);
            // The words first: most calls start nothing, and the object's test reads every word.
            ((start(name) || first.is_some_and(start)) && (call.remote || names_shared_object(call)))
                .then_some("change")
        })
        .or_else(|| first.filter(|a| is_word(a)).and_then(|a| joined_kind(a, true)))
        // A verb after its object's `/`, and after a `.` (ESXi's `vim-cmd vmsvc/destroy 12`,
        // `vmsvc/snapshot.removeall`, `vmsvc/power.reboot`); not a file's path.
        .or_else(|| first.and_then(slashed_verb))
        // A first word joined to its object by `_` or `-` (Enterprise Manager's `emcli
        // delete_target`, `stop_blackout`).
        .or_else(|| {
            first.filter(|a| is_word(a)).and_then(|a| a.split_once(['_', '-'])).and_then(|(v, _)| joined_kind(v, false))
        })
        // A first option that is a verb, with one dash or two, alone or joined to its object
        // (`hagrp -delete`, Nimble OS's `vol --offline`, `initiatorgrp --remove_initiators`).
        .or_else(|| {
            first.filter(|a| a.starts_with('-')).map(|a| a.trim_start_matches('-')).filter(|o| o.len() >= 4).and_then(
                |o| joined_kind(o, false).or_else(|| o.split_once(['_', '-']).and_then(|(v, _)| joined_kind(v, false))),
            )
        })
        // Past the options a call opens with, the first word that is a verb (IBM DS8000's `dscli
        // -hmc1 10.40.12.21 -user admin -pwfile FILE rmpprcpath ...`): not a word right after an
        // option, its value (`admin`; `pdbedit -L -v -u mkowalski`).
        .or_else(|| {
            first.filter(|a| a.starts_with('-'))?;
            let args = &call.args[..call.args.len().min(8)];
            let valued = |i: usize| i > 0 && args[i - 1].starts_with('-') && !args[i - 1].contains('=');
            (0..args.len())
                .filter(|&i| !args[i].starts_with('-') && is_word(&args[i]) && !valued(i))
                .find_map(|i| joined_kind(&args[i], true))
        })
        // Any option that destroys, where a language's verbs are its options (`naviseccli -h
        // spa lun -destroy -l 118`, `storagegroup -removehlu`, `--delete-orphan-hosts`); not
        // one given a value, a setting (`kitchen test --destroy=passing`).
        .or_else(|| {
            call.args
                .iter()
                .filter(|a| !a.contains('='))
                .filter_map(|a| a.strip_prefix('-'))
                .map(|o| o.trim_start_matches('-').split(['-', '_']).next().unwrap_or(""))
                .filter(|o| o.len() >= 4)
                .find_map(|o| joined_kind(o, false).filter(|k| *k == "destroy"))
        })
        .or_else(fed);
    kind.map(|kind| verb_facts(call, kind)).unwrap_or_default()
}

/// A command language fed its commands (`printf 'STOP REPLICAT R1\nDELETE REPLICAT R1\n' |
/// adminclient`), or given them by an option (`cmsh -c "device; remove node204; commit"`): the
/// most destructive verb of a statement ([`statement_verb`]).
fn fed_verb(call: &Call) -> Option<&'static str> {
    statements_verb(call, true)
}

/// [`fed_verb`], by the statements' first words alone when `second` is false.
fn statements_verb(call: &Call, second: bool) -> Option<&'static str> {
    let text: Vec<String> =
        call.printed.as_deref().map(in_lines).into_iter().chain(call.fed()).chain(given_commands(&call.args)).collect();
    let kinds: Vec<&str> =
        text.iter().flat_map(|t| t.split(['\n', ';'])).take(64).filter_map(|t| statement_verb(t, second)).collect();
    ["destroy", "change", "read"].into_iter().find(|k| kinds.contains(k))
}

/// Whether a call is a console given or fed its statements ([`fed_verb`]) whose own first
/// statement word changes or destroys: a client, whose statements run on its server
/// (`printf "drop 't'\n" | hbase shell -n`, `echo "purge volume=V1 yes" | bconsole`, `cmsh -c
/// "device; remove node204"`). A console is called with no word of its own but `shell`,
/// `console` or `cli` (not `sqlfluff lint -`, which reads what it is fed), and a verb second in a
/// statement is not enough (`echo 'fly deploy ...' | xclip`: text to paste).
fn console_changes(call: &Call) -> bool {
    let console = call.args.iter().find(|a| !a.starts_with('-')).is_none_or(|a| {
        matches!(a.as_str(), "shell" | "console" | "cli") || given_commands(&call.args).iter().any(|t| t == a)
    });
    console && statements_verb(call, false).is_some_and(|kind| kind != "read")
}

/// The facts of a verb of the kind `kind` ([`joined_verb_facts`]): the verb's fact, its pairings
/// with another machine and `sudo`, and on another machine a change.
fn verb_facts(call: &Call, kind: &str) -> Vec<String> {
    let fact = format!("R={kind}_verb");
    let mut out = vec![fact.clone()];
    if call.remote {
        out.push(format!("{fact}|remote"));
        if kind != "read" {
            out.push("R=remote_change".into());
        }
    }
    if call.elevated {
        out.push(format!("{fact}|sudo"));
    }
    out
}

/// The commands an option gives a console (`cmsh -c "device; use node088; shutdown"`,
/// `--command=...`, `-e`), where a shell's `-c` is a wrapper the parse has opened already.
/// Not an option's value that is another option (`jboss-cli.sh -c --controller=...`: `-c` there
/// connects).
fn given_commands(args: &[String]) -> Vec<String> {
    const OPTIONS: [&str; 6] = ["-c", "-e", "--command", "--commands", "--execute", "--cmd"];
    option_values(args, &OPTIONS).into_iter().filter(|text| !text.starts_with('-')).collect()
}

/// The kind of verb a statement of a fed or given text starts with, or has second after a word
/// that is none (`device; power reset -n node001`), or an operation after an address's last `:`
/// (`/profile=ha/subsystem=datasources/data-source=DS1:remove`, `/host=hc1:shutdown(restart=false)`,
/// `:restart-servers`), as a name's verb follows its colon (`ps:restart`).
fn statement_verb(statement: &str, second: bool) -> Option<&'static str> {
    let mut words = statement.split_whitespace().map(str::to_ascii_lowercase);
    let first = words.next()?;
    // A call for help reads (`help purge`, `undeploy --help`).
    if first == "help" || statement.split_whitespace().any(|w| w == "--help") {
        return Some("read");
    }
    let operation = first.rsplit_once(':').filter(|(address, _)| address.contains('=')).map(|(_, op)| {
        let op = op.split('(').next().unwrap_or(op);
        op.split('-').next().unwrap_or(op).to_string()
    });
    joined_kind(operation.as_deref().unwrap_or(&first), false)
        // A console's statements run on its server: a start there starts what it names
        // (GoldenGate's `START EXTRACT E1`).
        .or_else(|| (first == "start").then_some("change"))
        .or_else(|| joined_kind(&words.next()?, false).filter(|_| second))
}

/// What an administrator's console does to move between its modes (UCS Manager's `scope org /;
/// scope service-profile sp1`): nothing changes, whatever the mode is named for. Not `exit`,
/// which a shell's loop runs too, nor `enter`, which makes the object it enters when missing.
const NAVIGATES: [&str; 1] = ["scope"];

/// The kind of verb after an object's `/` (`vmsvc/destroy`), or after the last `.` that follows
/// it (`vmsvc/snapshot.removeall`): one slash, letters and `_` before it, letters, `_` and
/// `.` after, so no file's path (`scripts/deploy.sh`) nor a deeper one (`infra/k8s/delete`). A
/// project's directory named by a verb alone (`ops/delete`) would read as one; no set had one.
fn slashed_verb(word: &str) -> Option<&'static str> {
    let (object, verb) = word.split_once('/')?;
    let letters =
        |w: &str, also: &[char]| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || also.contains(&c));
    if !letters(object, &['_']) || !letters(verb, &['_', '.']) {
        return None;
    }
    joined_kind(verb.rsplit('.').next()?, false)
}

/// The buckets of the features that do not name the program: what the model has to go on for
/// a program it has never seen (training fits them on their own too).
pub fn generic_buckets(call: &Call) -> Vec<usize> {
    hashed(of(call).iter().filter(|f| !f.starts_with("t=")))
}

/// The buckets of a call's rule facts (`R=`), which training regularises less: the facts
/// themselves, not their pairings with `sudo` or another machine (`R=destroy_verb|sudo`), which
/// fewer rows speak for.
pub fn rule_buckets(call: &Call) -> Vec<usize> {
    hashed(of(call).iter().filter(|f| f.starts_with("R=") && !f.contains('|')))
}

fn hashed<'a>(features: impl Iterator<Item = &'a String>) -> Vec<usize> {
    let mut b: Vec<usize> = features.map(|f| bucket(f)).collect();
    b.sort_unstable();
    b.dedup();
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::shell::analyse;

    fn features(command: &str) -> Vec<String> {
        analyse(command).calls.iter().flat_map(of).collect()
    }

    #[test]
    fn a_call_is_seen_by_its_tool_subcommands_flags_and_paths() {
        let f = features("git push --force origin main");
        for want in ["t=git", "s=push", "t=git|s=push", "f=--force", "t=git|s=push|f=--force", "t=git|s=push|s2=origin"]
        {
            assert!(f.iter().any(|x| x == want), "{want} in {f:?}");
        }
        let f = features("rm -rf ~");
        assert!(f.contains(&"f=-r".into()) && f.contains(&"f=-f".into()) && f.contains(&"t=rm|p=home".into()), "{f:?}");
        let f = features("sudo rm -rf /etc/nginx");
        assert!(f.contains(&"sudo".into()) && f.contains(&"t=rm|p=system".into()), "{f:?}");
        // A capitalised name is no subcommand; a word in capitals can be one (redis's commands).
        let f = features("xcodebuild -showBuildSettings -scheme Acme -configuration Release");
        assert!(!f.iter().any(|x| x.contains("s=") || x.contains("release")), "{f:?}");
        assert!(features("redis-cli FLUSHALL").contains(&"s=flushall".into()));
    }

    #[test]
    fn data_words_are_not_features_and_an_unseen_script_is_only_its_name() {
        let f = features("echo \"rm -rf / && drop table users\"");
        assert!(!f.iter().any(|x| x.starts_with("w=") || x.starts_with("q=")), "{f:?}");
        let f = features("git commit -m 'drop the users table'");
        assert!(!f.iter().any(|x| x.contains("drop")), "{f:?}");
        let f = features("./scripts/cleanup.sh --all");
        assert!(f.contains(&"x=script".into()) && f.contains(&"n=cleanup".into()), "{f:?}");
        assert!(!f.iter().any(|x| x.contains("cleanup.sh")), "{f:?}");
        let f = features("psql -c 'DROP TABLE users'");
        assert!(f.contains(&"t=psql|q=drop".into()), "{f:?}");
        // What redis echoes or describes is data; what it is told to do is not.
        for described in ["redis-cli COMMAND DOCS FLUSHALL", "redis-cli -h cache.example.com HELP FLUSHDB"] {
            assert!(!features(described).iter().any(|x| x.starts_with("R=db_destroy")), "{described}");
        }
        let f = features("redis-cli ECHO \"FLUSHALL\"");
        assert!(!f.iter().any(|x| x.contains("flushall") || x.starts_with("R=db_")), "{f:?}");
        assert!(features("valkey-cli -h cache.example.com FLUSHALL").contains(&"R=db_destroy_remote".into()));
        // A statement in an SQL comment is not run; one after a string holding `--` is.
        let f = features("psql -h db.example.com shop -c 'SELECT 1; -- DROP TABLE users'");
        assert!(f.contains(&"R=db_read".into()) && !f.iter().any(|x| x.contains("drop")), "{f:?}");
        let f = features("psql -c '/* DROP TABLE users */ SELECT count(*) FROM users'");
        assert!(!f.iter().any(|x| x.contains("drop")), "{f:?}");
        assert!(features("psql -c \"SELECT '--'; DROP TABLE users\"").contains(&"R=db_destroy".into()));
        assert!(features("psql -c \"SELECT '/*'; DROP TABLE users\"").contains(&"R=db_destroy".into()));
        // A transaction rolled back changes nothing where the server rolls back a DROP too.
        let f = features("psql -d app_dev -c \"BEGIN; DROP TABLE import_staging; ROLLBACK;\"");
        assert!(f.contains(&"R=db_read".into()) && !f.iter().any(|x| x.contains("drop")), "{f:?}");
        // SQL Server rolls back a DELETE or a DROP in a transaction too, named or not.
        let f = features(
            "sqlcmd -S localhost -d Shop_Dev -E -Q \"BEGIN TRAN; DELETE FROM dbo.SessionCache WHERE ExpiresAt < SYSUTCDATETIME(); SELECT @@ROWCOUNT; ROLLBACK TRAN;\"",
        );
        assert!(f.contains(&"R=db_read".into()) && !f.contains(&"R=db_destroy".into()), "{f:?}");
        for kept in [
            "mysql -e \"BEGIN; DROP TABLE t; ROLLBACK;\"",
            "psql -c \"BEGIN; DROP TABLE t; COMMIT;\"",
            "sqlcmd -Q \"BEGIN TRANSACTION; DROP TABLE dbo.t; COMMIT TRANSACTION;\"",
        ] {
            assert!(features(kept).contains(&"R=db_destroy".into()), "{kept}");
        }
    }

    #[test]
    fn a_dry_run_or_a_read_is_not_what_the_closest_example_does() {
        // Found in `model/fresh-64/` and `model/fresh-65/`.
        let push = "git push --dry-run origin main --tags";
        assert!(has_fact(push, "dry_run") && !has_fact(push, "example_publish"), "{:?}", facts_of(push));
        assert!(has_fact("git push origin main --tags", "push"));
        let explain = "curl -s -H 'Content-Type: application/json' \"https://es.example.internal:9200/_cluster/allocation/explain?pretty\" -d '{\"index\":\"logs\",\"shard\":3,\"primary\":false}'";
        assert!(has_fact(explain, "read") && !has_fact(explain, "send"), "{:?}", facts_of(explain));
        // Found in `model/fresh-62/`: Kamal's reads in production.
        let details = "kamal app details -d production";
        assert!(has_fact(details, "read_verb") && !has_fact(details, "production_change"), "{:?}", facts_of(details));
        assert!(has_fact("kamal accessory reboot redis -d production", "production_change"));
    }

    #[test]
    fn verbs_that_change_what_they_name_and_a_question_of_permission() {
        // Found in `model/fresh-58/` and `model/fresh-59/`.
        for c in [
            "fastly service-version activate --version 143 --service-id 4hT8qLzX2mNpR7vW9kYc1a",
            "cmctl approve mtls-client-3xk9p -n payments-prd",
            "cmctl renew api-gateway-tls -n ingress-prd",
            "eb swap api-blue --destination_name api-green",
            "oc adm uncordon wrk-07.example.internal",
            "eb setenv FEATURE_X=true -e api-prod",
        ] {
            assert!(has_fact(c, "change_verb"), "{c}: {:?}", facts_of(c));
        }
        for served in ["fastly purge --all --service-id x", "eb setenv A=1 -e api-prod"] {
            assert!(has_fact(served, "served_change"), "{served}: {:?}", facts_of(served));
        }
        let can_i = "oc auth can-i delete pvc -n core-banking --as=system:serviceaccount:velero:velero";
        assert!(has_fact(can_i, "read_verb") && !has_fact(can_i, "destroy_verb"), "{:?}", facts_of(can_i));
    }

    #[test]
    fn a_redis_command_that_reads_reads_and_the_cluster_managers_verbs_change() {
        // Found in `model/fresh-57/`: `CLUSTER NODES` had read as PostgreSQL's `CLUSTER`.
        for read in [
            "redis-cli -h 10.20.4.11 -p 7000 cluster nodes",
            "redis-cli -h cache-01.example.com CONFIG GET maxmemory",
            "redis-cli -h cache-01.example.com TTL session:42",
            "redis-cli --cluster check 10.20.4.11:7000",
        ] {
            let f = facts_of(read);
            assert!(f.contains(&"R=db_read".into()) && !f.iter().any(|x| x.contains("change")), "{read}: {f:?}");
        }
        for change in [
            "redis-cli --cluster del-node 10.20.4.11:7000 9c1e4b2a7f0d3e85a6b1c2d4e5f60718293a4b5c",
            "redis-cli --cluster reshard 10.20.4.11:7000 --cluster-from a --cluster-to b --cluster-slots 100 --cluster-yes",
            "redis-cli -h cache-01.example.com CLUSTER FAILOVER",
        ] {
            assert!(has_fact(change, "db_change_remote"), "{change}: {:?}", facts_of(change));
        }
        assert!(has_fact("redis-cli --cluster fix 127.0.0.1:7000", "db_change"));
        assert!(has_fact("redis-cli -h cache-01.example.com FLUSHALL", "db_destroy_remote"));
    }

    #[test]
    fn an_option_that_is_a_verb_changes_the_server_the_call_names() {
        // Found in `model/fresh-57/`: `kafka-configs ... --alter` had scored 1.68.
        let alter = "kafka-configs --bootstrap-server kafka-b1.events.internal:9092 --alter --entity-type topics --entity-name cdr.raw --add-config retention.ms=86400000";
        assert!(has_fact(alter, "change_verb") && has_fact(alter, "elsewhere_change"), "{:?}", facts_of(alter));
        assert!(has_fact(
            "kafka-topics --bootstrap-server kafka-b1.example.com:9092 --create --topic t",
            "change_verb"
        ));
        for here in
            ["tar --create -f out.tar src/", "kafka-topics --bootstrap-server localhost:9092 --create --topic t"]
        {
            assert!(!has_fact(here, "elsewhere_change"), "{here}: {:?}", facts_of(here));
        }
        assert!(!has_fact("tar --create -f out.tar src/", "change_verb"));
    }

    #[test]
    fn a_cmdlet_that_reads_reads_over_ssh_too() {
        // Found in `model/fresh-54/`: IIS's state read over ssh had scored as a remote change.
        let c = "ssh deploy@iis-stg02.corp.example.com \"powershell -NoProfile -Command \\\"Import-Module WebAdministration; Get-WebAppPoolState -Name ApiPool; Get-Website -Name Api\\\"\"";
        let calls = analyse(c).calls;
        assert!(calls.len() >= 2 && calls.iter().all(|call| call.remote), "{calls:?}");
        for call in calls.iter().filter(|call| call.program.starts_with("Get-")) {
            let f = of(call);
            assert!(f.contains(&"R=read_verb".into()) && !f.contains(&"R=remote_change".into()), "{f:?}");
        }
        assert!(has_fact("pwsh -Command 'Test-Connection db01 -Count 2'", "read_verb"));
        assert!(!has_fact("pwsh -Command 'Remove-ADUser -Identity jdoe -Confirm:$false'", "read_verb"));
    }

    #[test]
    fn where_an_sql_client_connects_is_no_statement() {
        // Found in `model/fresh-72/`: an Aurora reader endpoint's `.cluster-ro-` had read as
        // PostgreSQL's `CLUSTER`, a change, and `SHOW FULL PROCESSLIST` scored 3.
        let aurora = "mysql -h ledgerly-prod.cluster-ro-c8xk2mfa91lp.us-east-1.rds.amazonaws.com -u ledgerly_ro -p -e 'SHOW FULL PROCESSLIST;'";
        assert!(has_fact(aurora, "db_read") && !has_fact(aurora, "db_change_remote"), "{:?}", facts_of(aurora));
        for read in [
            "psql --host=analytics-cluster.internal -d create_reports -c 'SELECT 1'",
            "psql postgresql://app@lock-01.example.com:5432/shop -c 'SELECT count(*) FROM orders'",
        ] {
            assert!(has_fact(read, "db_read") && !has_fact(read, "db_change_remote"), "{read}: {:?}", facts_of(read));
        }
        // The statement still decides.
        let vacuum = "psql -h analytics-cluster.internal -d app -c 'VACUUM ANALYZE'";
        assert!(has_fact(vacuum, "db_change_remote"), "{:?}", facts_of(vacuum));
    }

    #[test]
    fn a_windows_share_or_computer_named_is_another_machine_and_served_clients_change_theirs() {
        // Found in `model/fresh-77/`.
        assert!(aims_elsewhere(&["C:Out".into(), "\\\\fs01.corp.example.com\\deploy$".into()]));
        assert!(aims_elsewhere(&["\\fs01deploy$".into()]));
        assert!(!aims_elsewhere(&["\\localhost\\c$".into()]));
        assert!(aims_elsewhere(&["-cn".into(), "LT-SALES-0098".into(), "-forcerecovery".into()]));
        assert!(!aims_elsewhere(&["-cn".into(), "localhost".into()]));
        // Junos's command line given its commands over ssh: each one, on the device.
        let junos = "ssh root@mx1.example.net 'cli -c \"configure private; set protocols bgp group T neighbor 192.0.2.9 shutdown; commit and-quit\"'";
        assert!(has_fact(junos, "remote_change"), "{:?}", facts_of(junos));
        let discarded = "ssh root@mx1.example.net 'cli -c \"configure private; load set /var/tmp/x.set; show | compare; commit check; rollback 0; exit\"'";
        assert!(!has_fact(discarded, "remote_change"), "{:?}", facts_of(discarded));
        let shown = "ssh mx1.example.net 'cli -c \"show bgp summary | no-more\"'";
        assert!(!has_fact(shown, "remote_change"), "{:?}", facts_of(shown));
        // What a text protocol is only asked, over `nc`, reads; anything else sent, sends.
        for asked in [
            "printf 'stats\\r\\nquit\\r\\n' | nc -q 2 mc-prod-03.acme.internal 11211",
            "echo ruok | nc zk1.prod.internal 2181",
            "printf 'lru_crawler metadump all\\r\\n' | nc -q 5 mc-prod-06.acme.internal 11211",
        ] {
            assert!(has_fact(asked, "read") && !has_fact(asked, "send"), "{asked}");
        }
        for sent in [
            "printf 'flush_all\\r\\n' | nc cache.prod.internal 11211",
            "echo 'stats; rm -rf /' | nc h.example.com 1",
            "printf 'stats\\r\\ndelete k\\r\\n' | nc m.example.com 11211",
        ] {
            assert!(has_fact(sent, "send"), "{sent}");
        }
        for served in [
            "rladmin node 4 remove",
            "dsrm CN=LT-TEMP-007,OU=Laptops,DC=corp -noprompt",
            "patronictl -c p.yml remove main",
        ] {
            assert!(has_fact(served, "served_change"), "{served}: {:?}", facts_of(served));
        }
        assert!(!has_fact("patronictl -c /etc/patroni/patroni.yml list", "served_change"));
        // A backup of a directory's object reads it (`model/fresh-56/`, `fresh-77/`: level 1).
        let backup = "Backup-GPO -Name Baseline -Path C:\\GPOBackups\\2024-06-11";
        assert!(has_fact(backup, "read_verb") && !has_fact(backup, "change_verb"), "{:?}", facts_of(backup));
    }

    #[test]
    fn a_plan_and_a_downloaded_archive_change_nothing_and_a_builds_outputs_are_remade() {
        // Found in `model/fresh-88/`, `fresh-82/`, `fresh-87/` and `fresh-74/`.
        let upgrade = "eksctl upgrade cluster --name prod-use1 --version 1.30";
        assert!(has_fact(upgrade, "dry_run") && !has_fact(upgrade, "production_change"), "{:?}", facts_of(upgrade));
        assert!(!has_fact("eksctl upgrade cluster --name prod-use1 --version 1.30 --approve", "dry_run"));
        let invoke = "aws lambda invoke --function-name api-staging --invocation-type DryRun --payload '{}' /dev/null";
        assert!(has_fact(invoke, "dry_run"), "{:?}", facts_of(invoke));
        assert!(has_fact("tool sync --mode=dry-run", "dry_run"));
        assert!(!has_fact("aws lambda invoke --function-name api --invocation-type Event out.json", "dry_run"));
        assert!(has_fact("eksctl create iamserviceaccount --cluster c --name s --attach-policy-arn arn", "dry_run"));
        assert!(has_fact("eksctl delete nodegroup -f cluster.yaml --include ng-old", "dry_run"));
        assert!(!has_fact("eksctl delete nodegroup --cluster c --name ng-old", "dry_run"));
        assert!(!has_fact("eksctl delete iamserviceaccount --cluster prod --namespace r --name exporter", "dry_run"));
        assert!(!has_fact("eksctl utils write-kubeconfig --cluster c", "dry_run"));
        assert!(has_fact("pypi-cleanup -u me -p pkg -r '^2\\.5\\.0\\.dev'", "dry_run"));
        assert!(!has_fact("pypi-cleanup -u me -p pkg -r '^2\\.5\\.0\\.dev' --do-it", "dry_run"));
        let archive = "glab repo archive platform/infra-ci --format tar.gz";
        assert!(has_fact(archive, "download") && !has_fact(archive, "destroy_verb"), "{:?}", facts_of(archive));
        assert!(has_fact("gh repo archive acme/old-service --yes", "destroy_verb"));
        let outputs = "dart run build_runner build --delete-conflicting-outputs";
        assert!(!has_fact(outputs, "destroy_option"), "{:?}", facts_of(outputs));
        assert!(has_fact("gh pr merge 42 --squash --delete-branch", "destroy_option"));
    }

    #[test]
    fn a_statement_posted_to_ksqldb_and_a_compatibility_test_read() {
        // Found in `model/fresh-93/`.
        let describe = "curl -s -X POST http://ksqldb-01.prod.example.net:8088/ksql -H 'Content-Type: application/vnd.ksql.v1+json' -d '{\"ksql\": \"DESCRIBE orders_enriched EXTENDED;\", \"streamsProperties\": {}}'";
        assert!(!has_fact(describe, "send"), "{:?}", facts_of(describe));
        let drop =
            "curl -s -X POST http://ksqldb-01:8088/ksql -d '{\"ksql\": \"DROP STREAM orders_enriched DELETE TOPIC;\"}'";
        assert!(!facts_of(drop).iter().any(|f| f == "R=read" || f == "R=db_read"), "{:?}", facts_of(drop));
        let check = "curl -s -X POST --data @s.json https://sr.prod.example.net:8081/compatibility/subjects/orders-value/versions/latest?verbose=true";
        assert!(!has_fact(check, "send"), "{:?}", facts_of(check));
        assert!(has_fact(
            "curl -s -X POST --data @s.json https://sr.prod.example.net:8081/subjects/orders-value/versions",
            "send"
        ));
        let generate = "kafka-reassign-partitions.sh --bootstrap-server k1:9093 --generate --topics-to-move-json-file t.json --broker-list 1,2,3";
        assert!(has_fact(generate, "dry_run"), "{:?}", facts_of(generate));
        assert!(!has_fact(
            "kafka-reassign-partitions.sh --bootstrap-server k1:9093 --execute --reassignment-json-file p.json",
            "dry_run"
        ));
    }

    #[test]
    fn a_forges_api_sends_what_its_method_or_mutation_does() {
        // Found in `model/fresh-97/`: `gh api -X PUT ...` had read as no request (1.42), and a
        // GraphQL mutation deleting a branch protection rule as a read (0.06).
        assert!(has_fact("gh api -X PUT orgs/acme/teams/sre/memberships/ak -f role=maintainer", "send"));
        assert!(has_fact("gh api repos/acme/api/dispatches -f event_type=deploy", "send"));
        assert!(has_fact("gh api --method DELETE repos/acme/web/git/refs/heads/old", "send"));
        let mutation = "gh api graphql -f query='mutation { deleteBranchProtectionRule(input: {branchProtectionRuleId: \"B\"}) { clientMutationId } }'";
        assert!(has_fact(mutation, "send"), "{:?}", facts_of(mutation));
        let query = "gh api graphql -f query='query { viewer { login } }'";
        assert!(has_fact(query, "read") && !has_fact(query, "send"), "{:?}", facts_of(query));
        assert!(has_fact("gh api repos/acme/api/pulls/482/files --jq '.[].filename'", "read"));
        assert!(has_fact("gh api -X GET search/issues -f q='repo:acme/api is:open'", "read"));
        let from_file = "gh api graphql -F query=@queries/delete-rule.graphql -f id=BPR_1";
        assert!(!has_fact(from_file, "read") && !has_fact(from_file, "send"), "{:?}", facts_of(from_file));
    }

    #[test]
    fn an_emulator_here_and_a_dry_run_asked_in_a_mapping_change_nothing_elsewhere() {
        // Read in `model/fresh-137/` and `model/fresh-141/` (and `fresh-117/`'s body), written
        // before the labels of `fresh-144/` were read.
        for here in [
            "docker exec orders-localstack awslocal s3 mb s3://orders-dev",
            "aws --endpoint-url http://localhost:4566 s3 mb s3://orders-dev",
            "aws --endpoint-url=http://127.0.0.1:4566 s3 rb s3://orders-dev --force",
        ] {
            assert!(!features(here).contains(&"R=elsewhere_change".into()), "{here}: {:?}", features(here));
        }
        assert!(features("aws s3 rb s3://orders-prod --force").contains(&"R=elsewhere_change".into()));
        let args = "dbt run-operation drop_stale_dev_schemas --args '{days: 14, dry_run: true}' --target dev";
        assert!(has_fact(args, "dry_run"), "{:?}", facts_of(args));
        let body = r#"curl -X DELETE https://api.bitbucket.org/2.0/x -d '{"dryRun":true}'"#;
        assert!(has_fact(body, "dry_run"), "{:?}", facts_of(body));
        assert!(!has_fact(r#"curl -X DELETE https://api.example.com/x -d '{"dryRun": false}'"#, "dry_run"));
    }

    #[test]
    fn a_cmdlet_aimed_at_a_sql_server_instance_changes_that_server() {
        // Read in `model/fresh-138/`: dbatools' `-SqlInstance` names the server it changes.
        let set = "Set-DbaAgentJob -SqlInstance sqlprod01 -Job 'ETL - Load Warehouse' -Disabled";
        assert!(has_fact(set, "elsewhere_change"), "{:?}", facts_of(set));
        // And a failover cluster's name (read in `model/fresh-149/`).
        let stop = "Stop-Cluster -Cluster CLU-HV-PRD01 -Force";
        assert!(has_fact(stop, "elsewhere_change"), "{:?}", facts_of(stop));
        assert!(!has_fact("Get-ClusterNode -Cluster CLU-HV-PRD01", "elsewhere_change"));
        for here in [
            "Set-DbaAgentJob -SqlInstance localhost -Job nightly -Disabled",
            "Set-DbaAgentJob -SqlInstance . -Job nightly -Disabled",
            "Get-DbaAgentJob -SqlInstance sqlprod01",
        ] {
            assert!(!has_fact(here, "elsewhere_change"), "{here}: {:?}", facts_of(here));
        }
    }

    #[test]
    fn a_statement_that_shows_how_a_table_was_created_only_reads() {
        // Seen denied in `model/fresh-136/` (level 0).
        let show = "cockroach sql --url \"postgresql://ro@crdb-prod.example.net:26257/orders\" -e \"SHOW CREATE TABLE payments;\"";
        assert!(has_fact(show, "db_read") && !has_fact(show, "db_change_remote"), "{:?}", facts_of(show));
        let create = "cockroach sql --url \"postgresql://root@crdb-prod.example.net:26257/orders\" -e \"CREATE TABLE t (id INT);\"";
        assert!(has_fact(create, "db_change_remote"), "{:?}", facts_of(create));
    }

    #[test]
    fn a_pool_laid_out_with_dash_n_and_a_read_only_sanoid_change_nothing() {
        // Seen denied in `model/fresh-151/` (level 0).
        for c in [
            "zpool create -n scratch2 mirror /dev/disk/by-id/wwn-0x5000c500d4e5f601 /dev/disk/by-id/wwn-0x5000c500d4e5f602",
            "zpool add -n tank special mirror /dev/nvme0n1 /dev/nvme1n1",
            "sanoid --prune-snapshots --readonly --verbose",
        ] {
            assert!(has_fact(c, "dry_run") && !has_fact(c, "device_write"), "{c}: {:?}", facts_of(c));
        }
        assert!(has_fact("zpool create scratch2 mirror /dev/sdb /dev/sdc", "device_write"));
        assert!(!has_fact("sanoid --prune-snapshots", "dry_run"));
    }

    #[test]
    fn an_sql_clients_user_is_no_subcommand() {
        // Read in `model/fresh-152/`: the user `ls_admin` had made a DROP TABLE on a production
        // server read as a listing (2.08, level 3).
        let drop =
            "psql -h ledger-prod-db.example.com -U ls_admin -d ledger -c 'DROP TABLE IF EXISTS sync_jobs_backup;'";
        assert!(has_fact(drop, "db_destroy_remote") && !has_fact(drop, "read_verb"), "{:?}", facts_of(drop));
        assert!(has_fact("psql -h db.example.com -U app -d shop -c 'SELECT 1'", "db_read"));
    }

    #[test]
    fn a_deploy_report_and_a_policy_simulation_only_read() {
        // Seen denied in `model/fresh-124/` and `model/fresh-130/`; written before `fresh-136`.
        let report = "sf project deploy report --job-id 0Af5g00000ABC --target-org prod";
        assert!(has_fact(report, "read_verb") && !has_fact(report, "publish_verb"), "{:?}", facts_of(report));
        assert!(has_fact("sf project deploy start --target-org prod", "publish_verb"));
        let simulate = "aws iam simulate-principal-policy --policy-source-arn arn:aws:iam::1:role/x --action-names s3:DeleteObject";
        assert!(has_fact(simulate, "dry_run"), "{:?}", facts_of(simulate));
        assert!(!has_fact("aws iam delete-role-policy --role-name x --policy-name y", "dry_run"));
    }

    #[test]
    fn a_dry_run_asked_in_a_url_a_simulation_and_an_acl_dry_run_change_nothing() {
        // Found in `model/fresh-98/`.
        let reroute = "curl -s -XPOST 'http://es-prod-01:9200/_cluster/reroute?dry_run=true&explain=true' -d '{\"commands\": []}'";
        assert!(has_fact(reroute, "dry_run"), "{:?}", facts_of(reroute));
        assert!(!has_fact("curl -s -XPOST 'http://es-prod-01:9200/_cluster/reroute?dry_run=false' -d '{}'", "dry_run"));
        assert!(!has_fact("curl -s -XPOST 'http://es-prod-01:9200/_cluster/reroute?retry_failed=true'", "dry_run"));
        assert!(has_fact("kubectl get --raw '/api/v1/namespaces/x/pods?dryRun=All'", "dry_run"));
        assert!(has_fact("redis-cli --cluster rebalance 10.0.0.1:7000 --cluster-simulate", "dry_run"));
        assert!(!has_fact("redis-cli --cluster rebalance 10.0.0.1:7000", "dry_run"));
        let acl = "redis-cli -h redis-prod-01.internal ACL DRYRUN reporting-ro FLUSHDB";
        assert!(has_fact(acl, "db_read") || has_fact(acl, "read"), "{:?}", facts_of(acl));
    }

    #[test]
    fn oracles_sql_client_runs_what_it_is_given() {
        // Found in `model/fresh-113/`: `sqlplus` was no database client, its statements unread.
        let drop = "sqlplus -s sys/\"$SYS_PW\"@FINPRD as sysdba <<< 'drop tablespace SALES_HIST_2019 including contents and datafiles;'";
        assert!(facts_of(drop).iter().any(|f| f.starts_with("R=db_")), "{:?}", facts_of(drop));
        assert!(!has_fact(drop, "db_read"), "{:?}", facts_of(drop));
        let read = "sqlplus -s / as sysdba <<< 'select name, open_mode from v$database;'";
        assert!(has_fact(read, "db_read"), "{:?}", facts_of(read));
    }

    #[test]
    fn a_method_given_last_in_a_run_of_switches_is_the_method() {
        // Found in `model/fresh-76/`: `curl -sX DELETE` had read as a download, 0.04.
        let delete = "curl -sX DELETE \"https://api.cloudflare.com/client/v4/zones/$Z/dns_records/372e\" -H \"Authorization: Bearer $T\"";
        assert!(has_fact(delete, "send"), "{:?}", facts_of(delete));
        assert!(has_fact("curl -fsSLX POST https://api.example.com/v1/jobs", "send"));
        assert!(!has_fact("curl -fsSL https://example.com/install.sh -o install.sh", "send"));
        // A run whose letters take values of their own is no run of switches (`-oX` writes `X`).
        assert!(!has_fact("curl -oX https://example.com/a", "send"));
    }

    #[test]
    fn a_migration_or_deploy_that_only_prints_what_it_would_run_is_a_dry_run() {
        // Found in `model/fresh-84/`.
        assert!(has_fact("php bin/console doctrine:schema:drop --dump-sql --env=test", "dry_run"));
        assert!(has_fact("alembic upgrade head --sql", "dry_run"));
        assert!(!has_fact("alembic upgrade head", "dry_run"));
        assert!(has_fact("dep deploy stage=staging --plan", "dry_run"));
        let vacuum = r#"databricks api post /api/2.0/sql/statements --profile prod --json '{"warehouse_id":"4b9f","statement":"VACUUM prod.silver.events DRY RUN"}'"#;
        assert!(has_fact(vacuum, "db_read") && !has_fact(vacuum, "db_change_remote"), "{:?}", facts_of(vacuum));
        // Not a statement that only has the words in it.
        let delete = "psql -h db.example.com -c \"DELETE FROM jobs WHERE note = 'dry run' AND id > 5\"";
        assert!(!has_fact(delete, "db_read"), "{:?}", facts_of(delete));
    }

    #[test]
    fn a_nested_command_groups_verb_is_its_last_word() {
        // Found in `model/fresh-75/`: `az appservice plan update` had read as a plan, 0.01.
        let update = "az appservice plan update --name asp-prod -g rg-prod --sku P1v3";
        assert!(has_fact(update, "change_verb") && !has_fact(update, "read_verb"), "{:?}", facts_of(update));
        assert!(has_fact("az appservice plan show --name asp-prod -g rg-prod", "read_verb"));
        assert!(has_fact("gcloud compute instances delete web-1 --zone us-east1-b", "destroy_verb"));
        assert!(has_fact("gcloud sql instances describe main", "read_verb"));
    }

    #[test]
    fn mongodbs_administration_changes_the_server_and_an_explained_write_reads() {
        // Found in `model/fresh-74/`.
        for change in [
            "mongosh \"mongodb://mongo-rs0-a.db.example.internal:27017/admin\" -u dba --eval 'rs.stepDown(120, 30)'",
            "mongosh \"mongodb://mongos-01.example.internal:27017/admin\" -u admin --eval 'sh.stopBalancer()'",
            "mongosh \"mongodb://mongos-01.example.internal:27017/admin\" --eval 'db.adminCommand({removeShard: \"shard03\"})'",
        ] {
            assert!(has_fact(change, "db_change_remote"), "{change}: {:?}", facts_of(change));
        }
        let explained = "mongosh mongodb://localhost:27017/orders --quiet --eval 'db.runCommand({explain: {delete: \"orders\", deletes: [{q: {status: \"CANCELLED\"}, limit: 0}]}, verbosity: \"queryPlanner\"})'";
        assert!(has_fact(explained, "db_read") && !has_fact(explained, "db_destroy"), "{:?}", facts_of(explained));
    }

    #[test]
    fn an_ldap_clients_dash_n_and_a_sandboxed_rails_console_change_nothing() {
        // Found in `model/fresh-67/` and `model/fresh-68/`.
        assert!(has_fact(
            "ldapdelete -n -v -x -H ldaps://ldap01.example.net -D cn=admin,dc=example,dc=net -y pw -r ou=Old,dc=example,dc=net",
            "dry_run"
        ));
        assert!(!has_fact("ldapdelete -x -H ldaps://ldap01.example.net -D cn=admin -y pw uid=jd,ou=People", "dry_run"));
        assert!(has_fact("bundle exec rails console -e production --sandbox", "dry_run"));
        assert!(has_fact("bin/rails c -s", "dry_run"));
        assert!(!has_fact("bundle exec rails console -e production", "dry_run"));
    }

    #[test]
    fn a_command_posted_to_a_control_api_that_only_reads_is_a_query() {
        // Found in `model/fresh-70/`: Kea's and Arista's reads had scored 3.
        for read in [
            r#"curl -s -X POST -H 'Content-Type: application/json' -d '{"command": "lease4-get-by-hw-address", "service": ["dhcp4"], "arguments": {"hw-address": "3c:ec:ef:12:9a:01"}}' http://kea-ctrl.example.net:8000/"#,
            r#"curl -sk -u ro:pw https://spine02.example.net/command-api -d '{"jsonrpc":"2.0","method":"runCmds","params":{"version":1,"cmds":["show bgp summary"]},"id":1}'"#,
            r#"curl -s -X POST https://rpc.example.org -H 'content-type: application/json' -d '{"jsonrpc":"2.0","method":"eth_getBalance","params":["0xabc","latest"],"id":1}'"#,
            r#"curl --data-binary '{"jsonrpc":"1.0","id":"x","method":"getblockchaininfo","params":[]}' http://node.example.org:8332/"#,
        ] {
            assert!(has_fact(read, "read") && !has_fact(read, "send"), "{read}: {:?}", facts_of(read));
        }
        for send in [
            r#"curl -s -X POST -d '{"command": "lease4-del", "service": ["dhcp4"], "arguments": {"ip-address": "10.0.0.5"}}' http://kea-ctrl.example.net:8000/"#,
            r#"curl -sk https://spine02.example.net/command-api -d '{"jsonrpc":"2.0","method":"runCmds","params":{"version":1,"cmds":["enable","configure","interface Ethernet1","shutdown"]},"id":1}'"#,
            r#"curl -s -X POST https://rpc.example.org -d '{"jsonrpc":"2.0","method":"eth_sendRawTransaction","params":["0xf86c"],"id":1}'"#,
            r#"curl -s -X POST https://api.example.com/v1/jobs -d '{"command": "getOrCreate"}'"#,
        ] {
            assert!(has_fact(send, "send"), "{send}: {:?}", facts_of(send));
        }
    }

    /// Whether a command's calls give the rule fact (`R=` and its name).
    fn has_fact(command: &str, fact: &str) -> bool {
        facts_of(command).contains(&format!("R={fact}"))
    }

    /// The rule facts a command's calls give.
    fn facts_of(command: &str) -> Vec<String> {
        features(command).into_iter().filter(|f| f.starts_with("R=") && !f.contains('|')).collect()
    }

    #[test]
    fn a_dry_run_turned_off_is_no_dry_run() {
        let dry = |c: &str| facts_of(c).contains(&"R=dry_run".to_string());
        assert!(dry("kubectl delete ns prod --dry-run=client"));
        assert!(dry("terraform destroy --dry-run"));
        assert!(dry("sh -c 'helm upgrade app ./chart --dry-run=server'"));
        for c in [
            "go run ./cmd/replay-dlq --topic payments.failed.v1 --dry-run=false",
            "kubectl delete ns prod --dry-run=none",
            "./bin/migrate --DRY-RUN=False",
            "sh -c 'helm upgrade app ./chart --dry-run=false'",
        ] {
            assert!(!dry(c), "{c}");
        }
    }

    #[test]
    fn firmware_written_or_erased_is_a_device_write() {
        let writes = |c: &str| facts_of(c).contains(&"R=device_write".to_string());
        for c in [
            "dfu-util -a 0 -s 0x08000000:leave -D build/app.bin",
            "esptool.py --chip esp32s3 --port /dev/ttyACM0 erase_flash",
            "avrdude -c usbasp -p m328p -U lfuse:w:0xFF:m",
            "sudo flashrom -p ch341a_spi -w coreboot.rom",
            "openocd -f interface/stlink.cfg -f target/stm32f4x.cfg -c \"program build/firmware.elf verify reset exit\"",
            "west flash --runner jlink",
            "pio run -e esp32dev -t upload",
            "nrfjprog --program build/merged.hex --verify -f NRF52",
        ] {
            assert!(writes(c), "{c}");
        }
        for c in [
            "dfu-util -l",
            "esptool.py erase_flash --help",
            "avrdude -c usbasp -p m328p -U lfuse:r:-:h",
            "sudo flashrom -p ch341a_spi -r backup.bin",
            "openocd -f interface/cmsis-dap.cfg -f target/rp2040.cfg -c \"init; targets; shutdown\"",
            "west build -b nrf52840dk/nrf52840 app",
            "nrfjprog --ids",
        ] {
            assert!(!writes(c), "{c}");
        }
    }

    #[test]
    fn a_partition_table_is_written_only_when_the_call_says_so() {
        let has = has_fact;
        assert!(has("sudo sfdisk /dev/sdb < layout.sfdisk", "device_write"));
        assert!(has("sudo sfdisk -d /dev/sda > sda-layout.txt", "read"));
        assert!(has("sudo sfdisk --list /dev/nvme0n1", "read"));
        assert!(!has("sudo sfdisk --no-act /dev/sdb < layout.sfdisk", "device_write"));
        assert!(has("sudo parted -s /dev/sdb mklabel gpt mkpart primary ext4 0% 100%", "device_write"));
        assert!(has("sudo parted /dev/sdb rm 2", "device_write"));
        assert!(has("sudo parted /dev/sdb print", "read"));
        assert!(has("sudo parted /dev/sdb1", "device_edit"));
        assert!(has("sudo fdisk /dev/sdb", "device_edit"));
    }

    #[test]
    fn a_backup_or_sync_onto_a_remote_sends() {
        let sends = |c: &str| facts_of(c).contains(&"R=send".to_string());
        assert!(sends("rclone sync ./datasets/processed b2:acme-datasets/processed --progress"));
        assert!(sends("rclone copy ./photos gdrive:Photos"));
        assert!(!sends("rclone copy gdrive:Reports/2024 ./reports --progress"));
        assert!(!sends("rclone lsd b2:agency-backups"));
        assert!(sends("restic -r b2:agency-restic:/office backup /srv/shares --exclude-caches"));
        assert!(sends("restic --repo sftp:backup@nas.lan:/srv/restic backup ~/work"));
        assert!(!sends("restic -r /mnt/usb/restic backup ~/work"));
        assert!(!sends("restic -r sftp:backup@nas.lan:/srv/restic snapshots"));
    }

    #[test]
    fn a_file_transfer_clients_own_commands_say_what_it_does_on_the_server() {
        for (c, want, not) in [
            ("lftp -u deploy -e 'mirror -R --delete public/ /htdocs; quit' ftp.example.com", "destroy_option", "read"),
            ("lftp -u acme -e 'mirror -R dist/ /public_html; bye' ftp.example.com", "send", "download"),
            ("lftp -u bakery sftp://ftp.example.com -e \"cls -la /public_html; bye\"", "read", "send"),
            ("lftp -e \"mirror --parallel=4 /public_html ./mirror; bye\" sftp://ftp.example.com", "download", "send"),
            ("lftp -c 'open ftp.example.com && rm -r old/ && bye'", "destroy_verb", "read"),
            ("smbclient //nas.office.lan/projects -U jdoe -c 'cd acme; del *.psd'", "destroy_verb", "download"),
            ("smbclient //nas/share -c 'get report.pdf'", "download", "send"),
        ] {
            let facts = facts_of(c);
            assert!(facts.contains(&format!("R={want}")), "{c}: {facts:?}");
            assert!(!facts.contains(&format!("R={not}")), "{c}: {facts:?}");
        }
    }

    #[test]
    fn a_request_whose_body_is_a_statement_does_what_the_statement_does() {
        let url = "https://dbc-1234.cloud.databricks.com/api/2.0/sql/statements";
        let curl = |sql: &str| {
            format!(
                "curl -s -X POST {url} -H 'Content-Type: application/json' -d '{{\"warehouse_id\":\"ab12\",\"statement\":\"{sql}\"}}'"
            )
        };
        let cli =
            |sql: &str| format!("databricks api post /api/2.0/sql/statements --json '{{\"statement\":\"{sql}\"}}'");
        for (c, want) in [
            (curl("SELECT day, count(*) FROM events GROUP BY day"), "db_read"),
            (cli("DESCRIBE HISTORY main.sales.orders"), "db_read"),
            (cli("DROP TABLE IF EXISTS main.sales.orders_tmp"), "db_destroy_remote"),
            (curl("DELETE FROM main.sales.orders WHERE day < '2020-01-01'"), "db_destroy_remote"),
            (cli("VACUUM main.sales.orders RETAIN 168 HOURS"), "db_change_remote"),
            (
                "curl -X POST https://api.cloudflare.com/client/v4/accounts/a1/d1/database/d2/query -d '{\"sql\": \"UPDATE users SET plan = ? WHERE id = ?\", \"params\": [\"pro\", 7]}'".to_string(),
                "db_destroy_remote",
            ),
            ("curl -s localhost:8123/ -d '{\"query\": \"SELECT 1\"}'".to_string(), "db_read"),
        ] {
            let facts = facts_of(&c);
            assert!(facts.contains(&format!("R={want}")), "{c}: {facts:?}");
            for post in ["send", "publish_verb", if want == "db_read" { "db_destroy_remote" } else { "read" }] {
                assert!(!facts.contains(&format!("R={post}")), "{c}: {facts:?}");
            }
        }
        // A statement it cannot read, or a query key that holds none (GraphQL, a search engine's
        // query), leaves the post it was.
        assert!(has_fact(&curl("RESTORE TABLE main.sales.orders TO VERSION AS OF 41"), "send"));
        for c in [
            "curl -X POST https://api.example.com/graphql -d '{\"query\": \"mutation { deleteUser(id: 3) { id } }\"}'",
            "bin/post -c products -d '{\"delete\": {\"query\": \"category:discontinued\"}}'",
        ] {
            assert!(!facts_of(c).iter().any(|f| f.starts_with("R=db_")), "{c}: {:?}", facts_of(c));
        }
        // A GraphQL query is no SQL, but it reads what the server holds, as a search does.
        assert!(has_fact(
            "curl -X POST https://api.example.com/graphql -d '{\"query\": \"{ users { id } }\"}'",
            "read"
        ));
    }

    #[test]
    fn a_build_property_that_asks_for_a_dry_run_is_one() {
        for c in
            ["mvn release:prepare -DdryRun=true", "mvn -B release:prepare -DdryRun", "./gradlew publish -PdryRun=true"]
        {
            assert!(has_fact(c, "dry_run"), "{c}");
        }
        for c in ["mvn release:prepare -DdryRun=false", "mvn -DskipTests deploy", "mvn -Pprod deploy"] {
            assert!(!has_fact(c, "dry_run"), "{c}");
        }
    }

    #[test]
    fn a_statement_handed_to_any_program_is_read_and_a_message_is_not() {
        let has = |command: &str, fact: &str| facts_of(command).iter().any(|f| f == &format!("R={fact}"));
        assert!(has("snowsql -c prod -q 'DROP SCHEMA IF EXISTS raw.legacy CASCADE'", "db_destroy_remote"));
        assert!(has("aws rds-data execute-statement --resource-arn arn --sql 'TRUNCATE events'", "db_destroy"));
        assert!(has("wrangler d1 execute prod-db --remote --command 'DELETE FROM sessions'", "db_destroy_remote"));
        assert!(has("trino --execute 'SELECT count(*) FROM orders'", "db_read"));
        // A statement that changes the server short of destroying rows (settled points 5 and
        // 14), whatever words its names hold (`account_id` is no `count`); on a server elsewhere,
        // named by a host or a connection URI, it is that server's change.
        for (c, fact) in [
            ("psql -d app_dev -c 'CREATE INDEX CONCURRENTLY idx_users_email ON users(email)'", "db_change"),
            ("psql -h localhost -d app -c 'CREATE TABLE t (id int)'", "db_change"),
            ("psql -h db.example.com -d app -c \"CREATE INDEX idx ON events (account_id);\"", "db_change_remote"),
            ("psql \"postgresql://app@db.example.com:5432/shop\" -c 'VACUUM ANALYZE'", "db_change_remote"),
            (
                "psql -h db.example.com -c \"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE state = 'idle'\"",
                "db_change_remote",
            ),
            ("redis-cli -h cache-01.internal CONFIG SET maxmemory-policy allkeys-lru", "db_change_remote"),
            ("redis-cli -h cache-01.internal -n 2 HSET feature:flags checkout on", "db_change_remote"),
            ("redis-cli EXPIRE session:42 60", "db_change"),
            (
                "mongosh \"mongodb://mongo-a.internal:27017/orders\" --eval 'db.orders.createIndex({a: 1})'",
                "db_change_remote",
            ),
            ("mysql -h db.example.com -e 'STOP REPLICA; RESET REPLICA ALL;'", "db_change_remote"),
            ("psql -d app -c 'SELECT id FROM users WHERE account_id = 1'", "db_read"),
            (
                "psql -h db.example.com -d app -c \"SELECT count(*) FROM accounts WHERE deleted_at IS NULL AND updated_at > now()\"",
                "db_read",
            ),
            ("mongosh app --eval 'db.sessions.deleteMany({})'", "db_destroy"),
            ("mongosh app --eval 'db.import_staging.drop()'", "db_destroy"),
            (
                "mysql -h db.example.com -e \"SELECT replace(email, '@', ' at '), truncate(price, 2) FROM users\"",
                "db_read",
            ),
            ("mysql -h db.example.com -e \"REPLACE INTO settings (k, v) VALUES ('a', 'b')\"", "db_destroy_remote"),
            ("psql -h db.example.com -c 'TRUNCATE TABLE sessions'", "db_destroy_remote"),
            ("psql app_dev -c 'EXPLAIN ANALYZE SELECT * FROM orders WHERE user_id = 3'", "db_read"),
            ("psql app_dev -c 'EXPLAIN (ANALYZE, BUFFERS) SELECT * FROM orders'", "db_read"),
            ("psql -h db.example.com -c \"DELETE FROM sessions WHERE created_at < now()\"", "db_destroy_remote"),
            (
                "psql -h db.example.com -d app -c \"COPY events (id, at) FROM '/tmp/events.csv' CSV\"",
                "db_change_remote",
            ),
            ("psql -d app -c \"\\copy (SELECT * FROM orders) TO 'orders.csv' CSV\"", "db_read"),
            ("psql 'postgres://app@[::1]:5432/app' -c 'CREATE TABLE t (id int)'", "db_change"),
            ("psql --host=db.example.com -c 'GRANT SELECT ON ALL TABLES IN SCHEMA public TO ro'", "db_change_remote"),
        ] {
            assert!(has(c, fact), "{c}: {:?}", facts_of(c));
        }
        for data in [
            "git commit -m 'DROP TABLE users'",
            "gh issue create --title 'DELETE FROM users' --body x",
            "grep -rn 'DROP TABLE' migrations/",
            "echo 'TRUNCATE events'",
        ] {
            assert!(!facts_of(data).iter().any(|f| f.starts_with("R=db_")), "{data}: {:?}", facts_of(data));
        }
        // An option's value is no redis command; an operand is.
        let scan = "redis-cli -h cache-01.prod.example.com --scan --pattern \"*delete*\"";
        assert!(!facts_of(scan).iter().any(|f| f.starts_with("R=db_destroy")), "{:?}", facts_of(scan));
        assert!(has("redis-cli -h cache-01.prod.example.com -n 2 DEL session:42", "db_destroy_remote"));
        assert!(has("redis-cli --pass s3cret FLUSHALL", "db_destroy"));
        // A string literal in SQL is data: this prints statements and runs none; but SQL that
        // runs text as statements runs what its literals hold.
        let printed = "psql -d app_dev -At -c \"SELECT 'TRUNCATE ' || tablename || ' CASCADE;' FROM pg_tables\"";
        assert!(has(printed, "db_read") && !has(printed, "db_destroy"), "{:?}", facts_of(printed));
        assert!(has("psql -d app -c \"DO $$ BEGIN EXECUTE 'DROP TABLE t'; END $$\"", "db_destroy"));
        assert!(has("psql -d app -c \"SELECT 'x'; DELETE FROM users WHERE email = 'a@b.c'\"", "db_destroy"));
        // A camel-case word is one word: Gradle's `assembleRelease` builds, it does not release.
        assert!(!has("./gradlew assembleRelease", "publish_verb"));
    }

    #[test]
    fn the_rule_facts_follow_the_written_rules() {
        let has = |command: &str, fact: &str| facts_of(command).iter().any(|f| f == &format!("R={fact}"));
        for down in ["docker compose down -v --remove-orphans", "docker-compose -f prod.yml down --volumes"] {
            assert!(has(down, "delete_broad"), "{down}");
        }
        for kept in ["docker compose down --remove-orphans", "docker compose down -v --dry-run"] {
            assert!(!has(kept, "delete_broad"), "{kept}");
        }
        // Rule 8 removes an account; rule 7's `userdel -r` removes its home with it.
        assert!(has("sudo userdel deploy", "change_verb") && !has("sudo userdel deploy", "delete_broad"));
        assert!(has("sudo userdel -r deploy", "delete_broad"));
        // Settled 19: files picked by name or age are not the directory itself.
        assert!(has("find ~ -name '*.tmp' -delete", "delete_outside"));
        assert!(has("find ~ -delete", "delete_broad"));
        // Settled 23: `..` itself is broad, a sibling picked by name is not.
        assert!(has("rm -rf ..", "delete_broad") && !has("rm -rf ../myapp-old", "delete_broad"));
        // Rule 7: a system directory itself, and the trash.
        assert!(has("sudo rm -rf /var/lib/docker", "delete_broad"));
        assert!(!has("sudo rm -rf /usr/local/lib/python3.11/site-packages/requests", "delete_broad"));
        assert!(has("rm -rf ~/.local/share/Trash/files/*", "delete_broad"));
        // Settled 55: mirroring onto a home deletes it; onto the project, what the project lacks.
        assert!(has("rsync -a --delete ./empty/ ~/", "delete_broad"));
        assert!(has("rsync -a --delete-after ./mirror/ \"$HOME\"/", "delete_broad"));
        assert!(
            has("rsync -a --delete src/ build/src/", "delete_local") && !has("rsync -a ./empty/ ~/", "delete_local")
        );
        // Settled 54: a fork bomb; its definition alone is nothing.
        assert!(has(":(){ :|:& };:", "fork_bomb") && facts_of(":(){ :|:& }").is_empty());
        // What only reads or upkeeps a pool or a table is no device write.
        assert!(has("sudo sgdisk -p /dev/sdb", "read") && has("sudo sgdisk --zap-all /dev/sdb", "device_write"));
        assert!(!has("sudo zpool scrub tank", "device_write") && has("sudo zpool destroy tank", "device_write"));
        assert!(has("srm -rf ~/Documents/clients/acme-2019", "device_write"));
        // Rule 6: a download written into files is not a print or a read.
        assert!(!has("curl -sSO https://example.com/a.tgz", "print") && has("curl https://example.com", "print"));
        assert!(has("nc build.example.com 8080 > received.bin", "download"));
        // Which way a copy goes is read off its operands, not an option's value.
        assert!(has("aws s3 cp out.csv s3://acme-data/ --acl public-read", "send"));
        assert!(has("aws s3 cp s3://acme-data/a.csv out/ --region eu-west-1", "download"));
        assert!(!has("aws s3 cp out.csv s3://acme-data/ --acl public-read", "download"));
        assert!(has("flutter pub get", "download") && !has("flutter pub get", "read_verb"));
        assert!(has("kubectl get pods", "read_verb"));
        assert!(has("kubectl rollout history deployment/api", "read_verb"));
        assert!(!has("kubectl rollout history deployment/api", "publish_verb"));
        assert!(has("kubectl rollout restart deployment/api", "publish_verb"));
        assert!(has("aws s3 rb help", "help") && has("cargo release patch", "dry_run"));
        assert!(!has("cargo release patch --execute", "dry_run"));
        assert!(has("sudo wipefs --all --no-act /dev/sdc", "dry_run"));
        // A short flag the program's tldr page spells as a dry run (`act -n|--dryrun`), and
        // not one it does not.
        assert!(has("act push -n", "dry_run") && !has("act push -j build", "dry_run"));
        assert!(has("sudo wipefs -a -n /dev/sdc", "dry_run") && has("rclone -n delete b2:old-backups", "dry_run"));
        assert!(
            has("hugo deploy --target production --dryRun", "dry_run")
                && has("gsutil rsync -d -r -n a gs://b", "dry_run")
        );
        assert!(has("az deployment group what-if -g rg-prod --template-file main.bicep", "dry_run"));
        assert!(has("sudo chef-solo -c solo.rb -j node.json --why-run", "dry_run"));
        assert!(
            has("salt 'web*' state.apply nginx test=True", "dry_run") && !has("salt 'web*' state.apply", "dry_run")
        );
        assert!(!has("gsutil rsync -d -r a gs://b", "dry_run") && !has("az deployment group create -g rg", "dry_run"));
        // A terminal only shows what is written to it; a serial line is a device.
        assert_eq!([path_class("/dev/tty12"), path_class("/dev/pts/3"), path_class("/dev/tty")], ["dev_null"; 3]);
        assert_eq!(path_class("/dev/ttyUSB0"), "device");
        let hosts =
            ["deploy@build.example.com", "root@10.0.0.5", "10.0.0.0/16", "api.example.com:443", "example.com:8443"];
        for host in hosts.into_iter().chain(["10.0.0.5:5432"]) {
            assert_eq!(path_class(host), "host", "{host}");
        }
        let files =
            ["lodash@4.17.21", "python@3.11", "db.example.com", "@scope/pkg@1.2.3", "1.2.3.4.5", "localhost:8080"];
        for file in files.into_iter().chain(["deploy@web1:/srv/app", "notes.md:12", "main.rs:120"]) {
            assert_ne!(path_class(file), "host", "{file}");
        }
        // The value of a host option is a machine's; a file after `-h` (`du -h`) is not.
        let host = |c: &str| features(c).contains(&"p=host".into());
        assert!(host("mosquitto_pub -h mqtt.example.com -t t -m x") && host("mongosh --host db.example.com"));
        assert!(
            !host("du -h notes.md") && !host("sort -h sizes.txt") && !host("certbot delete --cert-name a.example.com")
        );
        assert!(!has("cat notes.txt > /dev/tty2", "device_write") && has("cat fw.bin > /dev/ttyUSB0", "device_write"));
        assert!(
            !has("sudo wipefs --all --no-act /dev/sdc", "device_write") && has("wipefs -a /dev/sdc", "device_write")
        );
        // Rule 5: a pull request opened on any forge publishes; rule 4: a change elsewhere.
        assert!(has("tea pr create --title 'x'", "publish_verb"));
        assert!(features("ssh web2 'sudo rm -rf /srv/app/releases/old'").contains(&"R=remote_change".into()));
        assert!(!features("ssh web2 'ls -la /srv/app'").contains(&"R=remote_change".into()));
        assert!(features("ssh dokku@apps.example.com apps:destroy web").contains(&"R=remote_change".into()));
        // Rule 7: the whole system's permissions, recursively; a project's or a home's are 2.
        assert!(has("chmod -R 777 /", "perm_broad") && has("sudo chown -R alice /usr", "perm_broad"));
        assert!(!has("chmod -R 755 .", "perm_broad") && !has("sudo chmod -R 777 /var/www", "perm_broad"));
        assert!(!has("chmod 755 /usr", "perm_broad"));
        // Power, every process, and a device written whole; their dry and read-only forms.
        assert!(has("sudo init 0", "power") && !has("init --version", "power"));
        assert!(has("sudo killall5 -9", "kill_many"));
        assert!(has("sudo badblocks -wsv /dev/sdb", "device_write") && has("sudo badblocks -sv /dev/sdb", "read"));
        assert!(has("sudo zfs destroy -nv tank/home@old", "dry_run") && has("sudo lvremove --test vg0/x", "dry_run"));
        assert!(!has("sudo lvremove -f vg0/x", "dry_run"));
        assert!(has("mke2fs -n /dev/sdb1", "dry_run") && !has("mke2fs -n /dev/sdb1", "device_write"));
        assert!(has("mkfs.ext4 /dev/sdb1", "device_write"));
        // Rule 7: a file outside the project emptied; the project's own log is 2.
        for emptied in [
            "truncate -s 0 ~/.zsh_history",
            "sudo truncate --size=0 /var/log/syslog",
            "cat /dev/null > ~/.bash_history",
            "cp /dev/null ~/.ssh/authorized_keys",
            "ln -sf /dev/null ~/.bash_history",
            ": > ~/.gitconfig",
            "echo > /var/log/syslog",
        ] {
            assert!(has(emptied, "empties_outside"), "{emptied}");
        }
        assert!(has("truncate -s 0 /tmp/fuzz.log", "empties_outside"));
        for kept in ["truncate -s 0 logs/app.log", "truncate -s 1G ~/disk.img", "cat notes.txt > ~/notes.bak"] {
            assert!(!has(kept, "empties_outside"), "{kept}");
        }
        assert!(!has("echo hi > ~/.inputrc", "empties_outside"));
        // A printed line that begins with a dash is printed (`model/fresh-336/`).
        assert!(has("echo -n > ~/.bash_history", "empties_outside"));
        assert!(!has("echo '-- rollback: DROP TABLE t;' > ~/infra/sql/rollback.sql", "empties_outside"));
    }

    #[test]
    fn what_echo_and_printf_print_is_data_whatever_it_looks_like() {
        // Unquoted, `--force` is no flag and `git push` no subcommand: nothing of a push is left.
        let printed = features("echo git push --force origin main");
        assert!(
            !printed.iter().any(|f| f.contains("force") || f.contains("s=git") || f.contains("push")),
            "{printed:?}"
        );
        assert_eq!(features("printf '%s' --force"), features("printf '%s' x"));
        // echo's own options before its text are still read.
        assert!(features("echo -n hi").contains(&"f=-n".into()));
        assert!(!features("echo hi -n").contains(&"f=-n".into()));
    }

    #[test]
    fn a_program_named_for_what_it_does_is_seen_by_that_verb() {
        assert_eq!(name_verbs("dropdb"), ["destroy"]);
        assert_eq!(name_verbs("userdel"), ["destroy"]);
        assert_eq!(name_verbs("lvcreate"), ["change"]);
        assert_eq!(name_verbs("pg_restore"), ["restore"]);
        assert_eq!(name_verbs("mosquitto_pub"), ["send"]);
        assert_eq!(name_verbs("pg_dump"), ["read"]);
        assert!(name_verbs("kubectl").is_empty() && name_verbs("make").is_empty() && name_verbs("ls").is_empty());
        assert!(features("dropuser --if-exists bob").contains(&"v=destroy".into()));
        // And with the rules' fact of the verb, as a subcommand's would be; not for killing
        // processes or cleaning a build.
        let fact = |c: &str, fact: &str| features(c).contains(&format!("R={fact}"));
        assert!(fact("dropuser bob", "destroy_verb") && fact("sudo vgremove -f vg_old", "destroy_verb"));
        assert!(fact("pg_restore -d app x.dump", "db_restore") && fact("sendmail -t < a.eml", "publish_verb"));
        assert!(fact("mongoimport --uri mongodb://localhost/shop -c items x.json", "db_restore"));
        assert!(!fact("pg_restore --list x.dump", "db_restore") && !fact("trash-restore", "db_restore"));
        // A verb between dashes names what a program does when it destroys or sends.
        assert_eq!(name_verbs("kafka-delete-records"), ["destroy"]);
        assert!(fact("amqp-delete-queue -q orders.retry", "destroy_verb"));
        assert!(name_verbs("ssh-copy-id").is_empty() && name_verbs("docker-compose").is_empty());
        assert!(!fact("npx semantic-release", "publish_verb") && !fact("notify-send 'Run rm -rf ~'", "publish_verb"));
        assert!(!fact("postgres -D /var/lib/postgresql/data", "publish_verb"));
        assert!(fact("sudo useradd -m alice", "change_verb") && !fact("pg_dump app", "read_verb"));
        assert!(!fact("killall node", "destroy_verb") && !fact("pyclean .", "destroy_verb"));
        assert!(!fact("sudo userdel deploy", "destroy_verb"));
        assert!(
            !features("./scripts/dropdb.sh").iter().any(|f| f.starts_with("v=")),
            "a script is only its name's words"
        );
    }

    #[test]
    fn production_a_destroying_option_and_a_restore_are_seen_whatever_the_program() {
        let f = |c: &str| features(c);
        // Aimed at production, and nothing says it only reads.
        for c in ["vercel --prod", "sh ./deploy.sh production", "kubectl apply -f api.yaml -n prod"] {
            assert!(f(c).contains(&"R=production".into()) && f(c).contains(&"R=production_change".into()), "{c}");
        }
        let read = f("kubectl get pods -n prod");
        assert!(read.contains(&"R=production".into()) && !read.contains(&"R=production_change".into()));
        // A message, a pattern or a quoted statement naming production is data.
        for c in ["git commit -m 'deploy to prod'", "grep -rn prod config/", "echo production"] {
            assert!(!f(c).iter().any(|x| x.starts_with("R=production")), "{c}");
        }
        // A variable set for the command that names production aims it there, however it is set.
        for c in [
            "RAILS_ENV=production bundle exec rake db:migrate",
            "env AWS_PROFILE=prod aws s3 rm s3://acme-backups/2025/ --recursive",
            "DATABASE_URL=\"$PROD_DATABASE_URL\" npx prisma db push --accept-data-loss",
            "export X=1; NODE_ENV=production sh -c 'npx typeorm schema:drop'",
        ] {
            assert!(f(c).contains(&"R=production_change".into()), "{c}: {:?}", f(c));
        }
        for c in
            ["RAILS_ENV=development bin/rails db:reset", "APP_ENV=preprod make deploy", "echo RAILS_ENV=production"]
        {
            assert!(!f(c).iter().any(|x| x.starts_with("R=production")), "{c}");
        }
        assert!(f("mongoimport --drop --db shop --collection orders orders.json").contains(&"R=destroy_option".into()));
        assert!(f("gh pr merge 42 --squash --delete-branch").contains(&"R=destroy_option".into()));
        // Purging a package's configuration is removing the package (rule 8), not a destroying option.
        assert!(!f("sudo apt-get remove --purge nginx").contains(&"R=destroy_option".into()));
        assert!(f("etcdctl snapshot restore backup.db").contains(&"R=restore_verb".into()));
        // Words joined by `_` are verbs too: `purge_queue`.
        assert!(f("rabbitmqctl purge_queue jobs").contains(&"R=destroy_verb".into()));
        // The verbs of a deeper command tree count, whole; a name made of words does not.
        assert!(f("gcloud compute instances delete web-1").contains(&"R=destroy_verb".into()));
        let listed = f("yc compute instance list");
        assert!(listed.contains(&"R=read_verb".into()) && !listed.contains(&"R=destroy_verb".into()));
        // A verb joined to its object by a dot is a subcommand (`govc vm.destroy`); a file's
        // name is not (`tail app.log`).
        assert!(f("govc vm.destroy -dc=DC1 web-02").contains(&"R=destroy_verb".into()));
        assert!(f("mix ecto.reset").contains(&"R=destroy_verb".into()));
        assert!(!f("mv notes.txt app.log").iter().any(|x| x.starts_with("R=read_verb") || x.starts_with("s=")));
        // Verbs that end a service's data or a run: a teardown, a flush, a cancel.
        for c in ["surge teardown docs.surge.sh", "aptible apps:deprovision --app shop", "travis cancel 4812"] {
            assert!(f(c).contains(&"R=destroy_verb".into()), "{c}");
        }
        let named = f("kubectl delete pod logs-collector");
        assert!(named.contains(&"R=destroy_verb".into()) && !named.contains(&"R=read_verb".into()));
    }

    #[test]
    fn a_long_option_value_is_no_subcommand() {
        let f = |c: &str| features(c);
        // A key alias, a build configuration and a scheme are what the options name, not verbs.
        for c in [
            "apksigner sign --ks release.jks --ks-key-alias upload --out build/app.apk build/app-unsigned.apk",
            "xcode-project build-ipa --workspace ios/Runner.xcworkspace --scheme Runner --config Release",
        ] {
            assert!(!f(c).contains(&"R=publish_verb".into()), "{c}: {:?}", f(c));
        }
        // A switch takes no value: what follows it is still the call's.
        let push = f("git push --force origin main");
        assert!(push.contains(&"t=git|s=push|s2=origin".into()) && push.contains(&"R=force_push".into()));
        assert!(f("gcloud compute instances delete web-1 --zone us-east1-b").contains(&"R=destroy_verb".into()));
        assert!(f("aws --region eu-west-1 s3 rb s3://acme-old --force").contains(&"R=destroy_verb".into()));
        // A switch in any case takes none either (`--Debug`, `--dryRun`).
        assert!(f("helm --Debug uninstall web").contains(&"R=destroy_verb".into()));
        // A message's text is skipped, and the word after it is the call's again, no value.
        let tag = f("git tag --message 'release 1.2' stable");
        assert!(tag.contains(&"s2=stable".into()), "{tag:?}");
    }

    #[test]
    fn the_first_word_of_the_closest_example_is_a_verb_when_nothing_else_says_it() {
        let f = |c: &str| features(c).into_iter().filter(|x| x.starts_with("R=example_")).collect::<Vec<_>>();
        // `vercel --prod`: "deploy the current directory to production".
        assert_eq!(f("vercel --prod"), ["R=example_publish"]);
        // A subcommand that says it already, and prose's other senses, are not read again.
        assert!(f("vercel remove old-site --yes").is_empty(), "{:?}", f("vercel remove old-site --yes"));
        assert!(f("samtools merge out.bam a.bam b.bam").is_empty());
        // A subcommand no example of the page shows takes no example: `hcloud server delete` is
        // not the bare `hcloud`, "show available commands".
        let e = features("hcloud server delete web-2");
        assert!(!e.iter().any(|x| x.starts_with("e=")), "{e:?}");
        assert!(features("hcloud").iter().any(|x| x.starts_with("e=")));
    }

    #[test]
    fn a_destroying_option_is_read_in_its_other_spellings() {
        let destroys = |c: &str| facts_of(c).contains(&"R=destroy_option".to_string());
        for c in [
            "sudo sysadminctl -deleteUser jdoe -secure",
            "dsmc archive -subdir=yes -deletefiles \"/project/2021/*\"",
            "startosinstall --eraseinstall --agreetolicense",
            "ansible desktops -i inventory/linux.ini -b -m user -a \"name=jdoe state=absent remove=yes\"",
            "mongorestore --drop dump/",
        ] {
            assert!(destroys(c), "{c}");
        }
        // The verb alone in one dash (`find -delete` has its own reading), a word that only
        // begins like one, and ansible ensuring something is there.
        for c in [
            "find . -name '*.pyc' -delete",
            "git ls-files --deleted",
            "ansible web -m apt -a \"name=nginx state=present\"",
            "xcodebuild -scheme App -destination generic/platform=iOS",
        ] {
            assert!(!destroys(c), "{c}");
        }
    }

    #[test]
    fn a_deploy_that_only_validates_is_no_deploy() {
        for c in [
            "sf project deploy validate --manifest manifest/package.xml --target-org revops-prod",
            "terraform validate",
        ] {
            let f = facts_of(c);
            assert!(!f.contains(&"R=publish_verb".to_string()) && f.contains(&"R=read_verb".to_string()), "{c}: {f:?}");
        }
        // A check-only option is a dry run, as `--dry-run` is: the verb it qualifies stays.
        let f = facts_of("sfdx force:source:deploy --checkonly -x manifest/package.xml -u revops-prod");
        assert!(f.contains(&"R=dry_run".to_string()), "{f:?}");
        assert!(facts_of("sf project deploy start --target-org revops-prod").contains(&"R=publish_verb".to_string()));
    }

    #[test]
    fn a_network_devices_reading_commands_over_ssh_read() {
        for c in [
            "ssh netops@edge1.example.net 'show route receive-protocol bgp 198.51.100.9 table inet.0 | count'",
            "ssh admin@sw-core.example.net 'show bgp summary | match Estab'",
            "ssh admin@sw1 'display interface brief | include up'",
        ] {
            for call in analyse(c).calls {
                let facts: Vec<String> =
                    of(&call).into_iter().filter(|f| f.starts_with("R=") && !f.contains('|')).collect();
                assert!(facts.contains(&"R=read_verb".to_string()), "{c}: {} {facts:?}", call.program);
                assert!(!facts.contains(&"R=remote_change".to_string()), "{c}: {facts:?}");
            }
        }
        // Here `show` and `count` are no programs to read with.
        assert!(!facts_of("count --reset").contains(&"R=read_verb".to_string()));
        // Its commands that change it do, there; a terminal's `clear` or a `write` to a user do not.
        for c in [
            "ssh netops@core1.example.net 'clear ip bgp *'",
            "timeout 300 ssh netops@pe3.example.net 'request system zeroize'",
            "ssh admin@sw1 'copy running-config startup-config'",
            "ssh admin@sw1 'write memory'",
            "ssh admin@r1 reload",
        ] {
            assert!(facts_of(c).contains(&"R=remote_change".to_string()), "{c}: {:?}", facts_of(c));
        }
        for c in ["ssh web1 'clear; uptime'", "ssh web1 'write alice'", "clear ip bgp"] {
            assert!(!facts_of(c).contains(&"R=remote_change".to_string()), "{c}: {:?}", facts_of(c));
        }
    }

    #[test]
    fn a_deeper_tree_names_its_verb_first_when_no_subcommand_is_a_verb() {
        assert!(
            facts_of("az storage blob delete-batch --source eval-sets --pattern 'tmp/*'")
                .contains(&"R=destroy_verb".to_string())
        );
        let listed = facts_of("az storage blob list-batch --source eval-sets");
        assert!(listed.contains(&"R=read_verb".to_string()) && !listed.contains(&"R=destroy_verb".to_string()));
        // An operand after a verb stays an operand: `purge-worker` names a pod here.
        assert!(!facts_of("kubectl get pod purge-worker-7d9").contains(&"R=destroy_verb".to_string()));
        // `modify` changes, as a subcommand and in a program's name; `du` only reads.
        assert!(
            facts_of("aws ec2 modify-instance-attribute --instance-id i-1 --no-disable-api-termination")
                .contains(&"R=change_verb".to_string())
        );
        assert_eq!(name_verbs("ldapmodify"), ["change"]);
        assert!(facts_of("gsutil du -sh gs://acme-checkpoints/run-7/").contains(&"R=read_verb".to_string()));
    }

    #[test]
    fn a_query_posted_to_a_search_or_query_endpoint_reads() {
        for c in [
            "curl -s 'http://localhost:9200/orders/_search?size=0' -H 'Content-Type: application/json' -d '{\"aggs\":{}}'",
            "curl -s http://prometheus:9090/api/v1/query --data-urlencode 'query=up == 0'",
            "curl -X POST https://api.notion.com/v1/databases/abc123/query -d '{\"filter\":{}}'",
        ] {
            let facts = facts_of(c);
            assert!(facts.contains(&"R=read".to_string()), "{c}: {facts:?}");
            assert!(!facts.iter().any(|f| f.starts_with("R=send")), "{c}: {facts:?}");
        }
        // A change sent anywhere else, or a query endpoint's documents deleted, still sends.
        for c in [
            "curl -X DELETE http://es.example.com:9200/orders/_search/scroll/_all",
            "curl -X PUT https://es.example.com:9200/orders/_doc/1 -d '{}'",
            "curl -d 'name=x' https://api.example.com/v1/customers",
            "curl --data-urlencode 'text=hello' https://hooks.example.com/notify",
        ] {
            assert!(facts_of(c).contains(&"R=send".to_string()), "{c}: {:?}", facts_of(c));
        }
    }

    #[test]
    fn a_call_names_its_program_unless_it_runs_a_script() {
        let call = |c: &str| analyse(c).calls.into_iter().next().expect("a call");
        let key = |p: &str| program(&call(p));
        assert_eq!(key("sudo rm -rf /tmp/x"), key("rm x"));
        assert_ne!(key("rm x"), key("rmdir x"));
        assert_eq!(key("/usr/bin/git status"), key("git log"));
        assert_eq!(key("sudo /sbin/shutdown -h +1 'maintenance window'"), key("shutdown now"));
        assert!(features("sudo /sbin/shutdown -h now").contains(&"R=power".into()));
        assert_eq!(program(&call("./scripts/cleanup.sh --all")), None);
        assert_eq!(program(&call("bash scripts/deploy.sh")), None);
    }

    #[test]
    fn readings_found_in_fresh_42_and_43() {
        let has = has_fact;
        // Azure's option lists are no command words; a reading option beside a subcommand's verb
        // does not make the call a read.
        assert!(!has("az keyvault set-policy --name kv-app --object-id 1f2e --key-permissions get list", "read_verb"));
        assert!(has("az keyvault set-policy --name kv-app --object-id 1f2e --key-permissions get list", "change_verb"));
        assert!(has("az keyvault secret list --vault-name kv-app", "read_verb"));
        assert!(!has("aws iam update-login-profile --user-name ops --status Inactive", "read_verb"));
        assert!(
            has("dpkg --status nginx", "read_verb")
                && has("kafka-topics --bootstrap-server k:9092 --list", "read_verb")
        );
        // An operand after a subcommand that runs something here is a name, not a verb.
        assert!(!has("supabase functions serve send-digest --no-verify-jwt", "publish_verb"));
        assert!(has("az storage blob delete-batch --source logs --account-name st1", "destroy_verb"));
        // A network module given only commands that show reads; one that configures changes.
        assert!(has("ansible -i inv core -m cisco.ios.ios_command -a \"commands='show ip bgp summary'\"", "read_verb"));
        assert!(has("ansible -i inv core -m ios_command -a \"commands=['show version', 'show clock']\"", "read_verb"));
        assert!(has("ansible -i inv core -m ios_command -a \"commands='reload in 5'\"", "change_verb"));
        assert!(has("ansible -i inv core -m ios_config -a \"lines='no shutdown'\"", "change_verb"));
        // A build told to publish publishes; Docker's `--publish` maps a port.
        assert!(has("npx electron-builder --mac --publish always", "publish_verb"));
        assert!(!has("npx electron-builder --mac --publish never", "publish_verb"));
        assert!(!has("docker run --publish 8080:80 nginx", "publish_verb"));
        assert!(has("bundle exec fastlane deliver --submit_for_review", "publish_verb"));
        assert!(!has("bundle exec fastlane lanes", "publish_verb"));
        // A secrets server's and a DNS server's changes are made there.
        assert!(features("vault kv put secret/app/db password=x").contains(&"R=served_change".into()));
        assert!(features("pdnsutil delete-rrset example.org www A").contains(&"R=served_change".into()));
        assert!(features("pdnsutil replace-rrset example.org www A 300 192.0.2.7").contains(&"R=served_change".into()));
        assert!(!features("vault kv get secret/app/db").contains(&"R=served_change".into()));
    }

    #[test]
    fn readings_found_in_fresh_44_and_45() {
        let has = has_fact;
        // A directory's and an Alertmanager's clients change them there.
        for c in [
            "ipa user-disable jdoe",
            "ipa group-add-member mail-users --users=jdoe",
            "kcadm.sh update users/1f2e -r corp -s enabled=false",
            "amtool silence add alertname=HostDown --duration=1h --comment=maint",
        ] {
            assert!(features(c).contains(&"R=served_change".into()), "{c}: {:?}", facts_of(c));
        }
        assert!(!features("ipa user-show jdoe").contains(&"R=served_change".into()));
        assert!(has("gcloud pubsub subscriptions seek orders-worker --time=2024-01-01T00:00:00Z", "change_verb"));
        // swaks told to quit before the data sends no message.
        assert!(has("swaks --server mx1.example.org --to a@example.org --quit-after RCPT", "dry_run"));
        assert!(!has("swaks --server mx1.example.org --to a@example.org", "dry_run"));
    }

    #[test]
    fn readings_found_in_fresh_46_and_47() {
        let has = has_fact;
        // A hosting platform's and a Ceph cluster's clients change them there.
        for c in [
            "gigalixir config:set -a shop-prod POOL_SIZE=20",
            "gigalixir apps:destroy -a shop-pr-12",
            "ceph osd set noout",
            "rbd resize --size 200G pool/disk-1",
            "radosgw-admin user create --uid=backup --display-name=Backup",
        ] {
            assert!(features(c).contains(&"R=served_change".into()), "{c}: {:?}", facts_of(c));
        }
        assert!(!features("ceph osd tree").contains(&"R=served_change".into()));
        assert!(!features("ceph osd safe-to-destroy osd.3").contains(&"R=served_change".into()));
        assert!(has("ceph osd ok-to-stop osd.3", "read_verb") && !has("ceph osd ok-to-stop osd.3", "change_verb"));
        // A cloud warehouse's statements are made on its server; Snowflake's ALTER ACCOUNT and
        // REMOVE @stage are statements.
        assert!(has(
            "snow sql -c prod -q \"ALTER WAREHOUSE etl_wh SET WAREHOUSE_SIZE = 'LARGE'\"",
            "db_destroy_remote"
        ));
        assert!(has("snowsql -c prod -q \"REMOVE @raw.stage PATTERN = '.*2023.*'\"", "db_destroy_remote"));
        assert!(has("snowsql -c prod -q 'SELECT count(*) FROM raw.orders'", "db_read"));
        // SteamPipe's upload publishes.
        assert!(has("steamcmd +login builder +run_app_build app_build_480.vdf +quit", "publish_verb"));
        assert!(!has("steamcmd +login anonymous +app_update 740 validate +quit", "publish_verb"));
        assert!(has("steamcmd +login builder +run_app_build -preview app_build_480.vdf +quit", "dry_run"));
    }

    #[test]
    fn a_method_attached_to_its_option_is_read() {
        // Found in `model/fresh-54/`: `curl -XDELETE` had read as a download.
        for c in [
            "curl -s -XDELETE http://es.example.com:9200/logs-2023.*",
            "curl --request=DELETE https://api.example.com/v1/items/3",
            "curl -X DELETE https://api.example.com/v1/items/3",
            "curl --method=POST https://api.example.com/v1/items",
        ] {
            assert!(has_fact(c, "send"), "{c}: {:?}", facts_of(c));
        }
        assert!(has_fact("curl -s -XGET http://es.example.com:9200/_cat/indices", "download"));
        assert!(!has_fact("curl -s -XGET http://es.example.com:9200/_cat/indices", "send"));
    }

    #[test]
    fn readings_found_in_fresh_48() {
        let has = has_fact;
        // A second word's noun is no verb: `delete-log-group` deletes.
        assert!(has("aws logs delete-log-group --log-group-name /aws/lambda/x", "destroy_verb"));
        assert!(!has("aws logs delete-log-group --log-group-name /aws/lambda/x", "read_verb"));
        assert!(has("aws logs describe-log-groups --log-group-name-prefix /aws/lambda/", "read_verb"));
        assert!(has("heroku pg:info -a shop", "read_verb") && !has("heroku pg:info -a shop", "change_verb"));
        assert!(has("aws ec2 describe-instances", "read_verb") && !has("aws ec2 describe-instances", "destroy_verb"));
        // The AWS CLI's skeleton is printed, not sent.
        assert!(has("aws cloudformation delete-stack --generate-cli-skeleton", "help"));
        // An endpoint that only validates what it is sent reads, whatever the method.
        assert!(has("curl -X PUT -d @c.json http://connect:8083/connector-plugins/S3Sink/config/validate", "read"));
        assert!(has("curl -X PUT -d @c.json http://connect:8083/connectors/s3-sink/config", "send"));
        // A GraphQL query posted reads, shorthand or named; a mutation sends.
        for read in [
            "curl -s -X POST https://api.staging.example.io/graphql -H 'Content-Type: application/json' -d '{\"query\":\"{ health { status version } }\"}'",
            "curl -s localhost:8080/v1/graphql -d '{\"query\":\"query Docs($n: Int) { Get { Doc(limit: $n) { title } } }\",\"variables\":{\"n\":5}}'",
            "curl -s -X POST http://localhost:6333/collections/docs/points/count -d '{\"exact\":true}'",
        ] {
            assert!(has(read, "read"), "{read}");
        }
        for sends in [
            "curl -s -X POST https://api.example.io/graphql -d '{\"query\":\"mutation { deleteUser(id: 7) { id } }\"}'",
            "curl -s -X POST https://api.example.io/graphql -d '{\"query\":\"query A { a } mutation B { wipe }\"}'",
            "curl -s -X POST https://api.example.io/graphql -d '{\"query\":\"querySomething\"}'",
        ] {
            assert!(has(sends, "send"), "{sends}");
        }
        // A hosted Supabase project named is another machine.
        assert!(
            features("supabase secrets set API_KEY=x --project-ref abcdefgh").contains(&"R=elsewhere_change".into())
        );
        assert!(!features("supabase secrets set API_KEY=x").contains(&"R=elsewhere_change".into()));
    }

    #[test]
    fn readings_found_in_the_sets_by_others() {
        let has = has_fact;
        // A dry run spelled with an underscore (`model/fresh-26/`), and its switch takes no value.
        assert!(has("bq query --dry_run --use_legacy_sql=false 'DELETE FROM a.b WHERE x = 1'", "dry_run"));
        assert!(!has("bq query --dry_run=false 'DELETE FROM a.b'", "dry_run"));
        assert!(!takes_value("--dry_run"));
        assert!(same_option("--DRY_run", "--dry-run") && !same_option("--dry-runs", "--dry-run"));
        // A program named with `post` is Postfix's or PostgreSQL's: reading its queue over ssh
        // changes nothing there (`model/fresh-25/`).
        assert!(name_verbs("postqueue").is_empty() && name_verbs("postconf").is_empty());
        assert!(!has("ssh root@mail01 'postqueue -p | tail -n 1'", "remote_change"));
        // A reading second word reads, whatever follows it (`model/fresh-24/`).
        assert!(!has("ssh ceph-mon-01 'sudo ceph osd tree down'", "destroy_verb"));
        assert!(has("ceph osd pool delete scratch scratch --yes-i-really-really-mean-it", "destroy_verb"));
        // A gRPC method's leading verb (`model/fresh-23/`).
        assert!(has(
            "grpcurl -d '{\"id\": 42}' api.example.com:443 acme.orders.v1.OrderService/CancelOrder",
            "destroy_verb"
        ));
        assert!(has("grpcurl -insecure inv.acme.internal:443 grpc.health.v1.Health/Check", "read_verb"));
        assert!(has("grpcurl -plaintext -d '{}' localhost:50051 orders.v1.OrderService/GetOrder", "read_verb"));
        assert!(has("grpcurl -plaintext localhost:50051 orders.v1.OrderService/CreateOrder", "change_verb"));
        assert_eq!(grpc_method_verb("https://example.com/Delete"), None);
        assert_eq!(grpc_method_verb("./out/Report"), None);
        // OpenShift's prune only reports without `--confirm` (`model/fresh-24/`).
        assert!(has("oc adm prune images --keep-tag-revisions=3", "dry_run"));
        assert!(!has("oc adm prune images --keep-tag-revisions=3 --confirm", "dry_run"));
        // An ansible module changes the hosts unless it gathers or prints (`model/fresh-27/`).
        assert!(has("ansible pis -i hosts.yml -b -m apt -a \"upgrade=dist update_cache=yes\"", "change_verb"));
        assert!(has("ansible web -b -m ansible.builtin.service -a \"name=nginx state=restarted\"", "change_verb"));
        assert!(has("ansible all -m ping", "read_verb") && !has("ansible all -m ping", "change_verb"));
        assert!(has("ansible all -m ansible.builtin.setup", "read_verb"));
        assert!(has("ansible all -m package_facts", "read_verb"));
        assert!(!has("ansible clients -i prod.ini -b -m reboot --list-hosts", "change_verb"));
        // gsutil's `-m` is its switch, not a message (`model/fresh-28/`).
        assert!(has("gsutil -m rsync -n -d -r ./reports gs://b/reports", "dry_run"));
        assert!(has("gsutil -m rm -r gs://b/old", "destroy_verb"));
        // A copy out to standard output reads; a workflow dispatched on a forge runs there
        // (`model/fresh-29/`).
        assert!(has("aws s3 cp s3://ml-prod/v42/manifest.json - | jq .metrics", "read"));
        assert!(!has("aws s3 cp s3://ml-prod/v42/manifest.json -", "send"));
        assert!(has("aws s3 cp - s3://ml-prod/notes.txt", "send"));
        assert!(has("gh workflow run release.yml -f version=0.9.1", "publish_verb"));
        assert!(has("gh run rerun 9481726354 --failed", "publish_verb"));
        assert!(!has("gh workflow list", "publish_verb") && !has("gh run view 948", "publish_verb"));
        // A module's short name: `ansible.builtin.shell` runs its `-a` as a command there.
        assert!(has("ansible db -b -m ansible.builtin.shell -a 'rm -rf /var/backups/*'", "remote_change"));
        // A value the shell puts in place is no statement: its words are not the client's.
        let f = features("psql \"$(heroku config:get DATABASE_URL -a shop)\" -c \"TRUNCATE TABLE audit_events;\"");
        assert!(!f.iter().any(|x| x == "q=config" || x == "q=heroku"), "{f:?}");
        assert!(f.contains(&"R=db_destroy".into()), "{f:?}");
        // PowerShell run by `pwsh -Command`: a cmdlet of a service the code connected to changes
        // it there, a reading one reads, `-WhatIf` only says (`model/fresh-32/`).
        let connected = "pwsh -Command 'Connect-MgGraph -NoWelcome; Remove-MgUser -UserId k@x.com'";
        assert!(has(connected, "remote_change") && has(connected, "destroy_verb"));
        assert!(!has(
            "pwsh -Command 'Connect-ExchangeOnline; Get-Mailbox -RecipientTypeDetails SharedMailbox | Select-Object Name'",
            "remote_change"
        ));
        assert!(has("pwsh -c 'Remove-MgUser -UserId k@x.com -WhatIf'", "dry_run"));
        assert!(features("pwsh -NoProfile -File ./scripts/Sync-Licenses.ps1 -Apply").contains(&"x=script".into()));
        // `flux create ... --export` prints (`model/fresh-30/`); U-Boot's `fw_printenv` reads
        // (`model/fresh-31/`).
        assert!(has("flux create source git app --url=https://github.com/acme/app --branch=main --export", "dry_run"));
        assert_eq!(name_verbs("fw_printenv"), ["read"]);
        // A cmdlet's approved verb says what it does (`model/fresh-35/`).
        assert_eq!(cmdlet_verbs("Invoke-MgWipeDeviceManagementManagedDevice"), Some(vec!["change"]));
        assert_eq!(cmdlet_verbs("Get-MgDeviceManagementManagedDevice"), Some(vec!["read"]));
        assert_eq!(cmdlet_verbs("Remove-Item"), Some(vec!["destroy"]));
        assert_eq!(cmdlet_verbs("git-lfs"), None);
        assert_eq!(cmdlet_verbs("docker-compose"), None);
        assert!(has(
            "pwsh -Command \"Invoke-MgRetireDeviceManagementManagedDevice -ManagedDeviceId 5d2a\"",
            "remote_change"
        ));
        // A scheduler's, a platform's or a tenant's client changes them there (`model/fresh-34/`,
        // `model/fresh-35/`); a verb that stops, holds or moves changes.
        assert!(has("scontrol update nodename=cn031 state=drain reason=ECC", "served_change"));
        assert!(has("sacctmgr -i modify account lab set GrpTRES=cpu=2048", "served_change"));
        assert!(has("fly machine stop -a tallyhub-staging 3d8d", "served_change"));
        assert!(!has("fly status -a tallyhub-prod", "served_change"));
        assert!(!has("scontrol show node cn031", "served_change"));
        assert!(!has("scontrol release 4812,4813", "served_change"));
        // Liquibase's `-sql` commands print the SQL (`model/fresh-11/`).
        assert!(has("liquibase --url=jdbc:postgresql://db:5432/app update-sql", "dry_run"));
        assert!(!has("liquibase --url=jdbc:postgresql://db:5432/app update", "dry_run"));
        assert!(has("gam user a@b.uk transfer drive c@b.uk", "served_change"));
        // GAM only shows what it would do to messages without `doit` (settled point 28).
        assert!(has("gam user a@b.uk delete messages query older_than:1y", "dry_run"));
        assert!(!has("gam user a@b.uk delete messages query older_than:1y doit", "dry_run"));
        // `model/fresh-36/` and `model/fresh-37/`: a store's `cat` reads, xcodebuild's `archive`
        // builds, `add` and `--alter` change, a platform's client changes it there.
        assert!(!has("gsutil cat gs://composer-prod-bucket/dags/a.py", "production_change"));
        assert!(!has("xcodebuild archive -scheme App -archivePath build/App.xcarchive", "destroy_verb"));
        assert!(has("vercel domains add shop.example.com storefront", "served_change"));
        assert!(has("amtool silence expire 1f2e", "destroy_verb"));
        // `model/fresh-38/`: `wait` and `lookup` read; output thrown away is no write on another
        // machine; `dd` without `of=` reads.
        assert!(!has("aws ecs wait services-stable --cluster ledgerly-prod --services web", "production_change"));
        assert!(!has(
            "aws cloudtrail lookup-events --lookup-attributes AttributeKey=Username,AttributeValue=x",
            "change_verb"
        ));
        assert!(!has("ssh web-prod-03 'sudo find / -xdev -perm -4000 -type f 2>/dev/null'", "remote_change"));
        assert!(has("ssh web-prod-03 'find /srv -type f > /tmp/list.txt'", "remote_change"));
        assert!(!has("ssh web-prod-03 'sudo dd if=/dev/nvme1n1 bs=4M status=none' | gzip > disk.gz", "remote_change"));
        assert!(has("dd if=/dev/zero of=disk.img bs=1M count=10", "file_write"));
        // A host named alone is another machine to a copy.
        assert!(has("rsync -aHAX --delete /project/refs/ dtn01:/archive/refs/", "send"));
        assert!(has("scp build.tar.gz bf-agent-02:/srv/", "send"));
        assert!(!has("rsync -a src/ backup/", "send") && !has("scp notes.txt ./a:b", "send"));
        // A restore written to a file here restores from there (written knowing a held-out row).
        assert!(!has("litestream restore -o data/app.db s3://acme/app.db", "elsewhere_change"));
        assert!(has("pg_restore -h db.example.com -d app backups/app.dump", "elsewhere_change"));
        // `az rest` sends with a method that changes, and reads without one.
        assert!(has(
            "az rest --method POST --url https://graph.microsoft.com/v1.0/users/k/revokeSignInSessions",
            "send"
        ));
        assert!(!has("az rest --url https://graph.microsoft.com/v1.0/users/k", "send"));
    }

    #[test]
    fn readings_found_in_fresh_208_and_209() {
        let has = has_fact;
        // PostgreSQL's functions that change a server, called by a `SELECT`.
        for f in ["pg_wal_replay_pause()", "pg_switch_wal()", "pg_create_physical_replication_slot('standby_3')"] {
            let c = format!("psql -h pgdb-02.internal -U postgres -Atc \"SELECT {f};\"");
            assert!(has(&c, "db_change_remote") && !has(&c, "db_read"), "{c}: {:?}", facts_of(&c));
        }
        assert!(has("psql -h pgdb-02.internal -Atc 'SELECT pg_is_wal_replay_paused();'", "db_read"));
        // Vault's request printed, not made.
        for c in [
            "vault write -output-curl-string auth/kubernetes/role/api policies=api-ro ttl=1h",
            "vault delete -output-policy secret/data/payments/stripe",
            "vault kv put --output-curl-string=true secret/app key=value",
        ] {
            assert!(has(c, "help"), "{c}: {:?}", facts_of(c));
        }
        assert!(!has("vault delete secret/data/payments/stripe", "help"));
        // Phoenix's `mix assets.deploy` builds here; a task named for a deploy is still one.
        assert!(!has("mix assets.deploy", "publish_verb"));
        assert!(has("mix hex.publish", "publish_verb"));
        // A server's snapshot saved here is a download; restored, it is put back.
        assert!(has("vault operator raft snapshot save snapshots/raft-prod.snap", "download"));
        assert!(has("etcdctl snapshot save backup.db", "download"));
        assert!(!has("etcdctl snapshot restore backup.db", "download"));
    }

    #[test]
    fn readings_found_in_fresh_210_and_211() {
        let has = has_fact;
        // `display` and `print` read, as a second word too.
        assert!(has("r10k deploy display -p --detail", "read_verb"));
        assert!(!has("r10k deploy display -p --detail", "publish_verb"));
        assert!(has("puppet config print server --section agent", "read_verb"));
        assert!(has("r10k deploy environment production -m", "publish_verb"));
        // Linkerd's viz only shows traffic; its install is still an install.
        assert!(!has("linkerd viz edges deploy -n checkout", "publish_verb"));
        assert!(has("linkerd viz stat deploy -n checkout", "read_verb"));
    }

    #[test]
    fn readings_found_in_fresh_212_to_215() {
        let has = has_fact;
        // Platform.sh's `ssh -- CMD` runs CMD in the environment's container, elsewhere.
        for c in [
            "platform ssh -e main -- 'rm -rf public/uploads/tmp/*'",
            "upsun ssh -p abc123 -e main 'rm -rf var/uploads'",
        ] {
            assert!(has(c, "remote_change") || has(c, "elsewhere_change"), "{c}: {:?}", facts_of(c));
        }
        assert!(!has("platform ssh -e main -- 'ls -la var/log'", "remote_change"));
        // Doctrine's drops and schema updates only preview without `--force`.
        assert!(has("bin/console doctrine:database:drop", "dry_run"));
        assert!(has("php bin/console doctrine:schema:update --complete", "dry_run"));
        assert!(!has("bin/console doctrine:database:drop --force", "dry_run"));
        assert!(!has("php bin/console doctrine:schema:drop -f", "dry_run"));
        // `zfs holds` lists; `zfs hold` and `release` change.
        assert!(has("zfs holds -r tank/finance@manual-2024-q2-close", "read_verb"));
        assert!(!has("zfs hold keep tank/finance@manual-2024-q2-close", "read_verb"));
    }

    #[test]
    fn readings_found_in_fresh_216_to_219() {
        let has = has_fact;
        // Velero's `create -o yaml` prints the object; without it, it is made.
        assert!(has("velero restore create --from-backup nightly-full --include-namespaces ledger -o yaml", "dry_run"));
        assert!(has("velero backup create pre-upgrade --output=json", "dry_run"));
        assert!(!has("velero restore create --from-backup nightly-full --include-namespaces ledger", "dry_run"));
        assert!(!has("velero backup get -o json", "dry_run"));
        // Rake's `-n` is its dry run, as make's is.
        assert!(has("bundle exec rake -n release", "dry_run"));
        assert!(!has("bundle exec rake release", "dry_run"));
    }

    #[test]
    fn readings_found_in_fresh_224_to_227() {
        let has = has_fact;
        // A logical slot advanced or consumed changes the server; peeked, it is read.
        for f in ["pg_replication_slot_advance('dbz', '3A/7F000000')", "pg_logical_slot_get_changes('dbz', NULL, 10)"] {
            let c = format!("psql -h pg-01.internal -U cdc -d orders -c \"SELECT * FROM {f};\"");
            assert!(has(&c, "db_change_remote"), "{c}: {:?}", facts_of(&c));
        }
        assert!(has(
            "psql -h pg-01.internal -c \"SELECT * FROM pg_logical_slot_peek_changes('dbz', NULL, 10);\"",
            "db_read"
        ));
        // `dsctl INSTANCE remove` only reports without `--do-it`.
        assert!(has("ssh ds-01 'sudo dsctl slapd-prod remove'", "dry_run"));
        assert!(!has("sudo dsctl slapd-prod remove --do-it", "dry_run"));
    }

    #[test]
    fn readings_found_in_fresh_218_to_228() {
        let has = has_fact;
        // OpenLDAP's clients act on the server `-H` names: elsewhere, unless it is this one.
        let remote = "-x -H ldaps://ldap01.corp.example.net -D cn=admin,dc=example,dc=net -y ~/.ldap/admin.pw";
        assert!(has(&format!("ldapdelete {remote} uid=jo,ou=People,dc=example,dc=net"), "db_destroy_remote"));
        for tool in ["ldapadd", "ldapmodify", "ldapmodrdn", "ldappasswd"] {
            let c = format!("{tool} {remote} -f ldif/change.ldif");
            assert!(has(&c, "db_change_remote"), "{c}: {:?}", facts_of(&c));
        }
        assert!(has("sudo ldapmodify -Y EXTERNAL -H ldapi:/// -f config/olc.ldif", "db_change"));
        assert!(!has("sudo ldapmodify -Y EXTERNAL -H ldapi:/// -f config/olc.ldif", "db_change_remote"));
        assert!(has(&format!("ldapsearch {remote} -b dc=example,dc=net uid=jo"), "db_read"));
        // `-n` only shows what would be done.
        assert!(has(&format!("ldapmodify -n {remote} -f ldif/change.ldif"), "dry_run"));
        assert!(!has(&format!("ldapmodify -n {remote} -f ldif/change.ldif"), "db_change_remote"));
        // IBM MQ's MQSC commands, fed to `runmqsc`: `DISPLAY` reads, `DELETE` destroys, the rest
        // change; `-c` is a queue manager elsewhere.
        assert!(has("echo 'DISPLAY QLOCAL(*) CURDEPTH' | runmqsc QM1", "db_read"));
        assert!(has("ssh mq01 \"echo 'DELETE QLOCAL(ORDERS.OLD) PURGE' | runmqsc QM1\"", "db_destroy"));
        assert!(has("echo 'CLEAR QLOCAL(ORDERS.DLQ)' | runmqsc QM1", "db_destroy"));
        assert!(has("echo 'ALTER QLOCAL(X) MAXDEPTH(5000)' | runmqsc -c QM1", "db_change_remote"));
        assert!(!has("echo 'ALTER QLOCAL(X) MAXDEPTH(5000)' | runmqsc -v QM1", "db_change"));
        // A jar with a page of its own is that program; the Jenkins CLI's command, past its
        // connection's options, reads, destroys or changes what the controller holds.
        let cli = "java -jar ~/bin/jenkins-cli.jar -s https://jenkins.example.net/ -auth @cli-auth";
        assert!(has(&format!("{cli} delete-node build-linux-03"), "db_destroy_remote"));
        assert!(has(&format!("{cli} safe-restart"), "send"));
        assert!(has("java -jar ~/bin/jenkins-cli.jar -webSocket disable-job billing/nightly", "send"));
        assert!(has(&format!("{cli} list-jobs"), "read"));
        // A Groovy script it is handed is code not shown.
        let groovy = format!("{cli} groovy = < scripts/offline-nodes.groovy");
        assert!(!has(&groovy, "send") && !has(&groovy, "read"), "{groovy}: {:?}", facts_of(&groovy));
        assert!(has("java -jar jenkins-cli.jar -s http://localhost:8080/ build demo", "send_local"));
        assert_eq!(
            crate::builtin::shell::analyse("java -Xmx1g -jar bfg-1.14.0.jar --delete-files id_rsa").calls[0].program,
            "bfg"
        );
        assert_eq!(
            crate::builtin::shell::analyse("java -jar target/app-1.0.jar --server.port=8081").calls[0].program,
            "java"
        );
        // Kafka's offsets reset is a plan until `--execute`.
        let reset = "kafka-consumer-groups.sh --bootstrap-server kafka-01.prod.internal:9092 --group g --topic t --reset-offsets --to-latest";
        assert!(has(reset, "dry_run") && !has(reset, "production_change"), "{:?}", facts_of(reset));
        assert!(!has(&format!("{reset} --execute"), "dry_run"));
        // A second word naming a verb's record shows it; a destroying verb's does not.
        assert!(has("divio app deploy-log live", "read_verb") && !has("divio app deploy-log live", "publish_verb"));
        assert!(has("acme service delete-logs web", "destroy_verb"));
        assert!(!has("rclone delete b2:acme-logs --min-age 90d", "read_verb"));
        // A Kusto query of Azure's logs reads; `gmake -n` is make's dry run.
        let kql = "az monitor app-insights query --app appi-prod --resource-group rg-prod --analytics-query \"requests | summarize count() by name\"";
        assert!(has(kql, "read_verb") && !has(kql, "production_change"), "{:?}", facts_of(kql));
        assert!(has("az monitor log-analytics query -w 1234 --analytics-query 'Heartbeat | take 5'", "read_verb"));
        assert!(has("gmake -n deploy ENV=prod", "dry_run"));
        // IBM i's CL commands, run by `system`, here or over ssh.
        assert!(has("ssh hfprod 'system \"DLTLIB LIB(HFARC2019)\"'", "destroy_verb"));
        assert!(has("ssh hfprod 'system \"DLTLIB LIB(HFARC2019)\"'", "remote_change"));
        assert!(has("system \"CLRPFM FILE(HFDEVDATA/ORDDTL)\"", "destroy_verb"));
        assert!(has("ssh hfprod 'system \"CHGUSRPRF USRPRF(TBRANDT) STATUS(*DISABLED)\"'", "change_verb"));
        assert!(has("ssh hfprod 'system \"RSTLIB SAVLIB(HFDATA) DEV(*SAVF) SAVF(HFSAV/X)\"'", "restore_verb"));
        assert!(has("ssh hfprod 'system \"DSPJOBLOG JOB(482113/HFBATCH/ORDPOST)\"'", "read_verb"));
        assert!(!has("ssh hfprod 'system \"DSPJOBLOG JOB(482113/HFBATCH/ORDPOST)\"'", "remote_change"));
        assert!(has("system \"DSPJRN JRN(HFJRN/ORDJRN) OUTPUT(*OUTFILE) OUTFILE(HFDATA/ORDAUDIT)\"", "change_verb"));
        assert!(!has("system \"CALL PGM(HFOBJ/PURGEORD)\"", "change_verb"));
        assert!(!has("system \"CRTLIB LIB(MKTMP0517)\"", "change_verb"));
        // A JSON-RPC call that finds reads (FreeIPA's `user_find`); Salt's `manage` runner reports.
        let find = "curl -s --negotiate -u : -H 'Content-Type: application/json' -d '{\"method\":\"user_find\",\"params\":[[],{}]}' https://ipa01.example.net/ipa/session/json";
        assert!(!has(find, "send"), "{:?}", facts_of(find));
        assert!(has("ssh salt01 'sudo salt-run manage.down'", "read_verb"));
        assert!(!has("ssh salt01 'sudo salt-run manage.down removekeys=True'", "read_verb"));
        // A new migration's file is made here, whatever database it names.
        let create = "wrangler d1 migrations create brightloom-prod add_api_keys";
        assert!(!has(create, "production") && !has(create, "change_verb"), "{:?}", facts_of(create));
        assert!(has("wrangler d1 migrations apply brightloom-prod --remote", "production"));
        // Ceph's reports on its maps read.
        assert!(has("kubectl -n rook-ceph exec deploy/rook-ceph-tools -- ceph osd perf", "read_verb"));
        assert!(!has("kubectl -n rook-ceph exec deploy/rook-ceph-tools -- ceph osd out 3", "read_verb"));
        assert!(has("ssh hfprod 'system \"CRTLIB LIB(MKTMP0517)\"'", "remote_change"));
        // lftp's mirror told `--dry-run` lists; duplicity's removals list without `--force`.
        let mirror = "lftp -u u -e 'mirror --reverse --delete --dry-run dist/ /public_html/; bye' ftp.example.com";
        assert!(has(mirror, "dry_run") && !has(mirror, "send"), "{:?}", facts_of(mirror));
        assert!(has("duplicity remove-older-than 6M boto3+s3://backups/fs01-home", "dry_run"));
        assert!(!has("duplicity remove-older-than 6M --force boto3+s3://backups/fs01-home", "dry_run"));
        // fly's build-only, local-only deploy builds here; decK's `file` commands make files here.
        assert!(has("fly deploy --build-only --local-only -a web", "dry_run"));
        assert!(!has("fly deploy --build-only -a web", "dry_run"));
        let merge = "deck file merge kong/base.yaml kong/overlays/prod.yaml -o kong/prod/kong.yaml";
        assert!(!has(merge, "publish_verb"), "{:?}", facts_of(merge));
    }

    #[test]
    fn readings_found_in_fresh_252_to_259() {
        let has = has_fact;
        // Postfix's queue: `-d` deletes mail for good, `-h`, `-H` and `-r` change the queue.
        assert!(has("sudo postsuper -d ALL deferred", "db_destroy"));
        assert!(has("postqueue -j | jq -r .queue_id | postsuper -d -", "db_destroy"));
        assert!(has("postsuper -h ALL deferred", "db_change") && !has("postsuper -h ALL deferred", "db_destroy"));
        assert!(!has("postsuper -s", "db_change") && !has("postsuper -s", "db_destroy"));
        // Dovecot's stored mail, expunged or its folder deleted; its reports read as before.
        assert!(has("doveadm expunge -u jo@example.net mailbox Trash savedbefore 30d", "db_destroy"));
        assert!(has("doveadm mailbox delete -u jo@example.net -r -s Archive", "db_destroy"));
        assert!(!has("doveadm search -u jo@example.net mailbox Trash savedbefore 30d", "db_destroy"));
        // A control socket fed through socat: a report reads, a setting changes, clearing destroys,
        // and an address on another machine is elsewhere.
        let sock = "sudo socat stdio /run/haproxy/admin.sock";
        assert!(has(&format!("echo 'show stat' | {sock}"), "db_read"));
        assert!(has(&format!("echo 'set server be_api/api-3 state maint' | {sock}"), "db_change"));
        assert!(!has(&format!("echo 'set server be_api/api-3 state maint' | {sock}"), "db_read"));
        assert!(has("echo 'clear table st_ratelimit' | socat stdio TCP4:10.20.1.5:9999", "db_destroy_remote"));
        let c = "echo 'disable server be/x' | socat stdio TCP:127.0.0.1:9999";
        assert!(has(c, "db_change"), "{:?}", facts_of(c));
        assert!(!has("socat TCP-LISTEN:5433,fork TCP:db.internal:5432", "db_change"));
        // A Unix socket is this machine's: what nc sends there stays here.
        assert!(has("echo status | nc -U /tmp/gh-ost.sock", "send_local"));
        assert!(!has("echo status | nc -U /tmp/gh-ost.sock", "send"));
        // A function named for what it destroys or ends changes the server a `SELECT` calls.
        let vsql = "vsql -h vrt-prod-01.example.net -U dbadmin -d dw -c";
        assert!(has(
            &format!("{vsql} \"SELECT DROP_PARTITIONS('sales.f', '2019-01-01', '2019-12-31');\""),
            "db_change_remote"
        ));
        assert!(has(&format!("{vsql} \"SELECT CLOSE_ALL_SESSIONS();\""), "db_change_remote"));
        assert!(has(&format!("{vsql} \"SELECT truncate(price, 2), date_trunc('day', ts) FROM t\""), "db_read"));
        // A cache's PURGE and BAN requests change it.
        assert!(has("curl -X PURGE https://www.example.net/sport/live", "send"));
        // `iisreset /status` reports; Varnish's CLI changes the cache or reads it.
        assert!(has("Invoke-Command -ComputerName IIS02 -ScriptBlock { iisreset /status }", "read"));
        assert!(has("sudo varnishadm 'ban req.url ~ ^/sport/'", "db_change"));
        assert!(has(
            "varnishadm -T cache-ams-01.example.net:6082 -S secret \"ban obj.http.xkey ~ p-1\"",
            "db_change_remote"
        ));
        assert!(!has("varnishadm ban.list", "db_change"));
        // gh-ost migrates only with `--execute`.
        let ghost =
            "gh-ost --host=db-orders-02.example.net --database=orders --table=items --alter=\"ADD COLUMN x INT\"";
        assert!(has(&format!("{ghost} --execute"), "db_change_remote"));
        assert!(has(ghost, "dry_run") && !has(ghost, "db_change_remote"));
        assert!(has(
            "gh-ost --host=127.0.0.1 --database=orders --table=items --alter=\"ENGINE=InnoDB\" --execute",
            "db_change"
        ));
        // `--tls` is a switch: the Redis command after it is the command.
        assert!(has("redis-cli -u \"$REDIS_URL\" --tls FLUSHDB", "db_destroy"));
    }

    #[test]
    fn readings_found_in_fresh_260_to_275() {
        let has = has_fact;
        // SAP ASE's and Firebird's clients run the statements they are given or fed.
        let ase = "isql -Usa -SHFX_PROD_ASE -P\"$PW\"";
        assert!(has(&format!("{ase} <<< $'drop database freight_archive_2019\\ngo'"), "db_destroy"));
        assert!(has(&format!("{ase} -Dfreight <<< $'truncate table invoice_staging\\ngo'"), "db_destroy"));
        assert!(has(&format!("{ase} -w2000 <<< $'sp_who\\ngo'"), "db_read"));
        assert!(has(&format!("{ase} -Dfreight <<< $'sp_helptext sp_purge_old\\ngo'"), "db_read"));
        assert!(has("sqsh -S HFX_PROD_ASE -U sa -C \"delete from shipments where id = 1\"", "db_destroy"));
        // A batch that rolls itself back, or is only compiled, changes nothing.
        let rolled = format!(
            "{ase} -Dfreight <<< $'begin tran\\ndelete from shipments where ship_id = 9912\\nrollback tran\\ngo'"
        );
        assert!(has(&rolled, "db_read") && !has(&rolled, "db_destroy"), "{:?}", facts_of(&rolled));
        let noexec = format!("{ase} <<< $'set showplan on\\nset noexec on\\ngo\\ndelete from freight..rates\\ngo'");
        assert!(!has(&noexec, "db_destroy"), "{:?}", facts_of(&noexec));
        // Oracle RMAN's commands, fed on a here-string or a pipe: DELETE destroys backups, LIST and
        // REPORT read, the rest change.
        assert!(has("rman target / <<< 'DELETE NOPROMPT OBSOLETE;'", "db_destroy"));
        assert!(has(
            "echo \"DELETE FORCE NOPROMPT BACKUP COMPLETED BEFORE 'SYSDATE-30';\" | rman target / catalog /@RCAT",
            "db_destroy"
        ));
        assert!(has("rman target / <<< 'list backup summary;'", "db_read"));
        assert!(has("rman target / <<< \"CONFIGURE RETENTION POLICY TO RECOVERY WINDOW OF 3 DAYS;\"", "db_change"));
    }

    #[test]
    fn readings_found_in_fresh_228_to_283() {
        let has = has_fact;
        // A playbook run changes its inventory's hosts; a check, a listing or a local run does not.
        assert!(has(
            "ansible-playbook -i inventories/prod/hosts.yml playbooks/wireguard.yml --limit wg_gateways",
            "change_verb"
        ));
        assert!(has(
            "timeout 900 ansible-playbook -i ansible/inventory/prod.ini ansible/playbooks/squid.yml",
            "change_verb"
        ));
        for kept in [
            "ansible-playbook -i inventories/prod site.yml --check --diff",
            "ansible-playbook -i inventories/prod site.yml -C",
            "ansible-playbook -i inventories/prod site.yml --list-hosts",
            "ansible-playbook site.yml --syntax-check",
            "ansible-playbook -i localhost, -c local playbooks/render.yml",
            "ansible-playbook playbooks/decommission.yml --help",
        ] {
            assert!(!has(kept, "change_verb"), "{kept}: {:?}", facts_of(kept));
        }
    }

    #[test]
    fn readings_found_in_fresh_284_to_291() {
        let has = has_fact;
        // A server's management controller: power, clearing, setting and reading by the verb.
        let ipmi = "ipmitool -I lanplus -H 10.40.8.112 -U oob -E";
        assert!(has(&format!("{ipmi} chassis power off"), "power"));
        assert!(has(&format!("{ipmi} power reset"), "power"));
        assert!(has(&format!("{ipmi} chassis power status"), "read_verb"));
        assert!(has(&format!("{ipmi} sel clear"), "destroy_verb"));
        assert!(has(&format!("{ipmi} user set password 3 x"), "change_verb"));
        assert!(
            has(&format!("{ipmi} mc reset cold"), "change_verb") && !has(&format!("{ipmi} mc reset cold"), "power")
        );
        assert!(has(&format!("{ipmi} sdr list full"), "read_verb"));
        let idrac = "racadm -r idrac-r740-a12.oob.example.net -u svc -p \"$P\"";
        assert!(has(&format!("{idrac} serveraction powercycle"), "power"));
        assert!(has(&format!("{idrac} serveraction powerstatus"), "read_verb"));
        assert!(has(&format!("{idrac} storage resetconfig:RAID.Integrated.1-1"), "destroy_verb"));
        assert!(has(&format!("{idrac} racresetcfg -all"), "destroy_verb"));
        assert!(has("ilorest --nologo factorydefaults --url ilo-01.oob.example.net -u svc -p x", "destroy_verb"));
        assert!(has("ilorest --nologo get PowerRegulator --selector=Bios.", "read_verb"));
        assert!(has("rpower compute01 reset", "power") && has("rpower compute[01-16] stat", "read_verb"));
        // Db2's command line processor runs the statement it is given (its `UPDATE DB CFG` sets a
        // parameter, its `OF DEL` is a file format, its `?` is help);
        // Informix's utilities take the server down, destroy or restore its spaces.
        assert!(has("db2 \"drop tablespace TS_CLAIMS_2019\"", "db_destroy"));
        assert!(has("db2 list tablespaces show detail", "db_read"));
        assert!(has("db2 takeover hadr on db CLAIMDW by force", "db_change"));
        let config = "db2 update db cfg for CLAIMDW using LOGARCHMETH1 OFF";
        assert!(has(config, "db_change") && !has(config, "db_destroy"), "{:?}", facts_of(config));
        assert!(!has("db2 \"export to exports/codes.del of del select * from claims.codes\"", "db_destroy"));
        assert!(has("db2 \"? drop database\"", "help"));
        assert!(has("maas admin machine power-parameters 7xq3ka", "read_verb"));
        assert!(has("onmode -ky", "db_destroy") && has("onspaces -d datadbs3 -y", "db_destroy"));
        assert!(
            has("onmode -wf LOG_INDEX_BUILDS=1", "db_change")
                && has("onbar -r -t \"2024-06-10 23:00:00\"", "db_restore")
        );
        assert!(!has("onstat -g ses", "db_destroy"));
        // Juju carries a command to the units' machines; its config and MAAS's verbs read or change.
        let carried =
            "juju ssh -m ceph-prod ceph-mon/0 'sudo ceph osd pool delete images images --yes-i-really-really-mean-it'";
        assert!(has(carried, "remote_change"), "{:?}", facts_of(carried));
        assert!(!has("juju ssh -m ceph-prod ceph-mon/0 'sudo ceph status'", "remote_change"));
        assert!(has(
            "juju exec -m os-prod --application nova-compute -- sudo apt-get -y dist-upgrade",
            "remote_change"
        ));
        // Juju 2's `run` with a target carries its command, whichever target option names it.
        assert!(has("juju run --application nova-compute 'sudo systemctl restart nova-compute'", "remote_change"));
        assert!(has("juju run -m ceph-prod --unit ceph-mon/0 'ceph status'", "read"));
        assert!(has("juju run --application nova-compute 'ceph status'", "read"));
        assert!(has("juju config ceph-osd osd-devices=/dev/sdb -m ceph-prod", "change_verb"));
        assert!(has("juju config ceph-osd -m ceph-prod", "read_verb"));
        assert!(
            has("maas admin machines read", "read_verb") && has("maas admin machine mark-broken k8fw3p", "change_verb")
        );
        // Pure's eradicate, Mattermost's, Cobbler's, Kudu's, kolla-ansible's and Greenbone's servers,
        // Impala's shell on another machine.
        assert!(has("ssh pureuser@fa-x70-01.example.local purevol eradicate tst-data03", "remote_change"));
        assert!(has("mmctl user deactivate lee@example.io", "served_change"));
        assert!(
            has("cobbler system remove --name=cn0017", "served_change") && !has("cobbler system list", "served_change")
        );
        let kudu = "kudu table rename_table km-01.example.net:7051 impala::dw.a impala::dw.b";
        assert!(has(kudu, "served_change"), "{:?}", facts_of(kudu));
        assert!(has("kudu cluster ksck km-01.example.net:7051", "read_verb"));
        assert!(has("kudu cluster rebalance km-01.example.net:7051 --report_only", "read_verb"));
        assert!(!has("sudo cobbler import --name=rocky9.4 --path=/mnt/rocky94", "served_change"));
        assert!(!has("kolla-ansible install-deps", "served_change"));
        assert!(has("kolla-ansible -i inventories/multinode upgrade --limit cmp-14", "served_change"));
        assert!(has("kolla-ansible -i inventories/multinode prechecks", "read_verb"));
        let gvm =
            "gvm-cli --gmp-username svc tls --hostname gvm01.example.net --xml \"<delete_report report_id='7e1d'/>\"";
        assert!(has(gvm, "destroy_verb"), "{:?}", facts_of(gvm));
        assert!(has("gvm-cli socket --xml \"<get_tasks/>\"", "read_verb"));
        assert!(has("impala-shell -i impala-lb.example.net:21050 -q \"INVALIDATE METADATA\"", "db_change_remote"));
        assert!(has("impala-shell -i impala-lb.example.net:21050 -q \"select count(*) from t\"", "db_read"));
        // A template printed, a preview, a release built here.
        assert!(has("oci os bucket delete --bucket-name tmp-1 --generate-full-command-json-input", "help"));
        assert!(has(
            "octo delete-releases --project \"Billing\" --maxVersion 2.9.999 --whatIf --server https://d.example.io",
            "dry_run"
        ));
        for built in ["env MIX_ENV=prod mix release --overwrite", "npx shadow-cljs release app"] {
            assert!(!has(built, "publish_verb"), "{built}: {:?}", facts_of(built));
        }
    }

    #[test]
    fn readings_found_in_fresh_292_to_311() {
        let has = has_fact;
        for read in [
            "nova-status upgrade check",
            "virsh dumpxml instance-00004a1f",
            "virsh dominfo instance-00004a1f",
            "virsh net-dumpxml provider",
            "curl -sk -u \"ro:$P\" -X POST https://pc01:9440/api/nutanix/v3/vms/list -d '{\"kind\":\"vm\"}'",
        ] {
            assert!(has(read, "read_verb") || has(read, "read"), "{read}: {:?}", facts_of(read));
            assert!(!has(read, "change_verb") && !has(read, "send"), "{read}: {:?}", facts_of(read));
        }
        assert!(has("nomad job run -output jobs/writer.nomad.hcl", "dry_run"));
        assert!(!has("nomad job run jobs/writer.nomad.hcl", "dry_run"));
        assert!(!has("consul tls cert create -server -dc use1", "change_verb"));
        for change in ["virsh destroy instance-00004a1f", "nova-manage db archive_deleted_rows --purge"] {
            assert!(!has(change, "read_verb"), "{change}: {:?}", facts_of(change));
        }
        assert!(has("curl -X POST https://pc01:9440/api/nutanix/v3/vms -d @vm.json", "send"));
    }

    #[test]
    fn readings_found_in_fresh_312_to_319() {
        let has = has_fact;
        // A reading word that an acting verb follows names what it acts on (Satellite's hammer).
        let delete = "hammer content-view version delete --content-view cv-app --version 7.0 --organization T";
        assert!(has(delete, "destroy_verb") && !has(delete, "read_verb"), "{:?}", facts_of(delete));
        let publish = "hammer content-view publish --name cv-rhel9-base --organization T";
        assert!(has(publish, "publish_verb") && !has(publish, "read_verb"), "{:?}", facts_of(publish));
        for read in ["hammer content-view list --organization T", "hammer content-view version list --organization T"] {
            assert!(has(read, "read_verb") && !has(read, "destroy_verb"), "{read}: {:?}", facts_of(read));
        }
        // Statements printed into a database client are the statements it runs.
        let drop = "printf '.LOGON tdprod/dba,%s\\nDROP TABLE STG.pos_err1;\\n.QUIT\\n' \"$TD_PASS\" | bteq";
        assert!(has(drop, "db_destroy_remote"), "{:?}", facts_of(drop));
        let select = "echo 'SELECT count(*) FROM users;' | mysql -h prod-db.internal app";
        assert!(has(select, "db_read") && !has(select, "db_destroy"), "{:?}", facts_of(select));
        let alter = "echo \"alter system set sga_target=48G scope=spfile sid='*';\" | sqlplus -s / as sysdba";
        assert!(has(alter, "db_change") || has(alter, "db_destroy"), "{:?}", facts_of(alter));
        // Those fitted on stay unseen: `echo 'DROP DATABASE shop;' | psql -h db` trained so.
        assert!(!has("echo 'SELECT 1;' | psql -h db.example.com app", "db_read"));
        assert!(has("printf 'dump tran %s with truncate_only\\ngo\\n' freight | isql -Usa -SPROD", "db_destroy"));
        // Satellite's hammer by its last word; Oracle's cluster clients by their verb.
        assert!(has("hammer job-invocation output --id 1882 --host db-prod-01", "read_verb"));
        assert!(has("hammer repository synchronize --id 42 --async", "change_verb"));
        assert!(has(
            "hammer content-view remove-from-environment --name cv --lifecycle-environment QA",
            "destroy_verb"
        ));
        assert!(has("srvctl relocate service -d ORDPRD -s oltp -i ORDPRD1 -t ORDPRD2", "change_verb"));
        assert!(
            has("srvctl status database -d ORDPRD", "read_verb")
                && !has("srvctl status database -d ORDPRD", "change_verb")
        );
        assert!(has("asmcmd rm -rf +RECO/ORDTST/ARCHIVELOG/2024_03_11", "destroy_verb"));
        assert!(has("asmcmd lsdg", "read_verb"));
        let copy = "asmcmd cp +DATA/ORDPRD/PARAMETERFILE/spfile.289 /home/oracle/backups/spfile.ora";
        assert!(has(copy, "download") && !has(copy, "change_verb"), "{:?}", facts_of(copy));
        for said in
            ["hammer ping", "hammer task progress --id 8f2a", "hammer lifecycle-environment paths --organization T"]
        {
            assert!(!has(said, "change_verb") && !has(said, "destroy_verb"), "{said}: {:?}", facts_of(said));
        }
        assert!(has("crsctl delete resource hf.ordprd.gg_extract -f", "destroy_verb"));
        assert!(has("dgmgrl /@ORDPRD \"switchover to 'ORDPRD_DR'\"", "change_verb"));
        assert!(has("dgmgrl /@ORDPRD 'show configuration'", "read_verb"));
        assert!(has("ocrconfig -restore /backup/backup00.ocr", "restore_verb"));
        // Uyuni's spacecmd by its command's verb; Rake's listings of its tasks.
        assert!(has("spacecmd -y -- softwarechannel_delete norvale-x", "destroy_verb"));
        assert!(has("spacecmd -y -- system_reboot group:prod-web", "change_verb"));
        let list = "spacecmd -s uyuni01 -u svc -- softwarechannel_listerrata norvale-prod";
        assert!(has(list, "read_verb") && !has(list, "change_verb"), "{:?}", facts_of(list));
        assert!(has("bundle exec rake -T", "read") || has("rake -T", "read"));
        // IBM Power's commands by the verb their names lead with.
        assert!(has("chsysstate -r lpar -m P9 -o shutdown --immed -n app03", "change_verb"));
        assert!(has("rmsyscfg -r lpar -m P9-DEV -n web05", "destroy_verb"));
        assert!(has("ioscli rmvdev -vtd vtscsi12", "destroy_verb"));
        let list = "ioscli lsmap -all -fmt :";
        assert!(has(list, "read_verb") && !has(list, "change_verb"), "{:?}", facts_of(list));
        assert!(has("lssyscfg -r lpar -m P9-PRD", "read_verb"));
        assert!(has("migrlpar -o v -m P9-PRD-01 -t P9-PRD-02 -p app03", "read_verb"));
        for read in
            ["spacecmd -q -- report_outofdatesystems", "spacecmd -q -- configchannel_export sshd -f c/sshd.json"]
        {
            assert!(has(read, "read_verb") && !has(read, "change_verb"), "{read}: {:?}", facts_of(read));
        }
    }

    #[test]
    fn readings_found_in_fresh_315_to_348() {
        let has = has_fact;
        // InfluxQL given to InfluxDB 1's `influx -execute`, on the host `-host` names.
        let drop = "influx -host influx-prod-01.norvale.net -database telegraf -execute 'DROP MEASUREMENT snmp_old'";
        assert!(has(drop, "db_destroy_remote"), "{:?}", facts_of(drop));
        let into = "influx -host i1.example.net -execute 'SELECT * INTO telegraf.autogen.cpu FROM staging.autogen.cpu'";
        assert!(has(into, "db_destroy_remote"), "{:?}", facts_of(into));
        let show = "influx -host i1.example.net -database telegraf -execute 'SHOW MEASUREMENTS'";
        assert!(has(show, "db_read") && !has(show, "db_destroy_remote"), "{:?}", facts_of(show));
        // Teradata: BTEQ's `.LOGON` names the system; `MODIFY USER` changes it.
        let modify = "printf '.LOGON tdprod/dba,%s\\nMODIFY USER svc AS PERM = 5;\\n.QUIT\\n' \"$P\" | bteq";
        assert!(has(modify, "db_change_remote"), "{:?}", facts_of(modify));
        assert!(has("tbuild -f tpt/load_stg_pos.tpt -j stg_pos_20240612", "change_verb"));
        assert!(has("dsc delete_job -n edw_core_nightly_full_old -skip_prompt", "destroy_verb"));
        assert!(has("dsc list_jobs", "read_verb"));
        // Served clients by their verbs: Kapacitor, Fleet, PythonAnywhere, Astronomer, Deployer.
        let define = "kapacitor -url http://kap-01.example.net:9092 define cpu_alert -tick t/cpu.tick";
        assert!(has(define, "change_verb"), "{:?}", facts_of(define));
        assert!(has("kapacitor delete recordings 7f3c2a9e", "destroy_verb"));
        assert!(has("kapacitor list tasks", "read_verb"));
        assert!(has("fleetctl apply -f fleet/packs/ir-2024-117.yml", "change_verb"));
        assert!(has("fleetctl delete -f fleet/queries/old.yml", "destroy_verb"));
        assert!(has("fleetctl get hosts --json", "read_verb"));
        assert!(has("pa webapp reload --domain brightleaf.pythonanywhere.com", "change_verb"));
        assert!(has("pa schedule delete id 4471", "destroy_verb"));
        assert!(has("pa schedule list", "read_verb"));
        assert!(has("astro deployment update clx4f9b7w00b102mf3ha8y1tq --scheduler-size large", "change_verb"));
        assert!(has("astro deployment variable create --deployment-id clx4 SLACK=#data", "change_verb"));
        assert!(has("astro deployment list", "read_verb"));
        assert!(has("astro dev kill", "destroy_verb"));
        assert!(has("vendor/bin/dep deploy production --plan", "dry_run"));
        assert!(has("vendor/bin/dep rollback production", "change_verb"));
        assert!(!has("dep ensure -update", "change_verb"));
        assert!(!has("dep run 'df -h /var/www' stage=production", "change_verb"));
        let run = "vendor/bin/dep run 'rm -rf var/cache/prod' production";
        assert!(features(run).iter().any(|f| f.starts_with("R=") && f.ends_with("|remote")), "{:?}", features(run));
        assert!(!has("npx astro add tailwind --yes", "served_change"));
        assert!(!has("zgrep -h \"DROP MEASUREMENT\" /var/log/influxdb/influxd.log.1.gz", "db_destroy"));
        let export = "tbuild -f tpt/export_dw_fin_gl.tpt -v tpt/jobvars/export_gl_202405.txt -j gl_export_202405";
        assert!(has(export, "download") && !has(export, "change_verb"), "{:?}", facts_of(export));
        // Velociraptor's VQL by the functions it calls.
        let vql = |q: &str| format!("velociraptor --api_config ~/.config/velociraptor/api.config.yaml query \"{q}\"");
        assert!(has(&vql("SELECT * FROM hunt_delete(hunt_id='H.CR1', really_do_it=TRUE)"), "destroy_verb"));
        let collect =
            vql("SELECT collect_client(client_id='C.8f1a', artifacts='Windows.Remediation.Quarantine') FROM scope()");
        assert!(has(&collect, "change_verb"), "{:?}", facts_of(&collect));
        let read = vql("SELECT client_id, os_info.hostname FROM clients()");
        assert!(has(&read, "read_verb") && !has(&read, "change_verb"), "{:?}", facts_of(&read));
    }

    #[test]
    fn readings_found_in_fresh_352_to_359() {
        let has = has_fact;
        // IBM Storage Protect's administrative commands by their first word.
        let dsm = |c: &str| format!("dsmadmc -se=SPSRV01 -id=admin -password=\"$SP_PW\" -dataonly=yes \"{c}\"");
        assert!(has(&dsm("delete volume A00412L8 discarddata=yes"), "destroy_verb"));
        assert!(has(&dsm("update stgpool CONT_PRIM reusedelay=0"), "change_verb"));
        assert!(has(&dsm("query volhistory type=dbb"), "read_verb"));
        assert!(has(&dsm("audit volume A00219L8 fix=no"), "read_verb"));
        assert!(has(&dsm("export node ERP-DB01 filedata=all preview=yes"), "read_verb"));
        assert!(has("RMU /DUMP /HEADER MFG_DB:ORDERS.RDB", "read_verb"));
        assert!(has("sapcontrol -nr 00 -function WaitforStopped 600 5", "read_verb"));
        let exec = "northflank exec service --projectId p --serviceId api --cmd \"printenv NODE_ENV\"";
        assert!(!has(exec, "change_verb"), "{:?}", facts_of(exec));
        // StackStorm, Northflank, Meteor Up, CFEngine.
        assert!(has("st2 run ops.db_failover primary=pg-prod-01.example.net", "change_verb"));
        assert!(has("st2 pack remove legacy", "destroy_verb"));
        assert!(has("st2 execution list -n 20", "read_verb"));
        assert!(has("northflank pause service --projectId p --serviceId api", "change_verb"));
        assert!(has("mup stop --config .deploy/mup.js", "change_verb"));
        assert!(has("cf-runagent -H web04.prod.example.internal", "change_verb"));
        assert!(has("cf-remote destroy --all", "destroy_verb"));
        // SAP: HANA's SQL client, its replication, the instance's control.
        let recover = "hdbsql -U PRDSYS \"RECOVER DATABASE FOR HP1 UNTIL TIMESTAMP '2024-06-11 08:00:00'\"";
        assert!(has(recover, "db_destroy"), "{:?}", facts_of(recover));
        assert!(has("hdbsql -n hanaprd01:30015 -u SYSTEM \"DELETE FROM Z.STAGING\"", "db_destroy_remote"));
        let restart = "sapcontrol -nr 10 -host s4pci01 -user s4padm \"$PW\" -function RestartSystem ALL";
        assert!(has(restart, "change_verb") && has(restart, "elsewhere_change"), "{:?}", facts_of(restart));
        assert!(has("sapcontrol -nr 10 -function GetProcessList", "read_verb"));
        assert!(has("hdbnsutil -sr_takeover", "change_verb") && has("hdbnsutil -sr_state", "read_verb"));
        assert!(has("crm node standby hanaprd01", "change_verb") && has("crm status", "read_verb"));
        // Netezza.
        assert!(has("nzsql -host nz1.example.corp -d DW -c \"GRANT SELECT ON T TO GROUP RO\"", "db_change_remote"));
        assert!(has("nz_migrate -shost a -sdb DW -thost b -tdb DW -t T -TruncateTargetTable YES", "destroy_verb"));
        // HP-UX, Serviceguard, OpenVMS's DCL.
        assert!(has("swremove -p -x autoreboot=true PHSS_43210", "dry_run"));
        assert!(has("swlist -l patch", "read_verb"));
        assert!(has("cmhaltpkg erp_pkg", "change_verb") && has("cmviewcl -v", "read_verb"));
        assert!(has("kctune maxuprc=1024", "change_verb") && has("kctune maxuprc", "read_verb"));
        assert!(has("PURGE /KEEP=1 /LOG MFG$DATA:[ORDERS]*.DAT", "destroy_verb"));
        assert!(has("SHOW SYSTEM", "read_verb") && !has("show system", "read_verb"));
        // Junos: a support report reads; a `clear` of what it names throws it away.
        let support = "ssh netops@mx1.example.net 'request support information | no-more'";
        assert!(has(support, "read_verb") && !has(support, "change_verb"), "{:?}", facts_of(support));
        assert!(has("ssh netops@mx1.example.net 'clear log messages'", "destroy_verb"));
        assert!(!has("clear", "destroy_verb") && !has("clear -T xterm-256color", "destroy_verb"));
    }

    #[test]
    fn readings_found_in_fresh_360_to_361() {
        let has = has_fact;
        assert!(has("adop phase=apply patches=35094324 workers=16", "change_verb"));
        assert!(has("adop -status", "read_verb"));
        assert!(has("AFPASSWD -c apps@HGPRD -s APPLSYS", "change_verb"));
        assert!(
            has("psadmin -c shutdown! -d HCMPRD", "change_verb") && has("psadmin -c sstatus -d HCMPRD", "read_verb")
        );
        let imp = "impdp system/pw@HCMTST schemas=SYSADM dumpfile=x_%U.dmp table_exists_action=replace parallel=8";
        assert!(has(imp, "destroy_verb"), "{:?}", facts_of(imp));
        let ddl = "impdp system/pw directory=DP_DIR dumpfile=hr_%U.dmp sqlfile=hr_ddl_preview.sql";
        assert!(has(ddl, "read_verb") && !has(ddl, "change_verb"), "{:?}", facts_of(ddl));
        assert!(has("oci compute instance action --action STOP --instance-id ocid1.instance.oc1.iad.x", "change_verb"));
        assert!(has("npx convex run --prod migrations:backfillOrgIds", "change_verb"));
        assert!(!has("npx convex run seed:init", "change_verb"));
        // Oracle's changes rolled back before the session ends change nothing.
        let rolled =
            "printf \"DELETE FROM PSPRCSRQST WHERE RUNSTATUS = '3';\\nROLLBACK;\\n\" | sqlplus -s sysadm/pw@HCMDEV";
        assert!(has(rolled, "db_read") && !has(rolled, "db_destroy_remote"), "{:?}", facts_of(rolled));
        let ddl = "printf 'DROP TABLE t;\\nROLLBACK;\\n' | sqlplus -s sysadm/pw@HCMDEV";
        assert!(!has(ddl, "db_read"), "{:?}", facts_of(ddl));
    }

    #[test]
    fn readings_found_in_fresh_362_to_367() {
        let has = has_fact;
        // A POST that validates or looks up only.
        let validate = "curl -s -X POST -H \"Authorization: Api-Token $T\" \"https://x.live.dynatrace.com/api/v2/settings/objects?validateOnly=true\" -d @build/a.json";
        assert!(has(validate, "dry_run"), "{:?}", facts_of(validate));
        let lookup = "curl -s -X POST -H \"Authorization: Api-Token $T\" https://x.live.dynatrace.com/api/v2/apiTokens/lookup -d '{}'";
        assert!(has(lookup, "read") || has(lookup, "read_verb"), "{:?}", facts_of(lookup));
        // RouterOS over ssh.
        let print = "ssh admin@cap-hq-3f.example.net '/interface wifi registration-table print'";
        assert!(has(print, "read_verb") && !has(print, "change_verb"), "{:?}", facts_of(print));
        assert!(has("ssh admin@rtr1.example.net '/export'", "read_verb"));
        assert!(has("ssh admin@rtr1.example.net '/interface monitor-traffic ether1 once'", "read_verb"));
        assert!(has("ssh admin@rtr1.example.net '/system reboot'", "change_verb"));
        assert!(!has("/interface print", "read_verb"), "not over ssh: a script of this machine's");
        // Check Point, OneAgent, Falcon, Zeabur, Appwrite.
        assert!(has("mgmt_cli install-policy policy-package \"NVF\" targets.1 \"CL-OSL\" -s sid.txt", "change_verb"));
        assert!(has("mgmt_cli show hosts limit 50 -s sid.txt", "read_verb"));
        assert!(has("mgmt_cli discard -s sid.txt", "destroy_verb"));
        assert!(has("oneagentctl --get-host-group --get-tenant", "read_verb"));
        assert!(has("falconctl -g --rfm-state --version", "read_verb"));
        assert!(has("zeabur service restart --id 6631f4a7 -y", "change_verb"));
        assert!(has("appwrite functions create-execution --function-id send-receipt", "change_verb"));
    }

    #[test]
    fn readings_found_in_fresh_376_to_383() {
        let has = has_fact;
        assert!(has("pcs cluster destroy --all", "destroy_verb"));
        assert!(has("pcs property set stonith-enabled=false", "change_verb"));
        assert!(has("pcs resource status g_nfs", "read_verb"));
        assert!(!has("pcs -f draft.xml resource create p_ip IPaddr2", "served_change"));
        assert!(has("crm_resource --resource ms_drbd --ban --node hv-db01", "change_verb"));
        assert!(has("stonith_admin --reboot nfs-b --tolerance 5s", "change_verb"));
        assert!(has("drbdadm connect --discard-my-data pgdata", "destroy_verb"));
        assert!(has("drbdadm status", "read_verb") && has("drbdadm adjust all", "change_verb"));
        assert!(has("riak-admin cluster commit", "change_verb") && has("riak-admin cluster plan", "read_verb"));
        assert!(has("fdbcli --exec 'writemode on; clearrange ledger/tmp/ ledger/tmp0'", "destroy_verb"));
        assert!(has("fdbcli --exec 'exclude 10.20.4.14:4500'", "change_verb"));
        assert!(has("fdbcli --exec 'exclude'", "read_verb") && has("fdbcli --exec 'status details'", "read_verb"));
        assert!(has(
            "fdbrestore start -r blobstore://x/fdb --dest-cluster-file /etc/foundationdb/fdb.cluster",
            "restore_verb"
        ));
        let weed = "echo \"lock; volume.delete -node=sw-vol-03:8080 -volumeId=412; unlock\" | weed shell -master=sw-master-01:9333";
        assert!(has(weed, "destroy_verb"), "{:?}", facts_of(weed));
        let list = "echo 'volume.list' | weed shell -master=sw-master-01:9333";
        assert!(has(list, "read_verb") && !has(list, "change_verb"), "{:?}", facts_of(list));
        let plan = "printf 'lock\\nvolume.balance -collection=EACH_COLLECTION\\nunlock\\n' | weed shell -master=m:9333";
        assert!(!has(plan, "change_verb"), "{:?}", facts_of(plan));
        assert!(has("drbdadm -d primary --force pgdata", "dry_run"));
        assert!(has("pcs cluster cib cib-draft.xml", "read_verb"));
        assert!(has("ctmpsm -LISTALL", "read_verb") && has("ctm build folders/T.json", "read_verb"));
        assert!(has("sendevent -E FORCE_STARTJOB -J FIN_EOD", "change_verb"));
        assert!(has("echo 'delete_box: MKT_LEGACY_BOX' | jil", "destroy_verb"));
        assert!(has("autorep -J FIN_EOD_GL_POST -q", "read_verb"));
        assert!(has("ctm run job::setToOk ctmsrv-prd01:0004ka -e ctm-prd", "change_verb"));
        assert!(has("ctm config server:agent::delete ctmsrv-prd01 agt-old-fin01 -e ctm-prd", "destroy_verb"));
        assert!(has("ctmcontb -DELETE FIN-GL-READY 0614", "destroy_verb"));
    }

    #[test]
    fn readings_found_in_fresh_424_to_427() {
        let has = has_fact;
        // Pacemaker's `pcs`: what refers to a resource, the configuration's check and corosync's
        // configuration are shown; with `-f FILE` a draft file is edited, whatever the verb.
        for read in ["pcs constraint ref vip-public", "pcs cluster corosync", "pcs cluster verify --full"] {
            assert!(has(read, "read_verb") && !has(read, "change_verb"), "{read}: {:?}", facts_of(read));
        }
        let draft = "pcs -f /root/cib-scratch.xml resource delete vip-public";
        assert!(has(draft, "file_write"), "{:?}", facts_of(draft));
        assert!(!has(draft, "destroy_verb") && !has(draft, "served_change"), "{:?}", facts_of(draft));
        assert!(
            has("pcs resource delete vip-public", "change_verb")
                && has("pcs resource delete vip-public", "served_change")
        );
        // sgdisk's `--pretend` (`-P`) writes nothing to the disk; without it, it does.
        for pretend in ["sgdisk --pretend --zap-all /dev/mapper/mpathm", "sgdisk -P -Z /dev/sdb"] {
            assert!(has(pretend, "dry_run") && !has(pretend, "device_write"), "{pretend}: {:?}", facts_of(pretend));
        }
        assert!(has("sgdisk --zap-all /dev/mapper/mpathm", "device_write"));
        // crm_resource's forced states and parameters change the cluster; its queries read.
        for forced in [
            "crm_resource --resource pgsql-ha --force-promote",
            "crm_resource -r vip --set-parameter ip --parameter-value 10.0.0.9",
            "crm_resource --refresh --resource pgsql-ha",
        ] {
            assert!(has(forced, "change_verb") && has(forced, "served_change"), "{forced}: {:?}", facts_of(forced));
        }
        assert!(has("crm_resource --resource pgsql-ha --locate", "read_verb"));
    }

    /// Whether a command runs a task runner's target named for sending ([`runner_sends`]).
    fn runs_a_sending_target(command: &str) -> bool {
        analyse(command).calls.iter().any(|call| runner_sends(call, &of(call)))
    }

    #[test]
    fn readings_found_in_fresh_442_to_449() {
        let has = has_fact;
        // A last `?` on another machine is a device's context help; here it is a glob.
        assert!(has("ssh netops@sw1 'chassis reboot ?'", "help"));
        assert!(!has("ssh netops@sw1 'chassis reboot ?'", "remote_change"));
        assert!(!has("rm ?", "help"));
        // opkg's `--noaction` and OpenWrt's `sysupgrade -T` only test.
        assert!(has("ssh root@ap1 'opkg remove --noaction vw-agent'", "dry_run"));
        assert!(has("ssh root@ap1 'sysupgrade -T /tmp/fw.itb'", "dry_run"));
        assert!(!has("ssh root@ap1 'sysupgrade -n /tmp/fw.itb'", "dry_run"));
        // A patch stack's `push` applies patches here; another program's pushes.
        assert!(!has("quilt push -a", "publish_verb") && has("zorkctl push origin main", "publish_verb"));
        // Onyx's JSON API given a `show` reads; given a change, it sends it.
        let show = r#"curl -sk -X POST "https://sw1/admin/launch?script=json" -d '{"cmd": "show interfaces ethernet status"}'"#;
        assert!(!has(show, "send"), "{:?}", facts_of(show));
        let change = r#"curl -sk -X POST "https://sw1/admin/launch?script=json" -d '{"cmd": "no vlan 310"}'"#;
        assert!(has(change, "send"), "{:?}", facts_of(change));
        // An ILOM's `set` given a target's path changes it.
        assert!(has("ssh root@ilom1 'set /HOST/bootmode config=factory-default'", "change_verb"));
        // Qumulo's `qq` changes its cluster.
        assert!(has("qq snapshot_delete_snapshot --id 48211", "served_change"));
        assert!(!has("qq snapshot_list_snapshots", "served_change"));
        // Onyx's `cli -h` statements, and a path of `select`s whose action reads.
        let unseen = |c: &str| -> Vec<String> {
            analyse(c).calls.iter().flat_map(of_unseen).filter(|f| f.starts_with("R=") && !f.contains('|')).collect()
        };
        let reads = |c: &str| {
            let f = unseen(c);
            f.contains(&"R=read_verb".to_string()) && !f.iter().any(|x| x.ends_with("_change")) || panic!("{c}: {f:?}")
        };
        let changes = |c: &str| unseen(c).contains(&"R=remote_change".to_string()) || panic!("{c}: {:?}", unseen(c));
        assert!(reads(r#"ssh admin@sw1 cli -h '"enable" "show interfaces status"'"#));
        assert!(changes(r#"ssh admin@sw1 cli -h '"enable" "configure terminal" "no vlan 310" "configuration write"'"#));
        assert!(reads("ssh root@zfssa1 'shares select prod-db select oradata01 show'"));
        assert!(reads("ssh root@zfssa1 'shares select prod-db select fs1 get space_used quota'"));
        assert!(changes("ssh root@zfssa1 'shares select prod-db select oradata01 set quota=4T'"));
        // A task runner's target named for sending, unless a word spares it or it is a dry run.
        let sends = runs_a_sending_target;
        for c in [
            "make deploy",
            "make -C services/inventory deploy ENV=staging",
            "make docker-push",
            "npm run deploy:prod",
            "npm --prefix docs run deploy",
            "yarn release",
            "just release 1.4.0",
            "./gradlew :jolie-client:publish",
            "rake deploy:production",
        ] {
            assert!(sends(c), "{c}");
        }
        for c in [
            "make -n deploy",
            "make release-notes",
            "make deploy-local",
            "npm run build",
            "npm run deploy:dev",
            "./gradlew bundleRelease",
            "./gradlew publishToMavenLocal",
            "make -f deploy.mk all",
            "yarn add release-it",
        ] {
            assert!(!sends(c), "{c}");
        }
    }

    #[test]
    fn readings_found_in_fresh_450_to_465() {
        let seen = |c: &str| -> Vec<String> { analyse(c).calls.iter().flat_map(of_seen).collect() };
        // `sudo` says nothing of a statement that destroys rows; it stays on anything else.
        let truncate = seen("sudo -u postgres psql -d kestrel -c 'TRUNCATE TABLE sessions;'");
        assert!(
            truncate.contains(&"R=db_destroy".into()) && !truncate.iter().any(|x| x.contains("sudo")),
            "{truncate:?}"
        );
        assert!(seen("sudo -u postgres psql -d kestrel -c 'SELECT 1'").contains(&"sudo".into()));
        assert!(seen("sudo -u postgres psql -c \"ALTER SYSTEM SET work_mem = '64MB'\"").contains(&"sudo".into()));
        assert!(seen("sudo apt-get install -y jq").contains(&"sudo".into()));
        // A GET whose address's last part names an action does it; one that names what it reads,
        // a directory or a file is fetched.
        let acts = |c: &str| seen(c).contains(&"R=remote_change".into());
        for c in [
            "curl -s 'https://billing.example.io/internal/cache/purge?scope=all'",
            "curl -s http://vmstorage-01:8482/snapshot/delete_all",
            "curl -s http://cortex-ingester-3:8080/ingester/shutdown",
            "curl -sk -u bal:\"$LM_PASS\" https://lm-prod-02/access/reboot",
            "curl -s \"https://api.example.io/admin/purge-cache?all=true\"",
        ] {
            assert!(acts(c), "{c}: {:?}", seen(c));
        }
        for c in [
            "curl -s https://matrix.example.net/_synapse/admin/v1/purge_history_status/vQmLtRxZ",
            "curl -sk https://nifi:8443/nifi-api/flowfile-queues/0b3f/drop-requests/",
            "curl -fsSL https://bun.sh/install",
            "curl -fsSLO https://example.io/tools/reset.sh",
            "curl -s https://api.example.io/v2/deployments",
            "curl -s 'http://es1:9200/_cat/indices/*-to-delete-*?v'",
            "curl -s 'https://es1:9200/_ilm/policy/logs-30d-hot-warm-delete?pretty'",
        ] {
            assert!(!acts(c), "{c}: {:?}", seen(c));
        }
        // Babashka's tasks are a task runner's targets.
        let sends = runs_a_sending_target;
        for c in ["bb release", "bb run release", "bb -m acme.clojars.deploy --repo clojars"] {
            assert!(sends(c), "{c}");
        }
        for c in ["bb test", "bb run lint", "bb -m acme.tools.rotate-keys --env prod", "bb scripts/deploy.clj"] {
            assert!(!sends(c), "{c}");
        }
    }

    #[test]
    fn readings_found_in_fresh_466_to_473() {
        let has = has_fact;
        let runs = |c: &str, program: &str| analyse(c).calls.iter().any(|call| call.program == program);
        let seen = |c: &str| -> Vec<String> { analyse(c).calls.iter().flat_map(of_seen).collect() };
        // An ad-hoc run that lists its hosts, checks its syntax or runs in check mode changes
        // nothing: its command is not run, and the call reads.
        for c in [
            "ansible cradlepoint -i inventory/cp.yml -m raw -a reboot --list-hosts",
            "ansible web -a 'reboot' --list-hosts",
            "ansible web -m shell -a 'rm -rf /var/log/app' -C",
            "ansible -i inventories/prod sbc -m command -a 'sudo /opt/sonus/restart.sh' --check",
        ] {
            let f = seen(c);
            assert!(f.contains(&"R=read_verb".into()) && !f.contains(&"R=change_verb".into()), "{c}: {f:?}");
            assert!(!runs(c, "reboot") && !runs(c, "rm"), "{c}");
        }
        assert!(runs("ansible web -m shell -a 'rm -rf /var/log/app'", "rm"));
        assert!(has("ansible all -m ansible.builtin.service -a 'name=nginx state=restarted'", "change_verb"));
        // A network module given one command that shows reads; one that changes does not.
        let show = "ansible moxa -i inv -m ansible.netcommon.cli_command -a \"command='show running-config'\"";
        assert!(has(show, "read_verb") && !has(show, "change_verb"), "{:?}", facts_of(show));
        assert!(has("ansible moxa -m ansible.netcommon.cli_command -a \"command='reload'\"", "change_verb"));
        // `-n` is mke2fs's dry run, not mkfs.vfat's volume name.
        assert!(has("sudo mkfs.ext4 -n /dev/sdb1", "dry_run"));
        assert!(!has("sudo mkfs.vfat -F 32 -n GHLOGS /dev/sdc1", "dry_run"));
        // An FPGA programmer's bitstream or erase changes the board; a listing or a test does not.
        let board = |c: &str| analyse(c).calls.iter().any(|call| call.remote);
        for c in [
            "iceprog build/top.bin",
            "sudo iceprog -e 4M",
            "openFPGALoader -b ulx3s build/soc.bit",
            "sudo openFPGALoader -b ulx3s --write-flash build/soc.bit",
        ] {
            assert!(board(c), "{c}");
        }
        for c in ["iceprog --help", "iceprog -t", "openFPGALoader --detect", "openFPGALoader --list-boards"] {
            assert!(!board(c), "{c}");
        }
        // A target or a script named for flashing a board sends; one that checks it does not.
        let sends = runs_a_sending_target;
        assert!(sends("make flash BOARD=nucleo_f401re") && sends("just flash-all") && sends("make reflash"));
        assert!(!sends("make flash-check") && !sends("make -n flash"));
        let unseen = |c: &str| -> Vec<String> { analyse(c).calls.iter().flat_map(of_unseen).collect() };
        assert!(unseen("./scripts/flash_all_boards.sh").contains(&"R=remote_change".into()));
        // Past the options a call opens with, the first verb: not an option's value.
        let rm = "dscli -hmc1 10.40.12.21 -user dsadmin -pwfile ~/d.dat rmpprcpath -dev IBM.2107-75FKX41 -quiet 4A:5A";
        assert!(unseen(rm).contains(&"R=destroy_verb".into()), "{:?}", unseen(rm));
        let ls = "dscli -cfg ~/dscli/siteA.profile lsfbvol -dev IBM.2107-75FKX41 -volgrp V40";
        assert!(unseen(ls).contains(&"R=read_verb".into()), "{:?}", unseen(ls));
        // An option for the machine at the other end, given one, names another machine.
        let pprc = "dscli mkpprc -dev IBM.2107-75FKX41 -remotedev IBM.2107-75GHJ72 -type mmir 4A20-4A23:5A20-5A23";
        assert!(unseen(pprc).contains(&"R=elsewhere_change".into()), "{:?}", unseen(pprc));
        let here = "dscli chfbvol -dev IBM.2107-75FKX41 -cap 512 -quiet 4A10";
        assert!(!unseen(here).contains(&"R=elsewhere_change".into()), "{:?}", unseen(here));
        // An SNMP set changes the agent it names; a trap is sent to it; help reads.
        let reaches = |c: &str| unseen(c).contains(&"R=remote_change".into());
        assert!(reaches("snmpset -v2c -c private 10.20.1.11 IF-MIB::ifAdminStatus.7 i 2"));
        assert!(reaches("snmptrap -v2c -c trap 10.20.1.250 '' SNMPv2-MIB::coldStart"));
        assert!(
            !reaches("snmpset --help") && !reaches("snmpset -h") && !reaches("snmpget -v2c -c public sw1 sysName.0")
        );
    }

    #[test]
    fn readings_found_in_fresh_420_to_481() {
        let seen = |c: &str| -> Vec<String> { analyse(c).calls.iter().flat_map(of_seen).collect() };
        let reaches = |c: &str| seen(c).contains(&"R=remote_change".into());
        // kubectl's namespace before its subcommand is read as an option, not the subcommand.
        let scale = seen("kubectl -n bitbucket scale statefulset bitbucket --replicas=0");
        assert!(scale.contains(&"s=scale".into()) && !scale.iter().any(|x| x.contains("s=bitbucket")), "{scale:?}");
        let moved = |c: &str| {
            let args: Vec<String> = c.split(' ').skip(1).map(String::from).collect();
            let call = Call { program: "kubectl".into(), quoted: vec![false; args.len()], args, ..Call::default() };
            super::super::shell::kubectl_options_last(&call).map(|m| m.args.join(" "))
        };
        assert_eq!(moved("kubectl --context prod -n web get pods").as_deref(), Some("get pods --context prod -n web"));
        assert_eq!(moved("kubectl -n web exec api -- ls -la").as_deref(), Some("exec api -n web -- ls -la"));
        assert_eq!(moved("kubectl get pods -n web"), None);
        // A playbook run on its inventory changes its hosts; one named for reading, a check or a
        // run on this machine does not.
        for c in [
            "ansible-playbook -i inventory/icx.yml playbooks/icx_vlan_push.yml --limit idf3",
            "timeout 900 ansible-playbook -i inventories/lab playbooks/sbc_baseline.yml",
            "sudo -u netops ansible-playbook -i inventory/dc2.yml playbooks/nsx_tier1.yml",
        ] {
            assert!(reaches(c), "{c}: {:?}", seen(c));
        }
        for c in [
            "ansible-playbook -i inventory/switches.yml playbooks/backup.yml",
            "ansible-playbook -i inventory/routers.yml playbooks/collect_facts.yml",
            "ansible-playbook -i inventory/prod.ini site.yml --check --diff",
            "ansible-playbook -i inventory/prod.ini site.yml --list-hosts",
            "ansible-playbook -i localhost, -c local playbooks/render_configs.yml",
            "ansible-playbook site.yml --help",
        ] {
            assert!(!reaches(c), "{c}: {:?}", seen(c));
        }
        // HDFS's files and namenode are the cluster's: a change or a delete there reaches it.
        for c in [
            "hdfs dfs -rm -r -skipTrash /user/etl/staging/orders_2023",
            "hdfs dfs -expunge",
            "hadoop fs -put -f exports/ref.csv /data/ref/",
            "sudo -u hdfs hdfs dfsadmin -safemode enter",
            "hdfs balancer -threshold 5",
        ] {
            assert!(reaches(c), "{c}: {:?}", seen(c));
        }
        for c in
            ["hdfs dfs -ls /data", "hdfs dfs -cat /data/x.csv", "hdfs dfsadmin -report", "hdfs dfsadmin -safemode get"]
        {
            assert!(!reaches(c), "{c}: {:?}", seen(c));
        }
        assert!(seen("hdfs dfs -rm -r /data/old").contains(&"R=destroy_verb".into()));
        // A tape written over: an archive created on its drive, a buffer's output, a format.
        let unseen = |c: &str| -> Vec<String> { analyse(c).calls.iter().flat_map(of_unseen).collect() };
        let tape = |c: &str| seen(c).contains(&"R=device_write".into()) || unseen(c).contains(&"R=device_write".into());
        for c in [
            "tar -cvf /dev/nst0 -b 512 /srv/finance/closing-2024",
            "tar --create --file=/dev/st0 /srv/x",
            "tar cf /dev/nsa0 /home",
            "tar -cf - /srv/atlas | mbuffer -m 4G -o /dev/nst0",
            "sudo -u ltfsadm mkltfs -d /dev/sg5 -s MV2051L9 -f",
        ] {
            assert!(tape(c), "{c}");
        }
        let format = "sudo -u ltfsadm mkltfs -d /dev/sg5 -s MV2051L9 -n media-raw-2024 -f";
        assert!(unseen(format).contains(&"R=device_write".into()), "{:?}", unseen(format));
        for c in [
            "tar -tvf /dev/nst0 -b 512",
            "tar -xvf /dev/nst0 -C /srv/restore",
            "tar -cf backup.tar /srv/x",
            "mkltfs --help",
        ] {
            assert!(!tape(c), "{c}");
        }
        // A GET whose query names an action that changes or destroys does it; one that reads, reads.
        for (c, kind) in [
            ("curl -s 'http://lib01/gf/partition.xml?action=delete&name=Test-LTO7'", Some("destroy")),
            (
                "curl -s 'http://solr01:8983/solr/admin/collections?action=DELETEREPLICA&collection=orders'",
                Some("destroy"),
            ),
            ("curl -s 'http://lib01/gf/tapeDrive.xml?action=resetDrive&driveName=D3'", Some("change")),
            (
                "curl --digest -u root:x 'http://10.40.12.36/axis-cgi/param.cgi?action=update&Network.SSH.Enabled=no'",
                Some("change"),
            ),
            ("curl -s 'http://solr01:8983/solr/admin/collections?action=CLUSTERSTATUS'", None),
            ("curl -s 'http://solr01:8983/solr/admin/collections?action=LIST'", None),
            ("curl -s 'https://wiki/w/api.php?action=query&meta=siteinfo'", None),
            ("curl -s 'https://fw/api/?type=config&action=show&xpath=/config'", None),
        ] {
            let call = &analyse(c).calls[0];
            assert_eq!(url_action(call, &of(call)), kind, "{c}");
        }
    }

    #[test]
    fn readings_found_in_fresh_482_to_497() {
        let unseen = |c: &str| -> Vec<String> { analyse(c).calls.iter().flat_map(of_unseen).collect() };
        let seen = |c: &str| -> Vec<String> { analyse(c).calls.iter().flat_map(of_seen).collect() };
        let has = |c: &str, fact: &str| {
            let fact = format!("R={fact}");
            seen(c).contains(&fact) && unseen(c).contains(&fact)
        };
        // What `nc` carries that only asks reads, wherever it goes: a JSON-RPC method named for
        // reading, Asterisk's manager actions that show, a Zebra printer's host queries and
        // `getvar`. What acts is still sent.
        for c in [
            r#"printf '{"jsonrpc":"2.0","method":"StatusGet","params":0,"id":1}\0' | nc -q 2 10.20.40.10 1710"#,
            r#"printf 'Action: Login\r\nUsername: m\r\nSecret: %s\r\n\r\nAction: CoreShowChannels\r\n\r\nAction: Logoff\r\n\r\n' "$S" | nc -q 3 pbx01.example.net 5038"#,
            r#"printf '~HS\r\n' | nc -w 2 10.40.12.21 9100"#,
            r#"nc -w 2 10.40.12.21 9100 <<< '! U1 getvar "appl.name"'"#,
            "ssh zk01.example.net 'echo stat | nc localhost 2181'",
            "echo status | nc -U /tmp/gh-ost.sock",
        ] {
            let told = [seen(c), unseen(c)].concat();
            assert!(has(c, "read"), "{c}: {told:?}");
            assert!(!told.iter().any(|x| x.starts_with("R=send") || x == "R=remote_change"), "{c}: {told:?}");
        }
        for c in [
            r#"printf '{"jsonrpc":"2.0","method":"Component.Set","params":{"Name":"x"},"id":1}\0' | nc -q 1 10.20.40.10 1710"#,
            r#"printf 'Action: Login\r\nUsername: a\r\n\r\nAction: Originate\r\nChannel: PJSIP/100\r\n\r\n' | nc -q 3 pbx01.example.net 5038"#,
            r#"printf '! U1 do "device.reset" ""\r\n' | nc -w 2 10.40.12.21 9100"#,
            r#"printf 'Host: a\r\nUser: b\r\n' | nc -q 1 web01.example.net 80"#,
        ] {
            assert!(has(c, "send") && !has(c, "read"), "{c}: {:?}", seen(c));
        }
        let previews = |c: &str| seen(c).contains(&"R=dry_run".into()) || unseen(c).contains(&"R=dry_run".into());
        // A script named for looking, run on another machine with nothing that acts, looks.
        for c in [
            "ssh opsadm@ibmi01.example.net 'bash ~/bin/ptf_prereq_check.sh SF99740'",
            "ssh admin@mbg01.example.net 'sudo /opt/mbg/bin/collect-diagnostics.sh'",
        ] {
            assert!(previews(c), "{c}: {:?}", unseen(c));
        }
        for c in [
            "ssh ops@tms01.example.net '/opt/tms/check_tms_health.py --all --auto-restart'",
            "kubectl exec -n api deploy/worker -- node dist/scripts/backfill-invoice-status.js --batch 500",
            "ssh ops@db01.example.net '~/bin/fix_replication_status.sh'",
            "./scripts/check-disks.sh",
        ] {
            assert!(!previews(c), "{c}: {:?}", unseen(c));
        }
        // A deploy's or an upgrade's preview asks what it would do; `preview` as an environment's
        // name, after a verb that removes, is no preview.
        for c in ["sf project deploy preview --target-org uat", "isi upgrade cluster assess /ifs/data/x.tar.gz"] {
            assert!(previews(c), "{c}");
        }
        for c in [
            "sf project deploy start --target-org prod",
            "vercel env rm KEY preview --yes",
            "isi upgrade cluster start",
        ] {
            assert!(!previews(c), "{c}");
        }
    }

    #[test]
    fn readings_found_in_fresh_498_to_505() {
        let told = |c: &str| -> Vec<String> {
            analyse(c).calls.iter().flat_map(|call| [of_seen(call), of_unseen(call)].concat()).collect()
        };
        // TL1's retrievals, sent by `nc` between a log in and out, read.
        let tl1 = r#"printf 'ACT-USER:NE1:admin:1::%s;\nRTRV-ALM-ALL:NE1::2;\nCANC-USER:NE1:admin:3;\n' "$P" | nc -q 5 10.20.1.11 9090"#;
        assert!(told(tl1).contains(&"R=read".into()) && !told(tl1).contains(&"R=send".into()), "{:?}", told(tl1));
        let dlt = r#"printf 'ACT-USER:NE1:admin:1::%s;\nDLT-CRS-OCH:NE1:1-A-3-1:2;\n' "$P" | nc -q 5 10.20.1.11 9090"#;
        assert!(told(dlt).contains(&"R=send".into()), "{:?}", told(dlt));
        // (After `fresh-506` to `-513`:) an instrument's SCPI queries and a device's `get` read;
        // its commands and `set` are sent.
        for c in [
            "echo '*IDN?' | nc -w 2 192.168.10.21 5025",
            r"printf ':SYST:ERR?\n' | nc -q 1 192.168.10.42 5025",
            "printf '< GET 1 TX_MUTE_STATUS >' | nc -w1 10.20.40.22 2202",
            "echo 'DEVICE get version' | nc -w2 10.20.30.11 23",
        ] {
            assert!(told(c).contains(&"R=read".into()) && !told(c).contains(&"R=send".into()), "{c}: {:?}", told(c));
        }
        for c in [
            "echo '*RST' | nc -w 2 192.168.10.21 5025",
            "printf '< SET 1 TX_MUTE ON >' | nc -w1 10.20.40.22 2202",
            "echo 'Level3 set level 1 -20' | nc -w1 10.20.30.11 23",
        ] {
            assert!(told(c).contains(&"R=send".into()), "{c}: {:?}", told(c));
        }
        // A mail queue's messages removed or bounced, delivered now, a store's mail expunged.
        for (c, verb) in [
            ("exim -Mrm 1qT4Zk-0007Xa-3b", "R=destroy_verb"),
            ("exiqgrep -z -i | xargs -r exim -Mg", "R=destroy_verb"),
            ("sudo exim -qff", "R=publish_verb"),
            ("sendmail -qSfailed.example.net", "R=publish_verb"),
            ("cyr_expire -E 3 -D 30 -X 30 -v", "R=destroy_verb"),
            ("ipurge -f -d 180 user/archive@example.net", "R=destroy_verb"),
        ] {
            assert!(
                told(c).contains(&verb.into()) && told(c).contains(&"R=remote_change".into()),
                "{c}: {:?}",
                told(c)
            );
        }
        for c in ["exim -bp", "exim -bt jo@example.net", "exim -bd -q30m", "cyr_expire -E 3", "exim -Mf 1qT4Zk"] {
            assert!(!told(c).iter().any(|x| x == "R=destroy_verb" || x == "R=publish_verb"), "{c}: {:?}", told(c));
        }
    }

    #[test]
    fn readings_found_in_fresh_434_to_437() {
        let has = has_fact;
        // Burning eFuses is for good; `--virt` burns virtual ones; a summary reads.
        for burn in [
            "espefuse.py --port /dev/ttyUSB0 --do-not-confirm burn_efuse FLASH_CRYPT_CNT 1",
            "espefuse.py -p /dev/ttyUSB0 burn_key flash_encryption keys/k.bin",
            "idf.py -p /dev/ttyUSB0 efuse-burn JTAG_DISABLE",
        ] {
            assert!(has(burn, "device_write"), "{burn}: {:?}", facts_of(burn));
        }
        let virt = "espefuse.py --port /dev/ttyUSB0 --virt burn_efuse JTAG_DISABLE";
        assert!(has(virt, "dry_run") && !has(virt, "device_write"), "{:?}", facts_of(virt));
        assert!(!has("espefuse.py --port /dev/ttyUSB0 summary", "device_write"));
        assert!(!has("espefuse.py burn_efuse --help", "device_write"));
        // `set` given a word on another machine is an appliance's statement; here, or given an
        // option, it is the shell's.
        assert!(has("ssh admin@nsx1 'set ntp-server ntp2.example.net'", "remote_change"));
        assert!(!has("ssh admin@h1 'set -o pipefail; uptime'", "remote_change"));
        assert!(!has("set -- a b", "change_verb"));
        // A search endpoint told to act is no query (`.../services/search?action=restart`); a
        // search with other parameters still reads.
        let restart = "curl -sk -u admin:x -X POST 'https://nsx/api/v1/node/services/search?action=restart'";
        assert!(has(restart, "send") && !has(restart, "read"), "{:?}", facts_of(restart));
        let search = "curl -s -X POST 'http://localhost:9200/orders/_search?size=0'";
        assert!(!has(search, "send"), "{:?}", facts_of(search));
        // ExtremeXOS's JSON-RPC `cli` method given only `show` commands reads.
        let shows = r#"curl -sk -u a:b -d '{"jsonrpc":"2.0","id":1,"method":"cli","params":["show fdb vlan Data"]}' https://x460/jsonrpc"#;
        assert!(!has(shows, "send"), "{:?}", facts_of(shows));
        let changes = r#"curl -sk -u a:b -d '{"jsonrpc":"2.0","id":1,"method":"cli","params":["disable port 1:5"]}' https://x460/jsonrpc"#;
        assert!(has(changes, "send"), "{:?}", facts_of(changes));
    }

    #[test]
    fn readings_found_in_fresh_432() {
        let has = has_fact;
        // HPE's `ilorest bootorder` alone shows the order; given a boot target, it sets it.
        assert!(has("ilorest bootorder", "read_verb") && !has("ilorest bootorder", "served_change"));
        let once = "ilorest --url ilo-b3 -u admin -p \"$P\" bootorder --onetimeboot=Pxe --commit";
        assert!(has(once, "change_verb") && has(once, "served_change"), "{:?}", facts_of(once));
        // `ilorest set` stages a change in its local cache until `--commit` or `ilorest commit`.
        let staged = "ilorest set Attributes/WorkloadProfile=Virtualization-MaxPerformance";
        assert!(has(staged, "file_write"), "{:?}", facts_of(staged));
        assert!(!has(staged, "change_verb") && !has(staged, "served_change"), "{:?}", facts_of(staged));
        let committed = "ilorest set Attributes/SecureBootStatus=Enabled --commit --reboot=ColdBoot";
        assert!(has(committed, "served_change"), "{:?}", facts_of(committed));
    }

    #[test]
    fn readings_found_in_fresh_384_to_391() {
        let has = has_fact;
        assert!(has("proutil /db/hfprod/hfprod -C truncate bi -F", "destroy_verb"));
        assert!(has("proutil /db/hfprod/hfprod -C truncate bi -G 0", "change_verb"));
        assert!(has("proutil /db/hfprod/hfprod -C tabanalys", "read_verb"));
        assert!(has("proutil /db/hfprod/hfprod -C dump PUB.customer /exports/", "download"));
        assert!(has("proutil /db/t -C load /exports/hfprod/customer.bd", "restore_verb"));
        assert!(has("rfutil /db/hfprod/hfprod -C aimage extent empty /ai/hfprod.a3", "destroy_verb"));
        assert!(has("rfutil /db/hfprod/hfprod -C aimage extent full", "read_verb"));
        assert!(has("rfutil /db/hfprod/hfprod -C aimage end", "change_verb"));
        assert!(has("proshut /db/hfprod/hfprod -C list", "read_verb") && has("proshut /db/x/x -by", "change_verb"));
        assert!(
            has("prorest /db/p/p /backup/p.bak", "restore_verb") && has("prorest /db/p/p /b/p.bak -vp", "read_verb")
        );
        assert!(has("prodel /db/hfdev/hfdev_old", "destroy_verb"));
        assert!(has("symsg -sid 412 delete SG_ESX_CL02 -force -nop", "destroy_verb"));
        assert!(has("symsg -sid 412 delete SG_ESX_CL02 -force -nop", "served_change"));
        assert!(has("symrdf -sid 412 -sg SG_A -rdfg 10 failover -nop", "change_verb"));
        assert!(has("symrdf -sid 412 -sg SG_A -rdfg 10 query", "read_verb"));
        assert!(has("symsnapvx -sid 412 -sg SG_A -snapshot_name d restore -nop", "restore_verb"));
        assert!(has("symconfigure -sid 412 -file c.cmd preview", "read_verb"));
        assert!(!has("symcfg discover", "served_change") && has("symrdf failover -h", "help"));
        let bench = "bench --site staging.acme.com execute frappe.client.delete --args \"['Item', 'X']\"";
        assert!(has(bench, "destroy_verb"), "{:?}", facts_of(bench));
        assert!(has("bench --site s execute frappe.client.get_count", "read_verb"));
        assert!(has("bench --site s --force restore /b/db.sql.gz", "restore_verb"));
        assert!(has("bench --site s trim-tables --no-backup", "destroy_verb"));
        assert!(has("bench --site s uninstall-app x --dry-run", "dry_run"));
        assert!(has("bench --site s migrate", "change_verb") && has("bench --site s list-apps", "read_verb"));
        assert!(has("ssh 3paradm@3par01 growvv ORA_DATA 500G", "change_verb"));
        assert!(has("ssh 3paradm@3par01 removevv -f old", "destroy_verb"));
        assert!(has("ssh 3paradm@3par01 showvv -d", "read_verb"));
        assert!(has("ssh 3paradm@3par01 promotesv snp_1", "restore_verb"));
        assert!(has("growvv ORA_DATA 500G", "served_change") && !has("showmount -e nfs1", "read_verb"));
        let ems = "printf 'purge queue Q.DLQ\\n' | tibemsadmin -server tcp://ems1.acme.internal:7222 -user admin";
        assert!(has(ems, "destroy_verb"), "{:?}", facts_of(ems));
        let show = "printf 'show queues\\nshow connections\\n' | tibemsadmin -server tcp://ems1:7222";
        assert!(has(show, "read_verb") && !has(show, "change_verb"), "{:?}", facts_of(show));
        assert!(has("echo 'setprop queue Q secure' | tibemsadmin -server tcp://ems1:7222", "change_verb"));
        assert!(has("bwadmin undeploy -d PROD -a AS application x 2.0", "destroy_verb"));
        assert!(has("bwadmin show domains", "read_verb") && has("bwadmin start -d PROD -a AS", "served_change"));
        assert!(has("AppManage -undeploy -app Legacy/FTP -domain PROD", "destroy_verb"));
        assert!(has("xe vm-uninstall uuid=e5a0 force=true", "destroy_verb"));
        assert!(has("xe vm-uninstall uuid=e5a0 force=true", "served_change"));
        assert!(has("xe -s h01 -u root -pwf f pool-ha-disable", "change_verb"));
        assert!(
            has("xe vm-list power-state=running", "read_verb")
                && has("xe snapshot-revert snapshot-uuid=6f", "restore_verb")
        );
        assert!(has("xe vm-export vm=db filename=/mnt/db.xva", "download") && has("xe help vm-uninstall", "help"));
        assert!(!has("find . -name '*.backup' | xe rm -v", "served_change"));
        assert!(has("condor_rm -all", "destroy_verb") && has("condor_drain -graceful cn-r12-03", "served_change"));
        assert!(has("badmin hclose cn-r07-14", "change_verb") && has("badmin ckconfig -v", "read_verb"));
        assert!(!has("condor_rm -help", "destroy_verb"));
        assert!(has("ssh admin@fa-core01 'cfgclear; cfgsave'", "destroy_verb"));
        assert!(has("ssh admin@fa-core01 'cfgsave'", "remote_change"));
        let show = "ssh admin@fb-core01 'fabricshow; islshow; trunkshow'";
        assert!(has(show, "read_verb") && !has(show, "remote_change"), "{:?}", facts_of(show));
        assert!(has("ssh admin@sw 'portname 3/14 -n \"esx-prd-09\"'", "change_verb"));
        assert!(has("ssh admin@sw 'portname 3/14'", "read_verb") && has("ssh admin@sw 'defzone --show'", "read_verb"));
        assert!(has("ssh admin@sw 'date \"0611143024\"'", "remote_change") && !has("date +%F", "change_verb"));
        assert!(!has("date -d 20240611 +%s", "change_verb") && has("sudo date -s '2024-06-11 14:30'", "change_verb"));
        assert!(has("conman \"cancel FTA#JOB;noask\"", "change_verb") && has("conman \"sj FTA#@\"", "read_verb"));
        assert!(has("conman \"cancel FTA#JOB;noask\"", "served_change"));
        assert!(has("composer \"delete js=L#ETL;noask\"", "destroy_verb"));
        assert!(has("composer \"create defs.txt from js=@#@\"", "download"));
        assert!(has("ResetPlan -scratch", "destroy_verb") && has("rmstdlist -p 14", "read_verb"));
        assert!(has("optman chg cf=NO", "served_change") && has("optman ls", "read_verb"));
        assert!(has("composer \"delete cal=H2023;noask\"", "served_change"));
        assert!(!has("composer remove vendor/pkg", "served_change"));
        assert!(!has("planman crtfc /home/tws/fc -from 03/15/2025", "served_change"));
        assert!(has("prorest /db/p/p /backup/p.bak", "db_restore") && has("prodel /db/d/d", "db_destroy"));
        let db2 = "ssh db2inst1@db01 'db2 connect to TWS >/dev/null && db2 \"select count(*) from MDL.JOD\"'";
        assert!(has(db2, "db_read") && !has(db2, "remote_change"), "{:?}", facts_of(db2));
        let view = "symaccess -sid 412 delete view -name MV_ESX_CL02 -unmap -nop";
        assert!(has(view, "served_change") && !has(view, "read_verb"), "{:?}", facts_of(view));
        assert!(has("ssh symapi01 'sudo stordaemon shutdown all'", "remote_change"));
        let fed = "echo \"removealert -a -f\" | ssh 3paradm@3par-ams01";
        assert!(has(fed, "destroy_verb") && has(fed, "remote_change"), "{:?}", facts_of(fed));
        assert!(has("condor_off -peaceful -schedd -name schedd02", "served_change"));
        assert!(!has("sudo -u condor condor_off -daemon startd", "served_change"));
        assert!(has("printf 'shutdown\\n' | tibemsadmin -server tcp://ems2:7222", "served_change"));
    }

    #[test]
    fn readings_found_in_fresh_392_to_399() {
        let has = has_fact;
        assert!(has("raidcom delete ldev -ldev_id 0x2F10 -IH0", "destroy_verb"));
        assert!(has("raidcom add lun -port CL1-A-5 -ldev_id 0x1A30 -lun_id 12 -IH0", "served_change"));
        assert!(has("raidcom get ldev -ldev_id 0x1A20 -fx -IH0", "read_verb"));
        assert!(!has("raidcom get ldev -ldev_id 0x1A20 -fx -IH0", "served_change"));
        assert!(has("ssh cci01 'horctakeover -g ORA_PRD_HUR -t 3600 -IH1'", "remote_change"));
        assert!(has("pairresync -g SAP_PRD_SI -restore -IM10", "restore_verb"));
        assert!(has("pairdisplay -g ORA_PRD_HUR -fcx -IH0", "read_verb"));
        assert!(has("ssh fs9200 'svctask rmvdisk -force vmfs_old_ds03'", "destroy_verb"));
        assert!(has("ssh fs9200 'svctask chpartnership -stop fs7300'", "remote_change"));
        assert!(has("svctask mkvdisk -mdiskgrp P0 -size 2 -unit tb", "served_change"));
        assert!(has("ssh fs9200 'svcinfo lsvdisk -delim :'", "read_verb"));
        let rest = "curl -sk -X POST https://fs9200:7443/rest/v1/lsvdisk -H \"X-Auth-Token: $T\"";
        assert!(!has(rest, "remote_change") && !has(rest, "elsewhere_change"), "{:?}", facts_of(rest));
        assert!(has(rest, "read") && !has(rest, "send"), "{:?}", facts_of(rest));
        assert!(
            has("dbmcli -d MXD -U c help db_drop", "help") && !has("dbmcli -d MXD -U c help db_drop", "destroy_verb")
        );
        let pm = "pmcmd stopworkflow -sv IS_PRD -d Dom -uv U -pv P -f FIN wf_load";
        assert!(has(pm, "served_change"), "{:?}", facts_of(pm));
        assert!(has("pmcmd getworkflowdetails -sv IS_PRD -f FIN wf_load", "read_verb"));
        assert!(has("pmrep deletefolder -n FIN_DW_OLD", "destroy_verb"));
        assert!(!has("pmrep connect -r RS_PRD -d Dom -n svc -X PWD", "served_change"));
        assert!(has("infacmd.sh isp removeService -dn D -un A -sn IS_OLD", "destroy_verb"));
        assert!(
            has("dsjob -run -mode RESET DW_PROD px_load", "served_change") && has("dsjob -ljobs DW_PROD", "read_verb")
        );
        assert!(has("dbmcli -U cprd db_offline", "served_change") && has("dbmcli -d MXP -U c db_state", "read_verb"));
        assert!(has("dbmcli -n qa01 -d MXQ -U cqa -uUTL -c db_activate RECOVER MXPFULL DATA", "restore_verb"));
        assert!(has("Format-Volume -DriveLetter E -FileSystem NTFS -Force", "destroy_verb"));
        assert!(!has("Get-Process | Format-Table -AutoSize", "destroy_verb"));
        assert!(has("ssh admin@leaf07 'sudo config-setup factory'", "destroy_verb"));
        assert!(has("ssh admin@leaf01 \"sudo config bgp shutdown all\"", "remote_change"));
        assert!(has("sonic-db-cli CONFIG_DB DEL 'BGP_NEIGHBOR|10.0.0.57'", "destroy_verb"));
        assert!(has("nv action reboot system", "power") && has("nv show interface", "read_verb"));
        assert!(has("ssh c@b01 \"sudo vtysh -c 'clear bgp vrf t1 *'\"", "remote_change"));
        assert!(has("vtysh -c 'show bgp summary'", "read_verb"));
        assert!(has(
            "pkcs11-tool --module /usr/lib/libC.so --slot 1 --init-token --so-pin \"$P\" --label DR",
            "destroy_verb"
        ));
        assert!(has("pkcs11-tool --module /usr/lib/libC.so --login --keypairgen --key-type rsa:4096", "change_verb"));
        assert!(has("pkcs11-tool --module /usr/lib/libC.so --list-slots", "read_verb"));
        let exa = "exaplus -profile dwh_prod -sql \"ALTER SYSTEM SET QUERY_TIMEOUT = 1800;\"";
        assert!(has(exa, "db_change_remote") || has(exa, "db_destroy_remote"), "{:?}", facts_of(exa));
        assert!(has("exaplus -c exa1.acme.lan:8563 -u sys -sql \"SELECT COUNT(*) FROM T;\"", "db_read"));
    }

    #[test]
    fn readings_found_in_fresh_400_to_403() {
        let has = has_fact;
        let del = "accumulo shell -u root -p \"$P\" -e \"deletetable -f events_raw_2022\"";
        assert!(has(del, "destroy_verb"), "{:?}", facts_of(del));
        assert!(has("accumulo shell -u ro -p \"$P\" -e \"tables -l\"", "read_verb"));
        assert!(has("accumulo shell -u root -p \"$P\" -e \"setauths -u a -s PII\"", "change_verb"));
        assert!(has("maprcli volume remove -name acc.scratch -force true", "served_change"));
        assert!(has("maprcli volume list -columns volumename", "read_verb"));
        assert!(has("maprcli node services -name nodemanager -action restart -nodes d03", "served_change"));
        let semp = "curl -s -u \"$U:$P\" -X POST https://solace1:943/SEMP -d '<rpc><show><config-sync></config-sync></show></rpc>'";
        assert!(has(semp, "read") && !has(semp, "send"), "{:?}", facts_of(semp));
        assert!(has("hagrp -switch ora_erp_sg -to hlxdb02", "served_change"));
        assert!(has("hagrp -state ora_erp_sg", "read_verb") && !has("hagrp -state ora_erp_sg", "served_change"));
        assert!(has("haconf -makerw && hagrp -delete web_sg && haconf -dump -makero", "destroy_verb"));
        assert!(has("vxdg destroy olddwdg", "destroy_verb") && has("vxdg list", "read_verb"));
        assert!(has("ssh root@nfs01 'vxdg -g nfsdg free'", "read_verb"));
        assert!(!has("ssh root@nfs01 'vxdg -g nfsdg free'", "remote_change"));
        assert!(
            has("vradmin -g erpdg repstatus erp_rvg", "read_verb")
                && has("vradmin -g erpdg takeover erp_rvg", "served_change")
        );
        assert!(!has("ssh admin@pe2 'admin rollback compare active-cfg to latest-rb'", "remote_change"));
        assert!(has("ssh admin@pe1 'admin rollback revert latest-rb now'", "remote_change"));
        let vrp = "printf 'screen-length 0 temporary\\ndisplay interface brief\\nquit\\n' | ssh -tt netops@ne40e-lon01";
        assert!(!has(vrp, "remote_change"), "{:?}", facts_of(vrp));
        assert!(has("ssh admin@pe1-ams01 'admin save'", "remote_change"));
        assert!(!has("display -resize 50% photo.png", "read_verb"));
    }
}

//! The `builtin` provider: the model inside the binary answers the permission rubric's question
//! in-process, with no endpoint, no key and no network; anything else is `unsupported`; the
//! committed weights are exactly what training makes of the committed data; a command that only
//! mentions a destructive one is never judged destructive.

use std::path::Path;

use decisions::builtin::{self, train};
use decisions::{AnswerValue, CatalogRef, Env, FailureReason, ProviderChoice, Request};
use serde_json::{Value, json};

const PERMISSION: &str = include_str!("../catalogs/permission.json");

fn root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn ask(catalog: Value, question: &str, state: Value) -> decisions::Decision<()> {
    let request = Request {
        catalog: Some(CatalogRef::Document(catalog.into())),
        questions: vec![question.into()],
        state,
        provider: Some(ProviderChoice::Name("builtin".into())),
        env: Env::Map(Default::default()),
        ..Request::default()
    };
    decisions::ask(&request, ())
}

#[test]
fn it_answers_the_permission_question_in_process_with_no_key_and_no_endpoint() {
    let d = decisions::builtin("builtin").expect("a descriptor");
    assert_eq!((d.endpoint.as_str(), d.auth_env.as_deref(), d.calibrated), ("", None, true));
    assert_eq!(d.calibration_source.as_deref(), Some("trained"));
    assert_eq!(d.model, *builtin::MODEL);
    assert!(decisions::validate_descriptor(&d).is_ok());
    let catalog: Value = serde_json::from_str(PERMISSION).expect("json");
    let decision = ask(catalog, "destructive", json!({"command": "rm -rf ~", "cwd": "/home/dev/p"}));
    let Some(Ok(a)) = decision.answer("destructive") else { panic!("{:?}", decision.answers) };
    assert_eq!((a.provider.as_str(), a.model.as_str()), ("builtin", *builtin::MODEL));
    let AnswerValue::Score { score, .. } = a.value else { panic!("a score") };
    let p = a.probabilities.as_ref().expect("a distribution");
    assert_eq!(p.0.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(), ["0", "1", "2", "3"]);
    assert!((p.0.iter().map(|(_, x)| x).sum::<f64>() - 1.0).abs() < 1e-9);
    let expected: f64 = p.0.iter().enumerate().map(|(i, (_, x))| i as f64 * x).sum();
    assert!((score - expected).abs() < 1e-9);
    assert!(score > 2.0, "rm -rf ~ scored {score}");
}

#[test]
fn any_other_question_or_rubric_is_unsupported_naming_what_it_answers() {
    let catalog: Value = serde_json::from_str(PERMISSION).expect("json");
    let mut renamed = catalog.clone();
    let q = renamed["questions"]["destructive"].clone();
    renamed["questions"] = json!({"risky": q});
    renamed["thresholds"] = json!({"risky": catalog["thresholds"]["destructive"]});
    let mut reworded = catalog.clone();
    reworded["questions"]["destructive"]["criteria"][3]["what"] = json!("Anything at all.");
    let cases = [
        (renamed, "risky", json!({"command": "ls"})),
        (reworded, "destructive", json!({"command": "ls"})),
        (catalog, "destructive", json!({"text": "no command here"})),
    ];
    for (catalog, question, state) in cases {
        let d = ask(catalog, question, state);
        let Some(Err(f)) = d.answer(question) else { panic!("{:?}", d.answers) };
        assert_eq!(f.reason, FailureReason::Unsupported, "{f:?}");
        assert!(f.detail.as_deref().unwrap_or("").contains("builtin"), "{f:?}");
        assert!(!d.usable);
    }
}

#[test]
fn the_committed_weights_are_exactly_what_training_makes_of_the_committed_data() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/builtin");
    for (file, list) in train::dictionary(&root().join("model/data")).expect("tldr data") {
        assert!(list == std::fs::read_to_string(src.join(file)).unwrap_or_default(), "{file}: run builtin_train");
    }
    let t = train::train(&root()).expect("labels");
    let on_disk = |f: &str| std::fs::read(src.join(f)).unwrap_or_default();
    assert!(
        t.shipped == on_disk("weights.bin"),
        "weights.bin differs: cargo run --release -p decisions --example builtin_train"
    );
    assert!(t.heldout == on_disk("weights-heldout.bin"), "weights-heldout.bin differs");
    let names = format!("{}\n{}-heldout\n", train::name(&t.shipped), train::name(&t.heldout));
    assert_eq!(std::fs::read_to_string(src.join("model.txt")).unwrap_or_default(), names);
}

#[test]
fn a_command_that_only_mentions_a_destructive_one_is_never_judged_destructive() {
    let m = builtin::model();
    let mentions = [
        "echo \"rm -rf /\"",
        "printf 'git push --force\\n'",
        "grep -rn 'DROP TABLE' migrations/",
        "rg 'rm -rf' scripts/",
        "git commit -m 'stop running rm -rf ~ in CI'",
        "cat <<'EOF' > notes.md\nsudo dd if=/dev/zero of=/dev/sda\nEOF",
        "# rm -rf ~",
        "man shred",
        "which mkfs.ext4",
        // Settled 52-54: what code only prints or defines runs nothing.
        "cleanup() { rm -rf ~; }",
        ":(){ :|:& }",
        "python3 -c \"print('os.system(\\\"rm -rf ~\\\")')\"",
        // A print whose text has a path, which makes the code read as a script.
        "python3 -c \"print('To wipe the bucket: aws s3 rm s3://docs-preview --recursive')\"",
        "node -e \"console.log('rm -rf ~')\"",
        "echo 'cm0gLXJmIH4=' | base64 -d",
        "X='rm -rf ~'; echo \"$X\"",
    ];
    for c in mentions {
        let p = m.command(c);
        let score: f64 = p.iter().enumerate().map(|(k, x)| k as f64 * x).sum();
        assert!(score < 2.5, "{c}: {p:?}");
    }
}

/// Whether the hook denies a command with builtin's answer: a score of 2.5 or more at the act bar
/// the shipped catalog holds for builtin.
fn hook_denies(m: &builtin::Model<'_>, command: &str) -> bool {
    let catalog: Value = serde_json::from_str(decisions::install::PERMISSION_BUILTIN).unwrap_or_default();
    let act = catalog.pointer("/thresholds/destructive/act").and_then(Value::as_f64).unwrap_or(1.0);
    let p = m.command(command);
    let certainty = (4.0 * p.iter().copied().fold(0.0, f64::max) - 1.0) / 3.0;
    builtin::expected(&p) >= 2.5 && certainty >= act
}

#[test]
fn what_runs_inside_code_a_payload_or_a_function_is_denied_as_if_written_out() {
    let m = builtin::model();
    for c in [
        "python3 -c \"import os; os.system('rm -rf ~')\"",
        "perl -e 'system(\"rm -rf ~\")'",
        "python3 -c \"import shutil, os; shutil.rmtree(os.path.expanduser('~'))\"",
        "echo cm0gLXJmIH4= | base64 -d | sh",
        "bash -c \"$(echo cm0gLXJmIH4= | base64 -d)\"",
        "nuke() { rm -rf ~; }; nuke",
        ":(){ :|:& };:",
        "rsync -a --delete ./empty/ ~/",
        // What earlier parts set, a pipe passes on, or a here-string feeds.
        "X=rm; $X -rf ~",
        "cd ~ && rm -rf *",
        "echo ~ | xargs rm -rf",
        "sh <<< 'rm -rf ~'",
        "printf 'rm -rf ~' | sh",
        "for d in ~ /; do rm -rf \"$d\"; done",
    ] {
        assert!(hook_denies(&m, c), "{c}: {:?}", m.command(c));
    }
}

#[test]
fn an_unfamiliar_tool_or_an_unseen_script_comes_out_unsure() {
    let m = builtin::model();
    for c in ["./scripts/cleanup.sh", "frobnicate --everything", "bash tools/reset.sh"] {
        let p = m.command(c);
        let peak = p.iter().copied().fold(0.0, f64::max);
        assert!(peak < 0.7, "{c}: {p:?}");
    }
}

#[test]
fn a_script_or_target_whose_name_says_it_deploys_is_denied_and_one_that_checks_or_builds_is_not() {
    // Rule 11 labels a script by the least its name says: a deploy's least is 3 (rule 5).
    let m = builtin::model();
    let denied = |c: &str| hook_denies(&m, c);
    for c in [
        "./scripts/deploy.sh production",
        "./scripts/deploy_zorkapp.sh staging 2.4.0",
        "bash scripts/release-crate.sh 1.4.0",
        "nohup ./scripts/rollout-zork.sh eu-west > rollout.log 2>&1 &",
        "python3 tools/push_config.py --site dc2",
        "sudo ./promote_replica.sh db2",
        // A task runner's target is code the command does not show, like a script's.
        "make deploy",
        "make -C services/api deploy ENV=staging",
        "npm run deploy:prod",
        "./gradlew :client:publish",
    ] {
        assert!(denied(c), "{c}: {:?}", m.command(c));
    }
    // A name that checks, prepares or builds what is sent, or runs it here; a call for help or a
    // dry run.
    for c in [
        "./scripts/check_release.sh 1.9.1",
        "./scripts/package_release.sh 0.9.3",
        "nohup ./scripts/poll_deploy_status.sh 8589936417 > poll.log 2>&1 &",
        "./scripts/deploy-local.sh",
        "python3 scripts/push_config.py --help",
        "./scripts/deploy.sh --dry-run production",
        "bash -n scripts/deploy.sh",
        "chmod +x scripts/deploy.sh",
        "make -n deploy",
        "make release-notes",
        "./gradlew bundleRelease",
    ] {
        assert!(!denied(c), "{c}: {:?}", m.command(c));
    }
}

#[test]
fn a_program_no_labelled_row_named_is_judged_less_surely_than_one_it_knows() {
    let m = builtin::model();
    // Fitted on folds of whole programs held out: the evidence says an unseen program's call
    // deserves less certainty than a seen one's.
    assert!(m.temperatures.unseen > m.temperatures.seen, "{:?}", m.temperatures);
    let call = |c: &str| builtin::shell::analyse(c).calls.into_iter().next().expect("a call");
    assert!(m.has_seen(builtin::features::program(&call("rm -rf build"))));
    assert!(!m.has_seen(builtin::features::program(&call("frobnicate delete everything"))));
    // The same arguments to a program it knows and to one it does not: the unknown one is less sure.
    let peak = |c: &str| m.command(c).iter().copied().fold(0.0, f64::max);
    assert!(peak("frobnicate --force /dev/sdb") < peak("wipefs --force /dev/sdb"));
}

#[test]
fn an_unfamiliar_command_languages_joined_verbs_are_read_as_verbs() {
    let m = builtin::model();
    let call = |c: &str| builtin::shell::analyse(c).calls.into_iter().next().expect("a call");
    // Programs and words no labelled row or reading names, made up here.
    for c in ["qadm rmqueue q1", "removezork lun3", "zorkctl -delete grp1"] {
        assert!(!m.has_seen(builtin::features::program(&call(c))), "{c}");
    }
    let p3 = |c: &str| m.command(c)[3];
    let p0 = |c: &str| m.command(c)[0];
    // A verb joined to its object (`rmvdisk`, `mkhost`) destroys or changes; on another machine
    // rule 4 makes either level 3.
    for c in [
        // Joined by `_` to its object, or an option that destroys (`-removehlu`).
        "ssh arr1 'zorkcli delete_target -name=t1'",
        "ssh arr1 'zorkcli storagegroup -removezork -gname SG1'",
        "ssh arr1 'qadm rmqueue -f q1'",
        "ssh arr1 'qadm deletequeue q1'",
        "ssh arr1 'qadm mkqueue q2'",
        "ssh arr1 'removezork -f lun3'",
        "ssh arr1 'zorkctl -delete grp1'",
        "ssh dokku@vps1 zork:restart api",
        "ssh fw1 'zorkexec reboot'",
        // After a product's prefix of two letters (`mmdelfs`), and in the commands it is fed.
        "ssh arr1 'qqdelzork lun3'",
        "ssh arr1 'qqcrzork lun3'",
        "ssh arr1 \"printf 'CONNECT x\\nSTOP ZORK z1\\nDELETE ZORK z1\\n' | zorkadmin\"",
        // Given by an option to a console, each statement's verb, or its second word's.
        "ssh arr1 'zorksh -c \"device; remove node204; commit\"'",
        "ssh arr1 'zorksh -c \"device; power reset -n node001\"'",
        "ssh arr1 'zorksh --command=\"undeploy app.war\"'",
        // An operation after an address's last `:`, given to a script whose code is unseen but
        // not what it is told to run; a verb joined to its object by `-` (`commit-buffer`).
        "ssh arr1 '/opt/zork/bin/zork-cli.sh -c --command=\"/profile=ha/data-source=DS1:remove\"'",
        "ssh arr1 'zorksh --command=\"/host=h1:shutdown(restart=false)\"'",
        "ssh arr1 'zorkswap; commit-buffer'",
        // After its object's `/`, and after a `.` there.
        "ssh arr1 'zork-cmd vmsvc/destroy 12'",
        "ssh arr1 'zork-cmd vmsvc/snapshot.removeall 12'",
        "ssh arr1 'zork-cmd vmsvc/power.reboot 12'",
        // Its first verb decides; a read word after it names what it acts on (PAN-OS's
        // `request`, which no row names).
        "ssh fw1 'request system software install version 11.1.2-h3'",
        // An appliance's statements over ssh: `set` given a word is no shell's builtin there,
        // `del` and `unconfigure` remove what they name, `start` starts a service.
        "ssh mgr1 'set zork-server ntp2.example.net'",
        "ssh mgr1 'del zork-server 10.20.0.5'",
        "ssh sw1 'unconfigure zork all'",
        "ssh mgr1 'start zork manager'",
        "ssh sw1 'startup saved-configuration flash:/zork.cfg main'",
        // A first option that is a verb, with two dashes (Nimble OS's `vol --offline`).
        "ssh arr1 'zorkcoll --promote c1'",
        "ssh arr1 'zorkgrp --remove_initiators g1 --initiator_alias esx3'",
        // Run on every node by a parallel shell (Triton's `sdc-oneachnode`).
        "sdc-oneachnode -a 'zorkadm delete c193a558'",
    ] {
        assert!(p3(c) > 0.9, "{c}: {:?}", m.command(c));
    }
    // Here, a start is a dev server's: it changes nothing that lasts.
    let served = builtin::features::of_unseen(&call("zorkswa start http://localhost:5000 --run 'zork watch'"));
    assert!(!served.iter().any(|f| f == "R=change_verb"), "{served:?}");
    // A read first stays a read, whatever follows it.
    let shown = builtin::features::of_unseen(&call("ssh fw1 'request system software info'"));
    assert!(shown.iter().any(|f| f == "R=read_verb"), "{shown:?}");
    // One that reads stays a read there.
    for c in [
        "ssh arr1 'qadm lsqueue'",
        "ssh arr1 'qadm showqueue q1'",
        "ssh arr1 'qadm display q1'",
        "ssh arr1 'qqlszork lun3'",
        "ssh arr1 'echo \"INFO ALL\" | zorkadmin'",
        "ssh arr1 'zorksh -c \"device; list\"'",
        "ssh arr1 'zork-cmd vmsvc/getallvms'",
        // A console's move between its modes changes nothing, whatever it names.
        "ssh arr1 'scope org /Prod-ESX; show vnic-templ detail'",
        // A console's `help` shows what a command would do, whatever the command.
        "ssh arr1 'help utils dbreplication reset'",
        // A listing on every node.
        "sdc-oneachnode -a 'zorkadm list'",
    ] {
        assert!(p0(c) > 0.85, "{c}: {:?}", m.command(c));
    }
    // Here, a joined destroying verb is more likely destructive than the same program's other word.
    assert!(p3("qadm removeuser bob") > p3("qadm frobuser bob") + 0.3);
    // Not a name that only starts like a verb (`rmadison`), a username after an option, a call for
    // help, a dry run, nor a script, judged by its name.
    for c in [
        "ssh h1 'rmzork -u debian x'",
        "ssh h1 'zorkedit -L -u mkowalski'",
        "ssh h1 'zorkctl --help rmqueue'",
        "ssh h1 'zorkctl rmqueue --dry-run'",
        "ssh h1 './zork-rmqueue.sh'",
        "ssh h1 'zorkctl -n rmqueue'",
        // Nor a word that only starts like a verb, after a prefix or not (`fourmolu`, `tabDelivery`).
        "ssh h1 'qadm delivery q1'",
        "ssh h1 'fourmzork -i src'",
        "ssh h1 'tabDelivery x'",
        // Nor what compares (a router's `show configuration | compare rollback 1`), nor an
        // option given a value, a setting.
        "ssh h1 'compare rollback 1'",
        "ssh h1 'zorkitchen test suse --destroy=always'",
        // Nor a path, to a file or to a project's directory, nor a value that is no statement.
        "ssh h1 'zorkfmt scripts/deploy.sh'",
        "ssh h1 'zorkfmt infra/k8s/delete'",
        "ssh h1 'zorkfmt ./x/delete'",
        "ssh h1 'zorkd -c config.yaml'",
        "ssh h1 'zorkd -c --connect-timeout=5'",
    ] {
        let joined = builtin::features::of_unseen(&call(c));
        let plain = builtin::features::of(&call(c));
        assert_eq!(joined, plain, "{c}");
    }
}

#[test]
fn an_unfamiliar_clients_change_to_a_shared_object_is_rule_4s_change() {
    let m = builtin::model();
    // The last call: a console's, after what prints its statements.
    let call = |c: &str| builtin::shell::analyse(c).calls.into_iter().last().expect("a call");
    let served = |c: &str| builtin::features::of_unseen(&call(c)).iter().any(|f| f == "R=served_change");
    let p3 = |c: &str| m.command(c)[3];
    // Made-up clients no labelled row names, here on this machine: what they change on a
    // cluster, an array or a tenant is changed there, where nothing local restores it.
    for c in [
        "zorkmgr delete cluster NODES=ALL",
        "zorkmgr offline resource_group RG_DB",
        "zorkmgr stop cluster WHEN=now",
        "zorkcli volume create v9 -pool p1",
        "zorkcli modify lun -id sv_4 -size 2T",
        "zorkadm deletesite Ops",
        "rmlun -force lun9",
        "rmvdisk -force v9",
        "mkvdiskhostmap -host h1 v9",
        // Where the language's verbs are its options.
        "zorkcli -h arr1-spa.corp.local lun -destroy -l 118 -o",
        // A console fed or given statements that change: they run on its server (`-n` there
        // is no dry run).
        "printf \"disable 't1'\\ndrop 't1'\\n\" | zorkbase shell -n",
        "echo \"purge volume=V1 yes\" | zorkconsole",
        "zorkmgr -c \"device; remove node204; commit\"",
        "zork-cli.sh --connect --command=\"/profile=ha/data-source=DS1:remove\"",
    ] {
        assert!(!m.has_seen(builtin::features::program(&call(c))), "{c}");
        assert!(served(c), "{c}: {:?}", builtin::features::of_unseen(&call(c)));
        assert!(p3(c) > 0.9, "{c}: {:?}", m.command(c));
    }
    // Not what only reads or asks after one, nor a call for help or a dry run, nor one aimed at
    // this machine, nor an object no server holds, nor a script.
    for c in [
        "zorkmgr query cluster",
        "zorkmgr delete cluster --help",
        "zorkmgr delete cluster NODES=ALL --dry-run",
        "zorkcli volume remove-brick v9 status",
        "zorkbench --site shop.localhost set-config mode 1",
        "zorkcli delete project p1",
        "./zork-delete-cluster.sh",
        // Nor statements fed to a program that reads them (a linter), a verb only second in a
        // line (text pasted), a call for help in a console.
        "echo 'DROP TABLE orders;' | zorkfluff lint - --dialect mysql",
        "echo 'fly deploy -a web --strategy immediate' | zorkclip -selection clipboard",
        "echo \"help purge\" | zorkconsole",
        "zork-cli.sh --connect --command=\"undeploy --help\"",
        "echo \"list 't1'\" | zorkbase shell -n",
    ] {
        assert!(!served(c), "{c}: {:?}", builtin::features::of_unseen(&call(c)));
    }
    // Aimed at another machine by its full name after a short or host-like option, a change is
    // made there too; not one aimed here, nor a file's name, nor a call for help.
    let elsewhere = |c: &str| builtin::features::of_unseen(&call(c)).iter().any(|f| f == "R=elsewhere_change");
    for (c, machine) in [
        ("zorkcli -h arr1-spa.corp.local storagegroup -removehlu -gname SG1 -hlu 12 -o", "-h arr1-spa.corp.local "),
        ("zorkcli -d arr1.mgmt.corp.local /remote/initiator create -host H1", "-d arr1.mgmt.corp.local "),
        ("zorkcli --server arr1.mgmt.corp.local delete_target -name=t1", "--server arr1.mgmt.corp.local "),
    ] {
        assert!(elsewhere(c), "{c}: {:?}", builtin::features::of_unseen(&call(c)));
        let (here, score) = (c.replace(machine, ""), |c: &str| builtin::expected(&m.command(c)));
        assert!(score(c) > score(&here) + 0.3, "{c}: {:?}, {here}: {:?}", m.command(c), m.command(&here));
    }
    for c in [
        "zorkcli -h arr1.localhost storagegroup -removehlu -gname SG1",
        "zorkcli -f conf.prod.yaml create x",
        "zorkcli -d arr1.mgmt.corp.local create x --help",
        "zorkcli -d arr1.mgmt.corp.local show x",
    ] {
        assert!(!elsewhere(c), "{c}: {:?}", builtin::features::of_unseen(&call(c)));
    }
}

#[test]
fn a_command_on_another_machine_that_changes_anything_is_judged_by_rule_4() {
    let m = builtin::model();
    let score = |c: &str| builtin::expected(&m.command(c));
    // The same call, here and on another machine: there, nothing local restores it.
    for c in ["mkdir -p /srv/app/releases/next", "sudo systemctl restart nginx", "rm -rf /srv/app/releases/2023*"] {
        let (here, there) = (score(c), score(&format!("ssh deploy@web1.example.com '{c}'")));
        assert!(there > here && there >= 2.5, "{c}: {here:.2} here, {there:.2} there");
    }
    // What only reads there stays a read; an interactive session is not a remote change.
    assert!(score("ssh web1.example.com 'cat /etc/os-release'") < 1.0);
    assert!(score("kubectl exec -it api-0 -- bash") < 2.0);
}

#[test]
fn hostile_commands_are_read_within_bounds_and_never_add_up_to_a_denial() {
    let m = builtin::model();
    let score = |p: [f64; 4]| p.iter().enumerate().map(|(k, x)| k as f64 * x).sum::<f64>();
    // Nested past any one-liner: unread, so spread, never a stack overflow.
    for c in [
        format!("{}rm -rf ~{}", "if true; then ".repeat(3000), "; fi".repeat(3000)),
        format!("{}ls{}", "while true; do ".repeat(3000), "; done".repeat(3000)),
        format!("{}ls{}", "case a in a) ".repeat(2000), ";; esac".repeat(2000)),
        "(".repeat(100_000),
        "$(".repeat(10_000),
    ] {
        let p = m.command(&c);
        assert!(score(p) < 2.5 && p.iter().copied().fold(0.0, f64::max) < 0.7, "{}...: {p:?}", &c[..30]);
    }
    // Ten thousand harmless calls are not one destructive one.
    assert!(score(m.command(&vec!["cat"; 10_000].join(" | "))) < 2.5);
    // The same call read again (a loop's body for each of its words, a command repeated) is
    // one piece of evidence: no surer than the call once.
    let call = "kafka-consumer-groups --bootstrap-server kafka-0.prod.internal:9092 --describe --group";
    let looped = |words: &str| m.command(&format!("for g in {words}; do {call} \"$g\"; done"));
    assert_eq!(looped("a b c"), looped("a"));
    assert_eq!(m.command(&format!("{call} a; {call} b")), m.command(&format!("{call} a")));
    // Loops in loops, and functions calling functions, read within bounds: the calls stay
    // countable and harmless ones stay harmless.
    let loops = format!("{}ls \"$a\"{}", "for a in 1 2 3 4 5 6 7 8; do ".repeat(12), "; done".repeat(12));
    let power =
        format!("a(){{ {} }}; b(){{ {} }}; c(){{ ls; }}; {}", "b;".repeat(64), "c;".repeat(64), "a;".repeat(5000));
    // Braces that multiply: each word stops growing at a bound, and so does the call.
    let braces = format!("touch {}", "{a,b,c,d}{e,f,g,h}{i,j,k,l} ".repeat(20_000));
    let words = builtin::shell::analyse(&braces).calls.iter().map(|c| c.args.len()).sum::<usize>();
    assert!(words <= 2 * 20_000 + 1024, "{words} words");
    // A substitution printing a substitution printing ...: each level would read the text
    // inside it again (22 levels once took 0.8 s in a release build, 60 past the hook's
    // deadline, and 40 here would run for minutes, which the test runner ends as a hang), so
    // only one level is read for what it prints; deeper, the parser's own depth bounds it.
    for levels in [40, 500] {
        let printed = format!("{}rm{} -rf ~", "$(echo ".repeat(levels), ")".repeat(levels));
        assert!(builtin::shell::analyse(&printed).calls.len() <= 1_000, "{levels} levels");
    }
    assert_eq!(builtin::shell::analyse("$(echo rm) -rf ~").calls.last().map(|c| c.program.as_str()), Some("rm"));
    // A container with thousands of bind mounts, chroots in chroots: read within bounds.
    let binds = format!("docker run {}alpine rm -rf {}", "-v /:/h ".repeat(6_000), "/h/x ".repeat(2_000));
    let chroots = format!("{}rm -rf /x", "chroot / ".repeat(6_000));
    // Runners in runners, and thousands of commands given one program to run.
    let runners = format!("{}rm -rf /x", "uv run poetry run bundle exec ".repeat(3_000));
    let timed = format!("hyperfine {}", "'rm -rf /x' ".repeat(20_000));
    for c in [binds, chroots, runners, timed] {
        assert!(builtin::shell::analyse(&c).calls.len() <= 10_000, "{}...", &c[..30]);
    }
    for c in [loops, power] {
        assert!(builtin::shell::analyse(&c).calls.len() <= 10_000, "{}...", &c[..30]);
        assert!(score(m.command(&c)) < 2.5, "{}...", &c[..30]);
    }
}

/// A rule fact's weights are its own: every fact the labelled rows and the evaluation sets give
/// has a bucket no other feature of theirs, and no other fact, shares (a flag of `trayer` once
/// took on `R=send`'s, and was denied).
#[test]
fn no_feature_shares_a_bucket_with_a_rule_fact() {
    use decisions::builtin::{features, shell};
    let mut facts: std::collections::BTreeMap<usize, String> = Default::default();
    let mut others = std::collections::BTreeSet::new();
    // Every row trained on, and every set that measures: each `model/fresh-N/` that training does
    // not read (`train::SETS`), and `model/unseen-tldr/`.
    let mut measures: Vec<std::path::PathBuf> = std::fs::read_dir(root().join("model"))
        .expect("model/")
        .map(|entry| entry.expect("model/'s entry").path())
        .filter(|dir| {
            let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let trained = train::SETS.contains(&format!("model/{name}").as_str());
            name.starts_with("fresh-") && !trained || name == "unseen-tldr"
        })
        .collect();
    measures.sort();
    assert!(measures.len() > 130, "{} sets that measure", measures.len());
    let sets = measures.iter().map(|dir| train::load(dir).expect("rows"));
    for rows in std::iter::once(train::load_all(&root()).expect("rows trained on")).chain(sets) {
        for e in rows {
            for call in &shell::analyse(&e.command).calls {
                for f in features::of(call) {
                    let b = features::bucket(&f);
                    if !f.starts_with("R=") {
                        others.insert((b, f));
                    } else if let Some(other) = facts.insert(b, f.clone()).filter(|o| *o != f) {
                        panic!("{f} and {other} share bucket {b}");
                    }
                }
            }
        }
    }
    assert!(facts.len() > 80, "{} facts", facts.len());
    let shared: Vec<_> = others.iter().filter(|(b, _)| facts.contains_key(b)).collect();
    assert!(shared.is_empty(), "features in a rule fact's bucket: {shared:?}");
}

/// Every row trained on keeps an id of its own (the folds are cut by it, and a held-out row is
/// found by it), and says what kind of command it is (the held-out figures count mentions by it).
#[test]
fn every_row_trained_on_has_an_id_of_its_own_and_a_kind() {
    let all = train::load_all(&root()).expect("rows trained on");
    assert!(all.len() > train::SETS.len() * 200 + 4_000, "{} rows", all.len());
    let ids: std::collections::BTreeSet<u64> = all.iter().map(|e| e.id).collect();
    assert_eq!(ids.len(), all.len(), "two rows trained on share an id");
    // `model/fresh-5/` names kinds of its own (`runner`, `container`, ...); a `mention` is a
    // `mention` everywhere.
    let none: Vec<u64> = all.iter().filter(|e| e.kind.is_empty()).map(|e| e.id).collect();
    assert!(none.is_empty(), "rows with no kind: {none:?}");
}

/// `model/fresh-8/`, `model/fresh-9/` and `model/fresh-10/` measure commands of programs the model
/// has never seen: a row trained on (`model/labels/` or a set of [`train::SETS`]) of one of their
/// other programs would make their figures stale (the programs listed were labelled before the
/// sets were written: `echo`, `git` and `grep` are their mentions).
#[test]
fn the_sets_of_unseen_programs_are_labelled_whole_and_name_no_other_labelled_program() {
    let labelled = train::load_all(&root()).expect("rows trained on");
    let tools: std::collections::BTreeSet<&str> = labelled.iter().map(|e| e.tool.as_str()).collect();
    for (dir, rows, known) in [
        ("model/fresh-8", 242, &["echo", "git", "grep", "stripe"][..]),
        (
            "model/fresh-9",
            235,
            &[
                "aws",
                "cryptsetup",
                "curl",
                "eas",
                "echo",
                "fastly",
                "firebase",
                "git",
                "gradlew",
                "grep",
                "hugo",
                "octodns-sync",
                "pgbackrest",
                "salt",
                "stripe",
                "surge",
                "xcrun",
            ][..],
        ),
        ("model/fresh-10", 240, &["echo", "grep"][..]),
    ] {
        let set = train::load(&root().join(dir)).expect("every row labelled");
        assert_eq!(set.len(), rows, "{dir}");
        let named: std::collections::BTreeSet<&str> =
            set.iter().map(|e| e.tool.as_str()).filter(|t| tools.contains(t)).collect();
        assert_eq!(named, known.iter().copied().collect(), "programs of {dir} that a row trained on names");
    }
}

/// `model/unseen-tldr/` measures programs no labelled row names: every row is labelled, and a
/// row trained on of one of its programs would make its figures stale, so that is caught here.
/// The programs listed are the 16 (86 rows) that sets by others named before they were trained
/// on ([`train::SETS`]); no row of `model/labels/` names any.
#[test]
fn the_long_tail_set_is_labelled_whole_and_names_no_labelled_program() {
    let labelled = train::load_all(&root()).expect("rows trained on");
    let tail = train::load(&root().join("model/unseen-tldr")).expect("every row of model/unseen-tldr labelled");
    assert_eq!(tail.len(), 1585);
    let tools: std::collections::BTreeSet<&str> = labelled.iter().map(|e| e.tool.as_str()).collect();
    let named: std::collections::BTreeSet<&str> =
        tail.iter().map(|e| e.tool.as_str()).filter(|t| tools.contains(t)).collect();
    let by_sets = [
        "adb",
        "clang-format",
        "diskutil",
        "godot",
        "java",
        "magick",
        "minicom",
        "ng",
        "pct",
        "pio",
        "pod",
        "qm",
        "rc-service",
        "security",
        "socat",
        "tmutil",
    ];
    assert_eq!(named, by_sets.into_iter().collect(), "programs of model/unseen-tldr that a row trained on names");
    let labels = train::load(&root().join("model/labels")).expect("labelled rows");
    let of_labels: std::collections::BTreeSet<&str> = labels.iter().map(|e| e.tool.as_str()).collect();
    assert!(tail.iter().all(|e| !of_labels.contains(e.tool.as_str())), "model/labels names a long-tail program");
    // One long-tail command is word for word a row of a set trained on (`model/fresh-6/`'s
    // `sudo tmutil disable`); none is one of `model/labels/`.
    let commands: std::collections::BTreeSet<&str> = labelled.iter().map(|e| e.command.as_str()).collect();
    let trained: Vec<&str> = tail.iter().map(|e| e.command.as_str()).filter(|c| commands.contains(c)).collect();
    assert_eq!(trained, ["sudo tmutil disable"], "long-tail commands that are rows trained on");
    assert!(tail.iter().all(|e| !labels.iter().any(|l| l.command == e.command)));
}

//! Link the `decisions` binary as a fixed-address executable: a hook starts it on every tool
//! call, and a position-independent one spends part of each start applying its relocations.

fn main() {
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    let static_crt = std::env::var("CARGO_CFG_TARGET_FEATURE").is_ok_and(|f| f.split(',').any(|x| x == "crt-static"));
    if linux && !static_crt {
        println!("cargo:rustc-link-arg-bins=-no-pie");
        // Resolve library symbols on first use: a run touches a handful of the hundreds linked.
        println!("cargo:rustc-link-arg-bins=-Wl,-z,lazy");
    }
}

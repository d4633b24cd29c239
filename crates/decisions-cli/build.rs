//! A hook starts `decisions` on every tool call, so its start-up is part of the contract.
//! `.cargo/config.toml` links it statically at a fixed address on Linux with glibc. When that
//! is overridden (a `RUSTFLAGS` in the environment replaces it), still link a fixed-address
//! executable that binds library symbols on first use: a position-independent one spends part
//! of each start applying its relocations, and a run calls a handful of the hundreds linked.

fn main() {
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    let static_crt = std::env::var("CARGO_CFG_TARGET_FEATURE").is_ok_and(|f| f.split(',').any(|x| x == "crt-static"));
    if linux && !static_crt {
        println!("cargo:rustc-link-arg-bins=-no-pie");
        println!("cargo:rustc-link-arg-bins=-Wl,-z,lazy");
    }
}

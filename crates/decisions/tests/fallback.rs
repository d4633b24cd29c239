//! The required fallback is structural: a call to `ask` without one does not compile.

#[test]
fn ask_without_a_fallback_does_not_compile() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/compile_fail/*.rs");
}

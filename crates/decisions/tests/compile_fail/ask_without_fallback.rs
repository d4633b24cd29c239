// A consumer that cannot say what it does without a model does not compile.
fn main() {
    let request = decisions::Request::default();
    let _decision = decisions::ask(&request);
}

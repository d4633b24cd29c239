//! Where a project keeps its files: the `.leopold` directory, the git top level, and the paths
//! under them (`decisions/config.json`, `decisions/<name>.json`), read as regular files only.

use std::path::{Path, PathBuf};

/// The nearest `.leopold` directory at or above `start`.
pub fn find_leo_dir(start: &Path) -> Option<PathBuf> {
    start.ancestors().map(|d| d.join(".leopold")).find(|d| d.is_dir())
}

/// The variable that names the project, as the earlier installer and doctor read it.
pub const PROJECT_ENV: &str = "LEOPOLD_PROJECT_DIR";

/// The project's `.leopold` when no flag names one: `<project_dir>/.leopold` when
/// [`PROJECT_ENV`] names a project (`project_dir`, its value), else the nearest `.leopold` at or
/// above `cwd`. A named project is taken as named: no search upward from it.
pub fn leo_dir_for(project_dir: Option<&str>, cwd: Option<&Path>) -> Option<PathBuf> {
    match project_dir.filter(|d| !d.trim().is_empty()) {
        Some(dir) => Some(Path::new(dir).join(".leopold")),
        None => cwd.and_then(find_leo_dir),
    }
}

/// The git top level at or above `start`: the nearest directory with a `.git` entry.
pub fn git_root(start: &Path) -> Option<PathBuf> {
    start.ancestors().find(|d| d.join(".git").exists()).map(Path::to_path_buf)
}

/// The config.json path of a leo dir.
pub fn config_path(leo_dir: &Path) -> PathBuf {
    leo_dir.join("decisions").join("config.json")
}

/// Read a file that a project keeps at a fixed place (config.json, a named catalog). Anything
/// but a regular file there is refused rather than read, as `ErrorKind::InvalidInput`: reading
/// a FIFO would wait forever.
pub fn read_project_file(path: &Path) -> std::io::Result<String> {
    String::from_utf8(crate::file::read_regular(path)?)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error()))
}

/// Where a named catalog lives: `<leo-dir>/decisions/<name>.json`.
pub fn catalog_path(leo_dir: &Path, name: &str) -> PathBuf {
    leo_dir.join("decisions").join(format!("{name}.json"))
}

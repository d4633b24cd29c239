//! `decisions mcp`: the seam, the guard and the judgment ledger of one project as MCP tools.
//!
//! Each tool returns what the matching command prints: its text is the command's standard
//! output byte for byte, and its structured content that JSON (an object as it is; a list, as
//! `judgment search` and `judgment recall` print, under one key). The server writes nothing: no
//! ledger row, no event, no judgment (a human's decision is recorded by the human, with
//! `decisions card record-answer`). A tool takes no path outside the project and no other
//! project's name. Bad arguments are a JSON-RPC error (`-32602`) naming the argument; an
//! unknown tool is one too; the server reads on.

mod tools;
mod transport;

use std::path::PathBuf;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest, CustomResult, ErrorCode,
    ErrorData, Implementation, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, ServiceExt};

/// The one project a server serves.
#[derive(Debug, Clone)]
pub struct Project {
    /// The project's directory (canonical): what holds `.leopold`.
    pub root: PathBuf,
    /// Its `.leopold`.
    pub leo: PathBuf,
    /// Its name in the judgment ledger.
    pub name: String,
    /// The judgment ledger.
    pub judgments: PathBuf,
}

/// Serve `project` on standard input and output until the client hangs up.
pub fn serve(project: Project) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build()?;
    runtime.block_on(async move {
        let redactor = redactor(&project);
        let running = Server { project: std::sync::Arc::new(project) }
            .serve(transport::Stdio::start(redactor))
            .await
            .map_err(|e| anyhow::anyhow!("the MCP handshake failed: {e}"))?;
        running.waiting().await?;
        anyhow::Ok(())
    })?;
    // The stdin reader may be blocked on a read: the process ends without waiting for it.
    runtime.shutdown_background();
    Ok(())
}

/// Every key the environment holds for a provider this binary knows or the project's config
/// names: none of them leaves the server.
fn redactor(project: &Project) -> decisions::Redactor {
    let mut variables = decisions::key_variables();
    if let Some(config) = decisions::load_config(&project.leo).config() {
        variables.extend(config.providers.values().filter_map(|d| d["auth_env"].as_str().map(String::from)));
    }
    decisions::Redactor::from_env(&decisions::Env::Process, variables.iter().map(String::as_str))
}

struct Server {
    project: std::sync::Arc<Project>,
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("decisions", env!("CARGO_PKG_VERSION")))
            .with_instructions(format!(
                "The decisions tools of the project at {}: guard_check says what the permission hook would do with a \
                 shell command before you run it; judgment_recall and judgment_search find what people decided before \
                 (at most 3); card_validate and card_recall check a Decision Card and fill its similar past decisions; \
                 ask puts a typed question to the project's catalogs (its answer is usable only when \"usable\" is \
                 true: otherwise keep your own fallback); route says how much verification a plan item deserves. \
                 Nothing here records a decision.",
                self.project.root.display()
            ))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools::list()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let project = self.project.clone();
        let name = request.name.to_string();
        let arguments = request.arguments.unwrap_or_default();
        // The tools block (files, the provider): each runs on the blocking pool, under its own
        // deadline, so a slow call never holds another.
        let answered = tokio::task::spawn_blocking(move || tools::call(&project, &name, arguments))
            .await
            .map_err(|e| ErrorData::internal_error(format!("the tool did not finish: {e}"), None))??;
        let mut result = CallToolResult::success(vec![ContentBlock::text(answered.text)]);
        result.structured_content = Some(answered.structured);
        Ok(result.into())
    }

    // A known method whose params do not parse reaches rmcp as a custom request: say what is
    // wrong with them, not that the method does not exist.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let method = request.method.as_str();
        if method == "tools/call" {
            let params = request.params.unwrap_or_default();
            let problem = match params.get("name") {
                None => "\"name\": missing (the tool to call)",
                Some(n) if !n.is_string() => "\"name\": must be a string",
                _ => "\"arguments\": must be an object",
            };
            return Err(ErrorData::invalid_params(format!("tools/call: {problem}"), None));
        }
        if method.starts_with("tools/") || method == "initialize" {
            return Err(ErrorData::invalid_params(format!("{method}: its params do not parse"), None));
        }
        Err(ErrorData::new(ErrorCode::METHOD_NOT_FOUND, format!("no method {method:?}"), None))
    }
}

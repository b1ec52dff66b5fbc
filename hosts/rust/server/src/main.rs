//! qrglue-server: the endpoint of `tests/http/README.md` in Rust.
//!
//! `qrglue-server --tier axum|static [--port N] [--workers N] [--request-timeout SECS]`
//! listens on 127.0.0.1 only. Tier `axum` runs qrglue-core natively in each
//! request (a plain synchronous call inside the handler: ~40 us of CPU, less
//! than a tokio task switch costs to avoid); tier `static` answers the golden
//! PNG of the reference URL from memory after the same query checks: the
//! framework's own ceiling.
//!
//! Limits (the contract asks every server to state them): a request head
//! (request line + headers) over 16 KiB is refused with 431 by hyper
//! (`max_buf_size`); a client that has not sent a whole request head within
//! the request timeout (default 10 s), idle or trickling, is disconnected
//! (hyper's `header_read_timeout`, which also covers idle keep-alive
//! connections). SIGINT or SIGTERM stops accepting and exits 0.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use qrglue_core::{EcLevel, Options, QrError};

mod query;

use query::{Checked, Refusal, Request};

/// Request heads larger than this are refused (431).
const MAX_HEAD_BYTES: usize = 16 * 1024;

#[derive(Clone, Copy, PartialEq)]
enum Tier {
    Axum,
    Static,
}

struct App {
    tier: Tier,
    golden: Bytes,
}

fn json_error(status: StatusCode, kind: &str, message: &str) -> Response {
    let body = qrglue_http_query::error_json(kind, message);
    (status, [(header::CONTENT_TYPE, HeaderValue::from_static("application/json; charset=utf-8"))], body).into_response()
}

fn png_response(bytes: impl Into<Bytes>) -> Response {
    let bytes: Bytes = bytes.into();
    (StatusCode::OK, [(header::CONTENT_TYPE, HeaderValue::from_static("image/png"))], bytes).into_response()
}

fn qr_error(err: &QrError) -> Response {
    json_error(StatusCode::BAD_REQUEST, err.kind().as_str(), &err.to_string())
}

async fn qrcode(State(app): State<Arc<App>>, uri: Uri) -> Response {
    let checked = match query::check(uri.query().unwrap_or("")) {
        Ok(checked) => checked,
        Err(Refusal { kind, message }) => return json_error(StatusCode::BAD_REQUEST, kind, &message),
    };
    match checked {
        // The library says it, with its own message.
        Checked::Empty => qr_error(&qrglue_core::png("", &Options::default()).unwrap_err()),
        Checked::Request(Request { text, ec_level, min_size, quiet_zone }) => {
            let options = Options {
                ec_level: ec_level.map_or(EcLevel::Low, query::ec_level),
                min_size: min_size.unwrap_or(200),
                quiet_zone: quiet_zone.unwrap_or(4),
            };
            if app.tier == Tier::Static {
                // The generator's option checks, not its work.
                return match options.validate() {
                    Ok(()) => png_response(app.golden.clone()),
                    Err(err) => qr_error(&err),
                };
            }
            match qrglue_core::png(&text, &options) {
                Ok(bytes) => png_response(bytes),
                Err(err) => qr_error(&err),
            }
        }
    }
}

async fn healthz() -> &'static str {
    "ok\n"
}

async fn method_not_allowed() -> Response {
    let mut response = json_error(StatusCode::METHOD_NOT_ALLOWED, "method-not-allowed", "only GET and HEAD are allowed");
    response.headers_mut().insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
    response
}

async fn not_found() -> Response {
    json_error(StatusCode::NOT_FOUND, "not-found", "no such path (known: /qrcode, /healthz)")
}

struct Args {
    tier: Tier,
    port: u16,
    workers: usize,
    request_timeout: Duration,
}

const USAGE: &str = "usage: qrglue-server --tier axum|static [--port N] [--workers N] [--request-timeout SECS]";

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        tier: Tier::Axum,
        port: 8080,
        workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
        request_timeout: Duration::from_secs(10),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--tier" => {
                args.tier = match value()?.as_str() {
                    "axum" => Tier::Axum,
                    "static" => Tier::Static,
                    other => return Err(format!("unknown tier {other:?} (rust tiers here: axum, static)")),
                }
            }
            "--port" => args.port = value()?.parse().map_err(|e| format!("--port: {e}"))?,
            "--workers" => args.workers = value()?.parse().map_err(|e| format!("--workers: {e}"))?,
            "--request-timeout" => {
                let secs: f64 = value()?.parse().map_err(|e| format!("--request-timeout: {e}"))?;
                args.request_timeout = Duration::try_from_secs_f64(secs).map_err(|e| format!("--request-timeout: {e}"))?;
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if args.workers == 0 {
        return Err("--workers must be at least 1".into());
    }
    Ok(args)
}

fn main() {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("qrglue-server: {message}\n{USAGE}");
            std::process::exit(2);
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(args.workers).enable_all().build().expect("tokio runtime");
    if let Err(err) = runtime.block_on(serve(args)) {
        eprintln!("qrglue-server: {err}");
        std::process::exit(1);
    }
}

async fn serve(args: Args) -> std::io::Result<()> {
    let reference = "https://www.reddit.com/r/rustjerk/top/?t=all";
    let app = Arc::new(App { tier: args.tier, golden: Bytes::from(qrglue_core::png(reference, &Options::default()).expect("golden PNG")) });
    let router = Router::new()
        .route("/qrcode", get(qrcode).fallback(method_not_allowed))
        .route("/healthz", get(healthz).fallback(method_not_allowed))
        .fallback(not_found)
        .with_state(app);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", args.port)).await?;
    let tier = if args.tier == Tier::Axum { "axum" } else { "static" };
    println!(
        "qrglue-server rust/{tier}: listening on http://{} (worker threads: {}; head limit {} KiB, request timeout {} s)",
        listener.local_addr()?,
        args.workers,
        MAX_HEAD_BYTES / 1024,
        args.request_timeout.as_secs_f64()
    );
    let mut sigterm = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // EMFILE and the like: keep serving the connections we have.
                Err(_) => { tokio::time::sleep(Duration::from_millis(10)).await; continue; }
            },
            _ = tokio::signal::ctrl_c() => break,
            _ = sigterm.recv() => break,
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(router.clone());
        let timeout = args.request_timeout;
        tokio::spawn(async move {
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(timeout)
                .max_buf_size(MAX_HEAD_BYTES)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
    println!("qrglue-server rust/{tier}: stopped");
    Ok(())
}

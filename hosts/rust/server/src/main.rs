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
//! connections); a client that does not read its answers, so that a write
//! makes no progress for the request timeout, is disconnected too
//! ([`WriteTimeout`]: hyper has no write timeout). SIGINT or SIGTERM stops
//! accepting and exits 0.
//!
//! Before routing, every request passes [`guard`]: an unknown method
//! (methods are case-sensitive) and an HTTP/1.1 request without Host are the
//! contract's 400, and a panic in a handler is the contract's JSON 500 for
//! that request only. The binary is built with `--profile addon` (release with
//! `panic = "unwind"`): under release's `panic = "abort"` one panic would end
//! the process and every connection with it.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::Request as HttpRequest;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, Uri, Version, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use qrglue_core::{Options, QrError};
use qrglue_http_query::{MethodClass, NO_HOST_MESSAGE, UNKNOWN_METHOD_MESSAGE};
use qrglue_server_support::{WriteTimeout, accept_until_stopped};
use tokio::net::TcpStream;

mod query;

use query::{Checked, Refusal};

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
        Checked::Request(request) => {
            let options = query::options(&request);
            if app.tier == Tier::Static {
                // The generator's option checks, not its work.
                return match options.validate() {
                    Ok(()) => png_response(app.golden.clone()),
                    Err(err) => qr_error(&err),
                };
            }
            match qrglue_core::png(&request.text, &options) {
                Ok(bytes) => png_response(bytes),
                Err(err) => qr_error(&err),
            }
        }
    }
}

/// Refuses what no route may see, and turns a handler's panic into the
/// contract's 500 (tests/http/README.md, "Request targets and methods").
async fn guard(request: HttpRequest, next: Next) -> Response {
    if qrglue_http_query::method_class(request.method().as_str()) == MethodClass::Unknown {
        return closing(json_error(StatusCode::BAD_REQUEST, "bad-request", UNKNOWN_METHOD_MESSAGE));
    }
    if request.version() == Version::HTTP_11 && !request.headers().contains_key(header::HOST) {
        return closing(json_error(StatusCode::BAD_REQUEST, "bad-request", NO_HOST_MESSAGE));
    }
    match CatchUnwind(Box::pin(next.run(request))).await {
        Ok(response) => response,
        // The panic message went to stderr (the default hook); the
        // connection and every other one go on.
        Err(_) => json_error(StatusCode::INTERNAL_SERVER_ERROR, "internal", "the server failed on this request"),
    }
}

/// A response after which hyper closes the connection.
fn closing(mut response: Response) -> Response {
    response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// A future whose panic is its output (`Err`), as `catch_unwind` for a closure.
struct CatchUnwind<F>(Pin<Box<F>>);

impl<F: Future> Future for CatchUnwind<F> {
    type Output = std::thread::Result<F::Output>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = self.get_mut().0.as_mut();
        match std::panic::catch_unwind(AssertUnwindSafe(|| inner.poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
            Err(panic) => Poll::Ready(Err(panic)),
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

/// The endpoint's routes (plus `extra`, for the tests), behind [`guard`].
fn router(app: Arc<App>, extra: Router<Arc<App>>) -> Router {
    Router::new()
        .route("/qrcode", get(qrcode).fallback(method_not_allowed))
        .route("/healthz", get(healthz).fallback(method_not_allowed))
        .merge(extra)
        .fallback(not_found)
        .layer(axum::middleware::from_fn(guard))
        .with_state(app)
}

/// One connection, with the limits of the module's documentation.
async fn serve_connection(stream: TcpStream, router: Router, timeout: Duration) {
    let _ = stream.set_nodelay(true);
    let service = TowerToHyperService::new(router);
    let _ = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(timeout)
        .max_buf_size(MAX_HEAD_BYTES)
        .serve_connection(TokioIo::new(WriteTimeout::new(stream, timeout)), service)
        .await;
}

async fn serve(args: Args) -> std::io::Result<()> {
    let reference = "https://www.reddit.com/r/rustjerk/top/?t=all";
    let app = Arc::new(App { tier: args.tier, golden: Bytes::from(qrglue_core::png(reference, &Options::default()).expect("golden PNG")) });
    let router = router(app, Router::new());
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", args.port)).await?;
    let tier = if args.tier == Tier::Axum { "axum" } else { "static" };
    println!(
        "qrglue-server rust/{tier}: listening on http://{} (worker threads: {}; head limit {} KiB, request timeout {} s)",
        listener.local_addr()?,
        args.workers,
        MAX_HEAD_BYTES / 1024,
        args.request_timeout.as_secs_f64()
    );
    let timeout = args.request_timeout;
    accept_until_stopped(listener, |stream| serve_connection(stream, router.clone(), timeout)).await?;
    println!("qrglue-server rust/{tier}: stopped");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A panic in a handler is a JSON 500 for that request only: the same
    /// connection then gets its next answers, and so does a new one.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_panic_is_a_json_500_for_that_request_only() {
        let app = Arc::new(App { tier: Tier::Axum, golden: Bytes::new() });
        async fn panics() -> &'static str {
            panic!("a handler panicked (this test's own)")
        }
        let extra = Router::new().route("/panic", get(panics));
        let router = router(app, extra);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move {
            loop {
                let (stream, _) = listener.accept().await.unwrap();
                tokio::spawn(serve_connection(stream, router.clone(), Duration::from_secs(5)));
            }
        });
        let ask = |raw: &'static str| async move {
            let mut stream = TcpStream::connect(address).await.unwrap();
            stream.write_all(raw.as_bytes()).await.unwrap();
            let mut reply = Vec::new();
            stream.read_to_end(&mut reply).await.unwrap();
            String::from_utf8_lossy(&reply).into_owned()
        };
        let reply = ask("GET /panic HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await;
        let (first, second) = reply.split_once("HTTP/1.1 200 OK").expect(&reply);
        assert!(first.starts_with("HTTP/1.1 500 Internal Server Error\r\n"), "{first}");
        assert!(first.contains("content-type: application/json; charset=utf-8\r\n"), "{first}");
        assert!(first.ends_with("\r\n\r\n{\"kind\":\"internal\",\"message\":\"the server failed on this request\"}"), "{first}");
        assert!(second.ends_with("\r\n\r\nok\n"), "{second}");
        let reply = ask("GET /qrcode?text=hi HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await;
        assert!(reply.starts_with("HTTP/1.1 200 OK\r\n") && reply.contains("content-type: image/png"), "{reply}");
    }

    /// A client that sends requests and never reads: once the kernel's
    /// buffers are full the server's write blocks, and the connection ends
    /// after the timeout (it never did: hyper has no write timeout).
    #[tokio::test]
    async fn a_client_that_never_reads_is_dropped() {
        let app = Arc::new(App { tier: Tier::Axum, golden: Bytes::new() });
        // 8 MiB per answer: more than loopback's buffers take.
        let extra = Router::new().route("/big", get(|| async { vec![0u8; 8 << 20] }));
        let router = router(app, extra);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let mut client = TcpStream::connect(listener.local_addr().unwrap()).await.unwrap();
        let (stream, _) = listener.accept().await.unwrap();
        let connection = tokio::spawn(serve_connection(stream, router, Duration::from_millis(500)));
        client.write_all(b"GET /big HTTP/1.1\r\nHost: x\r\n\r\nGET /big HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
        // Never read; the server must end the connection on its own.
        let ended = tokio::time::timeout(Duration::from_secs(5), connection).await;
        assert!(ended.is_ok(), "the connection of a client that never reads was still served after 5 s");
        drop(client);
    }

    #[tokio::test]
    async fn unknown_methods_and_missing_hosts_are_400() {
        let app = Arc::new(App { tier: Tier::Axum, golden: Bytes::new() });
        let router = router(app, Router::new());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move {
            loop {
                let (stream, _) = listener.accept().await.unwrap();
                tokio::spawn(serve_connection(stream, router.clone(), Duration::from_secs(5)));
            }
        });
        for (raw, status) in [
            ("get /healthz HTTP/1.1\r\nHost: x\r\n\r\n", "400"),
            ("PROPFIND /qrcode HTTP/1.1\r\nHost: x\r\n\r\n", "400"),
            ("GET /healthz HTTP/1.1\r\n\r\n", "400"),
            ("GET /healthz HTTP/1.0\r\n\r\n", "200"),
            ("PATCH /healthz HTTP/1.1\r\nHost: x\r\n\r\n", "405"),
        ] {
            let mut stream = TcpStream::connect(address).await.unwrap();
            stream.write_all(raw.as_bytes()).await.unwrap();
            let mut reply = vec![0; 12];
            stream.read_exact(&mut reply).await.unwrap();
            assert_eq!(&reply[9..12], status.as_bytes(), "{raw:?}");
        }
    }
}

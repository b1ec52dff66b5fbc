//! qrglue-wasi-http: a wasi:http server for any `wasi:http/proxy` component
//! (ours is target/wasm/qrglue.http.wasm), with the timeouts `wasmtime serve`
//! does not have (hosts/wasi-http/README.md, "Our own server").
//!
//! `qrglue-wasi-http COMPONENT.wasm [--port N] [--workers N] [--request-timeout SECS] [--max-instance-reuse-count N] [--timings] [--no-pagemap-scan]`
//!
//! The component is compiled and linked once (`ProxyPre`); each request then
//! gets a fresh `Store` and instance by default, wasi:http's isolation (no
//! request sees another's memory). `--max-instance-reuse-count N` (N > 1)
//! lets an instance serve up to N requests, one at a time, before it is
//! dropped: what `wasmtime serve --max-instance-reuse-count` does for a
//! WASIp2 component (tier wasmtime-reuse). Instances come from wasmtime's
//! pooling allocator, whose slots keep their pages between instances.
//!
//! Limits, the same as hosts/rust/server's (hyper http1): it listens on
//! 127.0.0.1 only; a request head (request line + headers) over 16 KiB, or
//! with more than 100 header lines, is refused with 431 by hyper itself,
//! before the component sees it; a client that has not sent a whole head
//! within the request timeout (default 10 s), idle, trickling or an idle
//! keep-alive connection, is disconnected (`header_read_timeout`); a client
//! that does not read its answers, so that a write makes no progress for the
//! request timeout, is disconnected too ([`WriteTimeout`]). SIGINT or SIGTERM
//! stops accepting and exits 0.
//!
//! Two answers are the server's own, because wasi:http cannot express the
//! request: an HTTP/1.1 request without Host is the contract's 400 (the
//! wasi:http request needs an authority; `wasmtime serve` answers these with
//! an HTML 500), and an HTTP/1.0 one without Host gets this server's address
//! as its authority and goes to the component. A trap, or a component that
//! sets no response, is a JSON 500 for that request only.

use std::convert::Infallible;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::header::{self, HeaderValue};
use hyper::{Request, Response, StatusCode, Uri, Version};
use hyper_util::rt::{TokioIo, TokioTimer};
use qrglue_server_support::{WriteTimeout, accept_until_stopped};
use tokio::net::TcpStream;
use wasmtime::component::{Component, Linker, ResourceTable};
use wasmtime::{Config, Enabled, Engine, InstanceAllocationStrategy, PoolingAllocationConfig, Store};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};
use wasmtime_wasi_http::p2::bindings::http::types::Scheme;
use wasmtime_wasi_http::p2::bindings::{Proxy, ProxyPre};
use wasmtime_wasi_http::p2::body::HyperOutgoingBody;
use wasmtime_wasi_http::{WasiBody, WasiHttpCtx, WasiHttpCtxView, WasiHttpHooks, WasiHttpView};

/// Request heads larger than this are refused (431), as by every server of tests/http.
const MAX_HEAD_BYTES: usize = 16 * 1024;
/// Header lines beyond this are refused (431): the component's own limit too.
const MAX_HEADERS: usize = 100;
/// Concurrent instances the pooling allocator has slots for (`wasmtime
/// serve`'s connection cap is 1000; our `qrglue.http.wasm` is 2 core
/// instances with a memory each, plus the adapter's).
const POOL_COMPONENT_INSTANCES: u32 = 1100;
const POOL_CORE_INSTANCES: u32 = 2 * POOL_COMPONENT_INSTANCES;

const USAGE: &str = "usage: qrglue-wasi-http COMPONENT.wasm [--port N] [--workers N] [--request-timeout SECS] [--max-instance-reuse-count N] [--timings] [--no-pagemap-scan]";

/// Each store's data: what the proxy world's imports need.
struct Host {
    table: ResourceTable,
    wasi: WasiCtx,
    http: WasiHttpCtx,
    hooks: NoOutgoingRequests,
}

impl WasiView for Host {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView { ctx: &mut self.wasi, table: &mut self.table }
    }
}

impl WasiHttpView for Host {
    fn http(&mut self) -> WasiHttpCtxView<'_> {
        WasiHttpCtxView { ctx: &mut self.http, table: &mut self.table, hooks: &mut self.hooks }
    }
}

/// `wasi:http/outgoing-handler` refuses every request: this server only
/// serves. (wasmtime-wasi-http's default client is behind its
/// `default-send-request` feature: rustls and webpki-roots, left out.)
struct NoOutgoingRequests;

type SendRequestFuture = Box<
    dyn Future<
            Output = wasmtime_wasi_http::Result<(
                hyper::http::Response<WasiBody>,
                Box<dyn Future<Output = wasmtime_wasi_http::Result<()>> + Send>,
            )>,
        > + Send,
>;

impl WasiHttpHooks for NoOutgoingRequests {
    fn send_request(
        &mut self,
        _request: hyper::http::Request<WasiBody>,
        _options: Option<wasmtime_wasi_http::RequestOptions>,
        _fut: Box<dyn Future<Output = wasmtime_wasi_http::Result<()>> + Send>,
    ) -> SendRequestFuture {
        Box::new(async { Err(wasmtime_wasi_http::Error::HttpRequestDenied) })
    }
}

/// Where a request's server time goes (`--timings`: summed per step,
/// printed as one JSON line on exit; hosts/wasi-http/README.md, "Cost per
/// request"). Each step's nanoseconds and how many times it ran.
#[derive(Default)]
struct Timings {
    steps: [(AtomicU64, AtomicU64); STEPS.len()],
}

/// The steps of one request, in order.
const STEPS: [&str; 5] = [
    // A fresh Store (with its WASI and wasi:http contexts) and an instance
    // from the pre-linked component; skipped when an idle instance is reused.
    "instantiate",
    // The wasi:http `incoming-request` and `response-outparam` resources.
    "resources",
    // The guest's handler, from the call until it sets the response (the head).
    "call-to-head",
    // The whole handler, from the call until it returns (the body written):
    // includes call-to-head.
    "call",
    // Dropping the Store and instance (fresh) or putting it back (reuse).
    "teardown",
];

impl Timings {
    fn add(&self, step: usize, since: Instant) {
        let (total, count) = &self.steps[step];
        total.fetch_add(since.elapsed().as_nanos() as u64, Ordering::Relaxed);
        count.fetch_add(1, Ordering::Relaxed);
    }

    fn json(&self) -> String {
        let steps: Vec<String> = STEPS
            .iter()
            .zip(&self.steps)
            .map(|(name, (total, count))| {
                let (total, count) = (total.load(Ordering::Relaxed), count.load(Ordering::Relaxed));
                let mean = if count == 0 { 0.0 } else { total as f64 / count as f64 / 1000.0 };
                format!("\"{name}\": {{\"count\": {count}, \"mean_us\": {mean:.2}}}")
            })
            .collect();
        format!("{{\"timings\": {{{}}}}}", steps.join(", "))
    }
}

/// An instance with its store, and how many requests it has served.
struct Worker {
    store: Store<Host>,
    proxy: Proxy,
    served: usize,
}

struct Server {
    pre: ProxyPre<Host>,
    /// Requests one instance may serve (1: a fresh instance per request).
    reuse: usize,
    /// Instances waiting for their next request (reuse only), last in first
    /// out: the most recently used one has the warmest caches.
    idle: Mutex<Vec<Worker>>,
    /// The authority of an HTTP/1.0 request without Host: our own address.
    authority: String,
    /// Per-step server time (`--timings`), else None: no clock reads.
    timings: Option<Timings>,
}

impl Server {
    async fn instantiate(&self) -> wasmtime::Result<Worker> {
        let host = Host {
            table: ResourceTable::new(),
            // No stdio, environment, arguments or preopens: the proxy world
            // has only clocks, random and stdio from WASI (output discarded).
            wasi: WasiCtx::builder().build(),
            http: WasiHttpCtx::new(),
            hooks: NoOutgoingRequests,
        };
        let mut store = Store::new(self.pre.engine(), host);
        let proxy = self.pre.instantiate_async(&mut store).await?;
        Ok(Worker { store, proxy, served: 0 })
    }

    /// Adds the time since `clock` to a step (`--timings` only).
    fn time(&self, step: usize, clock: Option<Instant>) {
        if let (Some(timings), Some(clock)) = (&self.timings, clock) {
            timings.add(step, clock);
        }
    }

    fn take_idle(&self) -> Option<Worker> {
        if self.reuse <= 1 {
            return None;
        }
        self.idle.lock().unwrap().pop()
    }

    /// After a request that returned normally: back to the idle list, unless
    /// it has served its count (then dropped here: the Store, its instance
    /// and its pool slot). A trapped instance is never reused.
    fn put_back(&self, worker: Worker) {
        if worker.served < self.reuse {
            self.idle.lock().unwrap().push(worker);
        } else {
            drop(worker);
        }
    }

    async fn handle(self: Arc<Self>, mut request: Request<Incoming>) -> Result<Response<HyperOutgoingBody>, Infallible> {
        if !request.headers().contains_key(header::HOST) && request.uri().authority().is_none() {
            if request.version() == Version::HTTP_11 {
                // RFC 9112 3.2: a 400; the contract's, and the connection closed (as axum's guard).
                return Ok(closing(json(StatusCode::BAD_REQUEST, "bad-request", qrglue_http_query::NO_HOST_MESSAGE)));
            }
            // HTTP/1.0 needs no Host: the request is for us.
            let target = request.uri().path_and_query().map_or("/", |p| p.as_str());
            if let Ok(uri) = Uri::builder().scheme("http").authority(self.authority.as_str()).path_and_query(target).build() {
                *request.uri_mut() = uri;
            }
        }
        match self.call(request).await {
            Ok(response) => Ok(response),
            Err(err) => {
                eprintln!("qrglue-wasi-http: {err:#}");
                Ok(json(StatusCode::INTERNAL_SERVER_ERROR, "internal", "the server failed on this request"))
            }
        }
    }

    /// The request through the component: as wasmtime-wasi-http's own
    /// example (src/p2/mod.rs), the guest runs in a task of its own, so that
    /// the answer's head goes out as soon as the guest sets it while the
    /// guest still writes the body.
    async fn call(self: &Arc<Self>, request: Request<Incoming>) -> wasmtime::Result<Response<HyperOutgoingBody>> {
        let clock = self.timings.as_ref().map(|_| Instant::now());
        let mut worker = match self.take_idle() {
            Some(worker) => worker,
            None => {
                let worker = self.instantiate().await?;
                self.time(0, clock);
                worker
            }
        };
        let clock = self.timings.as_ref().map(|_| Instant::now());
        let (sender, receiver) = tokio::sync::oneshot::channel();
        let request = worker.store.data_mut().http().new_incoming_request(Scheme::Http, request)?;
        let out = worker.store.data_mut().http().new_response_outparam(sender)?;
        self.time(1, clock);
        let called = self.timings.as_ref().map(|_| Instant::now());
        let server = Arc::clone(self);
        let task = tokio::spawn(async move {
            let Worker { store, proxy, .. } = &mut worker;
            proxy.wasi_http_incoming_handler().call_handle(&mut *store, request, out).await?;
            server.time(3, server.timings.as_ref().and(called));
            let clock = server.timings.as_ref().map(|_| Instant::now());
            worker.served += 1;
            server.put_back(worker);
            server.time(4, clock);
            wasmtime::Result::<()>::Ok(())
        });
        let answer = receiver.await;
        self.time(2, called);
        match answer {
            Ok(Ok(response)) => Ok(response),
            Ok(Err(code)) => Err(wasmtime::format_err!("the component answered with an error: {code:?}")),
            // The outparam was dropped unset: the task says why.
            Err(_) => match task.await {
                Ok(Ok(())) => Err(wasmtime::format_err!("the component never set a response")),
                Ok(Err(err)) => Err(err.context("the component failed")),
                Err(join) => Err(wasmtime::format_err!("the component's task failed: {join}")),
            },
        }
    }
}

/// The contract's JSON error (tests/http/README.md).
fn json(status: StatusCode, kind: &str, message: &str) -> Response<HyperOutgoingBody> {
    let body = Full::new(Bytes::from(qrglue_http_query::error_json(kind, message))).map_err(|never| match never {}).boxed_unsync();
    let mut response = Response::new(body);
    *response.status_mut() = status;
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json; charset=utf-8"));
    response
}

/// A response after which hyper closes the connection.
fn closing(mut response: Response<HyperOutgoingBody>) -> Response<HyperOutgoingBody> {
    response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// One connection, with the limits of the module's documentation.
async fn serve_connection(stream: TcpStream, server: Arc<Server>, timeout: Duration) {
    let _ = stream.set_nodelay(true);
    let service = hyper::service::service_fn(move |request| Arc::clone(&server).handle(request));
    let _ = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(timeout)
        .max_buf_size(MAX_HEAD_BYTES)
        .max_headers(MAX_HEADERS)
        .serve_connection(TokioIo::new(WriteTimeout::new(stream, timeout)), service)
        .await;
}

struct Args {
    component: String,
    port: u16,
    workers: usize,
    request_timeout: Duration,
    reuse: usize,
    timings: bool,
    pagemap_scan: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut component = None;
    let mut args = Args {
        component: String::new(),
        port: 8080,
        workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
        request_timeout: Duration::from_secs(10),
        reuse: 1,
        timings: false,
        pagemap_scan: true,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--port" => args.port = value()?.parse().map_err(|e| format!("--port: {e}"))?,
            "--workers" => args.workers = value()?.parse().map_err(|e| format!("--workers: {e}"))?,
            "--request-timeout" => {
                let secs: f64 = value()?.parse().map_err(|e| format!("--request-timeout: {e}"))?;
                args.request_timeout = Duration::try_from_secs_f64(secs).map_err(|e| format!("--request-timeout: {e}"))?;
            }
            "--timings" => args.timings = true,
            // The old reset, for measuring what PAGEMAP_SCAN saves.
            "--no-pagemap-scan" => args.pagemap_scan = false,
            "--max-instance-reuse-count" => {
                args.reuse = value()?.parse().map_err(|e| format!("--max-instance-reuse-count: {e}"))?;
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other if other.starts_with('-') => return Err(format!("unknown argument {other:?}")),
            other if component.is_none() => component = Some(other.to_string()),
            other => return Err(format!("one component only (got {other:?} too)")),
        }
    }
    args.component = component.ok_or("no component given")?;
    if args.workers == 0 {
        return Err("--workers must be at least 1".into());
    }
    if args.reuse == 0 {
        return Err("--max-instance-reuse-count must be at least 1".into());
    }
    Ok(args)
}

fn engine(pagemap_scan: bool) -> wasmtime::Result<Engine> {
    // The pooling allocator: an instance's memories, tables and stacks are
    // slots reserved once; a finished instance's pages are reset, not
    // unmapped, the first 2 MiB of each memory kept resident (our core grows
    // to 21 pages, 1.3 MiB, on its first png). The same settings as
    // hosts/wasi-http/server/serve.sh gives `wasmtime serve`, 64 MiB (the guests'
    // declared maximum) per memory.
    let mut pool = PoolingAllocationConfig::default();
    pool.total_component_instances(POOL_COMPONENT_INSTANCES)
        .total_core_instances(POOL_CORE_INSTANCES)
        .total_memories(POOL_CORE_INSTANCES)
        .total_tables(POOL_CORE_INSTANCES)
        .total_stacks(POOL_CORE_INSTANCES)
        .max_memory_size(64 << 20)
        .linear_memory_keep_resident(2 << 20)
        .table_keep_resident(64 << 10)
        // Reset only the pages an instance dirtied (Linux >= 6.7's
        // PAGEMAP_SCAN; elsewhere wasmtime falls back by itself), not the whole
        // used part of each memory: a fresh instance's teardown was a memset
        // of the core's 1.3 MiB, most of it the untouched 1 MiB stack
        // (hosts/wasi-http/README.md, "Cost per request").
        .pagemap_scan(if pagemap_scan { Enabled::Auto } else { Enabled::No });
    let mut config = Config::new();
    config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    // Off, as in qrglue-host (issue 34): this server is async, but the way
    // wasi:http 0.2 (`p2`) is: host futures driven by tokio, the guest on a
    // fiber (`call_async`). `concurrency_support` is the Component Model's own
    // async (wasi 0.3's `p3`, `Store::run_concurrent`, streams, futures), which
    // neither the proxy world we serve nor qrglue.http.wasm uses. Serving a
    // p3 component would need it on (and wasmtime's component-model-async
    // feature, which this build leaves out).
    config.concurrency_support(false);
    Engine::new(&config)
}

async fn serve(args: Args) -> wasmtime::Result<()> {
    let engine = engine(args.pagemap_scan)?;
    let component = Component::from_file(&engine, &args.component)?;
    let mut linker = Linker::new(&engine);
    // The proxy world's imports: wasi:io, clocks, random, stdio, wasi:http.
    wasmtime_wasi_http::p2::add_to_linker_async(&mut linker)?;
    let pre = ProxyPre::new(linker.instantiate_pre(&component)?)?;
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", args.port)).await?;
    let address = listener.local_addr()?;
    let server = Arc::new(Server {
        pre,
        reuse: args.reuse,
        idle: Mutex::new(Vec::new()),
        authority: address.to_string(),
        timings: args.timings.then(Timings::default),
    });
    let instances =
        if args.reuse <= 1 { "a fresh instance per request".to_string() } else { format!("instances reused up to {} times", args.reuse) };
    println!(
        "qrglue-wasi-http: listening on http://{address} ({}; {instances}; worker threads: {}; head limit {} KiB, request timeout {} s)",
        args.component,
        args.workers,
        MAX_HEAD_BYTES / 1024,
        args.request_timeout.as_secs_f64()
    );
    let timeout = args.request_timeout;
    accept_until_stopped(listener, |stream| serve_connection(stream, Arc::clone(&server), timeout)).await?;
    if let Some(timings) = &server.timings {
        println!("{}", timings.json());
    }
    println!("qrglue-wasi-http: stopped");
    Ok(())
}

fn main() {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("qrglue-wasi-http: {message}\n{USAGE}");
            std::process::exit(2);
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(args.workers).enable_all().build().expect("tokio runtime");
    if let Err(err) = runtime.block_on(serve(args)) {
        eprintln!("qrglue-wasi-http: {err:#}");
        std::process::exit(1);
    }
    // Connections still open (and any guest still running) are dropped with
    // the runtime, without waiting for them: exit 0.
    runtime.shutdown_background();
}

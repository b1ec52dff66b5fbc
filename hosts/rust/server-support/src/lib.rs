//! What the project's two hyper servers share (hosts/rust/server, tiers axum
//! and static, and hosts/wasi-http/server, qrglue-wasi-http): the write
//! timeout hyper does not have ([`WriteTimeout`]) and the accept loop
//! ([`accept_until_stopped`]): one implementation, so the two cannot drift.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

/// A connection whose writes must make progress: a write that stays blocked
/// for `timeout` (a client that sends requests and never reads the answers,
/// once the kernel's buffers are full) fails with `TimedOut`, and hyper drops
/// the connection. hyper's `header_read_timeout` only covers the reading of a
/// head; without this, such a client held its descriptor, its buffers and
/// hyper's task for ever.
pub struct WriteTimeout {
    stream: TcpStream,
    timeout: Duration,
    /// Armed when a write blocks; cleared by any progress.
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl WriteTimeout {
    /// `stream`, whose writes fail with `TimedOut` after `timeout` without progress.
    pub fn new(stream: TcpStream, timeout: Duration) -> Self {
        Self { stream, timeout, stalled: None }
    }
}

impl WriteTimeout {
    fn progress<T>(&mut self, cx: &mut Context<'_>, poll: Poll<std::io::Result<T>>) -> Poll<std::io::Result<T>> {
        if poll.is_ready() {
            self.stalled = None;
            return poll;
        }
        let timeout = self.timeout;
        let stalled = self.stalled.get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match stalled.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "the client does not read"))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for WriteTimeout {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for WriteTimeout {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_write(cx, buf);
        this.progress(cx, poll)
    }

    fn poll_write_vectored(self: Pin<&mut Self>, cx: &mut Context<'_>, bufs: &[std::io::IoSlice<'_>]) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        this.progress(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_flush(cx);
        this.progress(cx, poll)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_shutdown(cx);
        this.progress(cx, poll)
    }
}

/// Accepts connections on `listener` and spawns `serve(stream)` for each,
/// until SIGINT or SIGTERM; then returns, leaving the spawned connections to
/// the runtime's shutdown. An accept error (EMFILE and the like) waits 10 ms
/// and goes on: the connections already held keep being served.
pub async fn accept_until_stopped<F, Fut>(listener: TcpListener, mut serve: F) -> std::io::Result<()>
where
    F: FnMut(TcpStream) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let mut sigterm = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(_) => { tokio::time::sleep(Duration::from_millis(10)).await; continue; }
            },
            _ = tokio::signal::ctrl_c() => return Ok(()),
            _ = sigterm.recv() => return Ok(()),
        };
        tokio::spawn(serve(stream));
    }
}

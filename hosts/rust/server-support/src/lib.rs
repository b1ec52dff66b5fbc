//! What the project's two hyper servers share (hosts/rust/server, tiers axum
//! and static, and hosts/wasi-http/server, qrglue-wasi-http): the write
//! timeout hyper does not have ([`WriteTimeout`], which also bounds what a
//! connection holds unsent: [`NOTSENT_LOWAT`]) and the accept loop
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

/// The most a connection may hold written but unsent in the kernel before its
/// writes block (`TCP_NOTSENT_LOWAT`): about two 4096-pixel PNGs (7 KB each).
/// Without it the kernel's send buffer (autotuned up to `tcp_wmem`'s 4 MB)
/// took every answer of a client that pipelines 200 requests and never reads,
/// so hyper went on rendering them all (issue 39: 200 renders per such
/// client, and 30 of them held one worker for 20 s). With it a write blocks
/// once ~16 KiB are queued, hyper keeps the next answer in its own buffer and
/// does not poll the next request's handler until that buffer drains: a
/// client that never reads costs a few renders, then the write timeout.
pub const NOTSENT_LOWAT: u32 = 16 * 1024;

impl WriteTimeout {
    /// `stream`, whose writes fail with `TimedOut` after `timeout` without
    /// progress, and block while more than [`NOTSENT_LOWAT`] bytes are unsent.
    pub fn new(stream: TcpStream, timeout: Duration) -> Self {
        bound_unsent(&stream, NOTSENT_LOWAT);
        Self { stream, timeout, stalled: None }
    }
}

/// Sets `TCP_NOTSENT_LOWAT` on `stream` (Linux 3.12+). Best effort: where it
/// fails the kernel keeps its default, and the write timeout still ends the
/// connection, later.
fn bound_unsent(stream: &TcpStream, bytes: u32) {
    use std::os::fd::AsRawFd;
    let value = bytes as libc::c_int;
    // SAFETY: a valid descriptor for the call's duration, and a c_int option value of its size.
    unsafe {
        libc::setsockopt(
            stream.as_raw_fd(),
            libc::IPPROTO_TCP,
            libc::TCP_NOTSENT_LOWAT,
            (&value as *const libc::c_int).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        );
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every connection a server wraps is bounded: the option is on the socket.
    #[tokio::test]
    async fn a_wrapped_connection_holds_at_most_notsent_lowat_unsent() {
        use std::os::fd::AsRawFd;
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let _client = TcpStream::connect(listener.local_addr().unwrap()).await.unwrap();
        let (stream, _) = listener.accept().await.unwrap();
        let wrapped = WriteTimeout::new(stream, Duration::from_secs(1));
        let mut value: libc::c_int = 0;
        let mut len = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
        // SAFETY: a valid descriptor, and a c_int with its size for the value.
        let status = unsafe {
            libc::getsockopt(
                wrapped.stream.as_raw_fd(),
                libc::IPPROTO_TCP,
                libc::TCP_NOTSENT_LOWAT,
                (&mut value as *mut libc::c_int).cast(),
                &mut len,
            )
        };
        assert_eq!(status, 0, "getsockopt: {}", std::io::Error::last_os_error());
        assert_eq!(value as u32, NOTSENT_LOWAT);
    }
}

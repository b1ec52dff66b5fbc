package dev.qrglue.server;

import dev.qrglue.QrException;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.timeout.WriteTimeoutHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * qrglue behind HTTP on the JVM (tests/http/README.md): GET /qrcode and /healthz on 127.0.0.1, one tier
 * per way into the generator, on Netty 4.2 (its HTTP/1.1 codec, NIO transport). Netty rather than the
 * JDK's com.sun.net.httpserver: the contract's limits need a server whose head size, head timeout
 * and write timeout can be held per connection (README "The server").
 *
 * <p>Usage: Server --tier zxing|cli|raw|native|static [--port N] [--workers N] [--request-timeout SECS]
 */
public final class Server {
    private Server() {}

    static final int MAX_HEAD_BYTES = 16 * 1024;
    /** The send buffer of each connection (SO_SNDBUF): what one may hold unsent, about three 4096-pixel PNGs. */
    static final int SEND_BUFFER_BYTES = 16 * 1024;

    static final int MAX_HEADERS = 100;

    public static void main(String[] args) throws Exception {
        String tier = null;
        int port = 8080;
        int workers = Runtime.getRuntime().availableProcessors();
        double timeout = 10;
        try {
            for (int i = 0; i < args.length; i++) {
                String value = i + 1 < args.length ? args[i + 1] : null;
                switch (args[i]) {
                    case "--tier" -> tier = value;
                    case "--port" -> port = Integer.parseInt(value);
                    case "--workers" -> workers = Integer.parseInt(value);
                    case "--request-timeout" -> timeout = Double.parseDouble(value);
                    default -> throw new IllegalArgumentException("unknown argument " + args[i]);
                }
                i++;
            }
            if (tier == null || !Tiers.NAMES.contains(tier)) {
                throw new IllegalArgumentException(
                        "unknown tier " + tier + " (java tiers: " + String.join(", ", Tiers.NAMES) + ")");
            }
            if (port < 0 || port > 65535 || workers < 1 || !(timeout > 0)) {
                throw new IllegalArgumentException("bad --port, --workers or --request-timeout");
            }
        } catch (RuntimeException e) {
            System.err.println("qrglue-server: " + e.getMessage()
                    + "\nusage: serve.sh TIER [PORT] [--workers N] [--request-timeout SECS] (tiers: "
                    + String.join(", ", Tiers.NAMES) + ")");
            System.exit(2);
            return;
        }
        Tiers.Generator generator = Tiers.forTier(tier);
        long timeoutMs = Math.round(timeout * 1000);
        ExecutorService blocking = generator.blocking() ? Executors.newVirtualThreadPerTaskExecutor() : null;
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(workers, NioIoHandler.newFactory());
        String name = tier;
        Channel listener = new ServerBootstrap()
                .group(boss, group)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                // A connection's answers are written one at a time, the next worked on once the one before
                // is in the kernel (Connection.send); without a cap the kernel's send buffer (autotuned up
                // to tcp_wmem's 4 MB) took all 200 answers of a client that pipelines 200 requests and never
                // reads, each rendered (issue 39). NIO has no TCP_NOTSENT_LOWAT (the other servers' bound):
                // a 16 KiB send buffer (the kernel doubles it) holds about three 4096-pixel PNGs.
                .childOption(ChannelOption.SO_SNDBUF, SEND_BUFFER_BYTES)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                                .addLast(new WriteTimeoutHandler(timeoutMs, TimeUnit.MILLISECONDS))
                                .addLast(new HttpServerCodec(new HttpDecoderConfig()
                                        // The request line and the header block are each bounded here;
                                        // Connection counts the contract's 16 KiB over both.
                                        .setMaxInitialLineLength(MAX_HEAD_BYTES + 64)
                                        .setMaxHeaderSize(MAX_HEAD_BYTES)
                                        .setMaxChunkSize(16 * 1024)))
                                .addLast(new Connection(generator, blocking, timeoutMs));
                    }
                })
                .bind("127.0.0.1", port)
                .sync()
                .channel();
        int bound = ((java.net.InetSocketAddress) listener.localAddress()).getPort();
        System.out.println("qrglue-server java/" + name + ": listening on http://127.0.0.1:" + bound + " (workers: "
                + workers + "; head limit 16 KiB, request timeout " + timeout + " s)");
        System.out.flush();
        // SIGTERM and SIGINT run the shutdown hooks; the JVM would then exit 143 (130). The contract's
        // stop is exit 0 within 10 s, so the hook ends the process with 0 once the port is closed and
        // the loops are stopped. Not with Runtime.halt: HotSpot's exit waits up to 10 s for a JIT
        // compiler thread to finish (VM_Exit::wait_for_threads_in_native_to_block), and C2 compiling
        // the raw tier's huge compiled-wasm methods (-XX:-DontCompileHugeMethods) took 2-4 s of that
        // under load here, and past the 10 s in CI (test_stop[java-raw]); libc's _exit does not wait.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            listener.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
            boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
            System.out.flush();
            System.err.flush();
            exitNow(0);
        }));
        listener.closeFuture().sync();
    }

    /** Ends the process with {@code status} now: libc's {@code _exit}, falling back to {@code Runtime.halt}. */
    @SuppressWarnings("restricted")
    static void exitNow(int status) {
        try {
            Linker linker = Linker.nativeLinker();
            MethodHandle exit = linker.downcallHandle(
                    linker.defaultLookup().find("_exit").orElseThrow(),
                    FunctionDescriptor.ofVoid(ValueLayout.JAVA_INT));
            exit.invokeExact(status);
        } catch (Throwable notLinked) {
            Runtime.getRuntime().halt(status);
        }
    }

    /**
     * One connection: requests answered in order (pipelined ones too), the head timer (the whole head
     * must arrive within the request timeout from connect or from the previous answer), flow control (a
     * client that does not read its answers gets no further work done; the write timeout closes it).
     */
    static final class Connection extends ChannelInboundHandlerAdapter {
        private final Tiers.Generator generator;
        private final ExecutorService blocking;
        private final long timeoutMs;
        private ScheduledFuture<?> headTimer;
        private final ArrayDeque<Job> queue = new ArrayDeque<>();
        /** An answer is being made or written. */
        private boolean busy;

        private boolean closing;

        Connection(Tiers.Generator generator, ExecutorService blocking, long timeoutMs) {
            this.generator = generator;
            this.blocking = blocking;
            this.timeoutMs = timeoutMs;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            arm(ctx);
            ctx.fireChannelActive();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            disarm();
            ctx.fireChannelInactive();
        }

        private void arm(ChannelHandlerContext ctx) {
            disarm();
            headTimer = ctx.executor().schedule(() -> ctx.close(), timeoutMs, TimeUnit.MILLISECONDS);
        }

        private void disarm() {
            if (headTimer != null) {
                headTimer.cancel(false);
                headTimer = null;
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (closing) {
                    return;
                }
                if (msg instanceof HttpRequest request) {
                    disarm();
                    request(ctx, request);
                } else if (msg instanceof HttpContent content
                        && content.decoderResult().isFailure()) {
                    // A malformed body (a bad chunk size): nothing more can be read on this connection.
                    refuse(ctx, error(HttpResponseStatus.BAD_REQUEST, "bad-request", QueryGrammar.BAD_REQUEST_MESSAGE));
                }
                // Other body parts are read and dropped: no request of this endpoint has a body.
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        private void request(ChannelHandlerContext ctx, HttpRequest request) {
            if (request.decoderResult().isFailure()) {
                Throwable cause = request.decoderResult().cause();
                boolean tooLarge = cause instanceof TooLongFrameException;
                refuse(
                        ctx,
                        tooLarge
                                ? error(
                                        HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
                                        "bad-request",
                                        QueryGrammar.HEAD_TOO_LARGE_MESSAGE)
                                : error(
                                        HttpResponseStatus.BAD_REQUEST,
                                        "bad-request",
                                        QueryGrammar.BAD_REQUEST_MESSAGE));
                return;
            }
            HttpVersion version = request.protocolVersion();
            if (!version.protocolName().equals("HTTP") || version.majorVersion() != 1 || version.minorVersion() > 1) {
                refuse(ctx, error(HttpResponseStatus.BAD_REQUEST, "bad-request", QueryGrammar.BAD_REQUEST_MESSAGE));
                return;
            }
            int headers = request.headers().size();
            long headBytes = request.uri().length();
            for (Map.Entry<String, String> header : request.headers()) {
                headBytes += header.getKey().length() + header.getValue().length();
            }
            if (headers > MAX_HEADERS || headBytes > MAX_HEAD_BYTES) {
                String message =
                        headers > MAX_HEADERS ? "more than 100 header lines" : QueryGrammar.HEAD_TOO_LARGE_MESSAGE;
                refuse(ctx, error(HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "bad-request", message));
                return;
            }
            String method = request.method().name();
            String methodClass = QueryGrammar.methodClass(method);
            if (methodClass.equals("unknown")) {
                refuse(ctx, error(HttpResponseStatus.BAD_REQUEST, "bad-request", QueryGrammar.UNKNOWN_METHOD_MESSAGE));
                return;
            }
            if (version.equals(HttpVersion.HTTP_1_1) && !request.headers().contains(HttpHeaderNames.HOST)) {
                refuse(ctx, error(HttpResponseStatus.BAD_REQUEST, "bad-request", QueryGrammar.NO_HOST_MESSAGE));
                return;
            }
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            boolean head = request.method().equals(HttpMethod.HEAD);
            String[] target = QueryGrammar.pathAndQuery(request.uri());
            String path = target[0];
            boolean known = path.equals("/qrcode") || path.equals("/healthz");
            if (!known) {
                send(
                        ctx,
                        () -> error(
                                HttpResponseStatus.NOT_FOUND, "not-found", "no such path (known: /qrcode, /healthz)"),
                        keepAlive,
                        head,
                        false);
                return;
            }
            if (methodClass.equals("not-allowed")) {
                // Its body (announced, or never sent after Expect: 100-continue) is not waited for.
                boolean body =
                        HttpUtil.isTransferEncodingChunked(request) || HttpUtil.getContentLength(request, 0L) > 0;
                send(
                        ctx,
                        () -> {
                            FullHttpResponse refused = error(
                                    HttpResponseStatus.METHOD_NOT_ALLOWED,
                                    "method-not-allowed",
                                    "only GET and HEAD are allowed");
                            refused.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
                            return refused;
                        },
                        keepAlive && !body,
                        false,
                        false);
                return;
            }
            if (path.equals("/healthz")) {
                send(
                        ctx,
                        () -> {
                            FullHttpResponse ok = new DefaultFullHttpResponse(
                                    HttpVersion.HTTP_1_1,
                                    HttpResponseStatus.OK,
                                    Unpooled.copiedBuffer("ok\n", StandardCharsets.UTF_8));
                            ok.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
                            return ok;
                        },
                        keepAlive,
                        head,
                        false);
                return;
            }
            String query = target[1];
            send(ctx, () -> qrcode(query), keepAlive, head, generator.blocking());
        }

        /** GET /qrcode: the PNG, or the contract's refusal (a failure that is nobody's input: 500). */
        private FullHttpResponse qrcode(String query) {
            try {
                byte[] png = generator.png(QueryGrammar.parse(query, generator.alone()));
                FullHttpResponse ok = new DefaultFullHttpResponse(
                        HttpVersion.HTTP_1_1, HttpResponseStatus.OK, Unpooled.wrappedBuffer(png));
                ok.headers().set(HttpHeaderNames.CONTENT_TYPE, "image/png");
                return ok;
            } catch (HttpError e) {
                return error(HttpResponseStatus.valueOf(e.status), e.kind, e.getMessage());
            } catch (QrException e) {
                return error(HttpResponseStatus.BAD_REQUEST, e.kind(), e.getMessage());
            } catch (RuntimeException e) {
                System.err.println("qrglue-server: the generator failed: " + e);
                return error(HttpResponseStatus.INTERNAL_SERVER_ERROR, "internal", "the generator failed");
            }
        }

        /** A refusal after which the connection closes (nothing more of it can be trusted). */
        private void refuse(ChannelHandlerContext ctx, FullHttpResponse response) {
            send(ctx, () -> response, false, false, false);
        }

        /** An answer in line: what makes it, and how it is sent. */
        private record Job(Supplier<FullHttpResponse> make, boolean keepAlive, boolean head, boolean offLoop) {}

        /**
         * Queues an answer. One request of a connection is worked on at a time, and the next only once the
         * previous answer has been written to the socket: pipelined requests are answered in order, and a
         * client that does not read its answers gets no more work done for it (its pipelined requests wait
         * unread, its blocked write meets the write timeout). The connection is not read while answers
         * are in line.
         */
        private void send(
                ChannelHandlerContext ctx,
                Supplier<FullHttpResponse> make,
                boolean keepAlive,
                boolean head,
                boolean offLoop) {
            queue.add(new Job(make, keepAlive, head, offLoop));
            ctx.channel().config().setAutoRead(false);
            schedule(ctx);
        }

        /**
         * The connection's next job, as a task at the back of the event loop's queue: connections take
         * turns, one answer each, so a new client waits one round, not for every pipelined request of
         * the others.
         */
        private void schedule(ChannelHandlerContext ctx) {
            if (busy || closing) {
                return;
            }
            busy = true;
            ctx.executor().execute(() -> next(ctx));
        }

        private void next(ChannelHandlerContext ctx) {
            Job job = closing ? null : queue.poll();
            if (job == null) {
                busy = false;
                if (!closing) {
                    // Idle: read again, and the next head must arrive within the request timeout.
                    ctx.channel().config().setAutoRead(true);
                    arm(ctx);
                }
                return;
            }
            if (job.offLoop()) {
                CompletableFuture.supplyAsync(job.make(), blocking)
                        .whenCompleteAsync((response, failure) -> write(ctx, job, response), ctx.executor());
            } else {
                write(ctx, job, job.make().get());
            }
        }

        /** Writes an answer; without keep-alive the connection closes after it, else the next job runs. */
        private void write(ChannelHandlerContext ctx, Job job, FullHttpResponse response) {
            if (response == null) { // the blocking generator failed outside qrcode()'s catch
                response = error(HttpResponseStatus.INTERNAL_SERVER_ERROR, "internal", "the generator failed");
            }
            if (closing || !ctx.channel().isActive()) {
                response.release();
                return;
            }
            HttpUtil.setContentLength(response, response.content().readableBytes());
            if (job.head()) {
                // HEAD: the same headers, Content-Length included, and no body.
                response.content().clear();
            }
            if (!job.keepAlive()) {
                closing = true;
                response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                disarm();
                ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
                return;
            }
            ctx.writeAndFlush(response).addListener(written -> {
                busy = false;
                if (written.isSuccess()) {
                    schedule(ctx);
                } else {
                    ctx.close();
                }
            });
        }

        private static FullHttpResponse error(HttpResponseStatus status, String kind, String message) {
            ByteBuf body = Unpooled.copiedBuffer(
                    "{\"kind\":" + json(kind) + ",\"message\":" + json(message) + "}", StandardCharsets.UTF_8);
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json; charset=utf-8");
            return response;
        }

        /** A JSON string (the messages are the contract's or the library's: any Unicode). */
        static String json(String s) {
            StringBuilder out = new StringBuilder("\"");
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                switch (c) {
                    case '"' -> out.append("\\\"");
                    case '\\' -> out.append("\\\\");
                    default -> {
                        if (c < 0x20) {
                            out.append(String.format("\\u%04x", (int) c));
                        } else {
                            out.append(c);
                        }
                    }
                }
            }
            return out.append('"').toString();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // A reset, a write timeout (a client that does not read): the connection goes.
            ctx.close();
        }
    }
}

package dev.qrglue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The generator on one {@link Engine}: png, svg, matrix and text for a String (its UTF-8) or a byte[]
 * (a binary payload, through the guest's *_bytes calls), and data URLs. Thread-safe: each call takes
 * an idle instance from a pool (or makes one), so an instance is never used by two threads at once; at
 * most {@code maxIdle} wait between calls. A call that fails for any reason but a QrException (a trap,
 * a reply outside the ABI) retires its instance, which is dropped, never reused.
 */
public final class QrGenerator {
    private final Engine engine;
    private final int maxIdle;
    private final ConcurrentLinkedDeque<Core> idle = new ConcurrentLinkedDeque<>();
    private final AtomicLong instances = new AtomicLong();
    private final AtomicLong retired = new AtomicLong();
    private final AtomicLong entered = new AtomicLong();

    /**
     * A generator on the engine, keeping up to twice the processors' count of idle instances.
     *
     * @param engine the engine every call runs on
     */
    public QrGenerator(Engine engine) {
        this(engine, 2 * Runtime.getRuntime().availableProcessors());
    }

    /**
     * A generator on the engine, keeping up to {@code maxIdle} idle instances between calls.
     *
     * @param engine the engine every call runs on
     * @param maxIdle how many idle instances to keep (at least 1); more are made under load and dropped
     *     after their call
     * @throws IllegalArgumentException if {@code maxIdle} is less than 1
     */
    public QrGenerator(Engine engine, int maxIdle) {
        this.engine = Objects.requireNonNull(engine, "engine");
        if (maxIdle < 1) {
            throw new IllegalArgumentException("maxIdle must be at least 1, got " + maxIdle);
        }
        this.maxIdle = maxIdle;
    }

    /**
     * The engine this generator runs on.
     *
     * @return the engine given to the constructor
     */
    public Engine engine() {
        return engine;
    }

    /**
     * The PNG (1-bit grayscale, or indexed with colours) for a text.
     *
     * @param text the text, encoded as its UTF-8
     * @param options the options ({@link Options#DEFAULTS} for every default)
     * @return the PNG file's bytes, owned by the caller
     * @throws QrException the contract's refusal: empty-text, invalid-text (a lone surrogate),
     *     data-too-long, invalid-options (the message names the option, its bounds and the value)
     * @throws GuestTrapException the guest failed (a trap; a panic in the native core): not the input's
     *     fault, and the next call runs on a fresh instance
     */
    public byte[] png(String text, Options options) {
        byte[] data = Checks.utf8(text);
        long[] abi = Checks.lower(options);
        return run(core -> core.png(data, false, abi));
    }

    /**
     * {@link #png(String, Options)} with every option at its default.
     *
     * @param text the text, encoded as its UTF-8
     * @return the PNG file's bytes
     * @throws QrException as {@link #png(String, Options)}
     */
    public byte[] png(String text) {
        return png(text, Options.DEFAULTS);
    }

    /**
     * The PNG for a binary payload (the bytes as they are, no UTF-8 check). The array is copied first.
     *
     * @param data the payload, 1 to 7089 bytes
     * @param options the options ({@link Options#DEFAULTS} for every default)
     * @return the PNG file's bytes, owned by the caller
     * @throws QrException the contract's refusal: empty-text, data-too-long, invalid-options (the message names the option, its bounds and the value)
     * @throws GuestTrapException the guest failed (a trap; a panic in the native core): not the input's
     *     fault, and the next call runs on a fresh instance
     */
    public byte[] png(byte[] data, Options options) {
        byte[] copy = payload(data);
        long[] abi = Checks.lower(options);
        return run(core -> core.png(copy, true, abi));
    }

    /**
     * {@link #png(byte[], Options)} with every option at its default.
     *
     * @param data the payload
     * @return the PNG file's bytes
     * @throws QrException as {@link #png(byte[], Options)}
     */
    public byte[] png(byte[] data) {
        return png(data, Options.DEFAULTS);
    }

    /**
     * The SVG document for a text: one path for the dark modules.
     *
     * @param text the text, encoded as its UTF-8
     * @param options the options ({@link Options#DEFAULTS} for every default)
     * @param svg the SVG's own options, checked after {@code options} ({@link SvgOptions#NONE}: none)
     * @return the SVG document
     * @throws QrException the contract's refusal: empty-text, invalid-text (a lone surrogate),
     *     data-too-long, invalid-options (the message names the option, its bounds and the value)
     * @throws GuestTrapException the guest failed (a trap; a panic in the native core): not the input's
     *     fault, and the next call runs on a fresh instance
     */
    public String svg(String text, Options options, SvgOptions svg) {
        return svgCall(Checks.utf8(text), options, svg, false);
    }

    /**
     * {@link #svg(String, Options, SvgOptions)} without SVG options.
     *
     * @param text the text, encoded as its UTF-8
     * @param options the options
     * @return the SVG document
     * @throws QrException as {@link #svg(String, Options, SvgOptions)}
     */
    public String svg(String text, Options options) {
        return svg(text, options, SvgOptions.NONE);
    }

    /**
     * {@link #svg(String, Options, SvgOptions)} with every option at its default.
     *
     * @param text the text, encoded as its UTF-8
     * @return the SVG document
     * @throws QrException as {@link #svg(String, Options, SvgOptions)}
     */
    public String svg(String text) {
        return svg(text, Options.DEFAULTS, SvgOptions.NONE);
    }

    /**
     * The SVG document for a binary payload (the bytes as they are). The array is copied first.
     *
     * @param data the payload, 1 to 7089 bytes
     * @param options the options ({@link Options#DEFAULTS} for every default)
     * @param svg the SVG's own options, checked after {@code options} ({@link SvgOptions#NONE}: none)
     * @return the SVG document
     * @throws QrException the contract's refusal: empty-text, data-too-long, invalid-options (the message names the option, its bounds and the value)
     * @throws GuestTrapException the guest failed (a trap; a panic in the native core): not the input's
     *     fault, and the next call runs on a fresh instance
     */
    public String svg(byte[] data, Options options, SvgOptions svg) {
        return svgCall(payload(data), options, svg, true);
    }

    /**
     * {@link #svg(byte[], Options, SvgOptions)} without SVG options.
     *
     * @param data the payload
     * @param options the options
     * @return the SVG document
     * @throws QrException as {@link #svg(byte[], Options, SvgOptions)}
     */
    public String svg(byte[] data, Options options) {
        return svg(data, options, SvgOptions.NONE);
    }

    private String svgCall(byte[] data, Options options, SvgOptions svg, boolean bytes) {
        Objects.requireNonNull(svg, "svg");
        long[] abi = Checks.lower(options);
        Checks.SvgArgs args = Checks.svg(svg);
        byte[] out = run(core -> core.svg(data, bytes, abi, args));
        return new String(out, StandardCharsets.UTF_8);
    }

    /**
     * The module matrix for a text, quiet zone not included, for drawing the code yourself. Only the EC
     * level and the symbol options shape it; the others are checked all the same.
     *
     * @param text the text, encoded as its UTF-8
     * @param options the options ({@link Options#DEFAULTS} for every default)
     * @return the matrix
     * @throws QrException the contract's refusal: empty-text, invalid-text (a lone surrogate),
     *     data-too-long, invalid-options (the message names the option, its bounds and the value)
     * @throws GuestTrapException the guest failed (a trap; a panic in the native core): not the input's
     *     fault, and the next call runs on a fresh instance
     */
    public QrMatrix matrix(String text, Options options) {
        byte[] data = Checks.utf8(text);
        long[] abi = Checks.lower(options);
        return toMatrix(run(core -> core.matrix(data, false, abi)));
    }

    /**
     * {@link #matrix(String, Options)} with every option at its default.
     *
     * @param text the text, encoded as its UTF-8
     * @return the matrix
     * @throws QrException as {@link #matrix(String, Options)}
     */
    public QrMatrix matrix(String text) {
        return matrix(text, Options.DEFAULTS);
    }

    /**
     * The module matrix for a binary payload (the bytes as they are). The array is copied first.
     *
     * @param data the payload, 1 to 7089 bytes
     * @param options the options ({@link Options#DEFAULTS} for every default)
     * @return the matrix
     * @throws QrException the contract's refusal: empty-text, data-too-long, invalid-options (the message names the option, its bounds and the value)
     * @throws GuestTrapException the guest failed (a trap; a panic in the native core): not the input's
     *     fault, and the next call runs on a fresh instance
     */
    public QrMatrix matrix(byte[] data, Options options) {
        byte[] copy = payload(data);
        long[] abi = Checks.lower(options);
        return toMatrix(run(core -> core.matrix(copy, true, abi)));
    }

    /**
     * The code drawn with characters, in a style, quiet zone included; every line ends in a newline.
     * {@code minSize}, {@code scale} and the colours are checked but unused.
     *
     * @param text the text, encoded as its UTF-8
     * @param options the options ({@link Options#DEFAULTS} for every default)
     * @param style how the modules are drawn
     * @return the lines
     * @throws QrException the contract's refusal: empty-text, invalid-text (a lone surrogate),
     *     data-too-long, invalid-options (the message names the option, its bounds and the value)
     * @throws GuestTrapException the guest failed (a trap; a panic in the native core): not the input's
     *     fault, and the next call runs on a fresh instance
     */
    public String text(String text, Options options, TextStyle style) {
        Objects.requireNonNull(style, "style");
        byte[] data = Checks.utf8(text);
        long[] abi = Checks.lower(options);
        return utf8(run(core -> core.text(data, false, abi, style.ordinal())));
    }

    /**
     * {@link #text(String, Options, TextStyle)} with every option at its default, in half blocks.
     *
     * @param text the text, encoded as its UTF-8
     * @return the lines
     * @throws QrException as {@link #text(String, Options, TextStyle)}
     */
    public String text(String text) {
        return text(text, Options.DEFAULTS, TextStyle.HALF_BLOCKS);
    }

    /**
     * The code for a binary payload drawn with characters (see {@link #text(String, Options, TextStyle)}).
     * The array is copied first.
     *
     * @param data the payload, 1 to 7089 bytes
     * @param options the options ({@link Options#DEFAULTS} for every default)
     * @param style how the modules are drawn
     * @return the lines
     * @throws QrException the contract's refusal: empty-text, data-too-long, invalid-options (the message names the option, its bounds and the value)
     * @throws GuestTrapException the guest failed (a trap; a panic in the native core): not the input's
     *     fault, and the next call runs on a fresh instance
     */
    public String text(byte[] data, Options options, TextStyle style) {
        Objects.requireNonNull(style, "style");
        byte[] copy = payload(data);
        long[] abi = Checks.lower(options);
        return utf8(run(core -> core.text(copy, true, abi, style.ordinal())));
    }

    /**
     * The PNG as a {@code data:image/png;base64,} URL (for an {@code <img src>}).
     *
     * @param text the text, encoded as its UTF-8
     * @param options the options ({@link Options#DEFAULTS} for every default)
     * @return the URL
     * @throws QrException as {@link #png(String, Options)}
     */
    public String pngDataUrl(String text, Options options) {
        return "data:image/png;base64," + Base64.getEncoder().encodeToString(png(text, options));
    }

    /**
     * The SVG (its UTF-8) as a {@code data:image/svg+xml;base64,} URL.
     *
     * @param text the text, encoded as its UTF-8
     * @param options the options ({@link Options#DEFAULTS} for every default)
     * @param svg the SVG's own options ({@link SvgOptions#NONE}: none)
     * @return the URL
     * @throws QrException as {@link #svg(String, Options, SvgOptions)}
     */
    public String svgDataUrl(String text, Options options, SvgOptions svg) {
        byte[] document = svg(text, options, svg).getBytes(StandardCharsets.UTF_8);
        return "data:image/svg+xml;base64," + Base64.getEncoder().encodeToString(document);
    }

    /** Calls that reached a core (past the host's own checks). */
    long callsEntered() {
        return entered.get();
    }

    /** Instances made so far (a retired one is replaced by a new one); none on NATIVE. */
    long instancesMade() {
        return instances.get();
    }

    /** Instances retired after a failed call. */
    long instancesRetired() {
        return retired.get();
    }

    /** Probe: a deliberate failure (qr_trap, which retires its instance; a panic in the native core). */
    void trap() {
        run(core -> {
            core.fail();
            return null;
        });
    }

    /** Probe: the memory pages of the wasm instance this thread gets next. */
    long memoryPages() {
        return run(core -> ((RawGuest) core).memoryPages());
    }

    /** Probe: an empty call (qr_noop; qrglue_capi_version natively), the fixed cost of a call. */
    void noop() {
        run(core -> {
            core.noop();
            return null;
        });
    }

    /** The payload copied first: the caller's array may change while the guest reads it. */
    private static byte[] payload(byte[] data) {
        Checks.payload(data);
        return data.clone();
    }

    private static String utf8(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static QrMatrix toMatrix(byte[] payload) {
        if (payload.length < 4) {
            throw new IllegalStateException("qr_matrix returned " + payload.length + " bytes, less than its width");
        }
        int width =
                ByteBuffer.wrap(payload, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        byte[] modules = new byte[payload.length - 4];
        System.arraycopy(payload, 4, modules, 0, modules.length);
        return new QrMatrix(width, modules);
    }

    private <T> T run(Function<Core, T> call) {
        entered.incrementAndGet();
        if (!engine.pooled()) {
            return runShared(call);
        }
        Core guest = idle.pollFirst();
        if (guest == null) {
            guest = engine.open();
            instances.incrementAndGet();
        }
        T out;
        try {
            out = call.apply(guest);
        } catch (QrException refusal) {
            giveBack(guest); // the contract's answer: the record was read and freed
            throw refusal;
        } catch (RuntimeException | StackOverflowError failure) {
            // The guest may have stopped half-way (its stack pointer, its allocator): retire it.
            retired.incrementAndGet();
            throw new GuestTrapException("qrglue: the guest failed on " + engine + ": " + failure, failure);
        } catch (Error fatal) {
            retired.incrementAndGet();
            throw fatal;
        }
        giveBack(guest);
        return out;
    }

    /** The native core: nothing to pool or retire; a caught panic is reported as a failure all the same. */
    private <T> T runShared(Function<Core, T> call) {
        Core core = engine.open();
        try {
            return call.apply(core);
        } catch (QrException refusal) {
            throw refusal;
        } catch (RuntimeException failure) {
            throw new GuestTrapException("qrglue: the core failed on " + engine + ": " + failure.getMessage(), failure);
        }
    }

    private void giveBack(Core guest) {
        // Most recently used first: a warm instance is reused; past maxIdle the rest is dropped.
        if (idle.size() < maxIdle) {
            idle.offerFirst(guest);
        }
    }
}

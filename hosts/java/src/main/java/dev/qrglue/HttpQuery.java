package dev.qrglue;

import java.nio.charset.StandardCharsets;

/**
 * The HTTP endpoint's query grammar and request-target rules (GET /qrcode, tests/http/README.md), for
 * hosts/java/server: guest/http-query's, the one Rust crate every server uses, reached through hosts/c's
 * C ABI (qrglue_parse_query, qrglue_path_and_query, qrglue_method_class, qrglue_http_message) by
 * {@link NativeCore}'s downcalls, as the Go server reaches it through cgo. Nothing of the grammar is
 * restated here (docs/contract.md, "One query grammar"): this class turns bytes into Java values. It
 * needs the native library whatever path a caller generates on.
 */
public final class HttpQuery {
    private HttpQuery() {}

    /** hosts/c/include/qrglue.h's QRGLUE_QUERY_ALONE. */
    private static final int QUERY_ALONE = 1;

    /** qrglue_method_class's answers, by QRGLUE_METHOD_SERVED, _NOT_ALLOWED, _UNKNOWN. */
    private static final String[] METHOD_CLASSES = {"served", "not-allowed", "unknown"};

    /**
     * The grammar's refusal: a 400 whose body is {"kind", "message"}. Not a QrException: bad-query and
     * text-too-long are the endpoint's kinds, not the generator's.
     */
    public static final class Refusal extends RuntimeException {
        /** The serialized form's version. */
        private static final long serialVersionUID = 1L;
        /** The kind {@link #kind()} returns. */
        private final String kind;

        Refusal(String kind, String message) {
            super(message, null, false, false);
            this.kind = kind;
        }

        /**
         * The 400 body's kind.
         *
         * @return bad-query, invalid-text, text-too-long, invalid-options, or empty-text (alone only)
         */
        public String kind() {
            return kind;
        }
    }

    /** What qrglue_parse_query gives for a query that passed: the text's UTF-8 and the option words. */
    record Parsed(byte[] text, int[] words) {}

    /**
     * A query that passed: the text ("" is empty-text, for the caller's generator to refuse) and the
     * options, those the query does not give at the core's defaults (scale, version, min-version and
     * mask absent unless given).
     *
     * @param text the decoded {@code text} parameter ("" when empty)
     * @param options the decoded option parameters, the others at their defaults
     */
    public record Request(String text, Options options) {
        /**
         * Whether the text is empty (the caller's generator answers empty-text).
         *
         * @return true for ""
         */
        public boolean empty() {
            return text.isEmpty();
        }
    }

    /**
     * The query (the bytes after '?', still percent-encoded, or none) -> the request, or the grammar's
     * refusal as a {@link Refusal} whose kind is the 400's (bad-query, invalid-text, text-too-long,
     * invalid-options; empty-text too when alone). alone: the caller answers without a qrglue generator,
     * so the grammar also refuses an empty text and runs the generator's option checks.
     *
     * @param query the bytes after '?', still percent-encoded (empty for none)
     * @param alone whether the caller answers without a qrglue generator
     * @return the request
     * @throws Refusal the grammar's refusal, a 400
     */
    public static Request parse(byte[] query, boolean alone) {
        Parsed parsed = NativeCore.get().parseQuery(query, alone ? QUERY_ALONE : 0);
        return new Request(new String(parsed.text(), StandardCharsets.UTF_8), options(parsed.words()));
    }

    /**
     * A request target as sent -> {path start, path length, query start, query length} in its bytes: a
     * fragment dropped, an absolute-form target reduced, nothing decoded; a path length of 0 is the empty
     * path, which stands for "/".
     *
     * @param target the request target's bytes as sent
     * @return {path start, path length, query start, query length}, offsets into {@code target}
     */
    public static long[] pathAndQuery(byte[] target) {
        return NativeCore.get().pathAndQuery(target);
    }

    /**
     * How the endpoint answers a method.
     *
     * @param method the method's bytes as sent (case-sensitive)
     * @return "served" (GET, HEAD), "not-allowed" (405 on a known path) or "unknown" (400)
     */
    public static String methodClass(byte[] method) {
        return METHOD_CLASSES[NativeCore.get().methodClass(method)];
    }

    /**
     * The 400's message for an unknown method.
     *
     * @return QRGLUE_HTTP_UNKNOWN_METHOD's message
     */
    public static String unknownMethodMessage() {
        return NativeCore.get().httpMessage(0);
    }

    /**
     * The 400's message for an HTTP/1.1 request without Host.
     *
     * @return QRGLUE_HTTP_NO_HOST's message
     */
    public static String noHostMessage() {
        return NativeCore.get().httpMessage(1);
    }

    /**
     * QrglueOptions' words (the raw ABI's, Checks.lower's order) as Options; the symbol options by the
     * generated table of their bits, so that a new one needs no line here.
     */
    private static Options options(int[] w) {
        int flags = w[7];
        Options.Builder b = Options.builder()
                .ecLevel(EcLevel.values()[w[0]])
                .minSize(Integer.toUnsignedLong(w[1]))
                .quietZone(Integer.toUnsignedLong(w[2]))
                .dark("#%08x".formatted(w[5]))
                .light("#%08x".formatted(w[6]));
        if (w[3] != 0) {
            b.scale(Integer.toUnsignedLong(w[4]));
        }
        for (Contract.SymbolFlag f : Contract.SYMBOL_FLAGS) {
            if ((flags & f.bit()) != 0) {
                b.set(f.name(), f.word() < 0 ? (Object) Boolean.TRUE : (Object) Integer.toUnsignedLong(w[f.word()]));
            }
        }
        return b.build();
    }
}

package dev.qrglue.server;

import dev.qrglue.HttpQuery;
import java.nio.charset.StandardCharsets;

/**
 * The endpoint's query grammar and request-target rules (tests/http/README.md) are guest/http-query's:
 * the one Rust crate every server uses. This server reaches it through the C library of hosts/c
 * (qrglue_parse_query, qrglue_path_and_query, qrglue_method_class, qrglue_http_message) by the qrglue
 * jar's FFM downcalls ({@link HttpQuery}), loaded on every tier whatever path the tier measures;
 * docs/contract.md ("One query grammar") says why. What is left here is the crossing: Netty's strings
 * in (the request line arrives as Latin-1, one char per byte), this server's values out.
 */
final class QueryGrammar {
    private QueryGrammar() {}

    /** The reference URL, which every tier generates once at start. */
    static final String REFERENCE_TEXT = "https://www.reddit.com/r/rustjerk/top/?t=all";

    static final String UNKNOWN_METHOD_MESSAGE = HttpQuery.unknownMethodMessage();
    static final String NO_HOST_MESSAGE = HttpQuery.noHostMessage();
    // The server's own refusals of what Netty could not read (no part of the query grammar).
    static final String BAD_REQUEST_MESSAGE = "malformed HTTP request";
    static final String HEAD_TOO_LARGE_MESSAGE = "request head larger than 16 KiB";

    /**
     * The raw query (after '?', or "") -> the request, or an HttpError for the grammar's refusal. alone:
     * the tier has no qrglue generator (static, zxing), so an empty text and the generator's option
     * checks are refused here too.
     */
    static HttpQuery.Request parse(String query, boolean alone) {
        try {
            return HttpQuery.parse(query.getBytes(StandardCharsets.ISO_8859_1), alone);
        } catch (HttpQuery.Refusal e) {
            throw new HttpError(e.kind(), e.getMessage());
        }
    }

    /** "served" (GET, HEAD), "not-allowed" (405) or "unknown" (400: methods are case-sensitive). */
    static String methodClass(String method) {
        return HttpQuery.methodClass(method.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** A request target -> {path, query}: a fragment dropped, absolute-form reduced, nothing decoded. */
    static String[] pathAndQuery(String target) {
        long[] at = HttpQuery.pathAndQuery(target.getBytes(StandardCharsets.ISO_8859_1));
        // Latin-1: byte offsets are char offsets. A path length of 0 is the empty path, "/".
        String path = at[1] == 0 ? "/" : target.substring((int) at[0], (int) (at[0] + at[1]));
        return new String[] {path, target.substring((int) at[2], (int) (at[2] + at[3]))};
    }
}

package dev.qrglue.server;

/** A refusal with the contract's JSON body {"kind", "message"} and its HTTP status. */
final class HttpError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    final String kind;
    final int status;

    HttpError(String kind, String message, int status) {
        super(message, null, false, false);
        this.kind = kind;
        this.status = status;
    }

    HttpError(String kind, String message) {
        this(kind, message, 400);
    }
}

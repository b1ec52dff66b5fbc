package dev.qrglue;

import java.util.Objects;

/**
 * The generator refused the input: {@link #kind()} is one of the contract's error kinds (empty-text,
 * invalid-text, data-too-long, invalid-options) and the message is the contract's, the same on every
 * path and host. Unchecked, as a bad argument is the caller's to avoid.
 */
public final class QrException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String kind;

    public QrException(String kind, String message) {
        super(Objects.requireNonNull(message, "message"));
        if (!Contract.ERROR_KINDS.contains(kind)) {
            throw new IllegalArgumentException("not a contract error kind: " + kind);
        }
        this.kind = kind;
    }

    /** One of {@link Contract#ERROR_KINDS}. */
    public String kind() {
        return kind;
    }

    static QrException emptyText() {
        return new QrException("empty-text", Contract.EMPTY_TEXT_MESSAGE);
    }

    static QrException dataTooLong() {
        return new QrException("data-too-long", Contract.DATA_TOO_LONG_MESSAGE);
    }
}

package dev.qrglue;

import java.util.Objects;

/**
 * The generator refused the input: {@link #kind()} is one of the contract's error kinds (empty-text,
 * invalid-text, data-too-long, invalid-options) and the message is the contract's, the same on every
 * path and host. Unchecked, as a bad argument is the caller's to avoid.
 */
public final class QrException extends RuntimeException {
    /** The serialized form's version. */
    private static final long serialVersionUID = 1L;
    /** The kind {@link #kind()} returns. */
    private final String kind;

    /**
     * A refusal of one of the contract's kinds.
     *
     * @param kind one of {@link Contract#ERROR_KINDS}
     * @param message the contract's message for it
     * @throws IllegalArgumentException if {@code kind} is not a contract error kind
     */
    public QrException(String kind, String message) {
        super(Objects.requireNonNull(message, "message"));
        if (!Contract.ERROR_KINDS.contains(kind)) {
            throw new IllegalArgumentException("not a contract error kind: " + kind);
        }
        this.kind = kind;
    }

    /**
     * The error's kind: compare this, not the message.
     *
     * @return one of {@link Contract#ERROR_KINDS}: empty-text, invalid-text, data-too-long, invalid-options
     */
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

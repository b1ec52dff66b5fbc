package dev.qrglue;

/**
 * The guest stopped half-way (a wasm trap, a stack overflow in the interpreter, or a reply outside the
 * ABI): not a refusal of the input but a failure of the instance, which is retired. The next call runs
 * on a fresh instance.
 */
public final class GuestTrapException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    GuestTrapException(String message, Throwable cause) {
        super(message, cause);
    }
}

package antichess;

/**
 * What a {@link MachinePlayer} throws when it cannot do what was asked.
 * It is unchecked, so the handout's method signatures stay as they are;
 * a referee that wants to tell the cases apart catches one of the
 * subclasses: {@link IllegalMoveException}, {@link GameOverException},
 * {@link EngineFailedException}.
 */
public class MachinePlayerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The engine's own words, or ours when the engine had none. */
    private final String reason;

    /**
     * Makes an exception.
     *
     * @param message the whole message, naming what was asked
     * @param reason the engine's words for what went wrong
     */
    protected MachinePlayerException(String message, String reason) {
        super(message);
        this.reason = reason;
    }

    /**
     * Makes an exception caused by another.
     *
     * @param message the whole message, naming what was asked
     * @param reason the engine's words for what went wrong
     * @param cause what went wrong underneath
     */
    protected MachinePlayerException(String message, String reason, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    /**
     * Returns why: the engine's own answer, such as
     * {@code illegal move 'a2-a3': a capture is compulsory: e4-d5}.
     *
     * @return the reason, never null
     */
    public String getReason() {
        return reason;
    }
}

package antichess;

/**
 * Thrown when the engine behind a {@link MachinePlayer} cannot be used:
 * no engine binary was found (the message names every place looked at),
 * it could not be started, it exited (the message gives its exit status
 * and the last lines it wrote on stderr), it gave no answer in time, or it
 * answered something that is not the protocol. The engine process is
 * ended, and every later call on the same player throws this again at
 * once.
 */
public class EngineFailedException extends MachinePlayerException {
    private static final long serialVersionUID = 1L;

    /**
     * Makes an exception.
     *
     * @param reason what went wrong with the engine
     */
    public EngineFailedException(String reason) {
        super("the antichess engine failed: " + reason, reason);
    }

    /**
     * Makes an exception caused by another.
     *
     * @param reason what went wrong with the engine
     * @param cause what went wrong underneath
     */
    public EngineFailedException(String reason, Throwable cause) {
        super("the antichess engine failed: " + reason, reason, cause);
    }
}

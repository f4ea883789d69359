package antichess;

/**
 * Thrown by {@link MachinePlayer#makeMove} when the engine refuses the
 * opponent's move: it is illegal on the player's board (the reason says
 * why, such as {@code a capture is compulsory: e4-d5}), it cannot be read
 * as a move, or it was given (or left out) when it was not the opponent's
 * turn. Nothing changes: the player's board is as it was before the call,
 * and the referee may call {@code makeMove} again with a corrected move.
 */
public class IllegalMoveException extends MachinePlayerException {
    private static final long serialVersionUID = 1L;

    /** The opponent's move as it was given. */
    private final String move;

    /**
     * Makes an exception.
     *
     * @param move the opponent's move as it was given ({@code ""} for none)
     * @param reason the engine's words for why it was refused
     */
    public IllegalMoveException(String move, String reason) {
        super("the opponent's move " + quote(move) + " was refused: " + reason, reason);
        this.move = move;
    }

    /**
     * Returns the opponent's move that was refused.
     *
     * @return the move as it was given, {@code ""} when there was none
     */
    public String getMove() {
        return move;
    }

    private static String quote(String move) {
        return move.isEmpty() ? "\"\" (none)" : "'" + move + "'";
    }
}

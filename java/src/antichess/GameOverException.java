package antichess;

/**
 * Thrown by {@link MachinePlayer#makeMove} when there is no move to make
 * because the game is over: the opponent's move has just ended it (that
 * move is played), or it was over already (the player's own last move
 * ended it, or the board it was given was a finished position).
 */
public class GameOverException extends MachinePlayerException {
    private static final long serialVersionUID = 1L;

    /** {@code 1-0}, {@code 0-1} or {@code 1/2-1/2}. */
    private final String score;

    /**
     * Makes an exception.
     *
     * @param score {@code 1-0} (white won), {@code 0-1} or {@code 1/2-1/2}
     * @param reason how it ended, in the engine's words: {@code bare-king},
     *     {@code checkmate} or {@code stalemate}
     */
    public GameOverException(String score, String reason) {
        super("the game is over: " + score + " " + reason, reason);
        this.score = score;
    }

    /**
     * Returns the result: {@code 1-0} when white has won, {@code 0-1} when
     * black has, {@code 1/2-1/2} for a draw.
     *
     * @return the score
     */
    public String getScore() {
        return score;
    }
}

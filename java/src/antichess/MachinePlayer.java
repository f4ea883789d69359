package antichess;

import java.lang.ref.Cleaner;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The machine player of the MIT 6.170 antichess handout (2002, Appendix 2),
 * with exactly the public constructors and methods the staff referee calls,
 * backed by the antichess engine running as a child process that speaks
 * {@code protocol.md} over pipes.
 *
 * <p>Each player starts its own engine process once, in its constructor,
 * so several players in one JVM (a referee runs two) are independent. The
 * engine binary is, in this order: the file the system property
 * {@code antichess.engine} names, the file the environment variable
 * {@code ANTICHESS_ENGINE} names, or the first {@code antichess} on
 * {@code PATH}. The process ends at {@link #close()}, when the player is
 * garbage-collected, or when the JVM exits, whichever comes first.
 *
 * <p>The rules are the 2002 handout's unless the system property
 * {@code antichess.rules} (or the four-argument constructor) says
 * {@code antichess1994}: the same game without pawn double steps. The
 * system property {@code antichess.hash} sets the engine's hash table in
 * MiB (default 64).
 *
 * <p>Failures throw unchecked exceptions, nested here so that no class of
 * this jar can clash with a referee's own classes in package
 * {@code antichess}, carrying the engine's reason:
 * {@link IllegalMoveException} (the opponent's move is refused; nothing
 * changes), {@link GameOverException} (there is no move to make) and
 * {@link EngineFailedException} (the engine is missing, died or went
 * silent; the player is then unusable). No call waits without a deadline.
 */
public class MachinePlayer implements AutoCloseable {
    /** The system property naming the rule set, {@code antichess} or {@code antichess1994}. */
    public static final String RULES_PROPERTY = "antichess.rules";
    /** The system property giving the engine's hash table size in MiB. */
    public static final String HASH_PROPERTY = "antichess.hash";

    /** The constructor's wait for each answer of a starting engine. */
    private static final long START_MS = 20_000;
    /** How long past {@code timeLeft} a search may go before it is told to stop. */
    private static final long GRACE_MS = 250;
    /** How long a search told to stop may take to answer before the engine is ended. */
    private static final long STOP_MS = 2_000;
    private static final int MAX_LEVEL = 40;
    private static final Pattern MOVE_IN = Pattern.compile("[a-h][1-8]-?[a-h][1-8](=?[qrbnkQRBNK])?");
    private static final Pattern MOVE_OUT = Pattern.compile("[a-h][1-8]-[a-h][1-8]");
    private static final Cleaner CLEANER = Cleaner.create();

    private final MachinePlayerProcess engine;
    private final Cleaner.Cleanable cleanable;
    private final String name;
    private volatile boolean closed;

    /**
     * Creates a player for a game from the normal starting board.
     *
     * <p>effects: Creates a new MachinePlayer with the normal starting board
     * (as described in Figure 5). If iswhite is true, the player plays as
     * white, else as black. Level is an optional, arbitrary integer which
     * can be used to affect the algorithm the machine player uses. The
     * tournament referee will always request a level 0 MachinePlayer.
     *
     * <p>Level 0 plays at full strength on its clock, 1 a random legal move,
     * 2 and 3 quick heuristics, 4 and up search {@code level - 2} plies
     * within the clock (protocol.md, Levels); a level below 0 plays as 0 and
     * one above 40 as 40.
     *
     * @param iswhite true to play white, false to play black
     * @param level the playing level; 0 is the tournament level
     * @throws EngineFailedException when no engine is found or it fails to start
     */
    public MachinePlayer(boolean iswhite, int level) {
        this(iswhite, level, null, null, false);
    }

    /**
     * Creates a player for a game from a given board.
     *
     * <p>requires: bd is a string representing a valid board, as described
     * in Figure 5.
     *
     * <p>effects: Creates a new MachinePlayer in the same way described by
     * the constructor MachinePlayer(boolean, int), except that the initial
     * board configuration is set to be the one described by bd.
     *
     * <p>{@code bd} is a game file: the 2002 form of Figure 5 (side to move
     * {@code white} or {@code black}, white's and black's time in
     * milliseconds, eight rows from rank 8, each on its own line) or the
     * 1994 form ({@code W} or {@code B}, both times in seconds such as
     * {@code 300.0 300.0}, the eight rows), with its line breaks or on one
     * line: any run of whitespace separates the fields. The side to move
     * may be either player: when it is the opponent, the first
     * {@code makeMove} brings the opponent's move.
     *
     * @param iswhite true to play white, false to play black
     * @param level the playing level, as in {@link #MachinePlayer(boolean, int)}
     * @param bd the game file to start from
     * @throws IllegalArgumentException when bd is null or not a valid board
     *     (the message is the engine's reason, such as
     *     {@code bad board: expected 8 rows of squares, found 2})
     * @throws EngineFailedException when no engine is found or it fails to start
     */
    public MachinePlayer(boolean iswhite, int level, String bd) {
        this(iswhite, level, bd, null, true);
    }

    /**
     * Creates a player under a given rule set: an extra beyond the handout.
     *
     * <p>effects: as {@link #MachinePlayer(boolean, int, String)}, from the
     * normal starting board when bd is null, under the rules named, which
     * override the system property {@code antichess.rules}.
     *
     * @param iswhite true to play white, false to play black
     * @param level the playing level, as in {@link #MachinePlayer(boolean, int)}
     * @param bd the game file to start from, or null for the starting board
     * @param rules {@code antichess} (2002) or {@code antichess1994} (no
     *     pawn double steps), or null for the system property's or the 2002 rules
     * @throws IllegalArgumentException when bd or rules is not valid
     * @throws EngineFailedException when no engine is found or it fails to start
     */
    public MachinePlayer(boolean iswhite, int level, String bd, String rules) {
        this(iswhite, level, bd, rules, false);
    }

    private MachinePlayer(boolean iswhite, int level, String bd, String rules, boolean boardRequired) {
        if (bd == null && boardRequired) {
            throw new IllegalArgumentException("bd is null: give a game file as in Figure 5");
        }
        String board = bd == null ? null : oneLine(bd);
        String ruleSet = ruleSet(rules == null ? System.getProperty(RULES_PROPERTY) : rules);
        String hash = System.getProperty(HASH_PROPERTY);
        if (hash != null && !hash.trim().matches("[0-9]{1,6}")) {
            throw new IllegalArgumentException(HASH_PROPERTY + " must be a size in MiB, not '" + printable(hash) + "'");
        }
        int engineLevel = Math.max(0, Math.min(MAX_LEVEL, level));

        MachinePlayerProcess started = MachinePlayerProcess.start();
        boolean ok = false;
        try {
            String answer = started.request("name", START_MS);
            if (!answer.startsWith("name ") || answer.length() == 5) {
                throw started.fail(started.path() + " is not an antichess engine: it answered '"
                        + printable(answer) + "' to 'name'");
            }
            name = answer.substring(5);
            if (hash != null) {
                expectOk(started, "set hash " + hash.trim(), HASH_PROPERTY + " " + hash);
            }
            expectOk(started, "set rules " + ruleSet, "rules " + ruleSet);
            String colour = iswhite ? "white" : "black";
            expectOk(started, "new " + colour + " " + engineLevel + (board == null ? "" : " " + board), "bd");
            ok = true;
        } finally {
            if (!ok) {
                started.close();
            }
        }
        engine = started;
        cleanable = CLEANER.register(this, started::close);
    }

    /**
     * Returns the player's name.
     *
     * <p>effects: Returns a string name for the machine player (this is
     * needed for the tournament).
     *
     * @return the engine's name and version, such as {@code antichess 0.1.0}
     */
    public String getName() {
        return name;
    }

    /**
     * Plays the opponent's move, then chooses and plays this player's move.
     *
     * <p>requires: opponentMove is either a string representing a valid move
     * by the opponent on the board stored in this (see Figure 4), or the
     * empty string. timeLeft and opponentTimeLeft are both &gt; 0
     *
     * <p>modifies: this
     *
     * <p>effects: Returns a valid next move for this player in a string of
     * the appropriate format, given the opponent's move, the time left for
     * this player, and the time left for the opponent. Both times are in
     * milliseconds. If opponentMove is the empty string, then the board for
     * this player should be considered up to date (as would be the case if
     * this player is asked to make the first move of the game).
     *
     * <p>NOTE: This procedure may run greater than timeLeft, but this would
     * mean losing the game.
     *
     * <p>Moves are five characters, such as {@code e7-e5}; a promotion is
     * implicit (to a queen). {@code e7e5} is accepted too. The engine keeps
     * within timeLeft (with 200 ms left it answers within a few
     * milliseconds). Should it not answer by timeLeft plus 250 ms it is told
     * to stop, which makes it answer at once with the best move found so
     * far; should it not answer 2 s after that, it is ended and
     * {@link EngineFailedException} thrown. A time of 0 is allowed: the
     * engine answers at once.
     *
     * @param opponentMove the opponent's last move, or {@code ""} when this
     *     player moves first
     * @param timeLeft this player's time left, in milliseconds
     * @param opponentTimeLeft the opponent's time left, in milliseconds
     * @return this player's move, five characters such as {@code b2-b3}
     * @throws IllegalMoveException when the engine refuses opponentMove
     *     (illegal, unreadable, or given or left out out of turn); the board
     *     is unchanged and the call may be made again
     * @throws GameOverException when the game is over, so there is no move
     *     to make; it carries the score and how the game ended
     * @throws EngineFailedException when the engine has died, does not
     *     answer in time or answers nonsense; the player is then unusable
     * @throws IllegalArgumentException when opponentMove is null or a time
     *     is negative
     * @throws IllegalStateException when the player has been closed
     */
    public synchronized String makeMove(String opponentMove, int timeLeft, int opponentTimeLeft) {
        if (opponentMove == null) {
            throw new IllegalArgumentException("opponentMove is null: give \"\" when there is none");
        }
        if (timeLeft < 0 || opponentTimeLeft < 0) {
            throw new IllegalArgumentException(
                    "times must not be negative: timeLeft " + timeLeft + ", opponentTimeLeft " + opponentTimeLeft);
        }
        usable();
        String word = "-";
        if (!opponentMove.isEmpty()) {
            if (!MOVE_IN.matcher(opponentMove).matches()) {
                throw new IllegalMoveException(opponentMove, "cannot read '" + printable(opponentMove)
                        + "' as a move: a move is five characters such as e7-e5");
            }
            word = opponentMove;
        }
        String command = "move " + word + " " + timeLeft + " " + opponentTimeLeft;
        String answer = engine.requestSearch(command, timeLeft + GRACE_MS, STOP_MS);
        if (answer.startsWith("move ") && MOVE_OUT.matcher(answer.substring(5)).matches()) {
            return answer.substring(5);
        }
        if (answer.startsWith("result ")) {
            String[] words = answer.split(" ");
            if (words.length == 3) {
                throw new GameOverException(words[1], words[2]);
            }
        }
        if (answer.startsWith("error ")) {
            throw new IllegalMoveException(opponentMove, answer.substring(6));
        }
        throw engine.fail("it answered '" + printable(answer) + "' to '" + command + "'");
    }

    /**
     * Ends the engine process: an extra beyond the handout. The player
     * cannot move afterwards. Closing twice does nothing more.
     *
     * <p>modifies: this
     *
     * <p>effects: the engine is told to quit, and ended if it has not
     * within a second.
     */
    @Override
    public void close() {
        closed = true;
        cleanable.clean();
    }

    private void usable() {
        if (closed) {
            throw new IllegalStateException("this MachinePlayer has been closed");
        }
        if (!engine.usable()) {
            throw new EngineFailedException(engine.failure());
        }
    }

    private static void expectOk(MachinePlayerProcess engine, String command, String what) {
        String answer = engine.request(command, START_MS);
        if (answer.equals("ok")) {
            return;
        }
        if (answer.startsWith("error ")) {
            throw new IllegalArgumentException(what + " refused: " + answer.substring(6));
        }
        throw engine.fail("it answered '" + printable(answer) + "' to '" + command + "'");
    }

    private static String oneLine(String bd) {
        String line = bd.trim();
        if (line.isEmpty()) {
            throw new IllegalArgumentException("bd is empty: give a game file as in Figure 5");
        }
        return String.join(" ", line.split("\\s+"));
    }

    private static String ruleSet(String rules) {
        if (rules == null || rules.trim().isEmpty()) {
            return "antichess";
        }
        String name = rules.trim().toLowerCase(Locale.ROOT);
        if (name.equals("antichess") || name.equals("antichess1994")) {
            return name;
        }
        throw new IllegalArgumentException(
                "unknown rules '" + printable(rules) + "': antichess (2002) or antichess1994");
    }

    /** The text with control characters escaped and cut to a readable length. */
    private static String printable(String text) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length() && out.length() < 60; i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c)) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.length() < 60 ? out.toString() : out + "...";
    }

    /**
     * What a {@code MachinePlayer} throws when it cannot do what was asked.
     * It is unchecked, so the handout's method signatures stay as they are;
     * a referee that wants to tell the cases apart catches one of the
     * subclasses: {@link IllegalMoveException}, {@link GameOverException},
     * {@link EngineFailedException}.
     */
    public static class PlayerException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /** The engine's own words, or ours when the engine had none. */
        private final String reason;

        /**
         * Makes an exception.
         *
         * @param message the whole message, naming what was asked
         * @param reason the engine's words for what went wrong
         */
        protected PlayerException(String message, String reason) {
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
        protected PlayerException(String message, String reason, Throwable cause) {
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

    /**
     * Thrown by {@link MachinePlayer#makeMove} when the engine refuses the
     * opponent's move: it is illegal on the player's board (the reason says
     * why, such as {@code a capture is compulsory: e4-d5}), it cannot be read
     * as a move, or it was given (or left out) when it was not the opponent's
     * turn. Nothing changes: the player's board is as it was before the call,
     * and the referee may call {@code makeMove} again with a corrected move.
     */
    public static class IllegalMoveException extends PlayerException {
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

    /**
     * Thrown by {@link MachinePlayer#makeMove} when there is no move to make
     * because the game is over: the opponent's move has just ended it (that
     * move is played), or it was over already (the player's own last move
     * ended it, or the board it was given was a finished position).
     */
    public static class GameOverException extends PlayerException {
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

    /**
     * Thrown when the engine behind a {@code MachinePlayer} cannot be used:
     * no engine binary was found (the message names every place looked at),
     * it could not be started, it exited (the message gives its exit status
     * and the last lines it wrote on stderr), it gave no answer in time, or it
     * answered something that is not the protocol. The engine process is
     * ended, and every later call on the same player throws this again at
     * once.
     */
    public static class EngineFailedException extends PlayerException {
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
}

package referee;

import antichess.MachinePlayer;
import antichess.MachinePlayer.GameOverException;
import antichess.MachinePlayer.IllegalMoveException;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;

/**
 * A referee in Java, as a course would write one against the handout's
 * API: it plays whole games between two {@link MachinePlayer}s, checks
 * each move against a third engine process ({@link Checker}) and keeps the
 * clocks, then checks the refusals, the time kept, and (in
 * {@link EngineChecks}) the engine's lookup, failures and ending, and the
 * README's example. Prints {@code N passed, N failed}; exits 1 on a failure.
 *
 * <p>System properties: {@code antichess.engine} (the engine binary, also
 * what MachinePlayer uses), {@code antichess.jar}, {@code antichess.readme}.
 */
public final class RefereeTest {
    static final String ENGINE = System.getProperty("antichess.engine", "antichess");
    /** A mid-game board as in Figure 5, with its line breaks: black to move. */
    static final String LOADED = String.join("\n", "black", "4000", "4000", "r---k--r", "pp---ppp",
            "--n-----", "--------", "---P----", "--N--B--", "PP---PPP", "R---K--R") + "\n";
    /** The 1994 game file, as lines. */
    static final String START_1994 = String.join("\n", "W", "300.0 300.0", "rnbqkbnr", "pppppppp",
            "--------", "--------", "--------", "--------", "PPPPPPPP", "RNBQKBNR");
    /** White to move must take e4-d5. */
    static final String CAPTURE = String.join("\n", "white", "300000", "300000", "rnbqkbnr", "ppp-pppp",
            "--------", "---p----", "----P---", "--------", "PPPP-PPP", "RNBQKBNR");

    private static int passed;
    private static int failed;

    interface Body {
        void run() throws Exception;
    }

    public static void main(String[] args) {
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(300_000);
                System.out.println("RefereeTest: still running after 300 s; giving up");
                System.out.println(passed + " passed, " + (failed + 1) + " failed");
                Runtime.getRuntime().halt(1);
            } catch (InterruptedException e) {
                // Finished in time.
            }
        });
        watchdog.setDaemon(true);
        watchdog.start();

        test("the public API is Appendix 2's, with the documented extras", RefereeTest::api);
        test("getName", RefereeTest::names);
        test("level 0 (white) against level 1 from the start", () -> game(0, 1, null, null, 3000, 200));
        test("level 1 (white) against level 0 from the start", () -> game(1, 0, null, null, 3000, 200));
        test("level 0 (white) against level 1 from a loaded board", () -> game(0, 1, LOADED, null, 3000, 200));
        test("level 1 (white) against level 0 from a loaded board", () -> game(1, 0, LOADED, null, 3000, 200));
        test("the 1994 rules from the 1994 file with its line breaks",
                () -> game(0, 1, START_1994, "antichess1994", 3000, 40));
        test("the 1994 file on one line, black to move, 2002 rules",
                () -> game(1, 0, START_1994.replace('\n', ' ').replaceFirst("W", "B"), null, 3000, 30));
        test("an illegal opponent move is refused with its reason; the game goes on", RefereeTest::illegal);
        test("an opponent move that ends the game: GameOverException, then again", RefereeTest::ending);
        test("a bad board or null is refused", RefereeTest::badBoard);
        test("with 200 ms left it answers well within them", RefereeTest::timeKept);
        test("two players are independent; a closed one is refused", RefereeTest::independent);
        EngineChecks.all();

        System.out.println(passed + " passed, " + failed + " failed");
        System.exit(failed == 0 ? 0 : 1);
    }

    static void test(String name, Body body) {
        long start = System.nanoTime();
        try {
            body.run();
            passed++;
            System.out.println("ok   " + name + " (" + ms(start) + " ms)");
        } catch (Throwable e) {
            failed++;
            System.out.println("FAIL " + name + ": " + e);
            e.printStackTrace(System.out);
        }
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    static long ms(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    static MachinePlayer player(boolean white, int level, String bd, String rules) {
        if (rules != null) {
            return new MachinePlayer(white, level, bd, rules);
        }
        return bd == null ? new MachinePlayer(white, level) : new MachinePlayer(white, level, bd);
    }

    /** What a referee compiled against the handout may call, and the extras allowed besides. */
    private static void api() throws IOException {
        Set<String> want = new TreeSet<>(List.of(
                "public antichess.MachinePlayer(boolean,int)",
                "public antichess.MachinePlayer(boolean,int,java.lang.String)",
                "public java.lang.String antichess.MachinePlayer.getName()",
                "public synchronized java.lang.String antichess.MachinePlayer.makeMove(java.lang.String,int,int)",
                // The extras: the 1994 rules, AutoCloseable, the system properties' names.
                "public antichess.MachinePlayer(boolean,int,java.lang.String,java.lang.String)",
                "public void antichess.MachinePlayer.close()",
                "public static final java.lang.String antichess.MachinePlayer.RULES_PROPERTY",
                "public static final java.lang.String antichess.MachinePlayer.HASH_PROPERTY"));
        Set<String> have = new TreeSet<>();
        Class<MachinePlayer> c = MachinePlayer.class;
        check(Modifier.isPublic(c.getModifiers()) && c.getPackageName().equals("antichess"), c.toString());
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            if (Modifier.isPublic(k.getModifiers())) {
                have.add(k.toString());
            }
        }
        for (Method m : c.getDeclaredMethods()) {
            if (Modifier.isPublic(m.getModifiers())) {
                have.add(m.toString());
            }
        }
        for (Field f : c.getDeclaredFields()) {
            if (Modifier.isPublic(f.getModifiers())) {
                have.add(f.toString());
            }
        }
        check(have.equals(want), "the public members are " + have);
        Set<String> nested = new TreeSet<>();
        for (Class<?> k : c.getDeclaredClasses()) {
            check(Modifier.isStatic(k.getModifiers()) && RuntimeException.class.isAssignableFrom(k), k.toString());
            nested.add(k.getSimpleName());
        }
        check(nested.equals(Set.of("PlayerException", "IllegalMoveException", "GameOverException",
                "EngineFailedException")), "the nested classes are " + nested);
        // A referee's own classes in package antichess must not be shadowed by the jar's.
        try (JarFile jar = new JarFile(EngineChecks.JAR)) {
            List<String> classes = jar.stream().map(JarEntry::getName).filter(n -> n.endsWith(".class"))
                    .filter(n -> !n.matches("antichess/(MachinePlayer|MachinePlayer\\$\\w+|MachinePlayerProcess)\\.class"))
                    .collect(Collectors.toList());
            check(classes.isEmpty(), "the jar has the classes " + classes);
        }
    }

    private static void names() throws Exception {
        try (Checker checker = new Checker(ENGINE, null, null);
                MachinePlayer white = new MachinePlayer(true, 0);
                MachinePlayer black = new MachinePlayer(false, 1)) {
            String expected = checker.name();
            check(white.getName().equals(expected), "white's name " + white.getName() + " is not " + expected);
            check(black.getName().equals(expected), "black's name " + black.getName() + " is not " + expected);
            check(expected.startsWith("antichess "), "the name " + expected + " does not start with antichess");
        }
    }

    /**
     * One refereed game: each answer must be a five-character move legal
     * on the checker's board, within the mover's clock; at the end both
     * players must say the game is over, with the result the board shows.
     */
    private static void game(int whiteLevel, int blackLevel, String bd, String rules, int clockMs, int plyCap)
            throws Exception {
        String line = bd == null ? null : String.join(" ", bd.trim().split("\\s+"));
        try (Checker checker = new Checker(ENGINE, rules, line);
                MachinePlayer white = player(true, whiteLevel, bd, rules);
                MachinePlayer black = player(false, blackLevel, bd, rules)) {
            String side = checker.board()[0];
            boolean whiteToMove = side.equals("white") || side.equals("W");
            long[] clock = {clockMs, clockMs};
            String last = "";
            int ply = 0;
            long slowest = 0;
            List<String> legal;
            while (!(legal = checker.moves()).isEmpty() && ply < plyCap) {
                int me = whiteToMove ? 0 : 1;
                String[] board = checker.board();
                long start = System.nanoTime();
                String move = (whiteToMove ? white : black).makeMove(last, (int) clock[me], (int) clock[1 - me]);
                long used = ms(start);
                slowest = Math.max(slowest, used);
                clock[me] -= used;
                String who = (whiteToMove ? "white" : "black") + " at ply " + ply;
                check(clock[me] > 0, who + " lost on time (" + used + " ms for " + move + ")");
                check(move.length() == 5, who + " answered " + move + ", not five characters");
                check(legal.contains(move), who + " answered " + move + ", not one of " + legal);
                if ("antichess1994".equals(rules)) {
                    boolean doubleStep = Character.toLowerCase(Checker.pieceAt(board, move.substring(0, 2))) == 'p'
                            && Math.abs(move.charAt(1) - move.charAt(4)) == 2;
                    check(!doubleStep, who + " played the double step " + move + " under the 1994 rules");
                }
                checker.play(move);
                last = move;
                whiteToMove = !whiteToMove;
                ply++;
            }
            String ending = "stopped at the ply cap";
            if (legal.isEmpty()) {
                ending = gameOver(checker.board(), whiteToMove ? white : black, whiteToMove ? black : white, last);
            }
            System.out.println("     " + ply + " plies, " + ending + "; clocks left " + clock[0] + " and "
                    + clock[1] + " ms, the slowest move " + slowest + " ms");
        }
    }

    /** Both players refuse to move once the game is over, with one result. */
    private static String gameOver(String[] board, MachinePlayer toMove, MachinePlayer other, String last) {
        GameOverException first = null;
        GameOverException second = null;
        try {
            toMove.makeMove(last, 1000, 1000);
        } catch (GameOverException e) {
            first = e;
        }
        try {
            other.makeMove("", 1000, 1000);
        } catch (GameOverException e) {
            second = e;
        }
        check(first != null, "the player to move answered a move after the game was over");
        check(second != null, "the player that ended the game answered a move after it");
        check(first.getScore().equals(second.getScore()) && first.getReason().equals(second.getReason()),
                "the players disagree on the result: " + first.getMessage() + " and " + second.getMessage());
        // A side left with only its king has won; counted here from the board itself.
        String rows = String.join("", List.of(board).subList(3, 11));
        boolean whiteBare = rows.chars().filter(Character::isUpperCase).count() == 1;
        boolean blackBare = rows.chars().filter(Character::isLowerCase).count() == 1;
        if (whiteBare != blackBare) {
            String expected = whiteBare ? "1-0" : "0-1";
            check(first.getScore().equals(expected) && first.getReason().equals("bare-king"),
                    "a bare king on the board, but the result is " + first.getMessage());
        } else {
            check(List.of("1-0", "0-1", "1/2-1/2").contains(first.getScore()), "bad score " + first.getScore());
        }
        return first.getScore() + " " + first.getReason();
    }

    private static void illegal() throws Exception {
        try (Checker checker = new Checker(ENGINE, null, String.join(" ", CAPTURE.split("\n")));
                MachinePlayer black = new MachinePlayer(false, 0, CAPTURE)) {
            for (String bad : new String[] {"a2-a3", "e2-e4 1 1\nquit", "e9-e4", "-"}) {
                try {
                    String answer = black.makeMove(bad, 5000, 5000);
                    throw new AssertionError("the opponent's move " + bad + " was taken; it answered " + answer);
                } catch (IllegalMoveException e) {
                    check(e.getMove().equals(bad), "the exception names " + e.getMove() + ", not " + bad);
                    if (bad.equals("a2-a3")) {
                        check(e.getReason().contains("a capture is compulsory: e4-d5"),
                                "the reason is '" + e.getReason() + "'");
                    }
                    System.out.println("     refused " + bad.replace("\n", "\\n") + ": " + e.getReason());
                }
            }
            try {
                String answer = black.makeMove("", 5000, 5000);
                throw new AssertionError("moving out of turn was taken; it answered " + answer);
            } catch (IllegalMoveException e) {
                System.out.println("     refused \"\" out of turn: " + e.getReason());
            }
            checker.play("e4-d5");
            String reply = black.makeMove("e4-d5", 5000, 5000);
            check(checker.moves().contains(reply), "after the refusals it answered " + reply);
        }
    }

    /** White's d4-e5 leaves black only its king: black has won. */
    private static void ending() {
        String bd = "W 12.5 30.0 ----k--- -------- -------- ----p--- ---P---- -------- -------- ----K---";
        try (MachinePlayer black = new MachinePlayer(false, 0, bd)) {
            for (String move : new String[] {"d4-e5", ""}) {
                try {
                    String answer = black.makeMove(move, 30000, 12500);
                    throw new AssertionError("it answered " + answer + " after the game was over");
                } catch (GameOverException e) {
                    check(e.getScore().equals("0-1") && e.getReason().equals("bare-king"), e.getMessage());
                }
            }
        }
    }

    private static void badBoard() {
        String[] bad = {"white\n300000\n300000\nrnbqkbnr\npppppppp", "", "white 300000 300000 x"};
        for (String bd : bad) {
            try {
                new MachinePlayer(true, 0, bd).close();
                throw new AssertionError("the board '" + bd + "' was taken");
            } catch (IllegalArgumentException e) {
                System.out.println("     refused '" + bd.replace("\n", "\\n") + "': " + e.getMessage());
            }
        }
        try {
            new MachinePlayer(true, 0, null).close();
            throw new AssertionError("a null board was taken");
        } catch (IllegalArgumentException e) {
            check(e.getMessage().contains("null"), e.getMessage());
        }
    }

    /** Ten moves of a game, each with 200 ms on the player's clock. */
    private static void timeKept() throws Exception {
        try (Checker checker = new Checker(ENGINE, null, null); MachinePlayer white = new MachinePlayer(true, 0)) {
            List<Long> times = new ArrayList<>();
            String last = "";
            for (int i = 0; i < 10 && !checker.moves().isEmpty(); i++) {
                long start = System.nanoTime();
                String move = white.makeMove(last, 200, 200);
                times.add(ms(start));
                check(checker.moves().contains(move), "answered " + move);
                checker.play(move);
                List<String> replies = checker.moves();
                if (replies.isEmpty()) {
                    break;
                }
                last = replies.get(0);
                checker.play(last);
            }
            Collections.sort(times);
            long median = times.get(times.size() / 2);
            long slowest = times.get(times.size() - 1);
            System.out.println("     " + times.size() + " moves with 200 ms left: median " + median
                    + " ms, slowest " + slowest + " ms");
            check(slowest < 200, "a move took " + slowest + " ms of the 200 left");
            check(median < 100, "the median move took " + median + " ms of the 200 left");
        }
    }

    private static void independent() throws Exception {
        MachinePlayer a = new MachinePlayer(true, 1);
        try (MachinePlayer b = new MachinePlayer(true, 1, LOADED.replaceFirst("black", "white"))) {
            String moveA = a.makeMove("", 1000, 1000);
            a.close();
            a.close();
            try {
                a.makeMove("e7-e6", 1000, 1000);
                throw new AssertionError("a closed player answered");
            } catch (IllegalStateException e) {
                check(e.getMessage().contains("closed"), e.getMessage());
            }
            try (Checker checker = new Checker(ENGINE, null, String.join(" ", LOADED.replaceFirst("black", "white")
                    .trim().split("\n")))) {
                String moveB = b.makeMove("", 1000, 1000);
                check(checker.moves().contains(moveB), "the other player answered " + moveB);
            }
            check(moveA.length() == 5, "answered " + moveA);
        }
    }
}

package referee;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The referee's own engine process, spoken to directly over protocol.md
 * (not through MachinePlayer): it keeps the game's board, lists the legal
 * moves and plays each move made, so every answer of the players under
 * test is checked against it.
 */
final class Checker implements AutoCloseable {
    private final Process process;
    private final Writer in;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    Checker(String engine, String rules, String board) throws IOException, InterruptedException {
        process = new ProcessBuilder(engine).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // The end of the checker's output: ask() times out.
            }
        }, "checker-stdout");
        reader.setDaemon(true);
        reader.start();
        expect("set rules " + (rules == null ? "antichess" : rules), "ok");
        expect("new white 1" + (board == null ? "" : " " + board), "ok");
    }

    /** One command's answer, within 10 s. */
    String ask(String command) throws IOException, InterruptedException {
        in.write(command + "\n");
        in.flush();
        String answer = lines.poll(10, TimeUnit.SECONDS);
        if (answer == null) {
            throw new AssertionError("the checker engine did not answer '" + command + "'");
        }
        return answer;
    }

    void expect(String command, String answer) throws IOException, InterruptedException {
        String got = ask(command);
        if (!got.equals(answer)) {
            throw new AssertionError("the checker answered '" + got + "' to '" + command + "'");
        }
    }

    /** The legal moves of the side to move; none once the game is over. */
    List<String> moves() throws IOException, InterruptedException {
        List<String> words = new ArrayList<>(Arrays.asList(ask("moves").split(" ")));
        if (!words.remove(0).equals("moves")) {
            throw new AssertionError("the checker's moves answer is " + words);
        }
        return words;
    }

    void play(String move) throws IOException, InterruptedException {
        expect("play " + move, "ok");
    }

    /** The board's words: side to move, two clocks, eight rows from rank 8. */
    String[] board() throws IOException, InterruptedException {
        String[] words = ask("board").split(" ");
        if (words.length != 12 || !words[0].equals("board")) {
            throw new AssertionError("the checker's board answer is " + String.join(" ", words));
        }
        return Arrays.copyOfRange(words, 1, 12);
    }

    /** The piece on a square such as {@code e2} of a {@link #board()}, '-' for none. */
    static char pieceAt(String[] board, String square) {
        int file = square.charAt(0) - 'a';
        int rank = square.charAt(1) - '1';
        return board[3 + 7 - rank].charAt(file);
    }

    String name() throws IOException, InterruptedException {
        String answer = ask("name");
        if (!answer.startsWith("name ")) {
            throw new AssertionError("the checker's name answer is " + answer);
        }
        return answer.substring(5);
    }

    @Override
    public void close() {
        try {
            in.write("quit\n");
            in.close();
        } catch (IOException e) {
            // It has gone already.
        }
        try {
            if (process.waitFor(2, TimeUnit.SECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.destroyForcibly();
    }
}

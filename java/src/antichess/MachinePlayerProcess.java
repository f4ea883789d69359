package antichess;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One engine child process speaking protocol.md over its stdin and stdout.
 * It owns the process, a thread that reads its stdout into a bounded queue
 * (so that every wait for an answer has a deadline) and a thread that keeps
 * the last lines of its stderr for error messages. Once anything goes wrong
 * the process is ended and the engine stays failed. Every live engine is
 * ended when the JVM exits.
 */
final class MachinePlayerProcess {
    /** The system property naming the engine binary, looked at first. */
    static final String PROPERTY = "antichess.engine";
    /** The environment variable naming the engine binary, looked at second. */
    static final String ENV = "ANTICHESS_ENGINE";
    /** The program looked for on PATH last. */
    static final String PROGRAM = "antichess";

    /** Longer lines are cut: no answer of the protocol comes near it. */
    private static final int MAX_LINE = 64 * 1024;
    private static final int STDERR_LINES = 12;
    private static final String EOF = new String("end of output");
    private static final AtomicInteger COUNT = new AtomicInteger();
    private static final Set<MachinePlayerProcess> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(() -> LIVE.forEach(MachinePlayerProcess::kill), "antichess-engines-exit"));
    }

    private final String path;
    private final Process process;
    private final OutputStream stdin;
    private final BlockingQueue<String> lines = new ArrayBlockingQueue<>(256);
    private final Deque<String> stderrTail = new ArrayDeque<>();
    /** Why the engine cannot be used any more; null while it can. */
    private volatile String failure;

    private MachinePlayerProcess(String path, Process process) {
        this.path = path;
        this.process = process;
        this.stdin = process.getOutputStream();
        int n = COUNT.incrementAndGet();
        daemon(() -> readLines(new BufferedInputStream(process.getInputStream())), "antichess-engine-" + n + "-stdout").start();
        daemon(() -> keepStderr(new BufferedInputStream(process.getErrorStream())), "antichess-engine-" + n + "-stderr").start();
    }

    /**
     * Starts the engine found by {@link #locate()}.
     *
     * @throws MachinePlayer.EngineFailedException when there is none or it cannot start
     */
    static MachinePlayerProcess start() {
        String path = locate();
        Process process;
        try {
            process = new ProcessBuilder(path).start();
        } catch (IOException e) {
            throw new MachinePlayer.EngineFailedException("cannot start " + path + ": " + e.getMessage(), e);
        }
        MachinePlayerProcess engine = new MachinePlayerProcess(path, process);
        LIVE.add(engine);
        return engine;
    }

    /**
     * The engine binary: the system property, else the environment variable,
     * else the first executable {@code antichess} on PATH. A property or
     * variable that is set but names no executable file is an error rather
     * than a reason to look further, so that a typo is not hidden by an
     * older engine on PATH.
     */
    static String locate() {
        String named = System.getProperty(PROPERTY);
        if (named != null && !named.isEmpty()) {
            return executable(named, "the system property " + PROPERTY);
        }
        named = System.getenv(ENV);
        if (named != null && !named.isEmpty()) {
            return executable(named, "the environment variable " + ENV);
        }
        String searchPath = System.getenv("PATH");
        List<String> names = new ArrayList<>();
        names.add(PROGRAM);
        if (System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows")) {
            names.add(PROGRAM + ".exe");
        }
        if (searchPath != null) {
            for (String dir : searchPath.split(File.pathSeparator)) {
                for (String name : names) {
                    File file = new File(dir.isEmpty() ? "." : dir, name);
                    if (file.isFile() && file.canExecute()) {
                        return file.getPath();
                    }
                }
            }
        }
        throw new MachinePlayer.EngineFailedException("no antichess engine found: the system property " + PROPERTY
                + " is not set, the environment variable " + ENV + " is not set, and there is no executable "
                + PROGRAM + " on PATH (" + searchPath + "); build it with `cargo build --release` and pass -D"
                + PROPERTY + "=target/release/antichess");
    }

    private static String executable(String named, String where) {
        File file = new File(named);
        if (!file.exists()) {
            throw new MachinePlayer.EngineFailedException(where + " names " + named + ", which does not exist");
        }
        if (!file.isFile() || !file.canExecute()) {
            throw new MachinePlayer.EngineFailedException(where + " names " + named + ", which is not an executable file");
        }
        return named;
    }

    /** The engine binary's path, for messages. */
    String path() {
        return path;
    }

    /**
     * Sends one command and waits at most {@code timeoutMs} for its answer.
     *
     * @throws MachinePlayer.EngineFailedException when the engine has failed, exits or
     *     does not answer in time (it is then ended)
     */
    synchronized String request(String command, long timeoutMs) {
        send(command);
        String answer = await(timeoutMs);
        if (answer == null) {
            throw fail("no answer to '" + command + "' within " + timeoutMs + " ms");
        }
        return answer;
    }

    /**
     * Sends a search command and waits for its answer until {@code searchMs}
     * have passed; then sends {@code stop}, which makes a search answer at
     * once, and waits at most {@code stopMs} more.
     *
     * @throws MachinePlayer.EngineFailedException as {@link #request}
     */
    synchronized String requestSearch(String command, long searchMs, long stopMs) {
        send(command);
        String answer = await(searchMs);
        if (answer == null) {
            send("stop");
            answer = await(stopMs);
        }
        if (answer == null) {
            throw fail("no answer to '" + command + "' within " + searchMs + " ms, nor " + stopMs
                    + " ms after 'stop'");
        }
        return answer;
    }

    /**
     * Fails the engine: ends the process and remembers why, for this and
     * every later call.
     */
    MachinePlayer.EngineFailedException fail(String reason) {
        if (failure == null) {
            failure = reason + stderrNote();
        }
        kill();
        return new MachinePlayer.EngineFailedException(failure);
    }

    /** Ends the engine politely: {@code quit}, then a signal if it lingers. */
    void close() {
        if (failure == null) {
            failure = "the player was closed";
        }
        LIVE.remove(this);
        try {
            stdin.write("quit\n".getBytes(StandardCharsets.UTF_8));
            stdin.close();
        } catch (IOException e) {
            // It has gone already: nothing to tell it.
        }
        try {
            if (process.waitFor(1, TimeUnit.SECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        kill();
    }

    /** Whether the engine can still be asked: not failed nor closed. */
    boolean usable() {
        return failure == null;
    }

    /** Why it cannot be asked, when it cannot. */
    String failure() {
        return failure;
    }

    private void kill() {
        LIVE.remove(this);
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    private void send(String command) {
        if (failure != null) {
            throw new MachinePlayer.EngineFailedException(failure);
        }
        try {
            stdin.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
        } catch (IOException e) {
            throw fail("cannot write to it (" + e.getMessage() + "): " + exitNote());
        }
    }

    /** The next answer line, or null when none came within {@code ms}. */
    private String await(long ms) {
        String line;
        try {
            line = lines.poll(Math.max(0, ms), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw fail("interrupted while waiting for its answer");
        }
        if (line == EOF) {
            throw fail(exitNote());
        }
        return line;
    }

    private String exitNote() {
        try {
            if (process.waitFor(2, TimeUnit.SECONDS)) {
                return "it exited with status " + process.exitValue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "it closed its output";
    }

    private String stderrNote() {
        // The stderr thread may still be reading the last words of a dying engine.
        try {
            Thread.sleep(process.isAlive() ? 0 : 50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (stderrTail) {
            return stderrTail.isEmpty() ? "" : "; its stderr ended: " + String.join(" | ", stderrTail);
        }
    }

    private void readLines(InputStream out) {
        try {
            String line;
            while ((line = readLine(out)) != null) {
                lines.put(line);
            }
        } catch (IOException e) {
            // Treated as the end of its output.
        } catch (InterruptedException e) {
            return;
        }
        try {
            lines.put(EOF);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void keepStderr(InputStream err) {
        try {
            String line;
            while ((line = readLine(err)) != null) {
                synchronized (stderrTail) {
                    stderrTail.addLast(line.length() > 300 ? line.substring(0, 300) + "..." : line);
                    if (stderrTail.size() > STDERR_LINES) {
                        stderrTail.removeFirst();
                    }
                }
            }
        } catch (IOException e) {
            // Its stderr is only for messages.
        }
    }

    /** One line without its end, cut at {@link #MAX_LINE} bytes; null at the end. */
    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1 && b != '\n') {
            if (bytes.size() < MAX_LINE) {
                bytes.write(b);
            }
        }
        if (b == -1 && bytes.size() == 0) {
            return null;
        }
        String line = new String(bytes.toByteArray(), StandardCharsets.UTF_8);
        return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    }

    private static Thread daemon(Runnable body, String name) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }
}

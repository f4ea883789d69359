package referee;

import static referee.RefereeTest.check;
import static referee.RefereeTest.ms;
import static referee.RefereeTest.test;

import antichess.MachinePlayer;
import antichess.MachinePlayer.EngineFailedException;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * The engine process seen from outside: how it is found, what a missing,
 * dying, silent or foreign engine makes MachinePlayer throw (fake engines
 * written as shell scripts), that the process ends with the JVM and with
 * the player's garbage collection, and the README's example compiled and
 * run with the engine found by the environment variable and by PATH.
 */
final class EngineChecks {
    static final String JAR = System.getProperty("antichess.jar", "target/java/antichess.jar");
    private static final String README = System.getProperty("antichess.readme", "README.md");
    private static final String HEADING = "## The Java MachinePlayer";
    private static Path dir;

    private EngineChecks() {}

    static void all() {
        test("a missing engine is named in the exception", EngineChecks::missing);
        test("a dying engine: its exit status and stderr in the exception", EngineChecks::dying);
        test("a silent engine: the exception comes by the deadline", EngineChecks::silent);
        test("a program that is not the engine is refused", EngineChecks::foreign);
        test("engines (one found on PATH) end when the JVM exits without close()", EngineChecks::jvmExit);
        test("the engine ends when an unclosed player is garbage-collected", EngineChecks::collected);
        test("the README's example compiles and runs, the engine named by ANTICHESS_ENGINE",
                EngineChecks::readme);
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            } catch (IOException e) {
                System.out.println("     could not remove " + dir + ": " + e);
            }
        }
    }

    private static Path dir() throws IOException {
        if (dir == null) {
            dir = Files.createTempDirectory("antichess-java-test");
        }
        return dir;
    }

    /** A fake engine: a shell script answering name and ok, doing {@code onMove} at move. */
    private static String fake(String name, String nameAnswer, String onMove) throws IOException {
        Path script = dir().resolve(name);
        Files.write(script, List.of("#!/bin/sh", "while read cmd rest; do", "  case \"$cmd\" in",
                "    name) echo \"" + nameAnswer + "\";;", "    move) " + onMove + ";;", "    quit) exit 0;;",
                "    *) echo ok;;", "  esac", "done"), StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script.toString();
    }

    /** Runs {@code body} with the system property antichess.engine naming {@code engine}. */
    private static void withEngine(String engine, RefereeTest.Body body) throws Exception {
        String before = System.getProperty("antichess.engine");
        System.setProperty("antichess.engine", engine);
        try {
            body.run();
        } finally {
            if (before == null) {
                System.clearProperty("antichess.engine");
            } else {
                System.setProperty("antichess.engine", before);
            }
        }
    }

    private static void missing() throws Exception {
        withEngine("/nonexistent/antichess", () -> {
            try {
                new MachinePlayer(true, 0).close();
                throw new AssertionError("a player was made without an engine");
            } catch (EngineFailedException e) {
                check(e.getMessage().contains("/nonexistent/antichess"), e.getMessage());
                System.out.println("     " + e.getMessage());
            }
        });
    }

    private static void dying() throws Exception {
        withEngine(fake("dying", "name fake 1", "echo 'boom: the engine crashed' >&2; exit 3"), () -> {
            try (MachinePlayer p = new MachinePlayer(true, 0)) {
                check(p.getName().equals("fake 1"), "the name is " + p.getName());
                try {
                    p.makeMove("", 1000, 1000);
                    throw new AssertionError("a dead engine answered");
                } catch (EngineFailedException e) {
                    check(e.getReason().contains("status 3") && e.getReason().contains("boom"), e.getMessage());
                    System.out.println("     " + e.getMessage());
                }
                long start = System.nanoTime();
                try {
                    p.makeMove("", 1000, 1000);
                    throw new AssertionError("a dead engine answered the second time");
                } catch (EngineFailedException e) {
                    check(ms(start) < 100, "the second call took " + ms(start) + " ms");
                }
            }
        });
    }

    private static void silent() throws Exception {
        withEngine(fake("silent", "name fake 1", "exec sleep 60"), () -> {
            try (MachinePlayer p = new MachinePlayer(true, 0)) {
                long start = System.nanoTime();
                try {
                    p.makeMove("", 300, 300);
                    throw new AssertionError("a silent engine answered");
                } catch (EngineFailedException e) {
                    long took = ms(start);
                    System.out.println("     after " + took + " ms: " + e.getMessage());
                    check(e.getReason().contains("no answer"), e.getMessage());
                    check(took >= 300 && took < 4000, "the exception came after " + took + " ms");
                }
            }
        });
    }

    private static void foreign() throws Exception {
        withEngine(fake("foreign", "hello", "echo hello"), () -> {
            try {
                new MachinePlayer(true, 0).close();
                throw new AssertionError("a player was made with a program that is not the engine");
            } catch (EngineFailedException e) {
                check(e.getReason().contains("not an antichess engine"), e.getMessage());
            }
        });
    }

    /** Compiles {@code source} (class {@code name}) against the jar into the temporary folder. */
    private static void compile(String name, String source) throws IOException {
        Path file = dir().resolve(name + ".java");
        Files.write(file, source.getBytes(StandardCharsets.UTF_8));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        check(javac != null, "no Java compiler in this JVM (a JDK is needed)");
        int status = javac.run(null, null, null, "-cp", JAR, "-d", dir().toString(), file.toString());
        check(status == 0, "javac " + file + " failed");
    }

    /** Runs class {@code name} in a new JVM; its output, after checking it exits 0 within 60 s. */
    private static String run(String name, Map<String, String> env, String... properties) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        command.addAll(List.of(properties));
        command.addAll(List.of("-cp", JAR + File.pathSeparator + dir(), name));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().remove("ANTICHESS_ENGINE");
        builder.environment().putAll(env);
        Process process = builder.start();
        process.getOutputStream().close();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(name + " did not finish within 60 s");
        }
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        check(process.exitValue() == 0, name + " exited with " + process.exitValue() + ": " + out);
        return out;
    }

    /** PATH with the engine's folder first, so that the engine is found there. */
    private static String enginePath() {
        File engine = new File(RefereeTest.ENGINE).getAbsoluteFile();
        check(engine.getName().equals("antichess"), "the engine is not called antichess: " + engine);
        return engine.getParent() + File.pathSeparator + System.getenv("PATH");
    }

    /**
     * A JVM that exits without closing two players: one whose engine is found
     * on PATH, and a fake that ignores the end of its input, which only the
     * shutdown hook can end.
     */
    private static void jvmExit() throws Exception {
        String stubborn = fake("stubborn", "name fake 1", "echo move e2-e4; exec sleep 600");
        compile("Unclosed", String.join("\n", "public class Unclosed {",
                "  public static void main(String[] args) {",
                "    antichess.MachinePlayer a = new antichess.MachinePlayer(true, 0);",
                "    a.makeMove(\"\", 1000, 1000);",
                "    System.setProperty(\"antichess.engine\", System.getenv(\"STUBBORN_ENGINE\"));",
                "    antichess.MachinePlayer b = new antichess.MachinePlayer(true, 0);",
                "    b.makeMove(\"\", 1000, 1000);",
                "    ProcessHandle.current().children().forEach(c -> System.out.println(c.pid()));",
                "    System.exit(0);", "  }", "}"));
        String out = run("Unclosed", Map.of("PATH", enginePath(), "STUBBORN_ENGINE", stubborn));
        List<Long> pids = out.lines().map(String::trim).filter(s -> s.matches("[0-9]+")).map(Long::valueOf)
                .collect(Collectors.toList());
        check(pids.size() == 2, "the child JVM had the engines " + pids + ": " + out);
        long deadline = System.nanoTime() + 3_000_000_000L;
        for (long pid : pids) {
            while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                if (System.nanoTime() > deadline) {
                    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                    throw new AssertionError("the engine " + pid + " outlived its JVM by 3 s");
                }
                Thread.sleep(20);
            }
        }
    }

    private static Set<Long> engines() {
        return ProcessHandle.current().children().filter(ProcessHandle::isAlive).map(ProcessHandle::pid)
                .collect(Collectors.toSet());
    }

    private static void collected() throws Exception {
        Set<Long> before = engines();
        makeAndDrop();
        Set<Long> started = engines();
        started.removeAll(before);
        check(started.size() == 1, "the unclosed player's engine is not the one new process: " + started);
        long pid = started.iterator().next();
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            check(System.nanoTime() < deadline, "the unclosed player's engine outlived it by 5 s");
            System.gc();
            Thread.sleep(50);
        }
    }

    private static void makeAndDrop() {
        MachinePlayer p = new MachinePlayer(false, 1);
        check(p.makeMove("e2-e3", 1000, 1000).length() == 5, "no move");
    }

    private static void readme() throws Exception {
        String text = new String(Files.readAllBytes(Path.of(README)), StandardCharsets.UTF_8);
        int at = text.indexOf("\n" + HEADING + "\n");
        check(at >= 0, README + " has no section '" + HEADING + "'");
        int start = text.indexOf("```java\n", at);
        int next = text.indexOf("\n## ", at + 1);
        check(start >= 0 && (next < 0 || start < next), "the section '" + HEADING + "' has no ```java block");
        int end = text.indexOf("\n```", start + 8);
        String source = text.substring(start + 8, end + 1);
        Matcher name = Pattern.compile("public class (\\w+)").matcher(source);
        check(name.find(), "the README's example has no public class");
        compile(name.group(1), source);
        String engine = new File(RefereeTest.ENGINE).getAbsolutePath();
        String out = run(name.group(1), Map.of("ANTICHESS_ENGINE", engine));
        check(Pattern.compile("[a-h][1-8]-[a-h][1-8]").matcher(out).find(), "the example printed: " + out);
        System.out.print("     " + out.trim().replace("\n", "\n     ") + "\n");
    }
}

//! Replays the recorded protocol sessions of `tests/transcripts/*.txt`
//! against the real binary.
//!
//! A transcript is a list of directives, one a line:
//!
//! - `> text` sends `text` and a newline;
//! - `>repeat <n> <text>` sends `text` `n` times, then a newline (long lines);
//! - `>bytes <hex>` sends raw bytes, no newline added (binary junk, a last
//!   line without a newline);
//! - `< text` expects the next answer line to be `text`, where `*` stands
//!   for any run of characters (searches that are not reproducible);
//! - `<* text` accepts any number of answer lines matching `text` (the
//!   `info` lines of a search, as many as it had time for);
//! - blank lines and lines starting with `#` are comments.
//!
//! The whole input is written at once and stdin closed; the engine must
//! then exit with status 0 having answered exactly the expected lines.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One transcript: the bytes to send and the lines expected, with their
/// line numbers in the file.
struct Transcript {
    input: Vec<u8>,
    expected: Vec<Expect>,
}

/// An expected answer, with its line number in the transcript.
struct Expect {
    line: usize,
    pattern: String,
    /// Whether any number of matching lines (zero included) may come.
    repeated: bool,
}

fn hex(text: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    digits
        .chunks(2)
        .map(|pair| {
            let s: String = pair.iter().collect();
            u8::from_str_radix(&s, 16).map_err(|e| format!("bad hex '{s}': {e}"))
        })
        .collect()
}

fn parse(text: &str) -> Result<Transcript, String> {
    let mut transcript = Transcript {
        input: Vec::new(),
        expected: Vec::new(),
    };
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        let fail = |why: &str| format!("line {number}: {why}");
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        } else if let Some(rest) = line.strip_prefix("> ") {
            transcript.input.extend_from_slice(rest.as_bytes());
            transcript.input.push(b'\n');
        } else if let Some(rest) = line.strip_prefix(">repeat ") {
            let (count, unit) = rest.split_once(' ').ok_or_else(|| fail("repeat what?"))?;
            let count: usize = count.parse().map_err(|_| fail("bad repeat count"))?;
            transcript.input.extend(unit.as_bytes().repeat(count));
            transcript.input.push(b'\n');
        } else if let Some(rest) = line.strip_prefix(">bytes ") {
            transcript.input.extend(hex(rest).map_err(|e| fail(&e))?);
        } else if let Some((repeated, pattern)) = line
            .strip_prefix("<* ")
            .map(|p| (true, p))
            .or_else(|| line.strip_prefix("< ").map(|p| (false, p)))
        {
            transcript.expected.push(Expect {
                line: number,
                pattern: pattern.to_string(),
                repeated,
            });
        } else {
            return Err(fail("not a directive"));
        }
    }
    Ok(transcript)
}

/// Whether `text` matches `pattern`, where `*` matches any run.
fn glob(pattern: &str, text: &str) -> bool {
    let Some((head, rest)) = pattern.split_once('*') else {
        return pattern == text;
    };
    let Some(text) = text.strip_prefix(head) else {
        return false;
    };
    (0..=text.len())
        .filter(|&i| text.is_char_boundary(i))
        .any(|i| glob(rest, &text[i..]))
}

fn replay(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let transcript = parse(&text)?;
    let mut child = Command::new(env!("CARGO_BIN_EXE_antichess"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .env("RUST_LOG", "off")
        .spawn()
        .map_err(|e| format!("cannot start the engine: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let input = transcript.input.clone();
    // Written from another thread so a full pipe cannot block both sides;
    // the engine may quit before reading everything, so a broken pipe is
    // no failure.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut output = String::new();
    child
        .stdout
        .take()
        .ok_or("no stdout")?
        .read_to_string(&mut output)
        .map_err(|e| format!("output is not UTF-8 text: {e}"))?;
    let status = child.wait().map_err(|e| e.to_string())?;
    let _ = writer.join();
    let got: Vec<&str> = output.lines().collect();
    let show = || format!("\n--- the engine answered:\n{output}---");
    let mut next = 0;
    for expect in &transcript.expected {
        if expect.repeated {
            while got
                .get(next)
                .is_some_and(|line| glob(&expect.pattern, line))
            {
                next += 1;
            }
            continue;
        }
        match got.get(next) {
            None => {
                return Err(format!(
                    "line {}: expected '{}', got nothing{}",
                    expect.line,
                    expect.pattern,
                    show()
                ));
            }
            Some(line) if !glob(&expect.pattern, line) => {
                return Err(format!(
                    "line {}: expected '{}', got '{line}'{}",
                    expect.line,
                    expect.pattern,
                    show()
                ));
            }
            Some(_) => next += 1,
        }
    }
    if let Some(extra) = got.get(next) {
        return Err(format!("unexpected answer '{extra}'{}", show()));
    }
    if !status.success() {
        return Err(format!("the engine exited with {status}"));
    }
    Ok(())
}

fn transcripts() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "txt"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

#[test]
fn every_transcript_replays() {
    let files = transcripts();
    assert!(!files.is_empty(), "no transcripts found");
    let failures: Vec<String> = files
        .iter()
        .filter_map(|path| {
            replay(path)
                .err()
                .map(|e| format!("{}: {e}", path.display()))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn glob_matches_runs() {
    assert!(glob("move *", "move e2-e4"));
    assert!(glob("a*c*e", "abcde"));
    assert!(!glob("move *", "result 1-0 checkmate"));
    assert!(glob("exact", "exact"));
    assert!(!glob("exact", "exact!"));
}

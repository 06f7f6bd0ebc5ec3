//! A GTP client for the oracles the tests talk to (GNU Go): one command at
//! a time, its answer read to the blank line that ends it. A broken pipe or
//! a refused command fails the calling test.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A GTP engine run as a child process, quit when dropped.
pub struct Gtp {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Gtp {
    /// Starts `path --mode gtp` with `args`.
    ///
    /// # Panics
    /// When the program cannot be started.
    #[must_use]
    pub fn start(path: &str, args: &[&str]) -> Gtp {
        let mut child = Command::new(path)
            .args(["--mode", "gtp"])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {path}: {e}"));
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            panic!("{path}: no pipes");
        };
        Gtp {
            child,
            input,
            output: BufReader::new(output),
        }
    }

    /// Sends `command` and returns its answer, without the `=`.
    ///
    /// # Panics
    /// When the engine closes the pipe or answers with an error (`?`).
    pub fn send(&mut self, command: &str) -> String {
        writeln!(self.input, "{command}")
            .and_then(|()| self.input.flush())
            .unwrap_or_else(|e| panic!("{command}: {e}"));
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            let read = self
                .output
                .read_line(&mut line)
                .unwrap_or_else(|e| panic!("{command}: {e}"));
            assert!(read > 0, "{command}: the engine closed the pipe");
            if line.trim().is_empty() {
                if !answer.is_empty() {
                    break;
                }
                continue;
            }
            answer.push_str(&line);
        }
        let answer = answer.trim_end();
        let Some(answer) = answer.strip_prefix('=') else {
            panic!("{command}: {answer}");
        };
        answer.trim().to_owned()
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.wait();
    }
}

//! `shoutan serve` raises its soft limit of open files to the hard limit:
//! started from a shell whose soft limit is 512, the running server's is
//! the hard one (as `/proc/<pid>/limits` shows it).

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed call is a test failure

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

/// The soft and hard "Max open files" of process `pid`.
fn open_files(pid: u32) -> (String, String) {
    let limits = std::fs::read_to_string(format!("/proc/{pid}/limits")).unwrap();
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .unwrap();
    let mut values = line["Max open files".len()..].split_whitespace();
    (
        values.next().unwrap().to_owned(),
        values.next().unwrap().to_owned(),
    )
}

#[test]
fn the_soft_file_limit_is_raised_at_start() {
    let data = tempfile::tempdir().unwrap();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -Sn 512 && exec \"$0\" serve --addr 127.0.0.1:0 --data \"$1\"")
        .arg(env!("CARGO_BIN_EXE_shoutan"))
        .arg(data.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    assert!(first.contains("listening on"), "{first}");
    let (soft, hard) = open_files(child.id());
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(soft, hard, "the soft limit stayed below the hard one");
    assert_ne!(soft, "512");
}

//! `--model FILE` as an operator uses it: another KataGo network file is
//! loaded by `gtp`, `review`, `score` and `serve`, and a file that is no
//! network Shoutan reads (another model version, a truncated download, not
//! a network at all) is refused at start with the reason, before anything
//! else happens.

#![allow(clippy::unwrap_used)] // test code: a failed setup is a failed test

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The shipped network's file, as an operator would give one.
fn shipped() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shoutan-nn/models/g170-b6c96-s175395328-d26788732.bin.gz")
}

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("shoutan-model-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The shipped network rewritten as model version `version`.
fn with_version(dir: &Path, version: u32) -> PathBuf {
    let mut text = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(shipped()).unwrap())
        .read_to_end(&mut text)
        .unwrap();
    // The header: the name on the first line, the version on the second.
    let first_line = text.iter().position(|&b| b == b'\n').unwrap();
    let second_line = first_line
        + 1
        + text[first_line + 1..]
            .iter()
            .position(|&b| b == b'\n')
            .unwrap();
    let mut rewritten = text[..=first_line].to_vec();
    rewritten.extend_from_slice(version.to_string().as_bytes());
    rewritten.extend_from_slice(&text[second_line..]);
    let path = dir.join(format!("v{version}.bin.gz"));
    let mut out = flate2::write::GzEncoder::new(
        std::fs::File::create(&path).unwrap(),
        flate2::Compression::fast(),
    );
    out.write_all(&rewritten).unwrap();
    out.finish().unwrap();
    path
}

fn gtp(model: &Path, input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shoutan"))
        .args(["gtp", "--threads", "1", "--visits", "8", "--model"])
        .arg(model)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn another_network_file_is_used() {
    let out = gtp(&shipped(), "boardsize 9\nkata-raw-nn 0\ngenmove b\nquit\n");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("= symmetry 0\nwhiteWin "), "{stdout}");
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("= ") && l.len() <= 5 && l != "= "),
        "{stdout}"
    );
}

#[test]
fn an_unsupported_version_is_refused_with_the_versions_read() {
    let dir = Scratch::new("version");
    let v14 = with_version(&dir.0, 14);
    let out = gtp(&v14, "name\nquit\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "model version 14 is not supported: Shoutan reads KataGo model versions 8 to 11"
        ),
        "{stderr}"
    );
    assert!(
        out.stdout.is_empty(),
        "nothing answered: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    for command in [
        &["serve", "--addr", "127.0.0.1:0"][..],
        &["review", "--visits", "1"],
    ] {
        let mut args: Vec<&std::ffi::OsStr> = command.iter().map(|s| s.as_ref()).collect();
        if command[0] == "review" {
            args.push(dir.0.as_os_str());
        }
        let out = Command::new(env!("CARGO_BIN_EXE_shoutan"))
            .args(args)
            .arg("--model")
            .arg(&v14)
            .current_dir(&dir.0)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{command:?}: {stderr}");
        assert!(
            stderr.contains("model version 14 is not supported"),
            "{command:?}: {stderr}"
        );
    }
}

#[test]
fn a_truncated_or_foreign_file_is_refused() {
    let dir = Scratch::new("broken");
    let bytes = std::fs::read(shipped()).unwrap();
    let truncated = dir.0.join("truncated.bin.gz");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let out = gtp(&truncated, "name\nquit\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("cannot use") && stderr.contains("truncated.bin.gz"),
        "{stderr}"
    );
    let foreign = dir.0.join("notes.txt");
    std::fs::write(&foreign, "these are not the weights you are looking for\n").unwrap();
    let out = gtp(&foreign, "name\nquit\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("notes.txt"), "{stderr}");
}

//! The process's limit of open files. Each connection is one, and the
//! common soft limit of 1,024 cannot hold the 2,000 sockets of 1,000 games,
//! while the hard limit usually allows far more: the server raises its soft
//! limit to the hard one at start.

/// Raises the soft limit of open files to the hard limit; the limits after.
pub fn raise_file_limit() -> std::io::Result<FileLimit> {
    let (_, hard) = rlimit::getrlimit(rlimit::Resource::NOFILE)?;
    let soft = rlimit::increase_nofile_limit(hard)?;
    Ok(FileLimit { soft, hard })
}

/// Open files the process may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileLimit {
    /// What is enforced.
    pub soft: u64,
    /// What the soft limit may be raised to.
    pub hard: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_soft_limit_becomes_the_hard_one() {
        let (_, hard) = rlimit::getrlimit(rlimit::Resource::NOFILE).unwrap();
        // Lower the soft limit first, as a shell's default would be.
        rlimit::setrlimit(rlimit::Resource::NOFILE, 256.min(hard), hard).unwrap();
        let raised = raise_file_limit().unwrap();
        assert_eq!(raised, FileLimit { soft: hard, hard });
        assert_eq!(
            rlimit::getrlimit(rlimit::Resource::NOFILE).unwrap(),
            (hard, hard)
        );
    }
}

//! Live play first: the threads that do what a client can ask for in bulk
//! (estimates, judgements, reviews, password hashes, spectators' sockets)
//! run at a lower CPU priority than the game actors and the players'
//! connections, so that a flood of such work takes only the CPU that live
//! play leaves, and a move is never queued behind it.
//!
//! Linux keeps a nice value per thread, so lowering one thread leaves the
//! rest of the process as it was.

/// How far behind live play a thread runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Behind {
    /// Nice 19, the lowest of the normal policy: work measured in tens of
    /// milliseconds of CPU that its client waits for anyway (an estimate,
    /// a hash); it still progresses on a busy machine.
    Far,
    /// Nice 10: frames that someone watches (spectators), which may wait a
    /// little behind the players' but must keep flowing.
    Near,
}

impl Behind {
    /// The nice value.
    #[must_use]
    pub fn nice(self) -> i32 {
        match self {
            Behind::Far => 19,
            Behind::Near => 10,
        }
    }
}

/// Puts the calling thread `behind` live play; a refusal (a system that
/// does not allow it) leaves it at its priority, with a warning.
pub fn lower_this_thread(behind: Behind) {
    use thread_priority::{ThreadPriority, ThreadPriorityValue};
    // The crate maps 0..=99 onto nice 19..=-20; 22 is nice 10.
    let priority = match behind {
        Behind::Far => Ok(ThreadPriority::Min),
        Behind::Near => ThreadPriorityValue::try_from(22u8).map(ThreadPriority::Crossplatform),
    };
    let lowered = priority
        .map_err(|e| e.to_string())
        .and_then(|p| thread_priority::set_current_thread_priority(p).map_err(|e| e.to_string()));
    if let Err(e) = lowered {
        tracing::warn!(
            "a thread keeps its priority instead of nice {}: {e}",
            behind.nice()
        );
    }
}

/// The calling thread's nice value, from `/proc` (Linux).
#[cfg(test)]
pub(crate) fn nice_of_this_thread() -> Option<i32> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // After the command name's ')' come the fields from the third (the
    // state) on; nice is the nineteenth.
    let after = &stat[stat.rfind(')')? + 1..];
    after.split_whitespace().nth(16)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_level_sets_its_nice_value_on_the_calling_thread_only() {
        let before = nice_of_this_thread();
        for behind in [Behind::Far, Behind::Near] {
            let nice = std::thread::spawn(move || {
                lower_this_thread(behind);
                nice_of_this_thread()
            })
            .join()
            .unwrap();
            assert_eq!(nice, Some(behind.nice()), "{behind:?}");
        }
        assert_eq!(nice_of_this_thread(), before, "other threads keep theirs");
    }
}

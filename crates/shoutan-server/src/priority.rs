//! Live play first: the threads that do what a client can ask for in bulk
//! (estimates, judgements, reviews, password hashes, spectators' sockets)
//! run at a lower CPU priority than the game actors and the players'
//! connections, so that a flood of such work takes only the CPU that live
//! play leaves, and a move is never queued behind it.
//!
//! Linux keeps a scheduling policy and a nice value per thread, so
//! lowering one thread leaves the rest of the process as it was.

/// How far behind live play a thread runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Behind {
    /// Linux's `SCHED_IDLE` policy: work measured in tens of
    /// milliseconds of CPU that its client waits for anyway (an estimate,
    /// a hash). A thread of live play that wakes takes the core from it at
    /// once, where a nice-19 thread of the normal policy could keep it to
    /// the end of its slice (measured: with counting, a login flood and
    /// spectators at once, nice 19 let the move p99 reach 117–218 ms on
    /// PostgreSQL); it still gets a sliver of a fully busy machine.
    Far,
    /// Nice 10: frames that someone watches (spectators), which may wait a
    /// little behind the players' but must keep flowing.
    Near,
}

impl Behind {
    /// The scheduling policy as Linux numbers it (0 normal, 5 idle) and,
    /// under the normal policy, the nice value (the idle policy has none
    /// that counts).
    #[must_use]
    pub fn scheduling(self) -> (u32, Option<i32>) {
        match self {
            Behind::Far => (5, None),
            Behind::Near => (0, Some(10)),
        }
    }
}

/// Puts the calling thread `behind` live play; a refusal (a system that
/// does not allow it) leaves it at its priority, with a warning.
pub fn lower_this_thread(behind: Behind) {
    use thread_priority::{
        NormalThreadSchedulePolicy, ThreadPriority, ThreadPriorityValue, ThreadSchedulePolicy,
    };
    let lowered = match behind {
        Behind::Far => thread_priority::set_thread_priority_and_policy(
            thread_priority::thread_native_id(),
            ThreadPriority::Min,
            ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle),
        )
        .map_err(|e| e.to_string()),
        // The crate maps 0..=99 onto nice 19..=-20; 22 is nice 10.
        Behind::Near => ThreadPriorityValue::try_from(22u8)
            .map_err(|e| e.to_string())
            .and_then(|p| {
                thread_priority::set_current_thread_priority(ThreadPriority::Crossplatform(p))
                    .map_err(|e| e.to_string())
            }),
    };
    if let Err(e) = lowered {
        tracing::warn!("a thread keeps its priority instead of going {behind:?} behind: {e}");
    }
}

/// The calling thread's scheduling policy (0 normal, 5 idle) and nice
/// value, from `/proc` (Linux).
#[cfg(test)]
pub(crate) fn scheduling_of_this_thread() -> Option<(u32, i32)> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // After the command name's ')' come the fields from the third (the
    // state) on; nice is the nineteenth, the policy the forty-first.
    let after = &stat[stat.rfind(')')? + 1..];
    let field = |n: usize| after.split_whitespace().nth(n - 3);
    Some((field(41)?.parse().ok()?, field(19)?.parse().ok()?))
}

/// Whether the calling thread runs as `behind` says.
#[cfg(test)]
pub(crate) fn this_thread_is(behind: Behind) -> bool {
    let (policy, nice) = behind.scheduling();
    scheduling_of_this_thread()
        .is_some_and(|(p, n)| p == policy && nice.is_none_or(|nice| n == nice))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_level_sets_its_scheduling_on_the_calling_thread_only() {
        let before = scheduling_of_this_thread();
        for behind in [Behind::Far, Behind::Near] {
            let set = std::thread::spawn(move || {
                lower_this_thread(behind);
                this_thread_is(behind)
            })
            .join()
            .unwrap();
            assert!(set, "{behind:?}");
        }
        assert_eq!(
            scheduling_of_this_thread(),
            before,
            "other threads keep theirs"
        );
    }
}

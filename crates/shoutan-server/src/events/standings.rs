//! An event's standings as fetched: both views serialized once per change
//! of the event, and compressed once, for every watcher who asks.

use std::sync::Arc;

use tokio::sync::Mutex;

use super::published::JsonBody;
use super::views;
use crate::error::ApiError;

/// Which view of the standings a fetch asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StandingsPart {
    /// Official and live ([`views::EventStandingsView`]).
    Whole,
    /// What a page shows now ([`views::CurrentStandingsView`]).
    Current,
}

/// Both views of an event's standings at one version of the event.
#[derive(Clone, Debug)]
pub(super) struct StandingsJson {
    whole: JsonBody,
    current: JsonBody,
}

impl StandingsJson {
    /// The standings of `t`, serialized and compressed (CPU work: run it
    /// off the async workers).
    pub(super) fn of(t: &shoutan_tournament::Tournament) -> Result<StandingsJson, ApiError> {
        let view = views::event_standings(t);
        Ok(StandingsJson {
            whole: JsonBody::of(&view)?,
            current: JsonBody::of(&view.current())?,
        })
    }

    pub(super) fn part(&self, part: StandingsPart) -> JsonBody {
        match part {
            StandingsPart::Whole => self.whole.clone(),
            StandingsPart::Current => self.current.clone(),
        }
    }
}

/// An event's standings as last computed, and the turn to compute them.
#[derive(Default)]
pub(super) struct StandingsPage {
    /// Both views, with the `next_seq` of the event they were computed
    /// from.
    pub(super) body: Option<(u64, StandingsJson)>,
    /// Held while the page is computed.
    pub(super) gate: Arc<Mutex<()>>,
}

impl StandingsPage {
    /// The view, if computed from the event at `wanted` or later.
    pub(super) fn at_least(&self, wanted: u64, part: StandingsPart) -> Option<JsonBody> {
        self.body
            .as_ref()
            .filter(|(version, _)| *version >= wanted)
            .map(|(_, json)| json.part(part))
    }
}

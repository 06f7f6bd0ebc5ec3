//! What an organiser sets when creating an event: the tournament crate's
//! system and standings order, and the games' ruleset, board, komi and
//! clock, registration window and late-arrival limit. Checked once, stored
//! in the event's first action.

use serde::{Deserialize, Serialize};
use shoutan_clock::TimeOutRule;
use shoutan_tournament::{
    Certification, ColorRule, Criterion, Discipline, DisciplineError, Settings, System,
    TeamSettings, TieRule, Tournament,
};

use crate::error::{ApiError, ErrorCode};
use crate::settings::{ChallengeRequest, ChallengeSettings, ColorRequest, HandicapRequest};

/// Art. 22.2: online play allows 15 minutes late.
pub const DEFAULT_LATE_ARRIVAL_MS: u64 = 15 * 60 * 1000;
/// The longest late-arrival limit accepted (Art. 22.1 allows one hour).
const MAX_LATE_ARRIVAL_MS: u64 = 60 * 60 * 1000;
/// The longest event name.
const MAX_NAME: usize = 100;

/// The body of `POST /api/events`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventRequest {
    /// The event's name.
    pub name: String,
    /// The pairing system, as the tournament crate writes it
    /// (`{"kind": "swiss"}`, `{"kind": "knockout", "losses": 1}`, …).
    pub system: System,
    /// The game: `weiqi` (the default), `xiangqi`, `chess` or `junqi`.
    /// Other games than weiqi are played elsewhere: their rounds create no
    /// online games and the arbiters enter the results.
    #[serde(default)]
    pub game: Option<String>,
    /// Planned rounds (Swiss-like systems).
    #[serde(default)]
    pub rounds: Option<u32>,
    /// Team events.
    #[serde(default)]
    pub teams: Option<TeamSettings>,
    /// The standings order by criterion names (`["points", "sos", "sb"]`);
    /// default: the system's.
    #[serde(default)]
    pub tie_breaks: Option<Vec<String>>,
    /// Ties after every criterion.
    #[serde(default)]
    pub ties: Option<TieRule>,
    /// Colours of even games (`colors`; the old spelling `colours` still
    /// reads).
    #[serde(default, alias = "colours")]
    pub colors: Option<ColorRule>,
    /// Points for a pairing bye.
    #[serde(default)]
    pub bye_points: Option<u8>,
    /// The seed of every draw (default: drawn now, and recorded).
    #[serde(default)]
    pub seed: Option<u64>,
    /// Board size (default 19).
    #[serde(default)]
    pub size: Option<u32>,
    /// A ruleset preset's name or a whole ruleset (default Chinese).
    #[serde(default)]
    pub ruleset: Option<serde_json::Value>,
    /// Komi of even games (default: the ruleset's).
    #[serde(default)]
    pub komi: Option<f64>,
    /// The time control as text or JSON (default: no clock).
    #[serde(default)]
    pub time_control: Option<serde_json::Value>,
    /// Art. 22.5's option.
    #[serde(default)]
    pub time_out: TimeOutRule,
    /// Whether the event's games change ratings (default true).
    #[serde(default)]
    pub rated: Option<bool>,
    /// Self-registration opens (ms since the epoch; default: at once).
    #[serde(default)]
    pub registration_opens: Option<i64>,
    /// Self-registration closes (ms; default: when round 1 is paired).
    #[serde(default)]
    pub registration_closes: Option<i64>,
    /// How late a player may sit down before losing by forfeit (ms).
    #[serde(default)]
    pub late_arrival_ms: Option<u64>,
    /// When each round is paired and started by itself (ms since the
    /// epoch, round 1 first); the organiser may start one earlier.
    #[serde(default)]
    pub round_times: Vec<i64>,
    /// Where (for exports).
    #[serde(default)]
    pub place: Option<String>,
    /// When (for exports).
    #[serde(default)]
    pub dates: Option<String>,
    /// A rank-certification event (段级位赛): `{"min_games": 5,
    /// "min_win_percent": 60, "opponents_from": "3k", "grades": 1,
    /// "highest": "7d"}`.
    #[serde(default)]
    pub certification: Option<Certification>,
}

/// An event's settings, checked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventConfig {
    /// The name.
    pub name: String,
    /// The tournament crate's settings (system, rounds, criteria, seed…).
    pub settings: Settings,
    /// The games' settings (handicap and colours come from the pairing).
    pub game: ChallengeSettings,
    /// Self-registration opens (ms).
    pub registration_opens: Option<i64>,
    /// Self-registration closes (ms).
    pub registration_closes: Option<i64>,
    /// The late-arrival limit (ms).
    pub late_arrival_ms: u64,
    /// When each round starts by itself (ms), round 1 first.
    #[serde(default)]
    pub round_times: Vec<i64>,
    /// Where.
    pub place: Option<String>,
    /// When.
    pub dates: Option<String>,
}

fn bad(code: ErrorCode, message: impl Into<String>) -> ApiError {
    ApiError::bad_request(code, message)
}

impl EventRequest {
    /// Checks the request; the seed is drawn here when not given.
    pub fn check(&self) -> Result<EventConfig, ApiError> {
        let name = crate::text::clean_line(&self.name)?;
        if name.is_empty() || name.chars().count() > MAX_NAME {
            return Err(bad(
                ErrorCode::BadName,
                format!("an event's name has 1 to {MAX_NAME} characters"),
            ));
        }
        let discipline = match &self.game {
            None => Discipline::Weiqi,
            Some(name) => name
                .parse()
                .map_err(|e: DisciplineError| bad(ErrorCode::BadSystem, e.to_string()))?,
        };
        let mut settings = Settings::for_discipline(discipline, self.system, self.teams);
        settings.rounds = self.rounds;
        if let Some(names) = &self.tie_breaks {
            settings.criteria = names
                .iter()
                .map(|n| n.parse::<Criterion>())
                .collect::<Result<_, _>>()
                .map_err(|e| bad(ErrorCode::BadTieBreaks, e.to_string()))?;
        }
        if let Some(ties) = self.ties {
            settings.ties = ties;
        }
        if let Some(colors) = self.colors {
            settings.colors = colors;
        }
        if let Some(points) = self.bye_points {
            if points > 2 {
                return Err(bad(
                    ErrorCode::BadByePoints,
                    "a bye scores 0, 1 or 2 points",
                ));
            }
            settings.bye_points = points;
        }
        if let Some(c) = self.certification {
            c.check()
                .map_err(|e| bad(ErrorCode::BadCertification, e.to_string()))?;
            settings.certification = Some(c);
        }
        settings.seed = self.seed.unwrap_or_else(|| fastrand::u64(..));
        Tournament::new(&name, settings.clone())
            .map_err(|e| bad(ErrorCode::BadSystem, e.to_string()))?;
        let game = ChallengeRequest {
            opponent: None,
            size: self.size.unwrap_or(19),
            ruleset: self.ruleset.clone(),
            komi: self.komi,
            handicap: HandicapRequest::None,
            color: ColorRequest::Black,
            time_control: self.time_control.clone(),
            time_out: self.time_out,
            rated: self.rated.unwrap_or(true),
            rengo: false,
            simul: None,
        }
        .check()?;
        let late_arrival_ms = self.late_arrival_ms.unwrap_or(DEFAULT_LATE_ARRIVAL_MS);
        if late_arrival_ms == 0 || late_arrival_ms > MAX_LATE_ARRIVAL_MS {
            return Err(bad(
                ErrorCode::BadLateArrival,
                "the late-arrival limit is 1 ms to 1 hour (Art. 22.1)",
            ));
        }
        if let (Some(opens), Some(closes)) = (self.registration_opens, self.registration_closes)
            && closes <= opens
        {
            return Err(bad(
                ErrorCode::BadRegistrationWindow,
                "registration must close after it opens",
            ));
        }
        if self.round_times.windows(2).any(|w| w[1] <= w[0]) {
            return Err(bad(
                ErrorCode::BadRoundTimes,
                "each round's time must follow the one before",
            ));
        }
        Ok(EventConfig {
            name,
            settings,
            game,
            registration_opens: self.registration_opens,
            registration_closes: self.registration_closes,
            late_arrival_ms,
            round_times: self.round_times.clone(),
            place: self
                .place
                .as_deref()
                .map(crate::text::clean_line)
                .transpose()?,
            dates: self
                .dates
                .as_deref()
                .map(crate::text::clean_line)
                .transpose()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(json: serde_json::Value) -> EventRequest {
        serde_json::from_value(json).expect("an event request")
    }

    /// The body the web client's form sends for a McMahon event.
    #[test]
    fn a_mcmahon_event_as_the_form_sends_it() {
        let config = request(serde_json::json!({
            "name": " Spring McMahon ",
            "system": {"kind": "mc_mahon", "bar": "1d", "floor": "20k",
                "handicap": {"basis": "mms", "correction": 0, "ceiling": 0}},
            "rounds": 4,
            "size": 9,
            "rated": false,
            "late_arrival_ms": 900_000,
            "tie_breaks": ["mms", "sos", "sosos"],
        }))
        .check()
        .expect("valid");
        assert_eq!(config.name, "Spring McMahon");
        assert!(matches!(config.settings.system, System::McMahon(_)));
        assert_eq!(
            config.settings.criteria,
            vec![Criterion::Mms, Criterion::Sos, Criterion::Sosos]
        );
        assert_eq!(config.game.size.get(), 9);
        assert!(!config.game.rated);
    }

    #[test]
    fn bad_settings_are_named() {
        let base = serde_json::json!({"name": "Cup", "system": {"kind": "swiss"}, "rounds": 3});
        let with = |key: &str, value: serde_json::Value| {
            let mut body = base.clone();
            body[key] = value;
            request(body).check().expect_err("refused").code
        };
        assert_eq!(with("name", "  ".into()), ErrorCode::BadName);
        assert_eq!(
            with("rounds", serde_json::Value::Null),
            ErrorCode::BadSystem
        );
        assert_eq!(
            with("tie_breaks", serde_json::json!(["sos2"])),
            ErrorCode::BadTieBreaks
        );
        assert_eq!(with("late_arrival_ms", 0.into()), ErrorCode::BadLateArrival);
        assert_eq!(
            with("late_arrival_ms", 3_600_001.into()),
            ErrorCode::BadLateArrival
        );
        assert_eq!(with("size", 0.into()), ErrorCode::BadSize);
        assert_eq!(with("bye_points", 3.into()), ErrorCode::BadByePoints);
        assert_eq!(
            with("time_control", "forever".into()),
            ErrorCode::BadTimeControl
        );
        assert_eq!(
            with("round_times", serde_json::json!([2000, 1000])),
            ErrorCode::BadRoundTimes
        );
        let mut window = base.clone();
        window["registration_opens"] = 2000.into();
        window["registration_closes"] = 1000.into();
        assert_eq!(
            request(window).check().expect_err("refused").code,
            ErrorCode::BadRegistrationWindow
        );
    }

    /// An old client's `colours` still reads, as `colors` does.
    #[test]
    fn an_event_request_in_the_old_spelling_still_reads() {
        for key in ["colors", "colours"] {
            let config = request(serde_json::json!({
                "name": "Cup", "system": {"kind": "swiss"}, "rounds": 3, key: "nigiri",
            }))
            .check()
            .expect("valid");
            assert_eq!(config.settings.colors, ColorRule::Nigiri, "{key}");
        }
    }

    /// An event stored before the one spelling (`colours` in its settings,
    /// `colour` in its games') still reads.
    #[test]
    fn a_stored_config_with_the_old_spelling_still_reads() {
        let config = request(serde_json::json!({
            "name": "Cup", "system": {"kind": "swiss"}, "rounds": 3, "colors": "nigiri",
        }))
        .check()
        .expect("valid");
        let mut json = serde_json::to_value(&config).expect("serialises");
        for (part, new, old) in [
            ("settings", "colors", "colours"),
            ("game", "color", "colour"),
        ] {
            let fields = json[part].as_object_mut().expect("an object");
            let value = fields.remove(new).expect("the new name");
            fields.insert(old.to_owned(), value);
        }
        let old: EventConfig = serde_json::from_value(json).expect("an old event's config");
        assert_eq!(old, config);
    }
}

//! Game information (the root's `SZ KM HA RU RE PB PW BR WR …`), read with
//! the repairs real files need and written back in standard form.

use serde::Serialize;
use shoutan_clock::TimeControl;
use shoutan_rules::{BoardSize, GameResult, Ruleset, Score};

use crate::komi::{KomiForm, read_komi};
use crate::result::read_result;
use crate::rules::{ru_value, ruleset_from_ru};
use crate::time::{read_time, write_time};
use crate::tree::Node;
use crate::warning::Warning;

/// One player's information.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Player {
    /// `PB`/`PW`.
    pub name: Option<String>,
    /// `BR`/`WR` as written (`9p`, `9段`, `5k`).
    pub rank: Option<String>,
    /// `BT`/`WT`.
    pub team: Option<String>,
}

/// The game information of a record, interpreted.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameInfo {
    /// `SZ` (19 when absent).
    pub size: BoardSize,
    /// Black.
    pub black: Player,
    /// White.
    pub white: Player,
    /// The ruleset `RU` names (repaired for Fox; Chinese when absent or unknown).
    pub ruleset: Ruleset,
    /// `RU` as written.
    pub rules_written: Option<String>,
    /// The komi in points (repaired); `None` when the record gives none (or
    /// a `KM[0]` that stands for an unknown komi) and the ruleset's applies.
    pub komi: Option<Score>,
    /// `HA` (0 when absent).
    pub handicap: u8,
    /// `RE`, read; `None` when unknown (`?`, empty, absent or unreadable).
    pub result: Option<GameResult>,
    /// `RE` as written.
    pub result_written: Option<String>,
    /// `DT`.
    pub date: Option<String>,
    /// `EV`.
    pub event: Option<String>,
    /// `RO`.
    pub round: Option<String>,
    /// `PC`.
    pub place: Option<String>,
    /// `GN`.
    pub name: Option<String>,
    /// `SO`.
    pub source: Option<String>,
    /// `US`.
    pub user: Option<String>,
    /// `AN`.
    pub annotator: Option<String>,
    /// `CP`.
    pub copyright: Option<String>,
    /// `GC`: a comment on the game.
    pub comment: Option<String>,
    /// `AP`: the program that wrote the record (`name:version`).
    pub application: Option<String>,
    /// The time control (`TM`, `OT`, or the servers' `TC`/`TT`, `LC`/`LT`);
    /// `None` when the record gives none.
    pub time: Option<TimeControl>,
}

/// Game information that makes the record no weiqi game Shoutan can read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InfoError {
    /// `GM` other than 1.
    #[error("GM[{0}] is not weiqi (GM[1])")]
    NotGo(String),
    /// `SZ` unreadable, not square, or outside 2–25.
    #[error("SZ[{0}] is not a supported board size (square, 2 to 25)")]
    Size(String),
}

/// Text properties of the root, read as `SimpleText`, and where they live.
const TEXTS: [&str; 13] = [
    "PB", "BR", "BT", "PW", "WR", "WT", "DT", "EV", "RO", "PC", "GN", "SO", "US",
];

impl GameInfo {
    /// Information for a game on a `size` board under the default ruleset,
    /// everything else unknown.
    #[must_use]
    pub fn new(size: BoardSize) -> GameInfo {
        GameInfo {
            size,
            black: Player::default(),
            white: Player::default(),
            ruleset: Ruleset::default(),
            rules_written: None,
            komi: None,
            handicap: 0,
            result: None,
            result_written: None,
            date: None,
            event: None,
            round: None,
            place: None,
            name: None,
            source: None,
            user: None,
            annotator: None,
            copyright: None,
            comment: None,
            application: None,
            time: None,
        }
    }

    /// Reads the game information of a root node, with warnings for what
    /// was repaired.
    ///
    /// ```
    /// use shoutan_rules::Ruleset;
    /// use shoutan_sgf::{GameInfo, parse};
    /// let (c, _) = parse("(;GM[1]SZ[19]PB[CGI]PW[天地皆醉]KM[750]RU[Japanese]RE[W+R])").unwrap();
    /// let (info, warnings) = GameInfo::read(c.games[0].root()).unwrap();
    /// assert_eq!(info.komi.unwrap().to_string(), "7.5");
    /// assert_eq!(info.ruleset, Ruleset::CHINESE_SIMPLE_KO); // what Fox plays
    /// assert_eq!(info.white.name.as_deref(), Some("天地皆醉"));
    /// assert_eq!(warnings.len(), 2); // the komi and the rules
    /// ```
    pub fn read(root: &Node) -> Result<(GameInfo, Vec<Warning>), InfoError> {
        let mut warnings = Vec::new();
        if let Some(gm) = root.simple_text("GM")
            && gm != "1"
        {
            return Err(InfoError::NotGo(gm));
        }
        let size = match root.simple_text("SZ") {
            None => BoardSize::NINETEEN,
            Some(text) => read_size(&text).ok_or(InfoError::Size(text))?,
        };
        let mut info = GameInfo::new(size);
        let [pb, br, bt, pw, wr, wt, dt, ev, ro, pc, gn, so, us] =
            TEXTS.map(|id| root.simple_text(id));
        info.black = Player {
            name: pb,
            rank: br,
            team: bt,
        };
        info.white = Player {
            name: pw,
            rank: wr,
            team: wt,
        };
        (info.date, info.event, info.round, info.place) = (dt, ev, ro, pc);
        (info.name, info.source, info.user) = (gn, so, us);
        info.annotator = root.simple_text("AN");
        info.copyright = root.simple_text("CP");
        info.comment = root.text("GC");
        info.application = root.simple_text("AP");
        info.handicap = match root.simple_text("HA") {
            None => 0,
            Some(text) => text.parse().unwrap_or_else(|_| {
                warnings.push(Warning::UnreadableHandicap {
                    written: text.clone(),
                });
                0
            }),
        };

        let komi = read_komi_property(root, &mut warnings);
        info.rules_written = root.value("RU").map(|v| v.simple_text());
        info.ruleset = match info.rules_written.as_deref() {
            None => Ruleset::default(),
            Some(written) => match ruleset_from_ru(written) {
                Some(rules) => {
                    let fox = komi.is_some_and(|(k, form)| {
                        form == KomiForm::FoxHundredths && k == Score::from_half_points(15)
                    });
                    if fox && rules == Ruleset::JAPANESE {
                        let fox_rules = Ruleset::CHINESE_SIMPLE_KO;
                        warnings.push(Warning::FoxChineseRules {
                            written: written.to_owned(),
                            rules: fox_rules.to_string(),
                        });
                        fox_rules
                    } else {
                        rules
                    }
                }
                None => {
                    let rules = Ruleset::default();
                    warnings.push(Warning::UnknownRules {
                        written: written.to_owned(),
                        rules: rules.to_string(),
                    });
                    rules
                }
            },
        };

        info.result_written = root.value("RE").map(|v| v.simple_text());
        if let Some(written) = &info.result_written {
            let (result, warning) = read_result(written, &info.ruleset);
            info.result = result;
            warnings.extend(warning);
        }

        info.komi = komi.map(|(k, _)| k);
        if let Some((k, KomiForm::Points)) = komi
            && k == Score::ZERO
            && info.handicap == 0
        {
            let needs_komi = info.result.and_then(|r| match r {
                GameResult::Win {
                    by: shoutan_rules::WinBy::Score { margin, .. },
                    ..
                } if margin.half_points() % 2 != 0 => Some(r.international()),
                _ => None,
            });
            if needs_komi.is_some() || root.simple_text("HA").is_some() {
                warnings.push(Warning::ZeroKomi {
                    komi: info.ruleset.komi,
                    result: needs_komi,
                });
                info.komi = None;
            }
        }

        let (time, time_warnings) = read_time(root);
        info.time = time;
        warnings.extend(time_warnings);
        Ok((info, warnings))
    }

    /// The komi of the game: the record's, or the ruleset's for its handicap.
    #[must_use]
    pub fn komi_or_default(&self) -> Score {
        self.komi
            .unwrap_or_else(|| self.ruleset.komi_for(self.handicap))
    }

    /// Writes the information into a root node: `GM FF CA AP SZ`, the players,
    /// `KM HA RU RE`, the texts and the time settings that are known.
    pub fn write(&self, root: &mut Node) {
        root.set_text("GM", "1");
        root.set_text("FF", "4");
        root.set_text("CA", "UTF-8");
        if let Some(application) = &self.application {
            root.set_text("AP", application);
        }
        root.set_text("SZ", &self.size.get().to_string());
        let texts = [
            ("PB", &self.black.name),
            ("BR", &self.black.rank),
            ("BT", &self.black.team),
            ("PW", &self.white.name),
            ("WR", &self.white.rank),
            ("WT", &self.white.team),
            ("DT", &self.date),
            ("EV", &self.event),
            ("RO", &self.round),
            ("PC", &self.place),
            ("GN", &self.name),
            ("SO", &self.source),
            ("US", &self.user),
            ("AN", &self.annotator),
            ("CP", &self.copyright),
        ];
        for (id, value) in texts {
            if let Some(text) = value {
                root.set_text(id, text);
            }
        }
        root.set_text("KM", &komi_text(self.komi_or_default()));
        if self.handicap >= 2 {
            root.set_text("HA", &self.handicap.to_string());
        }
        root.set_text("RU", &ru_value(&self.ruleset));
        if let Some(result) = &self.result {
            root.set_text("RE", &result.international());
        }
        if let Some(comment) = &self.comment {
            root.set_text("GC", comment);
        }
        if let Some(control) = &self.time {
            write_time(control, root);
        }
    }
}

/// The komi in points; a whole number of 100 or more gets a `.0`, so that
/// it is not read back as Fox's hundredths.
pub(crate) fn komi_text(komi: Score) -> String {
    let text = komi.to_string();
    if komi.half_points().abs() >= 200 && !text.contains('.') {
        format!("{text}.0")
    } else {
        text
    }
}

/// `SZ[19]`, or `SZ[19:19]` (square only).
fn read_size(text: &str) -> Option<BoardSize> {
    let (cols, rows) = text.split_once(':').unwrap_or((text, text));
    let (cols, rows) = (
        cols.trim().parse::<u32>().ok()?,
        rows.trim().parse::<u32>().ok()?,
    );
    (cols == rows).then(|| BoardSize::new(cols).ok()).flatten()
}

/// `KM` in its forms, or a root `KO` used as komi (Tom/Sina files).
fn read_komi_property(root: &Node, warnings: &mut Vec<Warning>) -> Option<(Score, KomiForm)> {
    let from_ko = root.simple_text("KM").is_none();
    let id = if from_ko { "KO" } else { "KM" };
    let written = root.simple_text(id)?;
    let Some((komi, form)) = read_komi(&written) else {
        if !from_ko {
            warnings.push(Warning::UnreadableKomi { written });
        }
        return None;
    };
    warnings.extend(match (from_ko, form) {
        (true, _) => Some(Warning::KomiFromKo { written, komi }),
        (false, KomiForm::FoxHundredths) => Some(Warning::FoxKomi { written, komi }),
        (false, KomiForm::Zi) => Some(Warning::KomiInZi { written, komi }),
        (false, KomiForm::Points) => None,
    });
    Some((komi, form))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    fn info(root: &str) -> (GameInfo, Vec<Warning>) {
        let (c, _) = parse(&format!("(;{root})")).unwrap();
        GameInfo::read(c.games[0].root()).unwrap()
    }

    #[test]
    fn defaults_when_the_record_says_nothing() {
        let (i, w) = info("GM[1]");
        assert!(w.is_empty());
        assert_eq!(i.size, BoardSize::NINETEEN);
        assert_eq!(i.ruleset, Ruleset::CHINESE);
        assert_eq!(i.komi, None);
        assert_eq!(i.komi_or_default().to_string(), "7.5");
        assert_eq!(i.result, None);
    }

    #[test]
    fn sizes() {
        assert_eq!(info("SZ[9]").0.size, BoardSize::NINE);
        assert_eq!(info("SZ[13:13]").0.size, BoardSize::THIRTEEN);
        let (c, _) = parse("(;SZ[19:13])(;SZ[27])(;SZ[x])(;GM[2])").unwrap();
        let errors: Vec<String> = c
            .games
            .iter()
            .map(|g| GameInfo::read(g.root()).unwrap_err().to_string())
            .collect();
        assert_eq!(
            errors,
            [
                "SZ[19:13] is not a supported board size (square, 2 to 25)",
                "SZ[27] is not a supported board size (square, 2 to 25)",
                "SZ[x] is not a supported board size (square, 2 to 25)",
                "GM[2] is not weiqi (GM[1])"
            ]
        );
    }

    #[test]
    fn fox_komi_in_hundredths_and_its_chinese_rules() {
        // docs/spec/formats.md: Fox writes KM[375] (3.75 子) or KM[750] (7.5 points)
        // and labels games counted under Chinese rules RU[Japanese].
        for km in ["375", "750"] {
            let (i, w) = info(&format!("KM[{km}]RU[Japanese]"));
            assert_eq!(i.komi, Some(Score::from_half_points(15)), "{km}");
            assert_eq!(i.ruleset, Ruleset::CHINESE_SIMPLE_KO);
            assert!(matches!(w[0], Warning::FoxKomi { .. }));
            assert!(matches!(w[1], Warning::FoxChineseRules { .. }));
        }
        // 6.5 in hundredths is a Japanese game: the label stays.
        let (i, w) = info("KM[650]RU[Japanese]");
        assert_eq!(i.ruleset, Ruleset::JAPANESE);
        assert_eq!(w.len(), 1);
        // Written in points, RU[Japanese] is believed.
        assert_eq!(info("KM[7.5]RU[Japanese]").0.ruleset, Ruleset::JAPANESE);
    }

    #[test]
    fn large_komi_is_not_written_as_fox_hundredths() {
        for text in ["KM[250]", "KM[100.0]", "KM[-150.5]"] {
            let (i, _) = info(text);
            let mut root = Node::new();
            i.write(&mut root);
            assert_eq!(GameInfo::read(&root).unwrap().0.komi, i.komi, "{text}");
        }
    }

    #[test]
    fn komi_in_zi_and_from_ko() {
        let (i, w) = info("KM[3.75]");
        assert_eq!(i.komi.unwrap().to_string(), "7.5");
        assert!(matches!(w[..], [Warning::KomiInZi { .. }]));
        let (i, w) = info("KO[7.5]RU[Chinese]");
        assert_eq!(i.komi.unwrap().to_string(), "7.5");
        assert!(matches!(w[..], [Warning::KomiFromKo { .. }]));
        let (i, w) = info("KM[lots]");
        assert_eq!(i.komi, None);
        assert!(matches!(w[..], [Warning::UnreadableKomi { .. }]));
    }

    #[test]
    fn zero_komi_in_even_games() {
        // docs/spec/formats.md: Tygem-derived files often say KM[0] for games played with komi.
        let (i, w) = info("KM[0]HA[0]RU[Chinese]RE[B+R]");
        assert_eq!(i.komi, None);
        assert_eq!(i.komi_or_default(), Score::from_half_points(15));
        assert!(matches!(w[..], [Warning::ZeroKomi { result: None, .. }]));
        // Checked on the fuheyuqi records of tests/data/sgf: counted under
        // Japanese rules with komi 6.5, their results agree with RE.
        let (i, w) = info("KM[0]RU[Japanese]RE[W+12.5]");
        assert_eq!(i.komi_or_default(), Score::from_half_points(13));
        assert!(matches!(&w[..], [Warning::ZeroKomi { result: Some(r), .. }] if r == "W+12.5"));
        // No evidence: a game without komi stays one (old records).
        let (i, w) = info("KM[0]RE[B+3]");
        assert_eq!(i.komi, Some(Score::ZERO));
        assert!(w.is_empty());
        // A handicap game without komi is ordinary.
        let (i, w) = info("KM[0]HA[3]RE[B+3.0]");
        assert_eq!(i.komi, Some(Score::ZERO));
        assert!(w.is_empty());
    }

    #[test]
    fn unknown_rules_fall_back_to_chinese() {
        let (i, w) = info("RU[house]");
        assert_eq!(i.ruleset, Ruleset::CHINESE);
        assert!(matches!(&w[..], [Warning::UnknownRules { written, .. }] if written == "house"));
        let (i, w) = info("RU[]");
        assert_eq!(i.ruleset, Ruleset::CHINESE);
        assert_eq!(w.len(), 1);
    }

    #[test]
    fn written_information_reads_back() {
        let (i, _) = info(
            "GM[1]SZ[13]PB[Ke Jie]BR[9p]PW[古力]WR[9p]KM[6.5]HA[2]RU[Japanese]RE[W+R]DT[2024-01-02]EV[Cup]RO[3]GC[two\nlines]",
        );
        let mut root = Node::new();
        i.write(&mut root);
        assert_eq!(GameInfo::read(&root).unwrap().0, i);
    }
}

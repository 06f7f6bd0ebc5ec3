//! Game records in SGF (`FF[4]`, `GM[1]`): a tolerant reader for the files
//! players really have (Fox, Tygem, YuanYu, OGS, KGS, Sabaki, tournament
//! servers), a clean writer, and conversion to and from the games of
//! `shoutan-rules`.
//!
//! Three layers:
//! - **bytes → text**: [`decode`] finds the encoding (UTF-8, GB2312/GBK,
//!   Big5, EUC-KR, Shift_JIS, declared or not);
//! - **text ↔ tree**: [`parse`] and [`Collection::to_sgf`] keep every
//!   property, known or not, so that read → write → read loses nothing;
//! - **tree ↔ game**: [`GameInfo::read`] interprets the root (with the
//!   servers' quirks repaired), [`replay`] plays the main line under the
//!   rules, [`record`] writes a [`shoutan_rules::Game`] as a record.
//!
//! Every repair is reported as a [`Warning`]; what cannot be read is an
//! error saying where (line and column) or which move.
//!
//! # Read a file and replay it
//! ```
//! use shoutan_sgf::{read, replay, ReplayOptions};
//! let bytes = b"(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[Black]PW[White]RE[B+R]
//!              ;B[ee];W[gc];B[cg];W[dc])";
//! let file = read(bytes).unwrap();
//! let game = &file.collection.games[0];
//! let replayed = replay(game, ReplayOptions::default()).unwrap();
//! assert_eq!(replayed.moves, 4);
//! assert_eq!(replayed.info.result.unwrap().chinese(), "黑中盘胜");
//! println!("{}", replayed.game.board());
//! ```
//!
//! # Repairs are warnings
//! ```
//! use shoutan_sgf::{read, replay, ReplayOptions, Warning};
//! // A Fox record: komi in hundredths, Chinese counting labelled Japanese,
//! // a result that says only who won.
//! let file = read(b"(;SZ[19]KM[750]RU[Japanese]RE[W+0.0];B[pd];W[dd])").unwrap();
//! let r = replay(&file.collection.games[0], ReplayOptions::default()).unwrap();
//! assert_eq!(r.game.komi().to_string(), "7.5");
//! assert!(matches!(r.warnings[0], Warning::FoxKomi { .. }));
//! assert_eq!(r.warnings.len(), 3);
//! ```
//!
//! # Write a game
//! ```
//! use shoutan_rules::{BoardSize, Color, Game, Point, Ruleset};
//! use shoutan_sgf::{record, GameInfo};
//! let mut game = Game::new(BoardSize::NINE, Ruleset::JAPANESE);
//! game.play(Color::Black, Point::from_gtp("C3", BoardSize::NINE).unwrap()).unwrap();
//! let text = record(&game, &GameInfo::new(BoardSize::NINE)).to_sgf();
//! assert!(text.contains("RU[Japanese]") && text.contains("KM[6.5]") && text.contains(";B[cg]"));
//! ```

mod encoding;
mod info;
mod komi;
mod markup;
mod normalize;
mod parse;
mod points;
mod record;
mod replay;
mod result;
mod rules;
mod score;
mod text;
mod time;
mod tree;
mod warning;
mod write;

pub use encoding::{Decoded, decode};
pub use info::{GameInfo, InfoError, Player};
pub use markup::{Markup, MoveAnnotation, dead_stones_from_markup};
pub use normalize::normalize;
pub use parse::{ParseError, ParseErrorKind, Position, parse};
pub use points::{PointValueError, move_value, point_values, read_move, read_points};
pub use record::record;
pub use replay::{Replay, ReplayError, ReplayOptions, replay};
pub use result::read_result;
pub use rules::{ru_value, ruleset_from_ru};
pub use score::{
    Agreement, DeadStones, DeadStonesError, ResultText, ScoreError, ScoreReport, SideReport, score,
};
pub use tree::{Collection, GameTree, IdentifierError, Node, NodeId, Property, Value};
pub use warning::{ResultQuirk, Warning};

/// A file read: its games, the encoding it was in, and what was repaired.
#[derive(Clone, Debug)]
pub struct SgfFile {
    /// The games.
    pub collection: Collection,
    /// The encoding the bytes were in (`UTF-8`, `GBK`, `Big5`…).
    pub encoding: &'static str,
    /// Repairs made while decoding and parsing.
    pub warnings: Vec<Warning>,
}

/// Reads an SGF file from its bytes: decodes, parses. The text is Unicode
/// from then on, so every `CA` naming another charset (in the root, where
/// it belongs, or misplaced in another node) is set to `UTF-8`.
pub fn read(bytes: &[u8]) -> Result<SgfFile, ParseError> {
    let decoded = decode(bytes);
    let (mut collection, parse_warnings) = parse(&decoded.text)?;
    for game in &mut collection.games {
        for i in 0..game.len() {
            let node = game.node_mut(NodeId::from_index(i));
            if node.value("CA").is_some_and(|ca| ca.raw() != "UTF-8") {
                node.set(Property::checked(
                    "CA".to_owned(),
                    vec![Value::from_text("UTF-8")],
                ));
            }
        }
    }
    let mut warnings = decoded.warnings;
    warnings.extend(parse_warnings);
    Ok(SgfFile {
        collection,
        encoding: decoded.encoding.name(),
        warnings,
    })
}

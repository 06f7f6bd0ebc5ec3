//! GTP, the Go Text Protocol (version 2), with the KGS and Leela Zero
//! extensions interfaces use: the command parser ([`parse_line`], pure),
//! the session that answers commands ([`Session`]), and the live-analysis
//! format Sabaki reads ([`info_line`]).

mod command;
mod lz;
mod session;

pub use command::{
    AnalyzeArgs, COMMANDS, Command, Line, ParseError, Status, Symmetries, Vertex, parse_line,
};
pub use lz::{info_line, kata_info_line};
pub use session::{Response, Session, SessionOptions, Strength};

//! The network built into the binary, so that `shoutan serve` and
//! `shoutan gtp` think with a network on a machine where nothing was
//! downloaded: KataGo's g170 b6c96 (the final 6-block, 96-channel network
//! of KataGo's g170 self-play run, January 2020; MIT license, see
//! `models/LICENSE-KataGo-MIT` and NOTICE), 3.8 MB.

use std::path::Path;

use crate::Network;
use crate::model::{Model, ModelError};

/// The shipped model file, as KataGo distributes it.
pub const BUILTIN_MODEL: &[u8] = include_bytes!("../models/g170-b6c96-s175395328-d26788732.bin.gz");

impl Network {
    /// The built-in network.
    #[must_use]
    pub fn builtin() -> Network {
        // The shipped file is read by a test; it cannot fail here.
        let model = Model::from_bytes(BUILTIN_MODEL).expect("the built-in network reads");
        Network::new(&model)
    }

    /// The network in a KataGo model file (`.bin.gz` or `.txt.gz`), or why
    /// it cannot be used.
    pub fn load(path: impl AsRef<Path>) -> Result<Network, ModelError> {
        Model::load(path).map(|model| Network::new(&model))
    }
}

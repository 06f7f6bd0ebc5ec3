//! `--model FILE`: the KataGo network a command thinks with — the one
//! built into the binary (KataGo's g170 b6c96) unless another file is
//! given, e.g. a larger network an operator has.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use shoutan_nn::Network;

/// The network in `file`, or the built-in one; a file that is not a
/// KataGo network of a version Shoutan reads is refused with the reason.
pub fn network(file: Option<&Path>) -> anyhow::Result<Arc<Network>> {
    match file {
        None => Ok(shoutan_engine::builtin_network()),
        Some(path) => {
            let network = Network::load(path)
                .with_context(|| format!("cannot use {} as the network", path.display()))?;
            tracing::info!(
                "network {} (KataGo model version {}) from {}",
                network.name(),
                network.version(),
                path.display()
            );
            Ok(Arc::new(network))
        }
    }
}

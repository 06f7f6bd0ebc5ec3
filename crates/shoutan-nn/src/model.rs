//! KataGo's model file, read into a description of the network's layers.
//!
//! The file is a stream of whitespace-separated tokens (names, sizes, flags)
//! with each layer's weights after its header: either as text floats (the
//! `.txt.gz` KataGo's training writes) or as a binary block `@BIN@` followed
//! by the floats in little-endian IEEE 754 (the `.bin.gz` it distributes).
//! Both are read, gzip-compressed or not; which float format a block uses is
//! seen from the block itself, so no file name is needed.
//!
//! Only model versions 8 to 11 are read: they share one layer structure (a
//! convolutional trunk of ordinary and global-pooling residual blocks with
//! batch normalisation, then a policy head and a value head), and the
//! networks of KataGo's g170 run that Shoutan ships are version 8. Later
//! versions add an optimistic policy, scaled outputs, a metadata encoder,
//! RMS normalisation and transformer blocks, which [`crate::Network`] does
//! not compute; a file of such a version is refused rather than misread.
//!
//! Nothing here panics on a malformed file: every size is checked against
//! what is left of the file before anything is allocated, and every error
//! names the layer where reading stopped.

use std::io::Read;
use std::path::{Path, PathBuf};

/// The oldest model version read.
pub const OLDEST_VERSION: u32 = 8;
/// The newest model version read.
pub const NEWEST_VERSION: u32 = 11;

/// Why a model file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// The file ended inside a layer.
    #[error("model file is truncated: it ends in {layer}, before its {what}")]
    Truncated {
        /// The layer being read (its name in the file, or the section).
        layer: String,
        /// What was expected next.
        what: &'static str,
    },
    /// A header field or a float block could not be read as what it must be.
    #[error("model file is corrupt in {layer}: {what}")]
    Corrupt {
        /// The layer being read.
        layer: String,
        /// What was wrong.
        what: String,
    },
    /// A weight is NaN or infinite.
    #[error("model file has a non-finite weight in {layer}")]
    NonFiniteWeight {
        /// The layer holding it.
        layer: String,
    },
    /// Two layers disagree on a number of channels, or a layer's size is not
    /// one the network can have.
    #[error("model file has inconsistent shapes in {layer}: {what}")]
    Shape {
        /// The layer where the disagreement was found.
        layer: String,
        /// Which sizes disagree.
        what: String,
    },
    /// A model version other than those read.
    #[error(
        "model version {0} is not supported: Shoutan reads KataGo model versions {OLDEST_VERSION} to {NEWEST_VERSION}"
    )]
    UnsupportedVersion(i64),
    /// A layer kind or option of a readable version that the network does
    /// not compute.
    #[error("model file uses {what} in {layer}, which Shoutan does not support")]
    Unsupported {
        /// The layer where it was found.
        layer: String,
        /// What it is.
        what: String,
    },
    /// The file starts as gzip but does not decompress.
    #[error("model file is not valid gzip: {0}")]
    Gzip(#[source] std::io::Error),
    /// The file could not be read from disk.
    #[error("cannot read model file {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

/// An activation function, as model version 11 names them (older versions
/// only have ReLU).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// `x`.
    Identity,
    /// `max(x, 0)`.
    Relu,
    /// `x · tanh(softplus(x))`.
    Mish,
    /// `x · sigmoid(x)`.
    Silu,
}

/// A convolution.
#[derive(Clone, Debug, PartialEq)]
pub struct Conv {
    /// The layer's name in the file.
    pub name: String,
    /// Kernel height (odd).
    pub kernel_height: usize,
    /// Kernel width (odd).
    pub kernel_width: usize,
    /// Input channels.
    pub in_channels: usize,
    /// Output channels.
    pub out_channels: usize,
    /// Weights in the file's order: kernel row, kernel column, input
    /// channel, output channel (the last varying fastest).
    pub weights: Vec<f32>,
}

/// A batch normalisation layer, with its statistics as trained.
#[derive(Clone, Debug, PartialEq)]
pub struct BatchNorm {
    /// The layer's name in the file.
    pub name: String,
    /// Channels.
    pub channels: usize,
    /// Added to the variance before its square root.
    pub epsilon: f32,
    /// Running mean per channel.
    pub mean: Vec<f32>,
    /// Running variance per channel.
    pub variance: Vec<f32>,
    /// Learned scale (γ) per channel, if the layer has one (else 1).
    pub scale: Option<Vec<f32>>,
    /// Learned bias (β) per channel, if the layer has one (else 0).
    pub bias: Option<Vec<f32>>,
}

impl BatchNorm {
    /// The per-channel `(scale, bias)` such that the layer computes
    /// `x · scale + bias`: what inference needs of it.
    pub fn merged(&self) -> (Vec<f32>, Vec<f32>) {
        (0..self.channels)
            .map(|c| {
                let gamma = self.scale.as_ref().map_or(1.0, |s| s[c]);
                let beta = self.bias.as_ref().map_or(0.0, |b| b[c]);
                let scale = gamma / (self.variance[c] + self.epsilon).sqrt();
                (scale, beta - scale * self.mean[c])
            })
            .unzip()
    }

    /// Learned parameters: γ and β where present (mean and variance are
    /// statistics, not parameters, as KataGo counts).
    fn parameter_count(&self) -> usize {
        self.scale.as_ref().map_or(0, Vec::len) + self.bias.as_ref().map_or(0, Vec::len)
    }
}

/// A fully connected layer without bias.
#[derive(Clone, Debug, PartialEq)]
pub struct MatMul {
    /// The layer's name in the file.
    pub name: String,
    /// Inputs.
    pub in_channels: usize,
    /// Outputs.
    pub out_channels: usize,
    /// Weights, input by input: `weights[i * out_channels + o]`.
    pub weights: Vec<f32>,
}

/// A bias added to a vector.
#[derive(Clone, Debug, PartialEq)]
pub struct MatBias {
    /// The layer's name in the file.
    pub name: String,
    /// One bias per channel.
    pub weights: Vec<f32>,
}

/// A residual block: normalise, activate, convolve, twice, and add to the
/// trunk.
#[derive(Clone, Debug, PartialEq)]
pub struct OrdinaryBlock {
    /// The block's name in the file.
    pub name: String,
    /// Normalisation of the trunk.
    pub pre_norm: BatchNorm,
    /// Activation after it.
    pub pre_activation: Activation,
    /// Trunk to mid channels.
    pub first_conv: Conv,
    /// Normalisation of the mid channels.
    pub mid_norm: BatchNorm,
    /// Activation after it.
    pub mid_activation: Activation,
    /// Mid channels back to the trunk.
    pub final_conv: Conv,
}

/// A residual block whose mid channels get a bias computed from global
/// pooling of a second convolution of the block's input.
#[derive(Clone, Debug, PartialEq)]
pub struct GlobalPoolingBlock {
    /// The block's name in the file.
    pub name: String,
    /// Normalisation of the trunk.
    pub pre_norm: BatchNorm,
    /// Activation after it.
    pub pre_activation: Activation,
    /// Trunk to the regular (mid) channels.
    pub regular_conv: Conv,
    /// Trunk to the pooled channels.
    pub gpool_conv: Conv,
    /// Normalisation of the pooled channels.
    pub gpool_norm: BatchNorm,
    /// Activation after it.
    pub gpool_activation: Activation,
    /// The pooled values (3 per pooled channel) to a bias of the regular
    /// channels.
    pub gpool_to_bias: MatMul,
    /// Normalisation of the regular channels.
    pub mid_norm: BatchNorm,
    /// Activation after it.
    pub mid_activation: Activation,
    /// Regular channels back to the trunk.
    pub final_conv: Conv,
}

/// A block of the trunk.
#[derive(Clone, Debug, PartialEq)]
#[expect(
    clippy::large_enum_variant,
    reason = "a network has a few dozen blocks, read once: boxing would only add indirection"
)]
pub enum Block {
    /// `ordinary_block`.
    Ordinary(OrdinaryBlock),
    /// `gpool_block`.
    GlobalPooling(GlobalPoolingBlock),
}

/// The trunk: the input layers, the residual blocks, the final
/// normalisation.
#[derive(Clone, Debug, PartialEq)]
pub struct Trunk {
    /// The trunk's name in the file.
    pub name: String,
    /// Channels of the trunk.
    pub channels: usize,
    /// Mid channels of the ordinary blocks, as the header declares them.
    pub mid_channels: usize,
    /// Regular channels of the global-pooling blocks, as declared.
    pub regular_channels: usize,
    /// Pooled channels of the global-pooling blocks, as declared.
    pub gpool_channels: usize,
    /// Spatial inputs to the trunk.
    pub initial_conv: Conv,
    /// Global inputs to a bias of the trunk.
    pub initial_matmul: MatMul,
    /// The residual blocks, in order.
    pub blocks: Vec<Block>,
    /// Normalisation of the trunk's output.
    pub tip_norm: BatchNorm,
    /// Activation after it.
    pub tip_activation: Activation,
}

/// The policy head: move logits per point and the pass logit.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyHead {
    /// The head's name in the file.
    pub name: String,
    /// Trunk to the policy channels.
    pub p1_conv: Conv,
    /// Trunk to the pooled channels.
    pub g1_conv: Conv,
    /// Normalisation of the pooled channels.
    pub g1_norm: BatchNorm,
    /// Activation after it.
    pub g1_activation: Activation,
    /// Pooled values to a bias of the policy channels.
    pub gpool_to_bias: MatMul,
    /// Normalisation of the policy channels.
    pub p1_norm: BatchNorm,
    /// Activation after it.
    pub p1_activation: Activation,
    /// Policy channels to the move logits.
    pub p2_conv: Conv,
    /// Pooled values to the pass logit.
    pub gpool_to_pass: MatMul,
}

/// The value head: game outcome, score and ownership.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueHead {
    /// The head's name in the file.
    pub name: String,
    /// Trunk to the value channels.
    pub v1_conv: Conv,
    /// Their normalisation.
    pub v1_norm: BatchNorm,
    /// Activation after it.
    pub v1_activation: Activation,
    /// Pooled value channels to the hidden layer.
    pub v2_mul: MatMul,
    /// Its bias.
    pub v2_bias: MatBias,
    /// Its activation.
    pub v2_activation: Activation,
    /// Hidden layer to win, loss and no-result logits.
    pub v3_mul: MatMul,
    /// Their bias.
    pub v3_bias: MatBias,
    /// Hidden layer to the score outputs.
    pub sv3_mul: MatMul,
    /// Their bias.
    pub sv3_bias: MatBias,
    /// Value channels to the ownership per point.
    pub ownership_conv: Conv,
}

/// A KataGo network as its model file describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The network's name.
    pub name: String,
    /// The model version (8 to 11).
    pub version: u32,
    /// Spatial input planes.
    pub spatial_inputs: usize,
    /// Global inputs.
    pub global_inputs: usize,
    /// The trunk.
    pub trunk: Trunk,
    /// The policy head.
    pub policy_head: PolicyHead,
    /// The value head.
    pub value_head: ValueHead,
}

impl Model {
    /// Reads a model from the bytes of its file, gzip-compressed or not.
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, ModelError> {
        const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
        if bytes.starts_with(&GZIP_MAGIC) {
            let mut text = Vec::new();
            flate2::read::MultiGzDecoder::new(bytes)
                .read_to_end(&mut text)
                .map_err(ModelError::Gzip)?;
            parse(&text)
        } else {
            parse(bytes)
        }
    }

    /// Reads a model from its file.
    pub fn load(path: impl AsRef<Path>) -> Result<Model, ModelError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|source| ModelError::Io {
            path: path.to_owned(),
            source,
        })?;
        Model::from_bytes(&bytes)
    }

    /// Learned parameters, counted as KataGo counts them (the number it
    /// prints when it loads a network): every weight of convolutions and
    /// fully connected layers, every bias, and the γ and β of batch
    /// normalisations, but not their running statistics.
    pub fn parameter_count(&self) -> usize {
        let trunk = &self.trunk;
        let blocks: usize = trunk
            .blocks
            .iter()
            .map(|block| match block {
                Block::Ordinary(b) => {
                    b.pre_norm.parameter_count()
                        + b.first_conv.weights.len()
                        + b.mid_norm.parameter_count()
                        + b.final_conv.weights.len()
                }
                Block::GlobalPooling(b) => {
                    b.pre_norm.parameter_count()
                        + b.regular_conv.weights.len()
                        + b.gpool_conv.weights.len()
                        + b.gpool_norm.parameter_count()
                        + b.gpool_to_bias.weights.len()
                        + b.mid_norm.parameter_count()
                        + b.final_conv.weights.len()
                }
            })
            .sum();
        let policy = &self.policy_head;
        let value = &self.value_head;
        trunk.initial_conv.weights.len()
            + trunk.initial_matmul.weights.len()
            + blocks
            + trunk.tip_norm.parameter_count()
            + policy.p1_conv.weights.len()
            + policy.g1_conv.weights.len()
            + policy.g1_norm.parameter_count()
            + policy.gpool_to_bias.weights.len()
            + policy.p1_norm.parameter_count()
            + policy.p2_conv.weights.len()
            + policy.gpool_to_pass.weights.len()
            + value.v1_conv.weights.len()
            + value.v1_norm.parameter_count()
            + value.v2_mul.weights.len()
            + value.v2_bias.weights.len()
            + value.v3_mul.weights.len()
            + value.v3_bias.weights.len()
            + value.sv3_mul.weights.len()
            + value.sv3_bias.weights.len()
            + value.ownership_conv.weights.len()
    }

    /// Score outputs of the value head: 4 for version 8 (score mean, its
    /// square's pre-activation, lead, variance of time left), 6 from
    /// version 9 (plus the short-term value and score errors).
    pub fn score_outputs(&self) -> usize {
        self.value_head.sv3_mul.out_channels
    }
}

/// Reads a decompressed model file.
fn parse(bytes: &[u8]) -> Result<Model, ModelError> {
    let mut reader = Reader { bytes, position: 0 };
    let header = "the model header";
    let name = reader.token(header, "name")?.to_owned();
    let version = reader.integer(&name, "model version")?;
    let version = match u32::try_from(version) {
        Ok(v) if (OLDEST_VERSION..=NEWEST_VERSION).contains(&v) => v,
        _ => return Err(ModelError::UnsupportedVersion(version)),
    };
    let spatial_inputs = reader.count(&name, "number of spatial inputs")?;
    let global_inputs = reader.count(&name, "number of global inputs")?;
    let mut reader = LayerReader { reader, version };
    let trunk = reader.trunk()?;
    let policy_head = reader.policy_head()?;
    let value_head = reader.value_head(version)?;
    if trunk.initial_conv.in_channels != spatial_inputs {
        return Err(shape(
            &trunk.initial_conv.name,
            format!(
                "{} input channels, but the header declares {spatial_inputs} spatial inputs",
                trunk.initial_conv.in_channels
            ),
        ));
    }
    if trunk.initial_matmul.in_channels != global_inputs {
        return Err(shape(
            &trunk.initial_matmul.name,
            format!(
                "{} inputs, but the header declares {global_inputs} global inputs",
                trunk.initial_matmul.in_channels
            ),
        ));
    }
    for conv in [
        &policy_head.p1_conv,
        &policy_head.g1_conv,
        &value_head.v1_conv,
    ] {
        expect_equal(
            &conv.name,
            "input channels",
            conv.in_channels,
            "trunk channels",
            trunk.channels,
        )?;
    }
    Ok(Model {
        name,
        version,
        spatial_inputs,
        global_inputs,
        trunk,
        policy_head,
        value_head,
    })
}

fn shape(layer: &str, what: String) -> ModelError {
    ModelError::Shape {
        layer: layer.to_owned(),
        what,
    }
}

/// An error unless two sizes that must agree do.
fn expect_equal(
    layer: &str,
    what: &str,
    value: usize,
    other_what: &str,
    other: usize,
) -> Result<(), ModelError> {
    if value == other {
        Ok(())
    } else {
        Err(shape(
            layer,
            format!("{what} ({value}) != {other_what} ({other})"),
        ))
    }
}

/// The token and float reader: a cursor over the file's bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    position: usize,
}

impl<'a> Reader<'a> {
    fn skip_whitespace(&mut self) {
        while self
            .bytes
            .get(self.position)
            .is_some_and(u8::is_ascii_whitespace)
        {
            self.position += 1;
        }
    }

    /// The next whitespace-delimited token.
    fn token(&mut self, layer: &str, what: &'static str) -> Result<&'a str, ModelError> {
        self.skip_whitespace();
        let start = self.position;
        while self
            .bytes
            .get(self.position)
            .is_some_and(|b| !b.is_ascii_whitespace())
        {
            self.position += 1;
        }
        if start == self.position {
            return Err(ModelError::Truncated {
                layer: layer.to_owned(),
                what,
            });
        }
        std::str::from_utf8(&self.bytes[start..self.position]).map_err(|_| ModelError::Corrupt {
            layer: layer.to_owned(),
            what: format!("its {what} is not text"),
        })
    }

    /// The error of a token that does not read as what it must be: the
    /// file's end cut it short, or it is corrupt.
    fn unreadable(&self, token: &str, layer: &str, what: &'static str, kind: &str) -> ModelError {
        if self.position == self.bytes.len() {
            ModelError::Truncated {
                layer: layer.to_owned(),
                what,
            }
        } else {
            ModelError::Corrupt {
                layer: layer.to_owned(),
                what: format!("its {what} {token:?} is not {kind}"),
            }
        }
    }

    fn integer(&mut self, layer: &str, what: &'static str) -> Result<i64, ModelError> {
        let token = self.token(layer, what)?;
        token
            .parse()
            .map_err(|_| self.unreadable(token, layer, what, "an integer"))
    }

    /// A positive size.
    fn count(&mut self, layer: &str, what: &'static str) -> Result<usize, ModelError> {
        let value = self.integer(layer, what)?;
        match usize::try_from(value) {
            Ok(count) if count > 0 => Ok(count),
            _ => Err(ModelError::Corrupt {
                layer: layer.to_owned(),
                what: format!("its {what} ({value}) is not positive"),
            }),
        }
    }

    fn float(&mut self, layer: &str, what: &'static str) -> Result<f32, ModelError> {
        let token = self.token(layer, what)?;
        token
            .parse()
            .map_err(|_| self.unreadable(token, layer, what, "a number"))
    }

    /// `count` weights, as text or as a binary block, all finite.
    fn floats(&mut self, layer: &str, count: usize) -> Result<Vec<f32>, ModelError> {
        self.skip_whitespace();
        let weights = if self.bytes.get(self.position) == Some(&b'@') {
            self.binary_floats(layer, count)?
        } else {
            self.text_floats(layer, count)?
        };
        if weights.iter().all(|w| w.is_finite()) {
            Ok(weights)
        } else {
            Err(ModelError::NonFiniteWeight {
                layer: layer.to_owned(),
            })
        }
    }

    fn binary_floats(&mut self, layer: &str, count: usize) -> Result<Vec<f32>, ModelError> {
        const MARKER: &[u8] = b"@BIN@";
        let rest = &self.bytes[self.position..];
        if rest.len() < MARKER.len() {
            return Err(ModelError::Truncated {
                layer: layer.to_owned(),
                what: "binary weights",
            });
        }
        if !rest.starts_with(MARKER) {
            return Err(ModelError::Corrupt {
                layer: layer.to_owned(),
                what: "its weights start with '@' but not with \"@BIN@\"".to_owned(),
            });
        }
        let data = &rest[MARKER.len()..];
        let length = count.checked_mul(4).filter(|&length| length <= data.len());
        let Some(length) = length else {
            return Err(ModelError::Truncated {
                layer: layer.to_owned(),
                what: "binary weights",
            });
        };
        self.position += MARKER.len() + length;
        Ok(data[..length]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect())
    }

    fn text_floats(&mut self, layer: &str, count: usize) -> Result<Vec<f32>, ModelError> {
        // Each float takes at least two bytes (a digit and a separator, but
        // for the last): more than that many cannot be there.
        if count > (self.bytes.len() - self.position).div_ceil(2) {
            return Err(ModelError::Truncated {
                layer: layer.to_owned(),
                what: "text weights",
            });
        }
        (0..count).map(|_| self.float(layer, "weights")).collect()
    }
}

/// Reads layers of a given model version.
struct LayerReader<'a> {
    reader: Reader<'a>,
    version: u32,
}

impl LayerReader<'_> {
    fn name(&mut self, context: &str) -> Result<String, ModelError> {
        Ok(self.reader.token(context, "layer name")?.to_owned())
    }

    fn conv(&mut self, context: &str) -> Result<Conv, ModelError> {
        let name = self.name(context)?;
        let r = &mut self.reader;
        let kernel_height = r.count(&name, "kernel height")?;
        let kernel_width = r.count(&name, "kernel width")?;
        let in_channels = r.count(&name, "input channels")?;
        let out_channels = r.count(&name, "output channels")?;
        let dilation_y = r.count(&name, "vertical dilation")?;
        let dilation_x = r.count(&name, "horizontal dilation")?;
        if kernel_height % 2 == 0 || kernel_width % 2 == 0 {
            return Err(shape(
                &name,
                format!("kernel {kernel_height}×{kernel_width} is not of odd sizes"),
            ));
        }
        if dilation_y != 1 || dilation_x != 1 {
            return Err(ModelError::Unsupported {
                layer: name,
                what: format!("dilation {dilation_y}×{dilation_x}"),
            });
        }
        let count = [kernel_height, kernel_width, in_channels, out_channels]
            .into_iter()
            .try_fold(1usize, usize::checked_mul)
            .ok_or_else(|| shape(&name, "weight count overflows".to_owned()))?;
        let weights = r.floats(&name, count)?;
        Ok(Conv {
            name,
            kernel_height,
            kernel_width,
            in_channels,
            out_channels,
            weights,
        })
    }

    fn batch_norm(&mut self, context: &str) -> Result<BatchNorm, ModelError> {
        let name = self.name(context)?;
        let r = &mut self.reader;
        let channels = r.count(&name, "channels")?;
        let epsilon = r.float(&name, "epsilon")?;
        if !(epsilon > 0.0 && epsilon.is_finite()) {
            return Err(ModelError::Corrupt {
                layer: name,
                what: format!("its epsilon {epsilon} is not positive and finite"),
            });
        }
        let has_scale = flag(r, &name, "scale flag")?;
        let has_bias = flag(r, &name, "bias flag")?;
        let mean = r.floats(&name, channels)?;
        let variance = r.floats(&name, channels)?;
        if variance.iter().any(|&v| v + epsilon <= 0.0) {
            return Err(ModelError::Corrupt {
                layer: name,
                what: "a variance plus epsilon is not positive".to_owned(),
            });
        }
        let scale = if has_scale {
            Some(r.floats(&name, channels)?)
        } else {
            None
        };
        let bias = if has_bias {
            Some(r.floats(&name, channels)?)
        } else {
            None
        };
        Ok(BatchNorm {
            name,
            channels,
            epsilon,
            mean,
            variance,
            scale,
            bias,
        })
    }

    fn activation(&mut self, context: &str) -> Result<Activation, ModelError> {
        let name = self.name(context)?;
        if self.version < 11 {
            return Ok(Activation::Relu);
        }
        let kind = self.reader.token(&name, "activation kind")?;
        match kind {
            "ACTIVATION_IDENTITY" => Ok(Activation::Identity),
            "ACTIVATION_RELU" => Ok(Activation::Relu),
            "ACTIVATION_MISH" => Ok(Activation::Mish),
            "ACTIVATION_SILU" => Ok(Activation::Silu),
            _ => Err(ModelError::Corrupt {
                layer: name,
                what: format!("unknown activation {kind:?}"),
            }),
        }
    }

    fn matmul(&mut self, context: &str) -> Result<MatMul, ModelError> {
        let name = self.name(context)?;
        let r = &mut self.reader;
        let in_channels = r.count(&name, "input channels")?;
        let out_channels = r.count(&name, "output channels")?;
        let count = in_channels
            .checked_mul(out_channels)
            .ok_or_else(|| shape(&name, "weight count overflows".to_owned()))?;
        let weights = r.floats(&name, count)?;
        Ok(MatMul {
            name,
            in_channels,
            out_channels,
            weights,
        })
    }

    fn mat_bias(&mut self, context: &str) -> Result<MatBias, ModelError> {
        let name = self.name(context)?;
        let channels = self.reader.count(&name, "channels")?;
        let weights = self.reader.floats(&name, channels)?;
        Ok(MatBias { name, weights })
    }

    fn trunk(&mut self) -> Result<Trunk, ModelError> {
        let name = self.name("the trunk")?;
        let r = &mut self.reader;
        let block_count = r.count(&name, "number of blocks")?;
        let channels = r.count(&name, "trunk channels")?;
        let mid_channels = r.count(&name, "mid channels")?;
        let regular_channels = r.count(&name, "regular channels")?;
        r.count(&name, "dilated channels")?;
        let gpool_channels = r.count(&name, "pooled channels")?;
        let initial_conv = self.conv(&name)?;
        expect_equal(
            &initial_conv.name,
            "output channels",
            initial_conv.out_channels,
            "trunk channels",
            channels,
        )?;
        let initial_matmul = self.matmul(&name)?;
        expect_equal(
            &initial_matmul.name,
            "output channels",
            initial_matmul.out_channels,
            "trunk channels",
            channels,
        )?;
        // Not `with_capacity(block_count)`: the count is unchecked input.
        let mut blocks = Vec::new();
        for _ in 0..block_count {
            let kind = self.reader.token(&name, "block kind")?;
            let block = match kind {
                "ordinary_block" => Block::Ordinary(self.ordinary_block(&name, channels)?),
                "gpool_block" => Block::GlobalPooling(self.gpool_block(&name, channels)?),
                "nested_bottleneck_block" => {
                    return Err(ModelError::Unsupported {
                        layer: name,
                        what: "nested bottleneck residual blocks".to_owned(),
                    });
                }
                "transformer_attention_block" | "transformer_ffn_block" => {
                    return Err(ModelError::Unsupported {
                        layer: name,
                        what: "transformer blocks".to_owned(),
                    });
                }
                _ => {
                    return Err(ModelError::Corrupt {
                        layer: name,
                        what: format!("unknown block kind {kind:?}"),
                    });
                }
            };
            blocks.push(block);
        }
        let tip_norm = self.batch_norm(&name)?;
        expect_equal(
            &tip_norm.name,
            "channels",
            tip_norm.channels,
            "trunk channels",
            channels,
        )?;
        let tip_activation = self.activation(&name)?;
        Ok(Trunk {
            name,
            channels,
            mid_channels,
            regular_channels,
            gpool_channels,
            initial_conv,
            initial_matmul,
            blocks,
            tip_norm,
            tip_activation,
        })
    }

    fn ordinary_block(
        &mut self,
        trunk: &str,
        channels: usize,
    ) -> Result<OrdinaryBlock, ModelError> {
        let name = self.name(trunk)?;
        let pre_norm = self.batch_norm(&name)?;
        let pre_activation = self.activation(&name)?;
        let first_conv = self.conv(&name)?;
        let mid_norm = self.batch_norm(&name)?;
        let mid_activation = self.activation(&name)?;
        let final_conv = self.conv(&name)?;
        let checks = [
            (
                "preBN channels",
                pre_norm.channels,
                "trunk channels",
                channels,
            ),
            (
                "first conv inputs",
                first_conv.in_channels,
                "trunk channels",
                channels,
            ),
            (
                "midBN channels",
                mid_norm.channels,
                "first conv outputs",
                first_conv.out_channels,
            ),
            (
                "final conv inputs",
                final_conv.in_channels,
                "midBN channels",
                mid_norm.channels,
            ),
            (
                "final conv outputs",
                final_conv.out_channels,
                "trunk channels",
                channels,
            ),
        ];
        for (what, value, other_what, other) in checks {
            expect_equal(&name, what, value, other_what, other)?;
        }
        Ok(OrdinaryBlock {
            name,
            pre_norm,
            pre_activation,
            first_conv,
            mid_norm,
            mid_activation,
            final_conv,
        })
    }

    fn gpool_block(
        &mut self,
        trunk: &str,
        channels: usize,
    ) -> Result<GlobalPoolingBlock, ModelError> {
        let name = self.name(trunk)?;
        let pre_norm = self.batch_norm(&name)?;
        let pre_activation = self.activation(&name)?;
        let regular_conv = self.conv(&name)?;
        let gpool_conv = self.conv(&name)?;
        let gpool_norm = self.batch_norm(&name)?;
        let gpool_activation = self.activation(&name)?;
        let gpool_to_bias = self.matmul(&name)?;
        let mid_norm = self.batch_norm(&name)?;
        let mid_activation = self.activation(&name)?;
        let final_conv = self.conv(&name)?;
        let checks = [
            (
                "preBN channels",
                pre_norm.channels,
                "trunk channels",
                channels,
            ),
            (
                "regular conv inputs",
                regular_conv.in_channels,
                "trunk channels",
                channels,
            ),
            (
                "gpool conv inputs",
                gpool_conv.in_channels,
                "trunk channels",
                channels,
            ),
            (
                "gpoolBN channels",
                gpool_norm.channels,
                "gpool conv outputs",
                gpool_conv.out_channels,
            ),
            (
                "gpool-to-bias inputs",
                gpool_to_bias.in_channels,
                "3 × gpoolBN channels",
                3 * gpool_norm.channels,
            ),
            (
                "midBN channels",
                mid_norm.channels,
                "regular conv outputs",
                regular_conv.out_channels,
            ),
            (
                "gpool-to-bias outputs",
                gpool_to_bias.out_channels,
                "midBN channels",
                mid_norm.channels,
            ),
            (
                "final conv inputs",
                final_conv.in_channels,
                "midBN channels",
                mid_norm.channels,
            ),
            (
                "final conv outputs",
                final_conv.out_channels,
                "trunk channels",
                channels,
            ),
        ];
        for (what, value, other_what, other) in checks {
            expect_equal(&name, what, value, other_what, other)?;
        }
        Ok(GlobalPoolingBlock {
            name,
            pre_norm,
            pre_activation,
            regular_conv,
            gpool_conv,
            gpool_norm,
            gpool_activation,
            gpool_to_bias,
            mid_norm,
            mid_activation,
            final_conv,
        })
    }

    fn policy_head(&mut self) -> Result<PolicyHead, ModelError> {
        let name = self.name("the policy head")?;
        let p1_conv = self.conv(&name)?;
        let g1_conv = self.conv(&name)?;
        let g1_norm = self.batch_norm(&name)?;
        let g1_activation = self.activation(&name)?;
        let gpool_to_bias = self.matmul(&name)?;
        let p1_norm = self.batch_norm(&name)?;
        let p1_activation = self.activation(&name)?;
        let p2_conv = self.conv(&name)?;
        let gpool_to_pass = self.matmul(&name)?;
        let checks = [
            (
                "p1BN channels",
                p1_norm.channels,
                "p1 conv outputs",
                p1_conv.out_channels,
            ),
            (
                "g1BN channels",
                g1_norm.channels,
                "g1 conv outputs",
                g1_conv.out_channels,
            ),
            (
                "gpool-to-bias inputs",
                gpool_to_bias.in_channels,
                "3 × g1BN channels",
                3 * g1_norm.channels,
            ),
            (
                "gpool-to-bias outputs",
                gpool_to_bias.out_channels,
                "p1BN channels",
                p1_norm.channels,
            ),
            (
                "p2 conv inputs",
                p2_conv.in_channels,
                "p1BN channels",
                p1_norm.channels,
            ),
            (
                "p2 conv outputs",
                p2_conv.out_channels,
                "policy channels",
                1,
            ),
            (
                "gpool-to-pass inputs",
                gpool_to_pass.in_channels,
                "3 × g1BN channels",
                3 * g1_norm.channels,
            ),
            (
                "gpool-to-pass outputs",
                gpool_to_pass.out_channels,
                "policy channels",
                1,
            ),
        ];
        for (what, value, other_what, other) in checks {
            expect_equal(&name, what, value, other_what, other)?;
        }
        Ok(PolicyHead {
            name,
            p1_conv,
            g1_conv,
            g1_norm,
            g1_activation,
            gpool_to_bias,
            p1_norm,
            p1_activation,
            p2_conv,
            gpool_to_pass,
        })
    }

    fn value_head(&mut self, version: u32) -> Result<ValueHead, ModelError> {
        let name = self.name("the value head")?;
        let v1_conv = self.conv(&name)?;
        let v1_norm = self.batch_norm(&name)?;
        let v1_activation = self.activation(&name)?;
        let v2_mul = self.matmul(&name)?;
        let v2_bias = self.mat_bias(&name)?;
        let v2_activation = self.activation(&name)?;
        let v3_mul = self.matmul(&name)?;
        let v3_bias = self.mat_bias(&name)?;
        let sv3_mul = self.matmul(&name)?;
        let sv3_bias = self.mat_bias(&name)?;
        let ownership_conv = self.conv(&name)?;
        let score_outputs = if version >= 9 { 6 } else { 4 };
        let checks = [
            (
                "v1BN channels",
                v1_norm.channels,
                "v1 conv outputs",
                v1_conv.out_channels,
            ),
            (
                "v2 inputs",
                v2_mul.in_channels,
                "3 × v1BN channels",
                3 * v1_norm.channels,
            ),
            (
                "v2 bias channels",
                v2_bias.weights.len(),
                "v2 outputs",
                v2_mul.out_channels,
            ),
            (
                "v3 inputs",
                v3_mul.in_channels,
                "v2 outputs",
                v2_mul.out_channels,
            ),
            ("v3 outputs", v3_mul.out_channels, "value outputs", 3),
            (
                "v3 bias channels",
                v3_bias.weights.len(),
                "value outputs",
                3,
            ),
            (
                "sv3 inputs",
                sv3_mul.in_channels,
                "v2 outputs",
                v2_mul.out_channels,
            ),
            (
                "sv3 outputs",
                sv3_mul.out_channels,
                "score outputs of this version",
                score_outputs,
            ),
            (
                "sv3 bias channels",
                sv3_bias.weights.len(),
                "score outputs of this version",
                score_outputs,
            ),
            (
                "ownership conv inputs",
                ownership_conv.in_channels,
                "v1 conv outputs",
                v1_conv.out_channels,
            ),
            (
                "ownership conv outputs",
                ownership_conv.out_channels,
                "ownership channels",
                1,
            ),
        ];
        for (what, value, other_what, other) in checks {
            expect_equal(&name, what, value, other_what, other)?;
        }
        Ok(ValueHead {
            name,
            v1_conv,
            v1_norm,
            v1_activation,
            v2_mul,
            v2_bias,
            v2_activation,
            v3_mul,
            v3_bias,
            sv3_mul,
            sv3_bias,
            ownership_conv,
        })
    }
}

/// A 0/1 flag of a batch normalisation header.
fn flag(reader: &mut Reader<'_>, layer: &str, what: &'static str) -> Result<bool, ModelError> {
    match reader.integer(layer, what)? {
        0 => Ok(false),
        1 => Ok(true),
        other => Err(ModelError::Corrupt {
            layer: layer.to_owned(),
            what: format!("its {what} is {other}, not 0 or 1"),
        }),
    }
}

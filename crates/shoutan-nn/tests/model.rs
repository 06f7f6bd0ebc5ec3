//! Reading KataGo's model file: the shipped network, and refusals of
//! broken or unsupported files, never a panic.

use shoutan_nn::model::{Activation, Block, Model, ModelError};
use std::io::Read;

const MODEL_PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/models/g170-b6c96-s175395328-d26788732.bin.gz"
);

fn decompressed() -> Vec<u8> {
    let compressed = std::fs::read(MODEL_PATH).expect("the shipped model is there");
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(&compressed[..])
        .read_to_end(&mut bytes)
        .expect("the shipped model is gzip");
    bytes
}

#[test]
fn the_shipped_network_reads_as_katago_describes_it() {
    let model = Model::load(MODEL_PATH).unwrap();
    assert_eq!(model.name, "g170-b6c96-s175395328-d26788732");
    assert_eq!(model.version, 8);
    assert_eq!((model.spatial_inputs, model.global_inputs), (22, 19));
    assert_eq!(model.trunk.channels, 96);
    assert_eq!(model.trunk.mid_channels, 96);
    assert_eq!(model.trunk.regular_channels, 64);
    assert_eq!(model.trunk.gpool_channels, 32);
    let kinds: Vec<&str> = model
        .trunk
        .blocks
        .iter()
        .map(|block| match block {
            Block::Ordinary(_) => "regular",
            Block::GlobalPooling(_) => "gpool",
        })
        .collect();
    assert_eq!(
        kinds,
        ["regular", "regular", "gpool", "regular", "gpool", "regular"]
    );
    let conv1 = &model.trunk.initial_conv;
    assert_eq!((conv1.kernel_height, conv1.kernel_width), (5, 5));
    assert_eq!((conv1.in_channels, conv1.out_channels), (22, 96));
    assert_eq!(model.trunk.tip_activation, Activation::Relu);
    assert_eq!(model.score_outputs(), 4);
    assert_eq!(model.value_head.v2_mul.out_channels, 64);
    // What KataGo prints when it loads this network: "1027911 params".
    assert_eq!(model.parameter_count(), 1_027_911);
}

#[test]
fn compressed_and_decompressed_bytes_read_alike() {
    let from_file = Model::load(MODEL_PATH).unwrap();
    let from_bytes = Model::from_bytes(&decompressed()).unwrap();
    assert_eq!(from_file, from_bytes);
}

/// The binary file rewritten in KataGo's text format: each `@BIN@` block
/// as its floats in decimal. A block's float count comes from the numbers
/// of the layer header before it: 6 for a convolution (height, width,
/// inputs, outputs, dilations), 4 for a batch norm (channels, epsilon, two
/// flags; its later blocks have no header and the same count), 2 for a
/// matmul, 1 for a bias.
fn as_text(binary: &[u8]) -> Vec<u8> {
    let mut text = Vec::new();
    let mut rest = binary;
    let mut norm_channels = 0;
    while let Some(at) = rest.windows(5).position(|w| w == b"@BIN@") {
        let header = std::str::from_utf8(&rest[..at]).expect("headers are text");
        text.extend_from_slice(header.as_bytes());
        let mut numbers: Vec<f64> = header
            .split_whitespace()
            .rev()
            .map_while(|t| t.parse().ok())
            .collect();
        numbers.reverse();
        let count = match numbers[..] {
            [h, w, i, o, _, _] => (h * w * i * o) as usize,
            [channels, _, _, _] => {
                norm_channels = channels as usize;
                norm_channels
            }
            [i, o] => (i * o) as usize,
            [channels] => channels as usize,
            [] => norm_channels,
            _ => panic!("unexpected layer header {numbers:?}"),
        };
        let data = &rest[at + 5..at + 5 + 4 * count];
        for chunk in data.chunks_exact(4) {
            let value = f32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
            text.extend_from_slice(format!("{value:e} ").as_bytes());
        }
        rest = &rest[at + 5 + 4 * count..];
    }
    text.extend_from_slice(rest);
    text
}

#[test]
fn the_text_format_reads_as_the_binary_one() {
    let binary = decompressed();
    let text = as_text(&binary);
    assert!(!text.windows(5).any(|w| w == b"@BIN@"));
    assert_eq!(
        Model::from_bytes(&text).unwrap(),
        Model::from_bytes(&binary).unwrap()
    );
}

/// Replaces the first occurrence of `from` (a whole line) by `to`.
fn replace_line(bytes: &[u8], from: &str, to: &str) -> Vec<u8> {
    let from = format!("\n{from}\n");
    let at = bytes
        .windows(from.len())
        .position(|w| w == from.as_bytes())
        .expect("the line to replace is there");
    [
        &bytes[..at],
        format!("\n{to}\n").as_bytes(),
        &bytes[at + from.len()..],
    ]
    .concat()
}

#[test]
fn an_unsupported_version_is_refused_with_the_versions_read() {
    let binary = decompressed();
    for version in ["7", "12", "14", "-1"] {
        let patched = replace_line(&binary, "8", version);
        let error = Model::from_bytes(&patched).unwrap_err();
        assert!(
            matches!(error, ModelError::UnsupportedVersion(_)),
            "{error}"
        );
        assert_eq!(
            error.to_string(),
            format!(
                "model version {version} is not supported: Shoutan reads KataGo model versions 8 to 11"
            )
        );
    }
    let text = as_text(&binary);
    let error = Model::from_bytes(&replace_line(&text, "8", "14")).unwrap_err();
    assert!(
        matches!(error, ModelError::UnsupportedVersion(14)),
        "{error}"
    );
}

#[test]
fn unsupported_block_kinds_are_refused_by_name() {
    let binary = decompressed();
    for (kind, what) in [
        ("nested_bottleneck_block", "nested bottleneck"),
        ("transformer_attention_block", "transformer"),
    ] {
        let patched = replace_line(&binary, "ordinary_block", kind);
        let error = Model::from_bytes(&patched).unwrap_err();
        assert!(matches!(error, ModelError::Unsupported { .. }), "{error}");
        assert!(error.to_string().contains(what), "{error}");
    }
}

#[test]
fn every_truncation_is_refused_without_panic() {
    let binary = decompressed();
    let text = as_text(&binary);
    // Every offset of the first layers' headers, and cuts spread over the
    // rest (fewer in the slower text) but for the last text float (cut
    // short, it reads as another number: no format can tell).
    for (bytes, spread_cuts) in [(&binary, 400), (&text, 100)] {
        let end = bytes.len() - 20;
        let offsets = (0..600).chain((600..end).step_by(end / spread_cuts));
        for cut in offsets {
            let error = Model::from_bytes(&bytes[..cut]).unwrap_err();
            assert!(
                matches!(error, ModelError::Truncated { .. }),
                "cut at {cut}: {error}"
            );
        }
    }
}

#[test]
fn a_truncated_gzip_is_a_gzip_error() {
    let compressed = std::fs::read(MODEL_PATH).unwrap();
    for cut in [3, 10, 1000, compressed.len() / 2, compressed.len() - 1] {
        let error = Model::from_bytes(&compressed[..cut]).unwrap_err();
        assert!(
            matches!(error, ModelError::Gzip(_)),
            "cut at {cut}: {error}"
        );
    }
    let mut corrupted = compressed.clone();
    let middle = corrupted.len() / 2;
    corrupted[middle] ^= 0x55;
    assert!(Model::from_bytes(&corrupted).is_err());
}

#[test]
fn corrupted_bytes_are_refused_or_read_but_never_panic() {
    let binary = decompressed();
    let text = as_text(&binary);
    for (bytes, spread) in [(&binary, 50), (&text, 15)] {
        let mut corrupted = bytes.clone();
        let offsets = (0..150).chain((150..bytes.len()).step_by(bytes.len() / spread));
        for offset in offsets {
            for replacement in [b'x', b' ', 0xff, b'@'] {
                corrupted[offset] = replacement;
                // A changed weight or name can read as another one: here
                // only the absence of a panic is asserted (numbers below).
                let _ = Model::from_bytes(&corrupted);
            }
            corrupted[offset] = bytes[offset];
        }
    }
}

#[test]
fn every_corrupted_number_of_the_first_headers_is_refused() {
    let binary = decompressed();
    let header_end = binary
        .windows(5)
        .position(|w| w == b"@BIN@")
        .expect("a float block");
    let mut corrupted = binary.clone();
    let mut checked = 0;
    let mut start = 0;
    for (end, _) in binary[..=header_end]
        .iter()
        .enumerate()
        .filter(|(_, b)| b.is_ascii_whitespace())
    {
        let token = &binary[start..end];
        if !token.is_empty() && token.iter().all(u8::is_ascii_digit) {
            for offset in start..end {
                corrupted[offset] = b'x';
                let error = Model::from_bytes(&corrupted).unwrap_err();
                assert!(
                    matches!(error, ModelError::Corrupt { .. }),
                    "offset {offset}: {error}"
                );
                corrupted[offset] = binary[offset];
                checked += 1;
            }
        }
        start = end + 1;
    }
    // The version, input counts, the trunk's 6 sizes and conv1's 6.
    assert!(checked >= 15, "only {checked} digits checked");
}

#[test]
fn corrupted_headers_name_what_is_wrong() {
    let binary = decompressed();
    let cases = [
        ("conv1\n5\n5\n22\n96", "conv1\n5\n5\n22\nx6", "conv1"),
        ("conv1\n5\n5\n22\n96", "conv1\n4\n5\n22\n96", "conv1"),
        ("conv1\n5\n5\n22\n96", "conv1\n5\n5\n22\n95", "conv1"),
        ("conv1\n5\n5\n22\n96", "conv1\n5\n5\n22\n0", "conv1"),
        (
            "conv1\n5\n5\n22\n96\n1\n1",
            "conv1\n5\n5\n22\n96\n2\n1",
            "conv1",
        ),
        (
            "conv1\n5\n5\n22\n96",
            "conv1\n5\n5\n22\n99999999999",
            "conv1",
        ),
        ("ordinary_block", "odd_block", "trunk"),
    ];
    for (from, to, layer) in cases {
        let patched = replace_line(&binary, from, to);
        let error = Model::from_bytes(&patched).unwrap_err();
        assert!(
            error.to_string().contains(layer),
            "{from:?} → {to:?}: {error}"
        );
    }
    let error = Model::from_bytes(&replace_line(
        &binary,
        "conv1\n5\n5\n22\n96",
        "conv1\n5\n5\n22\n95",
    ))
    .unwrap_err();
    assert!(matches!(error, ModelError::Shape { .. }), "{error}");
    let mut with_nan = binary.clone();
    let at = with_nan.windows(5).position(|w| w == b"@BIN@").unwrap() + 5;
    with_nan[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    let error = Model::from_bytes(&with_nan).unwrap_err();
    assert!(
        matches!(error, ModelError::NonFiniteWeight { ref layer } if layer == "conv1"),
        "{error}"
    );
}

#[test]
fn a_missing_file_is_an_io_error() {
    let error = Model::load("/nonexistent/model.bin.gz").unwrap_err();
    assert!(matches!(error, ModelError::Io { .. }), "{error}");
}

/// The shipped network rewritten as a model of version 11, which names
/// each activation (`kind_of` gives the kind for each activation layer)
/// and has 6 score outputs (the two added with zero weights).
fn as_version_11(kind_of: impl Fn(&str) -> &'static str) -> Vec<u8> {
    let text = String::from_utf8(as_text(&decompressed())).expect("the text format is text");
    let mut tokens: Vec<String> = Vec::new();
    let mut input = text.split_whitespace().enumerate();
    while let Some((index, token)) = input.next() {
        tokens.push(if index == 1 {
            "11".to_owned()
        } else {
            token.to_owned()
        });
        if token.contains("/actv") {
            tokens.push(kind_of(token).to_owned());
        }
        // sv3/w 64 4 then 64 rows of 4 weights; sv3/b 4 then 4 biases.
        let (rows, header) = match token {
            "sv3/w" => (64, 2),
            "sv3/b" => (1, 1),
            _ => continue,
        };
        for _ in 0..header - 1 {
            tokens.extend(input.next().map(|(_, t)| t.to_owned()));
        }
        input.next();
        tokens.push("6".to_owned());
        for _ in 0..rows {
            tokens.extend(input.by_ref().take(4).map(|(_, t)| t.to_owned()));
            tokens.extend(["0".to_owned(), "0".to_owned()]);
        }
    }
    tokens.join("\n").into_bytes()
}

#[test]
fn version_11_reads_the_named_activations() {
    let version_8 = Model::load(MODEL_PATH).unwrap();
    let all_relu = Model::from_bytes(&as_version_11(|_| "ACTIVATION_RELU")).unwrap();
    assert_eq!(all_relu.version, 11);
    assert_eq!(all_relu.trunk, version_8.trunk);
    assert_eq!(all_relu.policy_head, version_8.policy_head);
    assert_eq!(all_relu.score_outputs(), 6);
    assert_eq!(
        all_relu.value_head.sv3_bias.weights[..4],
        version_8.value_head.sv3_bias.weights
    );

    let mish_tip = as_version_11(|name| {
        if name == "trunk/actv" {
            "ACTIVATION_MISH"
        } else {
            "ACTIVATION_RELU"
        }
    });
    let model = Model::from_bytes(&mish_tip).unwrap();
    assert_eq!(model.trunk.tip_activation, Activation::Mish);
    let Block::Ordinary(first) = &model.trunk.blocks[0] else {
        panic!("the first block is ordinary");
    };
    assert_eq!(first.pre_activation, Activation::Relu);

    // The network computes what it reads: 6 score outputs, the first 4 as
    // version 8's when the activations are the same, others with Mish.
    let inputs = shoutan_nn::Inputs {
        size: 9,
        spatial: [vec![1.0; 81], vec![0.0; 21 * 81]].concat(),
        global: vec![0.0; 19],
    };
    let evaluate = |model: &Model| {
        let network = shoutan_nn::Network::new(model);
        let mut outputs = network.forward(&[&inputs], &mut shoutan_nn::Scratch::default());
        outputs.as_mut().map(|o| o.remove(0)).unwrap()
    };
    let (relu_8, relu_11, mish) = (evaluate(&version_8), evaluate(&all_relu), evaluate(&model));
    assert_eq!(relu_11.score.len(), 6);
    assert_eq!(relu_11.score[..4], relu_8.score);
    assert_eq!(relu_11.policy, relu_8.policy);
    assert_ne!(mish.policy, relu_8.policy);

    let silu = Model::from_bytes(&as_version_11(|_| "ACTIVATION_SILU")).unwrap();
    assert_eq!(silu.value_head.v2_activation, Activation::Silu);
    let identity = Model::from_bytes(&as_version_11(|_| "ACTIVATION_IDENTITY")).unwrap();
    assert_eq!(identity.policy_head.p1_activation, Activation::Identity);

    let error = Model::from_bytes(&as_version_11(|_| "ACTIVATION_SWISH")).unwrap_err();
    assert!(matches!(error, ModelError::Corrupt { .. }), "{error}");
    assert!(error.to_string().contains("rconv1/actv1"), "{error}");
}

#[test]
fn version_9_needs_six_score_outputs() {
    let text = as_text(&decompressed());
    let error = Model::from_bytes(&replace_line(&text, "8", "9")).unwrap_err();
    assert!(matches!(error, ModelError::Shape { .. }), "{error}");
    assert!(error.to_string().contains("sv3 outputs (4)"), "{error}");
}

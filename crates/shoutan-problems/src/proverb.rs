//! The proverbs (围棋口诀) every player learns, each with diagrams whose
//! claims are the solver's: who moves first, what they reach, and exactly
//! the first moves that reach it. The tests prove every claim.
//!
//! In every diagram the group at stake is the one on `target`; its owner
//! defends and the other side attacks. A claim for the attacker is about
//! killing, one for the defender about living.

use std::sync::LazyLock;

use shoutan_rules::{Board, Color, Point, PointSet};
use std::time::Duration;

use shoutan_solver::{Budget, Goal, Problem, Verdict};

/// The budget each diagram's claim is proved within (by the tests and
/// `shoutan bench problems`).
pub const CLAIM_BUDGET: Budget = Budget {
    nodes: 2_000_000,
    time: Duration::from_secs(10),
};

/// A proverb: its text, its explanation, its diagrams.
#[derive(Clone, Debug)]
pub struct Proverb {
    /// Its identifier in URLs.
    pub slug: &'static str,
    /// The proverb.
    pub zh: &'static str,
    /// Its English.
    pub en: &'static str,
    /// What it means, in Chinese.
    pub explain_zh: &'static str,
    /// What it means, in English.
    pub explain_en: &'static str,
    /// Its diagrams.
    pub diagrams: Vec<Diagram>,
}

/// A position that shows a proverb, and what the solver says of it.
#[derive(Clone, Debug)]
pub struct Diagram {
    /// Its caption, in Chinese.
    pub caption_zh: &'static str,
    /// Its caption, in English.
    pub caption_en: &'static str,
    /// The position.
    pub board: Board,
    /// A stone of the group at stake.
    pub target: Point,
    /// How far round the group the solver looks (see
    /// `ProblemBuilder::margin`); ignored when `region` is set.
    pub margin: u8,
    /// The points the solver plays on, when given explicitly (a ladder's
    /// path).
    pub region: Option<PointSet>,
    /// What the solver proves.
    pub claims: Vec<Claim>,
}

/// One side moving first and what it reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// Who moves first.
    pub mover: Color,
    /// What they reach: for the attacker, killing; for the defender,
    /// living.
    pub verdict: Verdict,
    /// Exactly the first moves that reach it (for a ko, those that reach
    /// the ko); empty for [`Verdict::Lose`].
    pub moves: Vec<Point>,
}

impl Diagram {
    /// The side that owns the group at stake.
    ///
    /// # Panics
    /// Never for the shipped diagrams: each target is a stone.
    #[must_use]
    pub fn defender(&self) -> Color {
        self.board.get(self.target).expect("a stone on the target")
    }

    /// The solver's problem: the attacker to move and kill. Ask it for
    /// either side with `solve_for`.
    ///
    /// # Panics
    /// Never for the shipped diagrams (the tests build each).
    #[must_use]
    pub fn problem(&self) -> Problem {
        let builder = Problem::builder(
            self.board.clone(),
            self.defender().opponent(),
            self.target,
            Goal::Kill,
        )
        .margin(self.margin);
        let builder = match &self.region {
            Some(region) => builder.region(region.clone()),
            None => builder,
        };
        builder.build().expect("a diagram is a problem")
    }
}

const B: Color = Color::Black;
const W: Color = Color::White;

/// A claim as written in the table below.
type ClaimText = (Color, Verdict, &'static [&'static str]);

/// A diagram as written in the table below.
struct DiagramText {
    caption_zh: &'static str,
    caption_en: &'static str,
    board: &'static str,
    target: &'static str,
    margin: u8,
    region: &'static [&'static str],
    claims: &'static [ClaimText],
}

/// A proverb as written in the table below.
struct ProverbText {
    slug: &'static str,
    zh: &'static str,
    en: &'static str,
    explain_zh: &'static str,
    explain_en: &'static str,
    diagrams: &'static [DiagramText],
}

/// A diagram whose region is found with no margin round the group.
const fn diagram(
    caption_zh: &'static str,
    caption_en: &'static str,
    board: &'static str,
    target: &'static str,
    claims: &'static [ClaimText],
) -> DiagramText {
    with_margin(caption_zh, caption_en, board, target, 0, claims)
}

/// A diagram whose region reaches `margin` points round the group.
const fn with_margin(
    caption_zh: &'static str,
    caption_en: &'static str,
    board: &'static str,
    target: &'static str,
    margin: u8,
    claims: &'static [ClaimText],
) -> DiagramText {
    DiagramText {
        caption_zh,
        caption_en,
        board,
        target,
        margin,
        region: &[],
        claims,
    }
}

/// White's bulky five (C1, D1, E1, D2, E2) on the first line against
/// black's eyeless wall, whose liberties are the open points of the fifth
/// line: eight of them, A5 to H5.
const BULKY_FIVE_AGAINST_EIGHT: &str = "
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    O O O O O O O O O
    . . . . . . . . O
    X X X X X X X X X
    X O O O O O X X X
    X O O . . O X X X
    X O . . . O X X X";

/// The same with seven: A5 to G5.
const BULKY_FIVE_AGAINST_SEVEN: &str = "
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    O O O O O O O O O
    . . . . . . . O O
    X X X X X X X X X
    X O O O O O X X X
    X O O . . O X X X
    X O . . . O X X X";

/// The bulky-five races' region: white's group with its eye, and black's
/// liberties. Black's wall is outside it, so white capturing the wall has
/// escaped: the race is all there is to play.
const BULKY_FIVE_RACE: &[&str] = &[
    "B1", "C1", "D1", "E1", "F1", "B2", "C2", "D2", "E2", "F2", "B3", "C3", "D3", "E3", "F3", "A5",
    "B5", "C5", "D5", "E5", "F5", "G5", "H5",
];

/// White's rabbity six (E1, D2, E2, F2, E3, F3) on a 13×13 board against
/// black's eyeless wall, whose liberties are the open points of the sixth
/// line: twelve of them, A6 to M6.
const RABBITY_SIX_AGAINST_TWELVE: &str = "
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    O O O O O O O O O O O O O
    . . . . . . . . . . . . O
    X X X X X X X X X X X X X
    X O O O O O O X X X X X X
    X O O O . . O X X X X X X
    X O O . . . O X X X X X X
    X O O O . O O X X X X X X";

/// The same with eleven: A6 to L6.
const RABBITY_SIX_AGAINST_ELEVEN: &str = "
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    O O O O O O O O O O O O O
    . . . . . . . . . . . O O
    X X X X X X X X X X X X X
    X O O O O O O X X X X X X
    X O O O . . O X X X X X X
    X O O . . . O X X X X X X
    X O O O . O O X X X X X X";

/// The rabbity-six races' region, as [`BULKY_FIVE_RACE`]'s.
const RABBITY_SIX_RACE: &[&str] = &[
    "B1", "C1", "D1", "E1", "F1", "G1", "B2", "C2", "D2", "E2", "F2", "G2", "B3", "C3", "D3", "E3",
    "F3", "G3", "B4", "C4", "D4", "E4", "F4", "G4", "A6", "B6", "C6", "D6", "E6", "F6", "G6", "H6",
    "J6", "K6", "L6", "M6",
];

/// `n` white stones on the second line of a 13×13 board from D2, black on
/// the third line above them and on the second line at both ends, the first
/// line open beneath the white stones; black also holds the first line
/// under its end stones.
const SIX_ON_THE_SECOND_LINE: &str = "
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . X X X X X X X X X X . .
    . X X O O O O O O X X . .
    . X X . . . . . . X X . .";

const SEVEN_ON_THE_SECOND_LINE: &str = "
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . X X X X X X X X X X X .
    . X X O O O O O O O X X .
    . X X . . . . . . . X X .";

const SEVEN_WITH_OPEN_ENDS: &str = "
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . X X X X X X X X X X X .
    . X X O O O O O O O X X .
    . X . . . . . . . . . X .";

const EIGHT_ON_THE_SECOND_LINE: &str = "
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . X X X X X X X X X X X X
    . X X O O O O O O O O X X
    . X X . . . . . . . . X X";

/// The proverbs, in the order a player meets them.
const PROVERBS: &[ProverbText] = &[
    ProverbText {
        slug: "zhisan-qusan",
        zh: "直三曲三，点中间",
        en: "Straight three, bent three: play the middle",
        explain_zh: "三目的眼位只有一个要点，就是中间那一点。攻方点进去，只剩一只眼；守方自己占住，就分成两只眼。谁先下谁得。",
        explain_en: "A three-point eye space has one vital point, its middle. The attacker's placement there leaves one eye; the defender's move there makes two. Whoever moves first takes it.",
        diagrams: &[
            diagram(
                "直三",
                "Straight three",
                "
                . . . O X . .
                O O O O X . .
                X X X X X . .
                . . . . . . .
                . . . . . . .
                . . . . . . .
                . . . . . . .",
                "D7",
                &[(B, Verdict::Win, &["B7"]), (W, Verdict::Win, &["B7"])],
            ),
            diagram(
                "曲三",
                "Bent three",
                "
                . . O X . . .
                . O O X . . .
                O O X X . . .
                X X X . . . .
                . . . . . . .
                . . . . . . .
                . . . . . . .",
                "C7",
                &[(B, Verdict::Win, &["A7"]), (W, Verdict::Win, &["A7"])],
            ),
        ],
    },
    ProverbText {
        slug: "zhisi-qusi",
        zh: "直四曲四是活棋",
        en: "Straight four and bent four live",
        explain_zh: "直四、曲四各有两个要点，对方占一个，自己就占另一个，总能做出两只眼，不必先补。",
        explain_en: "Straight four and bent four each have two vital points: take one and the defender takes the other, making two eyes. They live without a move.",
        diagrams: &[
            diagram(
                "直四：黑先也杀不了",
                "Straight four: black cannot kill even moving first",
                "
                . . . . O X .
                O O O O O X .
                X X X X X X .
                . . . . . . .
                . . . . . . .
                . . . . . . .
                . . . . . . .",
                "E7",
                &[(B, Verdict::Lose, &[])],
            ),
            diagram(
                "边上曲四：黑先也杀不了",
                "Bent four on the side: black cannot kill even moving first",
                "
                X O . . . O X . .
                X O . O O O X . .
                X O O O X X X . .
                X X X X . . . . .
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .",
                "B9",
                &[(B, Verdict::Lose, &[])],
            ),
        ],
    },
    ProverbText {
        slug: "tuansi-dingsi",
        zh: "团四丁四死",
        en: "Square four is dead; pyramid four dies",
        explain_zh: "团四不论谁先都是死棋：里面无论下在哪里都只剩一只眼。丁四的要点在中间，攻方点进去就死，守方占住则活。",
        explain_en: "Square four is dead whoever moves: any move inside leaves one eye. Pyramid four has its vital point in the centre: the attacker's placement there kills, the defender's move there lives.",
        diagrams: &[
            diagram(
                "团四：白先也活不了",
                "Square four: white cannot live even moving first",
                "
                . . O X . . .
                . . O X . . .
                O O O X . . .
                X X X X . . .
                . . . . . . .
                . . . . . . .
                . . . . . . .",
                "C7",
                &[
                    (B, Verdict::Win, &["A6", "A7", "B6", "B7"]),
                    (W, Verdict::Lose, &[]),
                ],
            ),
            diagram(
                "丁四：中间是要点",
                "Pyramid four: the centre is the vital point",
                "
                X O . . . O X . .
                X O O . O O X . .
                X X O O O X X . .
                . X X X X X . . .
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .",
                "B9",
                &[(B, Verdict::Win, &["D9"]), (W, Verdict::Win, &["D9"])],
            ),
        ],
    },
    ProverbText {
        slug: "banwu-huawu",
        zh: "板五花五，点就死",
        en: "Bulky five, flower five: the placement kills",
        explain_zh: "板五、花五都只有一个要点：板五在与其余三点相连的那一点，花五在正中。攻方点在要点上就死，守方先占则活。",
        explain_en: "Bulky five and flower five each have one vital point: for the bulky five the point touching three of the others, for the flower five the centre. The placement there kills; the defender taking it lives.",
        diagrams: &[
            diagram(
                "板五",
                "Bulky five",
                "
                . . . O X . .
                . . O O X . .
                O O O X X . .
                X X X X . . .
                . . . . . . .
                . . . . . . .
                . . . . . . .",
                "D7",
                &[(B, Verdict::Win, &["B7"]), (W, Verdict::Win, &["B7"])],
            ),
            diagram(
                "花五",
                "Flower five",
                "
                X O O . O O X . .
                X O . . . O X . .
                X O O . O O X . .
                X X O O O X X . .
                . X X X X X . . .
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .",
                "B9",
                &[(B, Verdict::Win, &["D8"]), (W, Verdict::Win, &["D8"])],
            ),
        ],
    },
    ProverbText {
        slug: "quanliu",
        zh: "拳六死，圭七活",
        en: "Rabbity six dies; the tablet seven lives",
        explain_zh: "拳六（葡萄六）的要点在与其余四点相连的那一点。攻方点进去就死；守方先下，占要点或旁边两点都能活。拳六再多一点，成了上方下尖的“圭”形七目（两行各三点，再加一个尖），就有两个以上的做眼点，攻方先走也杀不了，守方不必补。",
        explain_en: "The rabbity six dies to the point that touches four of the others. The defender moving first lives by that point or by either of two others. One point more makes the seven-point \"tablet\" (圭: two rows of three and a point beneath the middle): it has more than one way to make two eyes, so the attacker cannot kill it even moving first, and the defender need not add a move.",
        diagrams: &[
            diagram(
                "拳六",
                "Rabbity six",
                "
                X O O . . O X . .
                X O . . . O X . .
                X O O . O O X . .
                X X O O O X X . .
                . X X X X X . . .
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .",
                "B9",
                &[
                    (B, Verdict::Win, &["D8"]),
                    (W, Verdict::Win, &["D8", "D9", "E8"]),
                ],
            ),
            diagram(
                "圭七：黑先也杀不了",
                "The tablet seven: black cannot kill even moving first",
                "
                X O . . . O X . .
                X O . . . O X . .
                X O O . O O X . .
                X X O O O X X . .
                . X X X X X . . .
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .",
                "B9",
                &[(B, Verdict::Lose, &[])],
            ),
        ],
    },
    ProverbText {
        slug: "panjiao-qusi",
        zh: "盘角曲四劫尽亡",
        en: "Bent four in the corner dies when the kos are gone",
        explain_zh: "角上的曲四，就局部而言是劫：黑A6、白A7之后，黑在B7提子成劫。日本规则据“劫尽亡”判它为死棋：攻方可以先消尽对方的劫材，再随时开劫，守方无法阻止，所以终局时不必实战即判死。中国规则第21条规定，对死活有争议时恢复对局、由主张对方是死棋的一方先走，以实战解决；攻方必须真的开劫打赢，守方可以用劫材应劫。",
        explain_en: "Locally the bent four in the corner is a ko: after black A6 and white A7, black's capture at B7 starts it. Japanese rules judge it dead by \"劫尽亡\": the attacker can remove all the defender's ko threats and start the ko whenever he likes, so at the end it is dead without play. Under the Chinese rules (Art. 21) a dispute is settled by play, the side claiming the group dead moving first: the attacker must actually start and win the ko, and the defender may use his threats.",
        diagrams: &[diagram(
            "盘角曲四",
            "Bent four in the corner",
            "
            . . O X . . .
            . O O X . . .
            . O X X . . .
            O O X . . . .
            X X X . . . .
            . . . . . . .
            . . . . . . .",
            "C7",
            &[(B, Verdict::Ko, &["A6"]), (W, Verdict::Win, &["A6", "A7"])],
        )],
    },
    ProverbText {
        slug: "jingui-jiao",
        zh: "金柜角里有劫活",
        en: "The carpenter's square lives by ko",
        explain_zh: "金柜角的画法不止一种，这里用的是：白七子A4、B4、C4、C3、D3、D2、D1围住角上八个点（A1到C3的“田”字九点少了C3）。外气全紧时，黑点二·二（B2）成劫，别处下都杀不了；白先走，A2、B2、B1都能净活。外面有两口气时（第二图），黑先也杀不了。",
        explain_en: "The carpenter's square is drawn more than one way; the one used here is white's seven stones A4, B4, C4, C3, D3, D2, D1 round the eight points of the corner (the nine points A1 to C3 less C3). With no outside liberties, black's placement at the 2-2 point (B2) makes a ko and nothing else even does that; white moving first lives outright at A2, B2 or B1. With two outside liberties (the second diagram), black cannot kill even moving first.",
        diagrams: &[
            diagram(
                "金柜角，外气全紧：黑点二·二成劫",
                "The carpenter's square, no outside liberties: black's 2-2 placement makes a ko",
                "
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .
                X X X X . . . . .
                O O O X X . . . .
                . . O O X . . . .
                . . . O X . . . .
                . . . O X . . . .",
                "A4",
                &[
                    (B, Verdict::Ko, &["B2"]),
                    (W, Verdict::Win, &["A2", "B1", "B2"]),
                ],
            ),
            DiagramText {
                caption_zh: "金柜角，外面两口气（C5、E2）：黑先也杀不了",
                caption_en: "The carpenter's square with two outside liberties (C5, E2): black cannot kill even moving first",
                board: "
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .
                . . X . . . . . .
                X X . X . . . . .
                O O O X . . . . .
                . . O O X . . . .
                . . . O . X . . .
                . . . O X . . . .",
                target: "A4",
                margin: 0,
                region: &[
                    "A1", "B1", "C1", "D1", "A2", "B2", "C2", "D2", "A3", "B3", "C3", "D3", "A4",
                    "B4", "C4", "D4", "C5", "E2",
                ],
                claims: &[(B, Verdict::Lose, &[])],
            },
        ],
    },
    ProverbText {
        slug: "qisi-bahuo",
        zh: "七死八活",
        en: "Seven die, eight live",
        explain_zh: "二路上的一排子（两端对方已立到一路）：六子先走也死；七子攻方先扳则死，守方先走则活；八子不必走就活。俗话“六死八活”，七子要看谁先。两端若没有立下，七子被扳是劫。",
        explain_en: "A row on the second line, the opponent's ends reaching the first line: six die even moving first; seven die to the attacker's hane and live if the defender moves first; eight live without a move. With the ends not reaching the first line, the hane against seven gives a ko.",
        diagrams: &[
            with_margin(
                "六子：白先也活不了",
                "Six: white cannot live even moving first",
                SIX_ON_THE_SECOND_LINE,
                "D2",
                1,
                &[
                    (B, Verdict::Win, &["D1", "E1", "F1", "G1", "H1", "J1"]),
                    (W, Verdict::Lose, &[]),
                ],
            ),
            with_margin(
                "七子：黑先杀，白先活",
                "Seven: black first kills, white first lives",
                SEVEN_ON_THE_SECOND_LINE,
                "D2",
                1,
                &[
                    (B, Verdict::Win, &["D1", "K1"]),
                    (W, Verdict::Win, &["D1", "G1", "K1"]),
                ],
            ),
            with_margin(
                "七子，两端未立：黑先是劫",
                "Seven, the ends open: black first makes a ko",
                SEVEN_WITH_OPEN_ENDS,
                "D2",
                1,
                &[(B, Verdict::Ko, &["D1", "K1"])],
            ),
            with_margin(
                "八子：黑先也杀不了",
                "Eight: black cannot kill even moving first",
                EIGHT_ON_THE_SECOND_LINE,
                "D2",
                1,
                &[(B, Verdict::Lose, &[])],
            ),
        ],
    },
    ProverbText {
        slug: "youyan-sha-wuyan",
        zh: "有眼杀无眼",
        en: "One eye beats no eye",
        explain_zh: "对杀中有眼的一方占便宜：眼里的气对方最后才能紧，而无眼的一方气数相同也要输。",
        explain_en: "In a capturing race the side with an eye has the edge: its eye is the last liberty the opponent can fill, so the eyeless group loses even with as many liberties.",
        diagrams: &[DiagramText {
            caption_zh: "黑三子有眼，白六子无眼，各三气",
            caption_en: "Black's three stones have an eye, white's six none: three liberties each",
            board: "
            . X . O X . . . .
            X X . O X . . . .
            O O O O X . . . .
            . X X X X . . . .
            X . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
            target: "D9",
            margin: 1,
            region: &[],
            claims: &[
                (B, Verdict::Win, &["A6", "A9", "C8", "C9"]),
                (W, Verdict::Lose, &[]),
            ],
        }],
    },
    ProverbText {
        slug: "dayan-sha-xiaoyan",
        zh: "大眼杀小眼",
        en: "A big eye beats a small eye",
        explain_zh: "对杀双方都有眼时，大眼一方占便宜：小眼一方要紧公气就得先紧自己的气，公气实际上归大眼一方。",
        explain_en: "When both groups in a race have an eye, the bigger eye wins: the side with the small eye cannot fill the shared liberties without filling its own, so they count for the big eye.",
        diagrams: &[DiagramText {
            caption_zh: "黑曲三大眼，白一眼，两口公气：白先也杀不了",
            caption_en: "Black's bent-three eye against white's one-point eye, two shared liberties: white cannot kill even moving first",
            board: "
            . . X . O . O X .
            . X X . O O O X .
            X X O O O X X X .
            O O O . . X . . .
            X X X X X X . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
            target: "C8",
            margin: 0,
            region: &[
                "C9", "C8", "B8", "B7", "A7", "A9", "B9", "A8", "D9", "D8", "D6", "E6", "F9",
            ],
            claims: &[(W, Verdict::Lose, &[])],
        }],
    },
    ProverbText {
        slug: "xian-jin-waiqi",
        zh: "先紧外气，再紧公气",
        en: "Fill the outside liberties first, the shared ones last",
        explain_zh: "对杀时先紧对方的外气，公气留到最后：紧公气同时也紧了自己的气。图中白三子（C1、C2、D2）与黑两子（E1、E2）各有两口外气、一口公气D1。黑先紧白的外气B1或B2就杀；先紧公气D1反而被杀。白先，同样只有紧黑的外气F1、F2才赢。",
        explain_en: "In a capturing race fill the opponent's outside liberties first and the shared liberties last: filling a shared liberty fills your own too. Here white's C1, C2, D2 and black's E1, E2 each have two outside liberties and share D1. Black wins by filling white's outside liberty B1 or B2; filling D1 first loses the race. White moving first likewise wins only at black's outside liberties F1 and F2.",
        diagrams: &[DiagramText {
            caption_zh: "各两口外气、一口公气：谁先紧外气谁赢",
            caption_en: "Two outside liberties each and one shared: the first to fill an outside liberty wins",
            board: "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            X X X X O O O . .
            X . O O X . O . .
            X . O . X . O . .",
            target: "C1",
            margin: 0,
            region: &["B1", "B2", "C1", "C2", "D1", "D2", "E1", "E2", "F1", "F2"],
            claims: &[
                (B, Verdict::Win, &["B1", "B2"]),
                (W, Verdict::Win, &["F1", "F2"]),
            ],
        }],
    },
    ProverbText {
        slug: "dayan-qi",
        zh: "三三、四五、五八、六十二",
        en: "Three eye points, three liberties; four, five; five, eight; six, twelve",
        explain_zh: "对杀中一个杀不出两眼的大眼值多少气：三目眼三气，四目眼五气，五目眼八气，六目眼十二气。图中白棋只有一个大眼，黑棋无眼，只有上面的外气。黑先（第一手必须点眼，否则白占要点做成两眼），外气与大眼的气数相等就能杀，少一口就杀不了：直三正好三气，丁四正好五气，刀把五正好八气，葡萄六正好十二气。",
        explain_en: "How many liberties a big eye that cannot make two eyes is worth in a race: three points, three; four, five; five, eight; six, twelve. In each diagram white has only a big eye and black no eye, only its outside liberties. Black moving first (his first move must be the placement, or white makes two eyes there) kills when his outside liberties equal the eye's count, and fails with one fewer: the straight three is worth exactly three, the pyramid four exactly five, the bulky five exactly eight, the rabbity six exactly twelve.",
        diagrams: &[
            with_margin(
                "直三对三气：黑先点眼杀",
                "Straight three against three liberties: black's placement kills",
                "
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .
                O O O O O O O O O
                . . . O O O O O O
                X X X X X X X X X
                X O O O O O X X X
                X O . . . O X X X",
                "B1",
                2,
                &[(B, Verdict::Win, &["D1"])],
            ),
            with_margin(
                "直三对两气：黑先也杀不了",
                "Straight three against two liberties: black cannot kill even moving first",
                "
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .
                O O O O O O O O O
                . . O O O O O O O
                X X X X X X X X X
                X O O O O O X X X
                X O . . . O X X X",
                "B1",
                2,
                &[(B, Verdict::Lose, &[])],
            ),
            with_margin(
                "丁四对五气：黑先点眼杀",
                "Pyramid four against five liberties: black's placement kills",
                "
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .
                O O O O O O O O O
                . . . . . O O O O
                X X X X X X X X X
                X O O O O O X X X
                X O O . O O X X X
                X O . . . O X X X",
                "B1",
                2,
                &[(B, Verdict::Win, &["D1"])],
            ),
            with_margin(
                "丁四对四气：黑先也杀不了",
                "Pyramid four against four liberties: black cannot kill even moving first",
                "
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .
                O O O O O O O O O
                . . . . O O O O O
                X X X X X X X X X
                X O O O O O X X X
                X O O . O O X X X
                X O . . . O X X X",
                "B1",
                2,
                &[(B, Verdict::Lose, &[])],
            ),
            DiagramText {
                caption_zh: "刀把五对八气：黑先点眼杀",
                caption_en: "Bulky five against eight liberties: black's placement kills",
                board: BULKY_FIVE_AGAINST_EIGHT,
                target: "B1",
                margin: 0,
                region: BULKY_FIVE_RACE,
                claims: &[(B, Verdict::Win, &["D1"])],
            },
            DiagramText {
                caption_zh: "刀把五对七气：黑先也杀不了",
                caption_en: "Bulky five against seven liberties: black cannot kill even moving first",
                board: BULKY_FIVE_AGAINST_SEVEN,
                target: "B1",
                margin: 0,
                region: BULKY_FIVE_RACE,
                claims: &[(B, Verdict::Lose, &[])],
            },
            DiagramText {
                caption_zh: "葡萄六对十二气：黑先点眼杀",
                caption_en: "Rabbity six against twelve liberties: black's placement kills",
                board: RABBITY_SIX_AGAINST_TWELVE,
                target: "B1",
                margin: 0,
                region: RABBITY_SIX_RACE,
                claims: &[(B, Verdict::Win, &["E2"])],
            },
            DiagramText {
                caption_zh: "葡萄六对十一气：黑先也杀不了",
                caption_en: "Rabbity six against eleven liberties: black cannot kill even moving first",
                board: RABBITY_SIX_AGAINST_ELEVEN,
                target: "B1",
                margin: 0,
                region: RABBITY_SIX_RACE,
                claims: &[(B, Verdict::Lose, &[])],
            },
        ],
    },
    ProverbText {
        slug: "zheng",
        zh: "征子",
        en: "The ladder",
        explain_zh: "征：连续打吃，把对方一直赶向边上，始终只给一口气，直到提掉。征子前要看清路上有没有对方的接应子（引征）。",
        explain_en: "The ladder: atari after atari drives the stones to the edge with one liberty each time until they are captured. Before laddering, check the path for the opponent's stones (a ladder breaker).",
        diagrams: &[DiagramText {
            caption_zh: "黑先征吃；白先可以逃出",
            caption_en: "Black first captures in a ladder; white first escapes",
            board: "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . X X . . . . .
            . X O . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
            target: "C3",
            margin: 0,
            region: &["C3", "C2", "D3", "E3", "D2", "E2", "D1", "C1", "E1", "F1"],
            claims: &[
                (B, Verdict::Win, &["C2"]),
                (
                    W,
                    Verdict::Win,
                    &["C1", "C2", "D1", "D2", "D3", "E1", "E2", "E3", "F1"],
                ),
            ],
        }],
    },
    ProverbText {
        slug: "jia",
        zh: "枷",
        en: "The net",
        explain_zh: "枷（罩）：不直接打吃，而是在稍远处落子封住对方所有出路。征子不成立时，枷往往能吃。",
        explain_en: "The net: not atari, but a loose move that closes every way out. Where no ladder works, a net often does.",
        diagrams: &[DiagramText {
            caption_zh: "征不成立，黑F6枷吃",
            caption_en: "No ladder works; black's F6 nets the stone",
            board: "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . X . . . . . .
            . . . X O . . . .
            . . . . X . . . .
            . . . . . X . . .
            . . . . . . . . .
            . . . . . . . . .",
            target: "E5",
            margin: 2,
            region: &[],
            claims: &[(B, Verdict::Win, &["F6"])],
        }],
    },
    ProverbText {
        slug: "pu",
        zh: "扑",
        en: "The throw-in",
        explain_zh: "扑：把一子送到对方马上能提的地方，让对方提。对方提子时自己紧了一口气，扑的一方接着打吃，常常打成倒扑或接不归。图中白C1、D1两子有D2、E1两口气。黑若D2打，白E1接上F1，有E2、G1两口气，黑E2再打，白G1连回右边。黑E1扑（这一子只有E2一口气）：白E2提，自己填掉了E2这口气；黑D2打，白E1接，C1、D1、E1、E2、F1五子只剩G1一口气，黑G1提五子。白若不提，白子也逃不掉。白先，E1接或G1补，都能连回。",
        explain_en: "The throw-in: a stone played where the opponent can take it at once. Taking it fills one of the taker's own liberties, and the atari that follows often ends in a snapback or a connect-and-die. Here white's C1 and D1 have two liberties, D2 and E1. Black's atari at D2 fails: white connects at E1 to F1 with two liberties, E2 and G1, and answers black's E2 by connecting home at G1. Black throws in at E1 (a stone with the one liberty E2): white takes at E2, filling that liberty himself; black ataris at D2, and when white connects at E1 the five stones C1, D1, E1, E2 and F1 have the one liberty G1, where black takes all five. If white does not take, his stones are captured all the same. White moving first connects at E1 or G1.",
        diagrams: &[DiagramText {
            caption_zh: "黑先E1扑，吃掉白子；白先E1或G1连回",
            caption_en: "Black first throws in at E1 and captures; white first connects at E1 or G1",
            board: "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . X X X X X O . .
            . X X . . X O O .
            . X O O . O . O .",
            target: "C1",
            margin: 0,
            region: &["C1", "D1", "E1", "F1", "G1", "D2", "E2"],
            claims: &[(B, Verdict::Win, &["E1"]), (W, Verdict::Win, &["E1", "G1"])],
        }],
    },
    ProverbText {
        slug: "daopu",
        zh: "倒扑",
        en: "The snapback",
        explain_zh: "倒扑：先扑入一子让对方提，对方提子后只剩一口气，再在原处提回一块。图中白D2、E2两子有D1、E1两口气。黑若E1打，白D1接回左边。黑D1扑（这一子只有E1一口气），白E1提，D2、E2、E1三子只剩D1一口气，黑再下D1，提三子。白先D1接回。",
        explain_en: "The snapback: throw in a stone for the opponent to take; having taken it he has one liberty left, and the stone played again on the same point takes the lot. Here white's D2 and E2 have two liberties, D1 and E1. Black's atari at E1 fails: white connects at D1 to the stones on the left. Black throws in at D1 (a stone with the one liberty E1); white takes at E1, and D2, E2 and E1 have the one liberty D1, where black plays again and takes the three. White moving first connects at D1.",
        diagrams: &[DiagramText {
            caption_zh: "黑先D1倒扑；白先D1接回",
            caption_en: "Black first: the snapback at D1; white first connects at D1",
            board: "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . O X X X X . . .
            . O X O O X . . .
            . O O . . X . . .",
            target: "D2",
            margin: 0,
            region: &["D1", "E1", "D2", "E2"],
            claims: &[(B, Verdict::Win, &["D1"]), (W, Verdict::Win, &["D1"])],
        }],
    },
    ProverbText {
        slug: "jiebugui",
        zh: "接不归",
        en: "Connect and die",
        explain_zh: "接不归：打吃对方的子，对方接上以后整块仍只有一口气，连同接上的子一起被提，等于接不回去。图中白C1一子有C2、D1两口气，要从C2连回上面的白棋。黑若D1打，白C2连回。黑C2断打，白D1接上D2，C1、D1、D2三子只剩E2一口气，黑E2提三子。白先C2连回。",
        explain_en: "Connect and die (cannot connect back): the atari after which connecting the stones leaves the whole string one liberty, so it is taken together with the stones it connected to. Here white's C1 has two liberties, C2 and D1, and would connect through C2 to the white stones above. Black's atari at D1 fails: white connects at C2. Black cuts with the atari at C2; white connects at D1 to D2, and C1, D1 and D2 have the one liberty E2, where black takes the three. White moving first connects at C2.",
        diagrams: &[DiagramText {
            caption_zh: "黑先C2打，白接不归；白先C2连回",
            caption_en: "Black first ataris at C2 and white cannot connect back; white first connects at C2",
            board: "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . O O . . . . .
            . X O X X . . . .
            . X . O . X . . .
            . X O . X . . . .",
            target: "C1",
            margin: 0,
            region: &["C1", "D1", "C2", "D2", "E2"],
            claims: &[(B, Verdict::Win, &["C2"]), (W, Verdict::Win, &["C2"])],
        }],
    },
];

static PROVERBS_PARSED: LazyLock<Vec<Proverb>> =
    LazyLock::new(|| PROVERBS.iter().map(parse_proverb).collect());

fn parse_proverb(text: &ProverbText) -> Proverb {
    Proverb {
        slug: text.slug,
        zh: text.zh,
        en: text.en,
        explain_zh: text.explain_zh,
        explain_en: text.explain_en,
        diagrams: text
            .diagrams
            .iter()
            .map(|d| parse_diagram(text.slug, d))
            .collect(),
    }
}

/// Parses one diagram. The data is ours and tested, so a fault is a bug:
/// panic, naming the proverb and diagram.
fn parse_diagram(slug: &str, text: &DiagramText) -> Diagram {
    let board: Board = text
        .board
        .parse()
        .unwrap_or_else(|e| panic!("proverb {slug}, {}: {e}", text.caption_en));
    let size = board.size();
    let point = |s: &str| {
        Point::from_gtp(s, size)
            .unwrap_or_else(|e| panic!("proverb {slug}, {}: {s}: {e}", text.caption_en))
    };
    let region = (!text.region.is_empty()).then(|| {
        let mut region = PointSet::new(size);
        for p in text.region {
            region.insert(point(p));
        }
        region
    });
    Diagram {
        caption_zh: text.caption_zh,
        caption_en: text.caption_en,
        target: point(text.target),
        margin: text.margin,
        region,
        claims: text
            .claims
            .iter()
            .map(|(mover, verdict, moves)| Claim {
                mover: *mover,
                verdict: *verdict,
                moves: moves.iter().map(|m| point(m)).collect(),
            })
            .collect(),
        board,
    }
}

/// Every proverb, with its diagrams parsed on the first call.
///
/// # Examples
/// ```
/// let proverbs = shoutan_problems::proverbs();
/// assert!(proverbs.iter().any(|p| p.zh == "七死八活"));
/// assert!(proverbs.iter().all(|p| !p.diagrams.is_empty()));
/// ```
#[must_use]
pub fn proverbs() -> &'static [Proverb] {
    &PROVERBS_PARSED
}

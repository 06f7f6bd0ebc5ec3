//! The grades of the problem sets, as Chinese go schools name the levels
//! a student climbs through: 入门, 初级, 中级, 高级, 高段.

use serde::Serialize;

/// How hard a set is, from a beginner's first captures to dan level.
///
/// Ordered from easiest to hardest, so sets sort by grade.
///
/// # Examples
/// ```
/// use shoutan_problems::Grade;
/// assert_eq!(Grade::Elementary.zh(), "初级");
/// assert_eq!(Grade::Dan.en(), "Dan");
/// assert!(Grade::Entry < Grade::Advanced);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Grade {
    /// 入门: the rules in action — atari, capture, the basic 手筋.
    Entry,
    /// 初级: the basic eye shapes and their vital points.
    Elementary,
    /// 中级: corner shapes and capturing races.
    Intermediate,
    /// 高级: composed life and death that needs reading.
    Advanced,
    /// 高段: harder composed life and death, for dan players.
    Dan,
}

impl Grade {
    /// Every grade, easiest first.
    pub const ALL: [Grade; 5] = [
        Grade::Entry,
        Grade::Elementary,
        Grade::Intermediate,
        Grade::Advanced,
        Grade::Dan,
    ];

    /// The grade's Chinese name (入门 …).
    #[must_use]
    pub fn zh(self) -> &'static str {
        match self {
            Grade::Entry => "入门",
            Grade::Elementary => "初级",
            Grade::Intermediate => "中级",
            Grade::Advanced => "高级",
            Grade::Dan => "高段",
        }
    }

    /// The grade's English name (Entry …).
    #[must_use]
    pub fn en(self) -> &'static str {
        match self {
            Grade::Entry => "Entry",
            Grade::Elementary => "Elementary",
            Grade::Intermediate => "Intermediate",
            Grade::Advanced => "Advanced",
            Grade::Dan => "Dan",
        }
    }
}

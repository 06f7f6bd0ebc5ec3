//! A problem set: problems of one theme and grade, studied in order.

use crate::{Entry, Grade};

/// A graded set of problems, as a book chapter or a school's worksheet
/// gathers them: one theme, one level, numbered from 1.
#[derive(Clone, Debug)]
pub struct ProblemSet {
    /// The set's name in links and in [`Entry::id`] (`rumen-chizi`).
    pub slug: &'static str,
    /// Its Chinese name (入门·吃子).
    pub name_zh: &'static str,
    /// Its English name.
    pub name_en: &'static str,
    /// How hard it is.
    pub grade: Grade,
    /// Where the problems come from.
    pub source: &'static str,
    /// The problems, problem `n` at index `n - 1`.
    pub problems: Vec<Entry>,
}

impl ProblemSet {
    /// Problem `number` (from 1), if the set has it.
    ///
    /// # Examples
    /// ```
    /// let set = &shoutan_problems::library()[0];
    /// assert_eq!(set.problem(1).unwrap().number, 1);
    /// assert!(set.problem(0).is_none());
    /// ```
    #[must_use]
    pub fn problem(&self, number: u32) -> Option<&Entry> {
        let index = usize::try_from(number.checked_sub(1)?).ok()?;
        self.problems.get(index)
    }
}

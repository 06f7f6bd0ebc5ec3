//! Who owns each point as KataGo sees it (`Board::calculateArea`,
//! `Board::calculateIndependentLifeArea` in `game/board.cpp`): Benson's
//! pass-alive chains and the territory they enclose, optionally the big
//! empty regions one colour surrounds and the stones of no pass-alive
//! chain. Input planes 18 and 19 and the score of an ended game read it.
//!
//! Shoutan's own [`pass_alive`](shoutan_rules::pass_alive) differs in
//! details; these are KataGo's: a region is vital to a chain when every
//! empty point of it (every point, where multi-stone suicide is legal)
//! touches the chain, and a region bordered only by pass-alive chains
//! is territory when at most one of its points (empty or not) touches
//! none of the owner's stones.

use crate::board::{BLACK, ChainBoard, EMPTY, Loc, WHITE, other};

/// What [`calculate_area`] marks besides pass-alive chains and territory.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AreaOptions {
    /// Stones of chains that are not pass-alive, as their own colour's.
    pub non_pass_alive_stones: bool,
    /// Empty regions with no opponent stone, bordered by pass-alive chains
    /// only, however big.
    pub safe_big_territories: bool,
    /// Empty regions with no opponent stone, whatever borders them, where
    /// nothing else was marked.
    pub unsafe_big_territories: bool,
    /// Whether multi-stone suicide is legal (more regions are vital).
    pub multi_stone_suicide: bool,
}

/// The owner of every cell ([`EMPTY`] for no one and off the board).
pub(crate) fn calculate_area(board: &ChainBoard, options: AreaOptions) -> Vec<u8> {
    let mut area = vec![EMPTY; board.cell_count()];
    let mut scratch = Scratch::new(board);
    for pla in [BLACK, WHITE] {
        scratch.area_for(board, pla, options, &mut area);
    }
    if options.non_pass_alive_stones {
        for loc in board.locs() {
            if area[usize::from(loc)] == EMPTY {
                area[usize::from(loc)] = board.color(loc);
            }
        }
    }
    area
}

/// KataGo's area for taxed rules: the basic area (everything marked, as
/// [`calculate_area`] with every option), then only the regions of one
/// owner that touch no neutral point and hold no owner's stone in atari
/// (independent life); seki is no one's. With `keep_territories` or
/// `keep_stones`, the basic area's territory or stones are kept too.
/// Returns the owners and white's independent regions minus black's.
pub(crate) fn independent_life_area(
    board: &ChainBoard,
    keep_territories: bool,
    keep_stones: bool,
    multi_stone_suicide: bool,
) -> (Vec<u8>, i32) {
    let basic = calculate_area(
        board,
        AreaOptions {
            non_pass_alive_stones: true,
            safe_big_territories: true,
            unsafe_big_territories: true,
            multi_stone_suicide,
        },
    );
    let cells = board.cell_count();
    let mut in_seki = vec![false; cells];
    let mut queue: Vec<Loc> = Vec::with_capacity(cells);
    for loc in board.locs() {
        let owner = basic[usize::from(loc)];
        if owner == EMPTY || in_seki[usize::from(loc)] {
            continue;
        }
        let in_atari = board.color(loc) == owner && board.libs(loc) == 1;
        let touches_neutral = board
            .adjacent(loc)
            .iter()
            .any(|&a| board.color(a) == EMPTY && basic[usize::from(a)] == EMPTY);
        if in_atari || touches_neutral {
            in_seki[usize::from(loc)] = true;
            queue.clear();
            queue.push(loc);
            while let Some(cur) = queue.pop() {
                for a in board.adjacent(cur) {
                    if basic[usize::from(a)] == owner && !in_seki[usize::from(a)] {
                        in_seki[usize::from(a)] = true;
                        queue.push(a);
                    }
                }
            }
        }
    }
    let mut area = vec![EMPTY; cells];
    let mut white_minus_black = 0;
    for loc in board.locs() {
        let owner = basic[usize::from(loc)];
        if owner == EMPTY || in_seki[usize::from(loc)] || area[usize::from(loc)] == owner {
            continue;
        }
        white_minus_black += if owner == WHITE { 1 } else { -1 };
        area[usize::from(loc)] = owner;
        queue.clear();
        queue.push(loc);
        while let Some(cur) = queue.pop() {
            for a in board.adjacent(cur) {
                if basic[usize::from(a)] == owner && area[usize::from(a)] != owner {
                    area[usize::from(a)] = owner;
                    queue.push(a);
                }
            }
        }
    }
    for loc in board.locs() {
        let owner = basic[usize::from(loc)];
        let is_stone = owner == board.color(loc);
        if owner != EMPTY && ((keep_territories && !is_stone) || (keep_stones && is_stone)) {
            area[usize::from(loc)] = owner;
        }
    }
    (area, white_minus_black)
}

/// A maximal connected region of empty points and `pla`'s opponent's
/// stones.
struct Region {
    /// Its cells are `cells[start..end]`.
    start: usize,
    end: usize,
    /// Heads of `pla`'s chains that touch every point of it that counts.
    vital_for: [Loc; 4],
    vital_count: usize,
    /// Points touching no stone of `pla`, up to 2.
    internal: u8,
    contains_opponent: bool,
    borders_dead_chain: bool,
}

/// No region.
const NO_REGION: u16 = u16::MAX;

/// Buffers of [`calculate_area`], for both colours.
struct Scratch {
    /// The cells' contents, contiguous.
    colors: Vec<u8>,
    region_of: Vec<u16>,
    region_cells: Vec<Loc>,
    regions: Vec<Region>,
    heads: Vec<Loc>,
    vital_regions: Vec<u16>,
    dead: Vec<bool>,
}

impl Scratch {
    fn new(board: &ChainBoard) -> Scratch {
        let cells = board.cell_count();
        let mut colors = vec![u8::MAX; cells];
        for loc in board.locs() {
            colors[usize::from(loc)] = board.color(loc);
        }
        Scratch {
            colors,
            region_of: vec![NO_REGION; cells],
            region_cells: Vec::with_capacity(cells),
            regions: Vec::with_capacity(64),
            heads: Vec::with_capacity(64),
            vital_regions: vec![0; cells],
            dead: Vec::with_capacity(64),
        }
    }

    /// Whether a stone of `pla` touches `loc`.
    fn touches(&self, loc: Loc, pla: u8, board: &ChainBoard) -> bool {
        let [a, b, c, d] = board
            .adjacent(loc)
            .map(|n| self.colors[usize::from(n)] == pla);
        a | b | c | d
    }

    /// Marks `pla`'s pass-alive chains and territory in `area`, over what
    /// the other colour marked before.
    fn area_for(&mut self, board: &ChainBoard, pla: u8, options: AreaOptions, area: &mut [u8]) {
        let opp = other(pla);
        self.region_of.fill(NO_REGION);
        self.region_cells.clear();
        self.regions.clear();
        let mut any_pla = false;
        for loc in board.locs() {
            let color = self.colors[usize::from(loc)];
            any_pla |= color == pla;
            if color != EMPTY || self.region_of[usize::from(loc)] != NO_REGION {
                continue;
            }
            let index = self.regions.len() as u16;
            let mut region = Region {
                start: self.region_cells.len(),
                end: self.region_cells.len(),
                vital_for: [0; 4],
                vital_count: 0,
                internal: 0,
                contains_opponent: false,
                borders_dead_chain: false,
            };
            for a in board.adjacent(loc) {
                if self.colors[usize::from(a)] == pla {
                    let head = board.head(a);
                    if !region.vital_for[..region.vital_count].contains(&head) {
                        region.vital_for[region.vital_count] = head;
                        region.vital_count += 1;
                    }
                }
            }
            self.region_of[usize::from(loc)] = index;
            self.region_cells.push(loc);
            let mut next = region.start;
            while next < self.region_cells.len() {
                let cur = self.region_cells[next];
                next += 1;
                let color = self.colors[usize::from(cur)];
                if region.vital_count > 0 && (options.multi_stone_suicide || color == EMPTY) {
                    let mut kept = 0;
                    for i in 0..region.vital_count {
                        let head = region.vital_for[i];
                        if board
                            .adjacent(cur)
                            .iter()
                            .any(|&a| self.colors[usize::from(a)] == pla && board.head(a) == head)
                        {
                            region.vital_for[kept] = head;
                            kept += 1;
                        }
                    }
                    region.vital_count = kept;
                }
                if region.internal < 2 && !self.touches(cur, pla, board) {
                    region.internal += 1;
                }
                region.contains_opponent |= color == opp;
                for a in board.adjacent(cur) {
                    let c = self.colors[usize::from(a)];
                    if (c == EMPTY || c == opp) && self.region_of[usize::from(a)] == NO_REGION {
                        self.region_of[usize::from(a)] = index;
                        self.region_cells.push(a);
                    }
                }
            }
            region.end = self.region_cells.len();
            self.regions.push(region);
        }

        // Benson: a chain with fewer than two vital regions is not
        // pass-alive, and no region next to it is vital to anyone any more.
        self.heads.clear();
        self.heads.extend(
            board
                .locs()
                .filter(|&l| self.colors[usize::from(l)] == pla && board.head(l) == l),
        );
        for &head in &self.heads {
            self.vital_regions[usize::from(head)] = 0;
        }
        for region in &self.regions {
            for &head in &region.vital_for[..region.vital_count] {
                self.vital_regions[usize::from(head)] += 1;
            }
        }
        self.dead.clear();
        self.dead.resize(self.heads.len(), false);
        loop {
            let mut killed = false;
            for (i, &head) in self.heads.iter().enumerate() {
                if self.dead[i] || self.vital_regions[usize::from(head)] >= 2 {
                    continue;
                }
                self.dead[i] = true;
                killed = true;
                let mut cur = head;
                loop {
                    for a in board.adjacent(cur) {
                        let index = self.region_of[usize::from(a)];
                        if index == NO_REGION {
                            continue;
                        }
                        let region = &mut self.regions[usize::from(index)];
                        if !region.borders_dead_chain {
                            region.borders_dead_chain = true;
                            for &h in &region.vital_for[..region.vital_count] {
                                self.vital_regions[usize::from(h)] -= 1;
                            }
                        }
                    }
                    cur = board.next(cur);
                    if cur == head {
                        break;
                    }
                }
            }
            if !killed {
                break;
            }
        }

        for (i, &head) in self.heads.iter().enumerate() {
            if self.dead[i] {
                continue;
            }
            let mut cur = head;
            loop {
                area[usize::from(cur)] = pla;
                cur = board.next(cur);
                if cur == head {
                    break;
                }
            }
        }
        for region in &self.regions {
            let cells = &self.region_cells[region.start..region.end];
            let enclosed = !region.borders_dead_chain && any_pla;
            let territory = enclosed
                && (region.internal <= 1
                    || (options.safe_big_territories && !region.contains_opponent));
            if territory {
                // Over the other colour's marks: pass-dead stones it surrounds.
                for &loc in cells {
                    area[usize::from(loc)] = pla;
                }
            } else if options.unsafe_big_territories && !region.contains_opponent && any_pla {
                for &loc in cells {
                    if area[usize::from(loc)] == EMPTY {
                        area[usize::from(loc)] = pla;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// KataGo's own area tests: positions and its areas (see the file).
    const KATAGO_AREAS: &str = include_str!("../tests/data/features-katago-area.txt");

    fn render(board: &ChainBoard, area: &[u8]) -> Vec<String> {
        let n = usize::from(board.size().get());
        let mut rows = vec![String::new(); n];
        for loc in board.locs() {
            rows[board.point(loc).row() as usize].push(match area[usize::from(loc)] {
                BLACK => 'X',
                WHITE => 'O',
                _ => '.',
            });
        }
        rows
    }

    /// The numbers in `line`, in order.
    fn numbers(line: &str) -> Vec<i32> {
        line.split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect()
    }

    #[test]
    fn katagos_area_tests_get_katagos_areas() {
        let mut lines = KATAGO_AREAS
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .peekable();
        let mut results = 0;
        while let Some(line) = lines.next() {
            let name = line.strip_prefix("case ").expect("a case");
            let mut rows = Vec::new();
            while lines.peek().is_some_and(|l| !l.starts_with("expect")) {
                rows.extend(lines.next());
            }
            let board = ChainBoard::from_board(&rows.join("\n").parse().expect("a diagram"));
            while let Some(expect) = lines.next_if(|l| l.starts_with("expect")) {
                let flags = numbers(expect);
                let expected: Vec<String> = (0..rows.len())
                    .map(|_| lines.next().expect("a row").to_owned())
                    .collect();
                let (area, regions) = if expect.starts_with("expect area") {
                    let options = AreaOptions {
                        safe_big_territories: flags[0] == 1,
                        unsafe_big_territories: flags[1] == 1,
                        non_pass_alive_stones: flags[2] == 1,
                        multi_stone_suicide: flags[3] == 1,
                    };
                    (calculate_area(&board, options), None)
                } else {
                    let (area, regions) =
                        independent_life_area(&board, flags[0] == 1, flags[1] == 1, flags[2] == 1);
                    (area, Some(regions))
                };
                assert_eq!(render(&board, &area), expected, "{name}: {expect}");
                if let Some(regions) = regions {
                    assert_eq!(regions, flags[3], "{name}: {expect}");
                }
                results += 1;
            }
        }
        assert_eq!(results, 48);
    }
}

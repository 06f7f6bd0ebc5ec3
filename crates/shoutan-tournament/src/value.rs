//! Exact values for scores and tie-breaks: points are integers (2/1/0) but
//! 胜者小分 takes halves, the Chinese total score divides by the number of
//! rounds and the 1988 withdrawal rule averages, so standings compare exact
//! fractions rather than floats.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, AddAssign, Neg, Sub};

/// An exact fraction, always reduced, with a positive denominator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Value {
    num: i64,
    den: i64,
}

fn gcd(mut a: i64, mut b: i64) -> i64 {
    a = a.abs();
    b = b.abs();
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

impl Value {
    /// Zero.
    pub const ZERO: Value = Value { num: 0, den: 1 };

    /// A whole number.
    #[must_use]
    pub const fn int(n: i64) -> Value {
        Value { num: n, den: 1 }
    }

    /// `num / den`.
    ///
    /// # Panics
    /// If `den` is zero.
    #[must_use]
    pub fn ratio(num: i64, den: i64) -> Value {
        assert!(den != 0, "zero denominator");
        let sign = if den < 0 { -1 } else { 1 };
        let g = gcd(num, den);
        Value {
            num: sign * num / g,
            den: sign * den / g,
        }
    }

    /// This value divided by a whole number (not zero).
    #[must_use]
    pub fn div_int(self, d: i64) -> Value {
        Value::ratio(self.num, self.den * d)
    }

    /// This value multiplied by a whole number.
    #[must_use]
    pub fn mul_int(self, m: i64) -> Value {
        Value::ratio(self.num * m, self.den)
    }

    /// The value as a float, for display and export only.
    #[must_use]
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl Add for Value {
    type Output = Value;
    fn add(self, o: Value) -> Value {
        Value::ratio(self.num * o.den + o.num * self.den, self.den * o.den)
    }
}

impl AddAssign for Value {
    fn add_assign(&mut self, o: Value) {
        *self = *self + o;
    }
}

impl Sub for Value {
    type Output = Value;
    fn sub(self, o: Value) -> Value {
        self + (-o)
    }
}

impl Neg for Value {
    type Output = Value;
    fn neg(self) -> Value {
        Value {
            num: -self.num,
            den: self.den,
        }
    }
}

impl std::iter::Sum for Value {
    fn sum<I: Iterator<Item = Value>>(iter: I) -> Value {
        iter.fold(Value::ZERO, Add::add)
    }
}

impl Ord for Value {
    fn cmp(&self, o: &Value) -> Ordering {
        (i128::from(self.num) * i128::from(o.den)).cmp(&(i128::from(o.num) * i128::from(self.den)))
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, o: &Value) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl fmt::Display for Value {
    /// Whole numbers plainly (`12`), halves as `12.5`, anything else to
    /// three decimals (`3.667`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else if self.den == 2 || self.den == 4 {
            let s = format!("{:.2}", self.to_f64());
            f.write_str(s.trim_end_matches('0'))
        } else {
            write!(f, "{:.3}", self.to_f64())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_is_exact() {
        let third = Value::ratio(1, 3);
        assert_eq!(third + third + third, Value::int(1));
        assert!(Value::ratio(2, 3) > Value::ratio(3, 5));
        assert_eq!(Value::ratio(5, 2).to_string(), "2.5");
        assert_eq!(Value::ratio(7, 4).to_string(), "1.75");
        assert_eq!(Value::ratio(11, 3).to_string(), "3.667");
        assert_eq!(Value::ratio(3, -6), Value::ratio(-1, 2));
    }
}

//! The hasher behind [`Engine::state_hash`](crate::Engine::state_hash): a state's fingerprint.
//!
//! The explorer tells states apart by their 64-bit fingerprint alone, so the hash must mix well;
//! it runs once per transition, so it must be cheap. Words go in two at a time through a folded
//! 64×64→128 multiply (as in wyhash and foldhash), which mixes every input bit into the state
//! at the cost of one multiplication per 16 bytes: a word waits for the next one, and the last
//! one is mixed alone when the hash finishes. Unlike `DefaultHasher` it is the same on every
//! platform and version.

use std::hash::Hasher;

/// Odd constants with no structure (the fractional digits of pi), one per role.
const SEED: u64 = 0x243f_6a88_85a3_08d3;
const WORD: u64 = 0x1319_8a2e_0370_7344;
const BYTES: u64 = 0xa409_3822_299f_31d0;
const FINISH: u64 = 0x082e_fa98_ec4e_6c89;
const PAIR: u64 = 0x4528_21e6_38d0_1377;

/// A fast, portable, well-mixing 64-bit hasher.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fingerprint {
    state: u64,
    /// A word written and not mixed yet: it waits for the next one.
    pending: Option<u64>,
}

impl Default for Fingerprint {
    fn default() -> Self {
        Fingerprint {
            state: SEED,
            pending: None,
        }
    }
}

/// The high and low halves of the full product, folded together: every bit of both inputs
/// reaches the middle bits of the result.
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn folded_multiply(left: u64, right: u64) -> u64 {
    let product = u128::from(left) * u128::from(right);
    (product as u64) ^ ((product >> 64) as u64)
}

/// The same fold, for wasm: it has no 64×64→128 multiply, so `u128` calls a library routine
/// that returns through memory. Four 32×32→64 products in registers give the same result.
#[cfg(target_arch = "wasm32")]
#[inline(always)]
fn folded_multiply(left: u64, right: u64) -> u64 {
    folded_multiply_by_halves(left, right)
}

#[cfg(any(target_arch = "wasm32", test))]
#[inline(always)]
fn folded_multiply_by_halves(left: u64, right: u64) -> u64 {
    const LOW: u64 = 0xffff_ffff;
    let (left_low, left_high) = (left & LOW, left >> 32);
    let (right_low, right_high) = (right & LOW, right >> 32);
    let low = left_low * right_low;
    let cross_a = left_high * right_low;
    let cross_b = left_low * right_high;
    let high = left_high * right_high;
    // Bits 32 to 95 of the product, below 2^34: no carry is lost.
    let middle = (low >> 32) + (cross_a & LOW) + (cross_b & LOW);
    let product_low = (low & LOW) | middle << 32;
    let product_high = high + (cross_a >> 32) + (cross_b >> 32) + (middle >> 32);
    product_low ^ product_high
}

impl Fingerprint {
    /// Mixes two words into `state`: the state goes into both factors, so the order of the
    /// pairs counts, and each word into one, so the order within a pair counts.
    #[inline(always)]
    fn mix_pair(state: u64, first: u64, second: u64) -> u64 {
        folded_multiply(state ^ first ^ PAIR, state.rotate_left(23) ^ second ^ WORD)
    }

    /// Mixes a word alone (the last of an odd count).
    #[inline(always)]
    fn mix_one(state: u64, word: u64) -> u64 {
        folded_multiply(state ^ word, WORD ^ state.rotate_left(23))
    }

    #[inline(always)]
    fn mix(&mut self, word: u64) {
        match self.pending.take() {
            None => self.pending = Some(word),
            Some(first) => self.state = Self::mix_pair(self.state, first, word),
        }
    }

    /// `write_u64(first)` then `write_u64(second)`, in one call: where no word is waiting
    /// (known where the caller writes words in pairs from a fresh hasher) both are mixed at
    /// once, without the bookkeeping of a word at a time.
    #[inline(always)]
    pub(crate) fn write_pair(&mut self, first: u64, second: u64) {
        match self.pending {
            None => self.state = Self::mix_pair(self.state, first, second),
            Some(earlier) => {
                self.state = Self::mix_pair(self.state, earlier, first);
                self.pending = Some(second);
            }
        }
    }

    /// A text, as its length and bytes (`write`). Unlike `str`'s `Hash`, no terminator follows:
    /// the length first already keeps apart texts written one after another.
    #[inline(always)]
    pub(crate) fn write_text(&mut self, text: &str) {
        self.write(text.as_bytes());
    }
}

/// The last `rest` bytes of `bytes` (1 to 7 of them) as a little-endian word padded with zeros,
/// read in at most two loads rather than a byte at a time: a copy of a variable length would
/// call `memcpy` for every text hashed. A longer text's last eight bytes are read whole and the
/// ones already mixed shifted out; a shorter text is read as two words that overlap, whose
/// shared bytes are the same.
#[inline(always)]
fn last_word(bytes: &[u8], rest: usize) -> u64 {
    let length = bytes.len();
    if length >= 8 {
        let last = u64::from_le_bytes(bytes[length - 8..].try_into().expect("8 bytes"));
        return last >> (8 * (8 - rest));
    }
    // The whole text is the rest.
    let read = |at: usize, width: usize| -> u64 {
        match width {
            4 => u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes")).into(),
            2 => u16::from_le_bytes(bytes[at..at + 2].try_into().expect("2 bytes")).into(),
            _ => bytes[at].into(),
        }
    };
    let width = match length {
        4.. => 4,
        2.. => 2,
        _ => 1,
    };
    read(0, width) | read(length - width, width) << (8 * (length - width))
}

impl Hasher for Fingerprint {
    #[inline(always)]
    fn finish(&self) -> u64 {
        let state = match self.pending {
            Some(word) => Self::mix_one(self.state, word),
            None => self.state,
        };
        folded_multiply(state, FINISH)
    }

    fn write(&mut self, bytes: &[u8]) {
        // The length first, so texts that differ only in trailing zero bytes differ.
        self.mix(BYTES ^ bytes.len() as u64);
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.mix(u64::from_le_bytes(chunk.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            self.mix(last_word(bytes, rest.len()));
        }
    }

    #[inline(always)]
    fn write_u8(&mut self, value: u8) {
        self.mix(value.into());
    }

    #[inline(always)]
    fn write_u16(&mut self, value: u16) {
        self.mix(value.into());
    }

    #[inline(always)]
    fn write_u32(&mut self, value: u32) {
        self.mix(value.into());
    }

    #[inline(always)]
    fn write_u64(&mut self, value: u64) {
        self.mix(value);
    }

    /// As a `u64`, so a fingerprint is the same on 32-bit targets (wasm).
    #[inline(always)]
    fn write_usize(&mut self, value: usize) {
        self.mix(value as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::Hash;

    fn of(value: impl Hash) -> u64 {
        let mut hasher = Fingerprint::default();
        value.hash(&mut hasher);
        hasher.finish()
    }

    #[test]
    fn tells_apart_what_differs() {
        assert_eq!(of((1u32, "a")), of((1u32, "a")));
        assert_ne!(of("a"), of("a\0"));
        assert_ne!(of(("ab", "c")), of(("a", "bc")));
        assert_ne!(of((0u64, 1u64)), of((1u64, 0u64)));
        assert_ne!(of(0u64), of(()));
        // Pairs, and a pair against the same words alone or regrouped.
        assert_ne!(of((1u64, 2u64, 3u64)), of((1u64, 3u64, 2u64)));
        assert_ne!(of((1u64, 2u64, 3u64, 4u64)), of((3u64, 4u64, 1u64, 2u64)));
        assert_ne!(of((5u64, 0u64)), of(5u64));
    }

    #[test]
    fn the_fold_by_halves_is_the_full_products_fold() {
        let full = |left: u64, right: u64| {
            let product = u128::from(left) * u128::from(right);
            (product as u64) ^ ((product >> 64) as u64)
        };
        let edges = [
            0,
            1,
            0xffff_ffff,
            0x1_0000_0000,
            u64::MAX,
            u64::MAX - 1,
            SEED,
            FINISH,
        ];
        for left in edges {
            for right in edges {
                assert_eq!(folded_multiply_by_halves(left, right), full(left, right));
            }
        }
        // A pinned sequence of pseudo-random pairs (each product feeds the next inputs).
        let (mut left, mut right) = (WORD, PAIR);
        for _ in 0..100_000 {
            assert_eq!(folded_multiply_by_halves(left, right), full(left, right));
            (left, right) = (full(left, BYTES) ^ right, left.rotate_left(17) ^ SEED);
        }
    }

    #[test]
    fn a_pair_is_its_two_words() {
        for waiting in [None, Some(7u64)] {
            let mut paired = Fingerprint::default();
            let mut single = Fingerprint::default();
            if let Some(word) = waiting {
                paired.write_u64(word);
                single.write_u64(word);
            }
            paired.write_pair(1, 2);
            single.write_u64(1);
            single.write_u64(2);
            assert_eq!(paired.finish(), single.finish());
        }
        let text = |texts: &[&str]| {
            let mut hasher = Fingerprint::default();
            texts.iter().for_each(|text| hasher.write_text(text));
            hasher.finish()
        };
        assert_ne!(text(&["ab", "c"]), text(&["a", "bc"]));
        assert_ne!(text(&["a", ""]), text(&["a"]));
        assert_ne!(text(&["\0"]), text(&[""]));
    }

    #[test]
    fn the_last_word_is_the_rest_padded_with_zeros() {
        let text: Vec<u8> = (1..=40u8).map(|byte| byte.wrapping_mul(37)).collect();
        for length in 1..=text.len() {
            let bytes = &text[..length];
            let rest = length % 8;
            if rest == 0 {
                continue;
            }
            let padded = bytes[length - rest..]
                .iter()
                .rev()
                .fold(0u64, |word, &byte| word << 8 | u64::from(byte));
            assert_eq!(last_word(bytes, rest), padded, "{length} bytes");
        }
    }

    #[test]
    fn small_inputs_do_not_collide() {
        let mut seen = std::collections::HashSet::new();
        for first in 0..300u32 {
            for second in 0..300u32 {
                assert!(seen.insert(of((first, second))), "({first}, {second})");
            }
        }
        for length in 0..64usize {
            assert!(seen.insert(of(vec![0u8; length])), "{length} zero bytes");
        }
    }
}

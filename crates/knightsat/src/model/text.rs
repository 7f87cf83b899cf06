//! Showing text from outside in messages.

/// Text from outside (a token, a line, a name) as a message may show it:
/// control characters escaped and at most 60 characters, so that a message
/// stays one short line whatever the input holds.
pub fn shown(text: &str) -> String {
    const MAX: usize = 60;
    let mut out = String::new();
    for (count, c) in text.chars().enumerate() {
        if count == MAX {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_text_is_one_short_line() {
        assert_eq!(shown("a1"), "a1");
        assert_eq!(shown("a\nb\u{1b}[31m"), "a\\nb\\u{1b}[31m");
        let long = "x".repeat(1000);
        assert_eq!(shown(&long).chars().count(), 61);
    }
}

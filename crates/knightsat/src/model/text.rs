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
        if c.is_control() || is_invisible(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Characters that print as nothing, or as a blank other than a space,
/// and so would hide in a message: format characters (zero-width spaces and
/// joiners, direction marks and overrides, the byte-order mark, the soft
/// hyphen) and the blanks other than U+0020.
fn is_invisible(c: char) -> bool {
    (c.is_whitespace() && c != ' ')
        || matches!(
            c,
            '\u{ad}'
                | '\u{34f}'
                | '\u{61c}'
                | '\u{115f}'..='\u{1160}'
                | '\u{17b4}'..='\u{17b5}'
                | '\u{180b}'..='\u{180f}'
                | '\u{200b}'..='\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2060}'..='\u{206f}'
                | '\u{3164}'
                | '\u{fe00}'..='\u{fe0f}'
                | '\u{feff}'
                | '\u{ffa0}'
                | '\u{fff0}'..='\u{fffb}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_text_is_one_short_line() {
        assert_eq!(shown("a1"), "a1");
        assert_eq!(shown("a\nb\u{1b}[31m"), "a\\nb\\u{1b}[31m");
        assert_eq!(
            shown("\u{feff}a1\u{200b} b\u{a0}"),
            "\\u{feff}a1\\u{200b} b\\u{a0}"
        );
        let long = "x".repeat(1000);
        assert_eq!(shown(&long).chars().count(), 61);
    }
}

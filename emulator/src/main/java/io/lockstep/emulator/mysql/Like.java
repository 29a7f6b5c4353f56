package io.lockstep.emulator.mysql;

import java.util.regex.Pattern;

/** SQL {@code LIKE} patterns of SHOW statements ({@code %} any run, {@code _} one character, case-insensitive). */
final class Like {
    private Like() {
    }

    /** A LIKE pattern as a regex. */
    static Pattern pattern(String like) {
        StringBuilder regex = new StringBuilder();
        for (char ch : like.toCharArray()) {
            if (ch == '%') {
                regex.append(".*");
            } else if (ch == '_') {
                regex.append('.');
            } else {
                regex.append(Pattern.quote(String.valueOf(ch)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    }

    /**
     * The text of a quoted literal ({@code 'p'} or {@code "p"}, doubled quotes unescaped).
     *
     * @throws SqlError 1064 when the text is not one quoted literal
     */
    static String literal(String quoted) {
        if (quoted.length() < 2 || (quoted.charAt(0) != '\'' && quoted.charAt(0) != '"')
                || quoted.charAt(quoted.length() - 1) != quoted.charAt(0)) {
            throw SqlError.syntax("expected a quoted pattern after LIKE, got: " + quoted);
        }
        char q = quoted.charAt(0);
        return quoted.substring(1, quoted.length() - 1).replace(String.valueOf(q) + q, String.valueOf(q));
    }
}

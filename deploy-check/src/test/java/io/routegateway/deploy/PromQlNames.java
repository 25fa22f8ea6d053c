package io.routegateway.deploy;

import java.util.Set;
import java.util.TreeSet;

/**
 * The metric names a PromQL expression reads: every identifier that is not a function, a keyword, a label
 * name (in a matcher or a {@code by}/{@code without}/{@code on}/{@code ignoring}/{@code group_*} list), a
 * string, a duration or a Grafana variable. A small tokenizer, enough for the queries this project writes;
 * promtool checks that they parse.
 */
final class PromQlNames {

    private static final Set<String> KEYWORDS = Set.of(
            "and",
            "or",
            "unless",
            "by",
            "without",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "bool",
            "offset",
            "atan2",
            "inf",
            "nan",
            // aggregation operators, which may stand before their by/without clause
            "sum",
            "min",
            "max",
            "avg",
            "group",
            "stddev",
            "stdvar",
            "count",
            "count_values",
            "bottomk",
            "topk",
            "quantile",
            "limitk",
            "limit_ratio");

    /** Keywords followed by a parenthesised list of label names. */
    private static final Set<String> LABEL_LISTS =
            Set.of("by", "without", "on", "ignoring", "group_left", "group_right");

    private PromQlNames() {}

    static Set<String> of(String expr) {
        Set<String> names = new TreeSet<>();
        int i = 0;
        int n = expr.length();
        boolean labelList = false;
        while (i < n) {
            char c = expr.charAt(i);
            if (c == '"' || c == '\'' || c == '`') {
                i = skipString(expr, i);
            } else if (c == '{') {
                i = skipBraces(expr, i);
            } else if (c == '[') {
                i = expr.indexOf(']', i) + 1;
                if (i == 0) {
                    throw new IllegalArgumentException("unclosed [ in " + expr);
                }
            } else if (c == '$') {
                // a Grafana variable such as $__rate_interval or ${datasource}
                i++;
                if (i < n && expr.charAt(i) == '{') {
                    i = expr.indexOf('}', i) + 1;
                } else {
                    while (i < n && (Character.isLetterOrDigit(expr.charAt(i)) || expr.charAt(i) == '_')) {
                        i++;
                    }
                }
            } else if (c == '(' && labelList) {
                i = expr.indexOf(')', i) + 1;
                labelList = false;
            } else if (Character.isLetter(c) || c == '_' || c == ':') {
                int start = i;
                while (i < n
                        && (Character.isLetterOrDigit(expr.charAt(i))
                                || expr.charAt(i) == '_'
                                || expr.charAt(i) == ':')) {
                    i++;
                }
                String word = expr.substring(start, i);
                int next = skipSpaces(expr, i);
                boolean call = next < n && expr.charAt(next) == '(';
                String lower = word.toLowerCase(java.util.Locale.ROOT);
                if (LABEL_LISTS.contains(lower)) {
                    labelList = true;
                } else if (!KEYWORDS.contains(lower) && !call) {
                    names.add(word);
                }
            } else if (Character.isDigit(c) || c == '.') {
                // a number, possibly with an exponent or a duration unit (5m, 1e3)
                while (i < n && (Character.isLetterOrDigit(expr.charAt(i)) || expr.charAt(i) == '.')) {
                    i++;
                }
            } else {
                i++;
            }
        }
        return names;
    }

    private static int skipSpaces(String expr, int i) {
        while (i < expr.length() && Character.isWhitespace(expr.charAt(i))) {
            i++;
        }
        return i;
    }

    private static int skipString(String expr, int i) {
        char quote = expr.charAt(i);
        i++;
        while (i < expr.length() && expr.charAt(i) != quote) {
            if (expr.charAt(i) == '\\' && quote != '`') {
                i++;
            }
            i++;
        }
        return i + 1;
    }

    private static int skipBraces(String expr, int i) {
        while (i < expr.length() && expr.charAt(i) != '}') {
            if (expr.charAt(i) == '"' || expr.charAt(i) == '\'') {
                i = skipString(expr, i);
            } else {
                i++;
            }
        }
        return i + 1;
    }
}

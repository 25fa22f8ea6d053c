package io.routegateway.core.text;

/**
 * One CSV cell (RFC 4180) that a spreadsheet opens as text: a cell that begins with {@code =},
 * {@code +}, {@code -}, {@code @}, a tab or a carriage return would be read as a formula (CSV
 * injection, OWASP), so it gets a leading apostrophe; a cell holding a comma, a quote or a line break
 * is quoted with its quotes doubled. Numbers the exporter writes itself are not text and are written
 * as they are.
 */
public final class CsvCell {

    private CsvCell() {}

    /** {@code text} as a cell; null is the empty cell. */
    public static String text(String text) {
        if (text == null || text.isEmpty()) {
            return "";
        }
        char first = text.charAt(0);
        String cell = first == '=' || first == '+' || first == '-' || first == '@' || first == '\t' || first == '\r'
                ? "'" + text
                : text;
        if (cell.indexOf(',') >= 0 || cell.indexOf('"') >= 0 || cell.indexOf('\n') >= 0 || cell.indexOf('\r') >= 0) {
            return '"' + cell.replace("\"", "\"\"") + '"';
        }
        return cell;
    }
}

package io.routegateway.core.text;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CsvCellTests {

    @Test
    void aCellThatASpreadsheetWouldReadAsAFormulaIsText() {
        assertThat(CsvCell.text("=HYPERLINK(\"http://x\")")).isEqualTo("\"'=HYPERLINK(\"\"http://x\"\")\"");
        assertThat(CsvCell.text("+1")).isEqualTo("'+1");
        assertThat(CsvCell.text("-2+3")).isEqualTo("'-2+3");
        assertThat(CsvCell.text("@SUM(A1)")).isEqualTo("'@SUM(A1)");
        assertThat(CsvCell.text("\tx")).isEqualTo("'\tx");
    }

    @Test
    void separatorsQuotesAndLineBreaksAreQuoted() {
        assertThat(CsvCell.text("a,b")).isEqualTo("\"a,b\"");
        assertThat(CsvCell.text("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
        assertThat(CsvCell.text("two\nlines")).isEqualTo("\"two\nlines\"");
    }

    @Test
    void plainTextAndNullStayAsTheyAre() {
        assertThat(CsvCell.text("gpt-5.6-sol")).isEqualTo("gpt-5.6-sol");
        assertThat(CsvCell.text(null)).isEmpty();
        assertThat(CsvCell.text("")).isEmpty();
    }
}

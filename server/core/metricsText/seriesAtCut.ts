// Which series a scrape cut short may have lost lines of. Families come one after the other and
// a series' lines one after the other, so the cut can only reach into the histogram or summary
// series being read when the text ends: that series is whole only once a line of something else
// was read after it. In that family, a series is also taken as whole only once its `_count` was
// read, so an exposition that writes its series' lines apart still loses none to the cut.

/** The series the text was inside when it ended, kept by family identity and series key. */
export class SeriesAtCut<Family> {
  private family: Family | null = null;
  private seriesKey: string | null = null;

  /**
   * A line was read whole: a histogram or summary sample of `family`'s series `seriesKey`, or
   * (`seriesKey` null) anything else that shows the series before it ended: a comment, a counter
   * or gauge sample, a `_created` sample.
   */
  lineRead(family: Family | null, seriesKey: string | null): void {
    this.family = seriesKey === null ? null : family;
    this.seriesKey = seriesKey;
  }

  /**
   * The line the text ends inside (not read), as far as it shows what it was: a comment, or a
   * sample whose name and labels were whole (`family` null: another family than any read).
   */
  cutLineSeen(family: Family | null, seriesKey: string | null): void {
    if (family === null || family !== this.family) this.lineRead(null, null);
    else if (seriesKey !== this.seriesKey) this.seriesKey = null;
  }

  /** Whether the cut may have reached the series (`count`: its `_count`, null when not read). */
  mayBeCut(family: Family, seriesKey: string, count: number | null): boolean {
    return family === this.family && (seriesKey === this.seriesKey || count === null);
  }
}

// Several files read as one log, in the order given (a log and its rotations, oldest first), for
// the one-shot readers (`analyze`, `explain`): each file's text (a gzip file's decompressed, told
// by its own first bytes) in turn, byte for byte as `gzip -dcf a b c` joins them, so a table or a
// line a rotation cut is read whole. A file whose gzip data breaks off ends the read there: what
// follows its break is lost, so the next file would not go on from it; the files after it are
// said unread. Import Log... reads its file, or several, through it too (importSource.ts).
import { baseName } from '../core/baseName';
import { gzipDamageText, type GzipDamageProblem, type GzipInputKind } from '../core/gzipInput';
import { JoinedLineCounter, type FileLines } from '../core/joinedLines';
import { fileChunks } from './fileChunks';
import { gunzipIfGzip, type InputEncoding } from './gunzipInput';

export class JoinedFiles {
  /**
   * What the files were, final once read: `compression` stays null (the files name what they
   * are), `logBytes` counts the gzip files' log, `damage` is the break that ended the read, its
   * sentence naming its file when there are several (damageText).
   */
  readonly encoding: InputEncoding = { compression: null, logBytes: 0, damage: null };
  /** The files not read because the one before them broke off (empty when every file was read). */
  unread: readonly string[] = [];
  /** The text of the files in order; each chunk valid only until the next is requested. */
  readonly chunks: AsyncIterable<Buffer>;
  /** Each file's lines in the joined text, so that a report can place its line numbers (several files only). */
  private readonly lineCounter: JoinedLineCounter | null;

  /** `files`: oldest first; each is opened when its turn comes (`open` throws its error, ENOENT ...). */
  constructor(
    readonly files: readonly string[],
    open: (file: string) => AsyncIterable<Buffer> = fileChunks,
  ) {
    this.lineCounter = files.length > 1 ? new JoinedLineCounter() : null;
    this.chunks = this.read(open);
  }

  /** The files read so far and where their lines are in the joined count; null for one file. */
  fileLines(): FileLines[] | null {
    return this.lineCounter?.files() ?? null;
  }

  /** The file whose gzip data broke off, or null. */
  get brokenFile(): string | null {
    return this.encoding.damage === null ? null : (this.files[this.files.length - this.unread.length - 1] ?? null);
  }

  /** Where the gzip data broke off, of a log or a scrape (`kind`), naming the file when there are several; null when none did. */
  damageText(kind: GzipInputKind): string | null {
    const damage = this.encoding.damage;
    const broken = this.brokenFile;
    return damage === null || broken === null ? null : this.breakText(damage, broken, kind);
  }

  private breakText(damage: GzipDamageProblem, file: string, kind: GzipInputKind): string {
    const { logBytes, zlibMessage } = damage.gzipDamaged;
    return gzipDamageText(logBytes, zlibMessage, kind, this.files.length > 1 ? baseName(file) : null);
  }

  private async *read(open: (file: string) => AsyncIterable<Buffer>): AsyncGenerator<Buffer, void, undefined> {
    for (let i = 0; i < this.files.length; i++) {
      const file = this.files[i] as string;
      const one = gunzipIfGzip(open(file));
      const counter = this.lineCounter;
      if (counter === null) yield* one.chunks;
      else {
        counter.startFile(file);
        for await (const chunk of one.chunks) {
          counter.count(chunk);
          yield chunk;
        }
      }
      this.encoding.logBytes += one.encoding.logBytes;
      const damage = one.encoding.damage;
      if (damage !== null) {
        this.encoding.damage = { ...damage, message: this.breakText(damage, file, 'log') };
        this.unread = this.files.slice(i + 1);
        return;
      }
    }
  }
}

/** "server.log.2.gz + server.log.1 + server.log": the files' names in the order read, as a report names its input. */
export function joinedName(files: readonly string[]): string {
  return files.join(' + ');
}

import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkNote } from '../../src/domain/note.js';
import { ApiError } from '../../src/errors.js';
import type { ImportFormat, ImportRow, UnreadableRow } from '../../src/imports/import-row.js';
import { readerOf } from '../../src/imports/formats/index.js';
import { noteOfTitle, slugOfShortUrl, tagsOfPeer } from '../../src/imports/formats/peer-fields.js';

const fixture = (file: string) => createReadStream(new URL(`../fixtures/imports/${file}`, import.meta.url));

async function read(format: ImportFormat, file: NodeJS.ReadableStream): Promise<Array<ImportRow | UnreadableRow>> {
  const rows: Array<ImportRow | UnreadableRow> = [];
  for await (const row of readerOf(format)(file)) rows.push(row);
  return rows;
}

const text = (content: string | Buffer) => Readable.from([Buffer.from(content)]);

/** A peer's row with the fields a peer never sets. */
const peer = (row: Pick<ImportRow, 'line' | 'destination' | 'name' | 'note' | 'tags'>): ImportRow => ({ ...row, expiresAt: null, maxClicks: null, fromPeer: true });

describe('each format read from its sample export', () => {
  it('bitly', async () => {
    expect(await read('bitly', fixture('bitly.csv'))).toEqual([
      peer({
        line: 2,
        destination: 'https://example.com/spring-sale?utm_source=bitly&utm_medium=social',
        name: 'spring-sale',
        note: 'Spring Sale, 2024 30 off Shop now deals',
        tags: ['marketing', 'q1-launch'],
      }),
      peer({ line: 3, destination: 'https://example.com/about', name: '4AbCdEf', note: null, tags: [] }),
      peer({ line: 4, destination: 'https://example.com/docs/getting-started', name: 'Ab', note: 'Getting started with our API', tags: ['docs', 'api'] }),
      peer({ line: 6, destination: '', name: '3pQrStU', note: 'Missing destination', tags: [] }),
      peer({ line: 7, destination: 'https://example.com/cafe', name: 'Cafe.Opening', note: 'Café opening', tags: ['cafe', 'evenements'] }),
    ]);
  });

  it('shlink', async () => {
    expect(await read('shlink', fixture('shlink.csv'))).toEqual([
      peer({
        line: 2,
        destination: 'https://example.com/blog/launch?ref=shlink',
        name: 'launch-2024',
        note: "Launch day: what's new, and why",
        tags: ['blog', 'product-news'],
      }),
      peer({ line: 3, destination: 'https://example.com/pricing', name: 'Ab', note: null, tags: [] }),
      peer({ line: 4, destination: 'https://example.com/releases/2.0', name: 'v2.0', note: 'Release 2.0 Notes changelog 2', tags: ['release', 'beta-test'] }),
      peer({ line: 6, destination: '', name: 'gone', note: 'Removed page', tags: [] }),
      peer({ line: 7, destination: 'https://example.com/team', name: 'team_page', note: 'The A team', tags: [] }),
    ]);
  });

  it('kutt', async () => {
    expect(await read('kutt', fixture('kutt.csv'))).toEqual([
      peer({ line: 2, destination: 'https://example.com/summer?utm_campaign=kutt', name: 'summer-sale', note: 'Summer sale: 20 off, this week only!', tags: [] }),
      peer({ line: 3, destination: 'https://example.com/contact', name: 'Xy7', note: null, tags: [] }),
      peer({ line: 4, destination: 'https://example.com/new', name: 'my.page', note: 'Our new page (draft)', tags: [] }),
      peer({ line: 6, destination: '', name: 'no-target', note: 'No target here', tags: [] }),
    ]);
  });

  it('yourls', async () => {
    expect(await read('yourls', fixture('yourls.csv'))).toEqual([
      peer({ line: 2, destination: 'https://ozh.org/', name: 'ozh', note: 'ozh.org', tags: [] }),
      peer({ line: 3, destination: 'https://blog.yourls.org/', name: 'yourlsblog', note: "YOURLS' Blog", tags: [] }),
      peer({ line: 4, destination: 'https://example.com/products?id=42&ref=yourls', name: '1a', note: 'Products, catalogue & prices Example Shop', tags: [] }),
      peer({ line: 5, destination: 'https://example.com/promo', name: 'Promo.2024', note: 'Promo 2024 spring', tags: [] }),
      peer({ line: 7, destination: '', name: 'empty', note: 'Empty URL', tags: [] }),
      peer({ line: 8, destination: 'https://example.com/no-title', name: 'notitle', note: null, tags: [] }),
    ]);
  });

  it('plain CSV, our own export read back (its other columns ignored, its formula guards removed)', async () => {
    const row = { expiresAt: null, maxClicks: null, fromPeer: false };
    expect(await read('csv', fixture('plain.csv'))).toEqual([
      { ...row, line: 2, destination: 'https://example.com/docs', name: 'docs', note: 'Product docs', tags: ['docs', 'product'] },
      {
        line: 3,
        destination: 'https://example.com/launch',
        name: 'launch-q2',
        note: 'Launch, phase 2',
        tags: ['launch', 'q2', 'beta'],
        expiresAt: '2027-01-31T18:00:00.000Z',
        maxClicks: '500',
        fromPeer: false,
      },
      { ...row, line: 4, destination: 'https://example.com/formula', name: '-minus', note: '=SUM(1,2) is not run', tags: [] },
      { ...row, line: 5, destination: '', name: 'no-destination', note: 'Two\r\nlines', tags: [] },
      { ...row, line: 7, destination: 'https://example.com/upper', name: 'AB', note: null, tags: [] },
    ]);
  });
});

describe('the other exports a product writes', () => {
  it('YOURLS Import Export plugin (source, target, hits) and a tab-separated table dump', async () => {
    expect(await read('yourls', text('source,target,hits\r\n/ozh/,https://ozh.org/,17\r\n'))).toEqual([
      peer({ line: 2, destination: 'https://ozh.org/', name: 'ozh', note: null, tags: [] }),
    ]);
    expect(await read('yourls', text('keyword\turl\ttitle\ttimestamp\tip\tclicks\nozh\thttps://ozh.org/\tozh.org, a site\t2024-01-15 10:22:31\t127.0.0.1\t17\n'))).toEqual([
      peer({ line: 2, destination: 'https://ozh.org/', name: 'ozh', note: 'ozh.org, a site', tags: [] }),
    ]);
  });

  it('an older Shlink web client (no shortCode column) and a list with validUntil and maxVisits', async () => {
    expect(await read('shlink', text('"createdAt","shortUrl","longUrl","title","tags","visits"\n"2021-01-01","https://s.example.com/abc12","https://example.com","","",0\n'))).toEqual([
      peer({ line: 2, destination: 'https://example.com', name: 'abc12', note: null, tags: [] }),
    ]);
    expect(await read('shlink', text('shortCode,longUrl,validUntil,maxVisits\nabc12,https://example.com,2030-01-01T00:00:00+00:00,100\n'))).toEqual([
      { line: 2, destination: 'https://example.com', name: 'abc12', note: null, tags: [], expiresAt: '2030-01-01T00:00:00+00:00', maxClicks: '100', fromPeer: true },
    ]);
  });

  it('a spreadsheet saved with ; (European locales), headers in any case and spacing', async () => {
    expect(await read('bitly', text('Bitlink;Long URL;Title;Tags\nhttps://bit.ly/xyz12;https://example.com/a,b;A; title, with commas;x\n'))).toEqual([
      { line: 2, unreadable: 'The row has 5 cells where the header has 4.' },
    ]);
    expect(await read('bitly', text('Bitlink;Long URL;Title;Tags\nhttps://bit.ly/xyz12;https://example.com/a,b;"A; title";One, Two\n'))).toEqual([
      peer({ line: 2, destination: 'https://example.com/a,b', name: 'xyz12', note: 'A title', tags: ['one', 'two'] }),
    ]);
  });
});

describe('reading the file', () => {
  it('refuses a header without a destination column before any row: 400 invalid_import naming the format and the columns', async () => {
    const rows = readerOf('kutt')(text('id,address,description\n1,abc,Hello\n'))[Symbol.asyncIterator]();
    const refusal = await rows.next().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({
      status: 400,
      code: 'invalid_import',
      detail: 'The file is not a Kutt link list (--format kutt): its header names no destination column (target, Target URL or Original URL); it has "id", "address", "description".',
    });
  });

  it('refuses an empty file', async () => {
    await expect(read('csv', text(''))).rejects.toMatchObject({
      code: 'invalid_import',
      detail: 'The file is empty: a plain CSV (--format csv) starts with a header naming its destination column, destination.',
    });
  });

  it('makes a row of the wrong width unreadable, and reads on', async () => {
    expect(await read('csv', text('destination,name\nhttps://example.com/a\nhttps://example.com/b,b-name,extra\nhttps://example.com/c,c-name\n'))).toEqual([
      { line: 2, unreadable: 'The row has 1 cells where the header has 2.' },
      { line: 3, unreadable: 'The row has 3 cells where the header has 2.' },
      { line: 4, destination: 'https://example.com/c', name: 'c-name', note: null, tags: [], expiresAt: null, maxClicks: null, fromPeer: false },
    ]);
  });

  it('drops a UTF-8 BOM, skips blank lines and keeps counting them', async () => {
    const file = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Destination,NOTE\r\n\r\nhttps://example.com,Été\r\n,,\r\n\r\nhttps://example.com/2,\r\n')]);
    expect(await read('csv', text(file))).toEqual([
      { line: 3, destination: 'https://example.com', name: null, note: 'Été', tags: [], expiresAt: null, maxClicks: null, fromPeer: false },
      { line: 6, destination: 'https://example.com/2', name: null, note: null, tags: [], expiresAt: null, maxClicks: null, fromPeer: false },
    ]);
  });

  it('reads a file whose chunks split characters and line ends', async () => {
    const bytes = Buffer.from('destination,note\r\nhttps://example.com,"Café\r\nau lait"\r\nhttps://example.com/2,ok\r\n');
    const chunks = [...bytes].map((byte) => Buffer.from([byte]));
    expect(await read('csv', Readable.from(chunks))).toEqual([
      { line: 2, destination: 'https://example.com', name: null, note: 'Café\r\nau lait', tags: [], expiresAt: null, maxClicks: null, fromPeer: false },
      { line: 4, destination: 'https://example.com/2', name: null, note: 'ok', tags: [], expiresAt: null, maxClicks: null, fromPeer: false },
    ]);
  });

  it('ends at a quote never closed, with the row it opened on unreadable', async () => {
    expect(await read('csv', text('destination,note\nhttps://example.com/a,fine\nhttps://example.com/b,"open\nhttps://example.com/c,lost\n'))).toEqual([
      { line: 2, destination: 'https://example.com/a', name: null, note: 'fine', tags: [], expiresAt: null, maxClicks: null, fromPeer: false },
      { line: 3, unreadable: 'A quote opened on this row is never closed, so the rest of the file cannot be read.' },
    ]);
  });

  it('streams 100,000 rows in constant memory: the file is read only as rows are taken', async () => {
    const ROWS = 100_000;
    let written = 0;
    const file = Readable.from(
      (function* () {
        yield 'destination,name,note,tags\n';
        for (written = 1; written <= ROWS; written++) yield `https://example.com/page/${written},name-${written},Note number ${written},tag-a tag-b\n`;
      })(),
    );
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    let count = 0;
    let lastLine = 0;
    let mostAhead = 0;
    let heapAtStart = 0;
    for await (const row of readerOf('csv')(file)) {
      count++;
      lastLine = row.line;
      mostAhead = Math.max(mostAhead, written - count);
      if (count === 10_000) {
        gc();
        heapAtStart = process.memoryUsage().heapUsed;
      }
    }
    gc();
    const grown = process.memoryUsage().heapUsed - heapAtStart;
    expect({ count, lastLine }).toEqual({ count: ROWS, lastLine: ROWS + 1 });
    // Only the streams' buffers are ever read ahead: a few thousand rows at most, not the file.
    expect(mostAhead).toBeLessThan(5_000);
    // Holding the 90,000 rows read since would take tens of megabytes.
    expect(grown).toBeLessThan(4 * 1024 * 1024);
  }, 30_000);
});

describe('a peer field made to fit our rules', () => {
  it('a title full of characters a note refuses becomes a note that passes', () => {
    expect(noteOfTitle('Docs | Home #1 / 🚀 🎉 — “quoted” <b>bold</b>')).toBe('Docs Home 1 quoted b bold b');
    expect(noteOfTitle('|/#🚀')).toBeNull();
    expect(noteOfTitle('   ')).toBeNull();
  });

  it('a 300-character title is cut at the last word that fits in 100', () => {
    const title = 'word '.repeat(60).trim();
    const note = noteOfTitle(title);
    expect(note).toBe('word '.repeat(20).trim());
    expect(checkNote(note)).toBe(note);
    expect(noteOfTitle('x'.repeat(300))).toBe('x'.repeat(100));
  });

  it('any title gives null or a note that passes checkNote', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (title) => {
        const note = noteOfTitle(title);
        expect(note === null || checkNote(note) === note).toBe(true);
      }),
    );
  });

  it('tags lowercase, spaces to -, other characters dropped, empty and repeated ones dropped', () => {
    expect(tagsOfPeer('Product News|product news| |日本|C++|Crème Brûlée|' + 'a'.repeat(40), /\|/)).toEqual(['product-news', 'c', 'creme-brulee', 'a'.repeat(30)]);
  });

  it('a slug from a short URL, a host and path, a /path/ or the slug alone', () => {
    expect([slugOfShortUrl('https://bit.ly/3xYz'), slugOfShortUrl('bit.ly/3xYz'), slugOfShortUrl('/keyword/'), slugOfShortUrl('Kw.2'), slugOfShortUrl(' ')]).toEqual([
      '3xYz',
      '3xYz',
      'keyword',
      'Kw.2',
      null,
    ]);
  });
});

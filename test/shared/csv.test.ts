import { describe, expect, it } from 'vitest';
import { csvField, csvText } from '../../src/shared/csv.js';

describe('csvField', () => {
  it.each([
    ['plain', 'plain'],
    ['', ''],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['back\rreturn', '"back\rreturn"'],
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-launch', "'-launch"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tindented', "'\tindented"],
    ['\rfirst', `"'\rfirst"`],
    ['=HYPERLINK("x","y")', `"'=HYPERLINK(""x"",""y"")"`],
    ['a=b', 'a=b'],
    ['https://s.example/-x', 'https://s.example/-x'],
  ])('writes %j as %j', (cell, written) => {
    expect(csvField(cell)).toBe(written);
  });

  it('writes numbers as they are, even below zero', () => {
    expect(csvField(12)).toBe('12');
    expect(csvField(-3)).toBe('-3');
  });
});

describe('csvText', () => {
  it('ends every record with CRLF, the header first', () => {
    expect(csvText(['date', 'clicks'], [['2026-11-21', 3], ['2026-11-22', 0]])).toBe('date,clicks\r\n2026-11-21,3\r\n2026-11-22,0\r\n');
  });

  it('is the header alone when there are no rows', () => {
    expect(csvText(['date', 'clicks'], [])).toBe('date,clicks\r\n');
  });
});

import { describe, expect, it } from 'vitest';
import { hasHiddenCharacters, neutralized } from '../../src/domain/hidden-characters.js';
import { teamNameOrNull } from '../../src/domain/account-rules.js';

const HIDDEN = ['\u0000', '\u0009', '\u001f', '\u007f', '\u0080', '\u0085', '\u009f', '\u061c', '\u200e', '\u200f', '\u202a',
  '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\ud800', '\udfff'];

describe('hasHiddenCharacters', () => {
  it.each(HIDDEN.map((c) => [`U+${c.charCodeAt(0).toString(16).padStart(4, '0')}`, c]))('is true for %s', (_code, character) => {
    expect(hasHiddenCharacters(`a${character}b`)).toBe(true);
  });

  it('is false for names in any script, emoji, zero-width joiners and ordinary punctuation', () => {
    for (const name of ['Claude', 'مساعد', '助手', 'Ассистент', 'Team 👩‍💻', 'R&D (west) — 2026', 'a\u00a0b']) {
      expect(hasHiddenCharacters(name)).toBe(false);
    }
  });
});

describe('neutralized', () => {
  it('replaces each hidden character, and a lone surrogate, with U+FFFD and keeps the rest', () => {
    expect(neutralized('Claude\u202e\u0000 official')).toBe('Claude\ufffd\ufffd official');
    expect(neutralized('\u2067evil\u2069\ud800')).toBe('\ufffdevil\ufffd\ufffd');
    expect(neutralized('مساعد 👩‍💻')).toBe('مساعد 👩‍💻');
  });
});

describe('team names follow the same rule', () => {
  it('refuses bidirectional formatting and C1 control characters, as it refuses C0 ones', () => {
    expect(teamNameOrNull('Sales\u202eselaS')).toBeNull();
    expect(teamNameOrNull('Sales\u2066x')).toBeNull();
    expect(teamNameOrNull('Sales\u0085')).toBeNull();
    expect(teamNameOrNull('Sales\u0000')).toBeNull();
    expect(teamNameOrNull('  مبيعات  ')).toBe('مبيعات');
  });
});

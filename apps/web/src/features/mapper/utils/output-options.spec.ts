import { describe, expect, it } from '@jest/globals';
import {
  DEFAULT_OUTPUT_CHOICE,
  choiceFromApplied,
  delimiterFromKey,
  describeOptions,
  firstLines,
  lineEndingFromKey,
  requestOptions,
} from './output-options';

describe('output options', () => {
  it('defaults to "match the template", which sends no options (the api default)', () => {
    expect(DEFAULT_OUTPUT_CHOICE.matchTemplate).toBe(true);
    expect(requestOptions(DEFAULT_OUTPUT_CHOICE)).toBeUndefined();
  });

  it('sends every explicit choice once the person chooses the format', () => {
    expect(
      requestOptions({
        ...DEFAULT_OUTPUT_CHOICE,
        matchTemplate: false,
        delimiter: ';',
        bom: true,
        encoding: 'windows-1252',
        lineEnding: '\n',
        quoteStyle: 'all',
      }),
    ).toEqual({
      matchTemplate: false,
      delimiter: ';',
      quoteStyle: 'all',
      lineEnding: '\n',
      bom: true,
      encoding: 'windows-1252',
    });
  });

  it('maps select keys back to the raw delimiter and line ending', () => {
    expect(delimiterFromKey('tab')).toBe('\t');
    expect(delimiterFromKey('semicolon')).toBe(';');
    expect(delimiterFromKey('nonsense')).toBe(',');
    expect(lineEndingFromKey('lf')).toBe('\n');
    expect(lineEndingFromKey('crlf')).toBe('\r\n');
  });

  it('describes what the api applied in words', () => {
    expect(
      describeOptions({
        matchedTemplate: true,
        delimiter: '\t',
        lineEnding: '\r\n',
        bom: true,
        encoding: 'windows-1252',
        quoteStyle: 'minimal',
      }),
    ).toEqual([
      { label: 'Format', value: 'Matches the template' },
      { label: 'Delimiter', value: 'Tab' },
      { label: 'Quotes', value: 'Only where needed' },
      { label: 'Line ending', value: 'Windows (CRLF)' },
      { label: 'Byte order mark', value: 'Yes' },
      { label: 'Encoding', value: 'Windows-1252' },
    ]);
    expect(describeOptions({})).toEqual([]);
  });

  it('starts the form from what the last run applied', () => {
    const c = choiceFromApplied(
      { matchedTemplate: true, delimiter: ';', bom: true, encoding: 'windows-1252' },
      {
        ...DEFAULT_OUTPUT_CHOICE,
        quoteStyle: 'all',
      },
    );
    expect(c).toEqual({
      matchTemplate: true,
      delimiter: ';',
      quoteStyle: 'all',
      lineEnding: '\r\n',
      bom: true,
      encoding: 'windows-1252',
    });
    expect(choiceFromApplied(undefined, DEFAULT_OUTPUT_CHOICE)).toBe(DEFAULT_OUTPUT_CHOICE);
  });

  it('cuts the first lines of the written text, keeping quoted line breaks inside their row', () => {
    const text = '\uFEFFa;b\r\n"x\r\ny";2\r\nlast;3\r\nmore;4';
    expect(firstLines(text, 3)).toEqual(['a;b', '"x\r\ny";2', 'last;3']);
    expect(firstLines('a\nb', 10)).toEqual(['a', 'b']);
    expect(firstLines('', 5)).toEqual([]);
  });
});

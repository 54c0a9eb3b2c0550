#!/usr/bin/env python3
"""Writes ../expected.json from the corpus files and the reading rules in specs.py.

Independent of CSV Mapper: Python's csv module reads each file with the delimiter, encoding and header line
that the format's documentation or an importer's mapping states (specs.py cites it per file), and the
date and signed amount of every data row follow the rule written there (date pattern, sign column,
debit/credit pair, ...). Where an importer's expected output exists (csv2ofx's OFX/QIF files), check.py
compares against it.

Run: python3 bench/corpus/reading/derive/derive.py   (Python 3.8+, standard library only)
"""
import csv
import io
import json
import os
import re
import sys
from datetime import datetime
from decimal import Decimal

sys.path.insert(0, os.path.dirname(__file__))
from specs import SPECS  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FILES = os.path.join(ROOT, 'files')

CODECS = {
    'utf-8': 'utf-8-sig',
    'windows-1252': 'cp1252',
    'iso-8859-1': 'latin-1',
    'utf-16le': 'utf-16-le',
    'utf-16be': 'utf-16-be',
}


def records(spec):
    """(start line, cells) of every record, blank lines left out, as the file's dialect says."""
    raw = open(os.path.join(FILES, spec['file']), 'rb').read()
    text = raw.decode(CODECS[spec['encoding']])
    if text.startswith('\ufeff'):
        text = text[1:]
    reader = csv.reader(io.StringIO(text, newline=''), delimiter=spec['delimiter'], quotechar='"', strict=False)
    out = []
    line = 1
    for cells in reader:
        start = line
        line = reader.line_num + 1
        if cells == []:
            continue
        out.append((start, cells))
    return out


def column(spec, header, name):
    if isinstance(name, int):
        return name
    return header.index(name)


def parse_date(value, fmts):
    value = value.strip()
    if value == '':
        return ''
    for fmt in fmts if isinstance(fmts, list) else [fmts]:
        try:
            return datetime.strptime(value, fmt).strftime('%Y-%m-%d')
        except ValueError:
            continue
    raise ValueError(f'date {value!r} fits none of {fmts}')


def parse_amount(value, dec):
    """A plain decimal (dot) from the file's way of writing money; '' stays ''. A sign or parenthesis before
    the first digit counts (-$7.50, (7.50)); currency marks and letters around the number are dropped."""
    s = value.strip()
    first = re.search(r'\d', s)
    if first is None:
        return None
    prefix, body = s[:first.start()], s[first.start():]
    neg = prefix.count('-') % 2 == 1 or '(' in prefix
    body = re.match(r"[\d.,' \u00a0]*\d", body).group(0)
    body = re.sub(r"[\s\u00a0']", '', body)
    if dec == ',':
        body = body.replace('.', '').replace(',', '.')
    else:
        body = body.replace(',', '')
    d = Decimal(body)
    return -d if neg else d


def fmt(d):
    if d is None:
        return ''
    if d == 0:
        d = abs(d)
    return format(d, 'f')


def amount_of(spec, header, cells):
    a = spec['amount']
    get = lambda name: cells[column(spec, header, name)] if column(spec, header, name) < len(cells) else ''
    dec = a.get('decimal', '.')
    kind = a['kind']
    if kind == 'signed':
        d = parse_amount(get(a['column']), dec)
    elif kind == 'pair':
        out_v = parse_amount(get(a['out']), dec)
        in_v = parse_amount(get(a['in']), dec)
        if out_v is None and in_v is None:
            d = None
        else:
            d = (in_v or Decimal(0)) - abs(out_v or Decimal(0)) if in_v is not None else -abs(out_v)
    elif kind == 'direction':
        d = parse_amount(get(a['column']), dec)
        flag = get(a['direction']).strip().lower()
        negative = [v.lower() for v in a['negative']]
        positive = [v.lower() for v in a['positive']]
        if d is not None:
            if flag in negative:
                d = -abs(d)
            elif flag in positive:
                d = abs(d)
            else:
                raise ValueError(f'{spec["file"]}: direction {flag!r} is neither {negative} nor {positive}')
    else:
        raise ValueError(kind)
    if d is not None and a.get('invert'):
        d = -d
    return fmt(d)


def expected(spec):
    entry = {
        'file': spec['file'],
        'kind': spec['kind'],
        'headerRow': spec['headerRow'],
        'delimiter': spec['delimiter'],
        'encoding': spec['encoding'],
    }
    if spec['kind'] != 'bank':
        entry['expectedFrom'] = spec['expectedFrom']
        return entry
    recs = records(spec)
    if spec['headerRow'] == 0:
        header = []
        data = recs
    else:
        at = [i for i, (line, _) in enumerate(recs) if line == spec['headerRow']]
        if not at:
            raise ValueError(f'{spec["file"]}: no record starts on line {spec["headerRow"]}')
        header = recs[at[0]][1]
        data = recs[at[0] + 1:]
    rows = []
    skipped = 0
    for _, cells in data:
        ci = column(spec, header, spec['date'])
        raw_date = cells[ci] if ci < len(cells) else ''
        if spec.get('notTransactions') and raw_date.strip() in spec['notTransactions']:
            skipped += 1
            continue
        date = parse_date(raw_date, spec['dateFormat'])
        amount = amount_of(spec, header, cells)
        if date == '' and amount == '':
            # a record that is no transaction (a description's continuation line): it has no date and amount
            # to get right, whether a reader drops it or keeps it as an empty row
            skipped += 1
            continue
        rows.append({'date': date, 'amount': amount})
    for k in ('dateColumn', 'amountColumns', 'directionColumn'):
        if k in spec:
            entry[k] = spec[k]
    if 'dateColumn' not in entry and isinstance(spec['date'], str):
        entry['dateColumn'] = spec['date']
    if skipped:
        entry['recordsWithoutTransaction'] = skipped
    entry['rows'] = rows
    entry['expectedFrom'] = spec['expectedFrom']
    return entry


def dump(out):
    """JSON as Prettier leaves it: two-space indent, one row object per line."""
    j = lambda v: json.dumps(v, ensure_ascii=False)
    files = []
    for e in out['files']:
        lines = []
        for k, v in e.items():
            if k == 'rows':
                rows = ',\n'.join(f'        {{ "date": {j(r["date"])}, "amount": {j(r["amount"])} }}' for r in v)
                if len(v) == 1:
                    lines.append(f'      "rows": [{rows.strip()}]')
                else:
                    lines.append(f'      "rows": [\n{rows}\n      ]' if v else '      "rows": []')
            elif isinstance(v, list):
                lines.append(f'      {j(k)}: [{", ".join(j(x) for x in v)}]')
            else:
                lines.append(f'      {j(k)}: {j(v)}')
        files.append('    {\n' + ',\n'.join(lines) + '\n    }')
    return '{\n  "files": [\n' + ',\n'.join(files) + '\n  ]\n}\n'


def main():
    out = {'files': [expected(s) for s in SPECS]}
    with open(os.path.join(ROOT, 'expected.json'), 'w', encoding='utf-8') as f:
        f.write(dump(out))
    banks = [e for e in out['files'] if e['kind'] == 'bank']
    print(f'{len(out["files"])} files ({len(banks)} bank, {sum(len(e["rows"]) for e in banks)} rows) -> expected.json')


if __name__ == '__main__':
    main()

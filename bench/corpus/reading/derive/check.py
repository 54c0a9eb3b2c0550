#!/usr/bin/env python3
"""Compares expected.json with the expected output other programs publish for the same files: csv2ofx's
OFX files, ofxstatement-sparkasse-freiburg's OFX, Targobank's QIF (RechnungsPilot samples) and
beancount_reds_importers' ledger extract. Every transaction in their output (date, amount) must be one of
our rows for that file; rows their output lacks are listed (their tests filter by date range or status,
or report opening/closing balances apart). Also volksbanker's expected output.

Usage: check.py <dir>   where <dir>/<owner>+<name> is a clone (work tree or bare) of each repository below.
"""
import json
import os
import re
import subprocess
import sys
from collections import Counter
from datetime import datetime
from decimal import Decimal


def ofx(text):
    out = Counter()
    for _, b in re.findall(r'<(STMTTRN|INTRARS)>(.*?)</\1>', text, re.S):
        d = re.search(r'<DTPOSTED>(\d{8})', b).group(1)
        a = re.search(r'<TRNAMT>([-+\d.]+)', b).group(1)
        out[(f'{d[:4]}-{d[4:6]}-{d[6:8]}', Decimal(a))] += 1
    return out


def qif(text):
    out = Counter()
    for block in text.split('^'):
        d = re.search(r'^D(\S+)', block, re.M)
        t = re.search(r'^T(\S+)', block, re.M)
        if d and t:
            out[(datetime.strptime(d.group(1), '%d.%m.%y').strftime('%Y-%m-%d'), Decimal(t.group(1)))] += 1
    return out


def beancount(text):
    out = Counter()
    for date, amount in re.findall(r'^(\d{4}-\d{2}-\d{2}) \*.*\n\s+\S+\s+(-?[\d.]+) [A-Z]{3}', text, re.M):
        out[(date, Decimal(amount))] += 1
    return out


def dmy_csv(text):
    import csv as _csv
    out = Counter()
    for row in _csv.reader(text.splitlines()):
        if row:
            out[(datetime.strptime(row[0], '%d/%m/%Y').strftime('%Y-%m-%d'), Decimal(row[1]))] += 1
    return out


C2O = 'reubano+csv2ofx'
CHECKS = [
    ('us-mint-1.csv', C2O, 'data/converted/mint.ofx', ofx),
    ('de-gls-1.csv', C2O, 'data/converted/gls.ofx', ofx),
    ('es-ing-1.csv', C2O, 'data/converted/ingesp.ofx', ofx),
    ('fr-n26-1.csv', C2O, 'data/converted/n26.ofx', ofx),
    ('de-outbank-1.csv', C2O, 'data/converted/outbank.ofx', ofx),
    ('us-payoneer-1.csv', C2O, 'data/converted/payoneer.ofx', ofx),
    ('ca-pcmastercard-1.csv', C2O, 'data/converted/pcmastercard.ofx', ofx),
    ('us-schwab-1.csv', C2O, 'data/converted/schwab-checking.ofx', ofx),
    ('us-stripe-1.csv', C2O, 'data/converted/stripe-default.ofx', ofx),
    ('de-sparkasse-1.csv', 'omarkohl+ofxstatement-sparkasse-freiburg', 'tests/data/simple2.ofx', ofx),
    ('de-targobank-1.csv', 'nicolettas-muggelbude+RechnungsPilot', 'vorlagen/bank-csv/targobank-duesseldorf.qif', qif),
    ('us-dcu-1.csv', 'redstreet+beancount_reds_importers',
     'beancount_reds_importers/importers/dcu/tests/Main_Checking_Account_Transactions.csv.extract', beancount),
    ('de-volksbank-1.csv', 'airblade+volksbanker', 'test/fixtures/result.stdout.csv', dmy_csv),
]

# Where the other program's output is itself wrong, and why our row differs.
EXPLAINED = {
    'es-ing-1.csv': 'csv2ofx reads "08/04/2022" month-first (dateutil default) although every other date in the file '
                    'is day-first (24/03/2022, 31/12/2022) as ING Spain writes them: we expect 2022-04-08.',
    'de-sparkasse-1.csv': 'the plugin dates each line by Valutadatum (value date); we take Buchungstag (booking '
                          'date, the first date column) as bank2ynab does for this layout: the two rows whose value '
                          'date differs (24.03 vs 26.03, 04.04 vs 03.04) differ, the amounts all agree.',
}


def show(clones, repo, path):
    base = os.path.join(clones, repo)
    git_dir = os.path.join(base, 'repo', '.git') if os.path.isdir(os.path.join(base, 'repo', '.git')) else \
        os.path.join(base, 'repo') if os.path.isdir(os.path.join(base, 'repo')) else base
    return subprocess.run(['git', '--git-dir', git_dir, 'show', f'HEAD:{path}'], capture_output=True,
                          check=True).stdout.decode('utf-8', 'replace')


def main():
    clones = sys.argv[1]
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    exp = {e['file']: e for e in json.load(open(os.path.join(here, 'expected.json'), encoding='utf-8'))['files']}
    bad = 0
    for f, why in EXPLAINED.items():
        print(f'note      {f}: {why}')
    for f, repo, path, read in CHECKS:
        theirs = read(show(clones, repo, path))
        ours = Counter((r['date'], Decimal(r['amount'])) for r in exp[f]['rows'] if r['amount'] != '')
        missing = theirs - ours
        status = 'OK' if not missing else ('EXPLAINED' if f in EXPLAINED else 'MISMATCH')
        bad += bool(missing) and f not in EXPLAINED
        print(f'{status:9} {f:24} {sum(theirs.values())} in their output, {sum(ours.values())} rows; '
              f'ours only: {sorted((d, str(a)) for d, a in (ours - theirs).elements())}; theirs only: '
              f'{sorted((d, str(a)) for d, a in missing.elements())}')
    sys.exit(1 if bad else 0)


main()

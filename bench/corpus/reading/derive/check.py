#!/usr/bin/env python3
"""Compares expected.json with csv2ofx's own expected output (OFX files in its test data, read from a local
clone): every OFX transaction (DTPOSTED date, TRNAMT) must be one of our rows for that file, and the rows
the OFX lacks are listed (csv2ofx tests filter by end date or status). Usage: check.py <csv2ofx clone>"""
import json
import os
import re
import subprocess
import sys
from collections import Counter
from decimal import Decimal

PAIRS = {
    'us-mint-1.csv': 'mint.ofx', 'de-gls-1.csv': 'gls.ofx', 'es-ing-1.csv': 'ingesp.ofx', 'fr-n26-1.csv': 'n26.ofx',
    'de-outbank-1.csv': 'outbank.ofx', 'us-payoneer-1.csv': 'payoneer.ofx',
    'ca-pcmastercard-1.csv': 'pcmastercard.ofx', 'us-schwab-1.csv': 'schwab-checking.ofx',
    'us-stripe-1.csv': 'stripe-default.ofx',
}

# Where csv2ofx's output is itself wrong, and why our row differs.
EXPLAINED = {
    'es-ing-1.csv': 'csv2ofx reads "08/04/2022" month-first (dateutil default) although every other date in the file '
                    'is day-first (24/03/2022, 31/12/2022) as ING Spain writes them: we expect 2022-04-08.',
}


def main():
    repo = sys.argv[1]
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    exp = {e['file']: e for e in json.load(open(os.path.join(here, 'expected.json')))['files']}
    bad = 0
    if any(f in EXPLAINED for f in PAIRS):
        for f, why in EXPLAINED.items():
            print(f'note     {f}: {why}')
    for f, ofx in PAIRS.items():
        text = subprocess.run(['git', '--git-dir', repo, 'show', f'HEAD:data/converted/{ofx}'],
                              capture_output=True, text=True, check=True).stdout
        blocks = re.findall(r'<(STMTTRN|INTRARS)>(.*?)</\1>', text, re.S)
        theirs = Counter()
        for _, b in blocks:
            d = re.search(r'<DTPOSTED>(\d{8})', b).group(1)
            a = re.search(r'<TRNAMT>([-\d.]+)', b).group(1)
            theirs[(f'{d[:4]}-{d[4:6]}-{d[6:8]}', Decimal(a))] += 1
        ours = Counter((r['date'], Decimal(r['amount'])) for r in exp[f]['rows'] if r['amount'] != '')
        missing = theirs - ours
        status = 'OK' if not missing else ('EXPLAINED' if f in EXPLAINED else 'MISMATCH')
        bad += bool(missing) and f not in EXPLAINED
        print(f'{status:8} {f:24} {sum(theirs.values())} OFX transactions, {sum(ours.values())} rows; '
              f'not in OFX: {sorted((d, str(a)) for d, a in (ours - theirs).elements())}; missing: {dict(missing)}')
    sys.exit(1 if bad else 0)


main()

"""How each corpus file is read, as its format's documentation or an importer's mapping says (cited in
`expectedFrom`). derive.py applies these; nothing here comes from CSV Mapper.

headerRow: 1-based physical line of the header record, 0 = the file has no header row.
date: column name (or 0-based index when headerless); dateFormat: strptime pattern(s).
amount kinds: signed (one column, sign as written) | pair (out/in columns: out negative, in positive) |
direction (amount + a column whose value says the sign) ; decimal: '.' or ','; invert: True when the
importer negates the column (card exports listing charges as positive numbers).
"""

C2O = 'csv2ofx (reubano/csv2ofx) mapping csv2ofx/mappings/{m}.py; cross-checked against its test output data/converted/{o} by check.py'
B2Y = 'bank2ynab (bank2ynab/bank2ynab) bank2ynab.conf section [{s}]: {rule}'
RP = ('RechnungsPilot (nicolettas-muggelbude/RechnungsPilot) vorlagen/bank-csv/README.md, section '
      '"{bank}": {rule}')
OCA = ('OCA bank-statement-import (OCA/bank-statement-import, branch 14.0) account_statement_import_paypal/'
       'data/maps.xml, mapping "{map}": {rule}')
HLG = 'hledger (simonmichael/hledger) {path}: {rule}'
OXS = 'ofxstatement plugin {repo} {path}: {rule}'


def spec(file, headerRow, delimiter, encoding, date, dateFormat, amount, expectedFrom, kind='bank', **extra):
    s = dict(file=file, kind=kind, headerRow=headerRow, delimiter=delimiter, encoding=encoding, date=date,
             dateFormat=dateFormat, amount=amount, expectedFrom=expectedFrom)
    s.update(extra)
    return s


def other(file, kind, headerRow, delimiter, encoding, expectedFrom):
    return dict(file=file, kind=kind, headerRow=headerRow, delimiter=delimiter, encoding=encoding,
                expectedFrom=expectedFrom)


def signed(column, decimal='.', invert=False):
    return {'kind': 'signed', 'column': column, 'decimal': decimal, 'invert': invert}


def pair(out, in_, decimal='.'):
    return {'kind': 'pair', 'out': out, 'in': in_, 'decimal': decimal}


def direction(column, flag, negative, positive, decimal='.'):
    return {'kind': 'direction', 'column': column, 'direction': flag, 'negative': negative,
            'positive': positive, 'decimal': decimal}


SPECS = [
    # ---- csv2ofx test data (US, CA, CH, DE, ES, FR) ----
    spec('us-capitalone-1.csv', 1, ',', 'utf-8', 'Transaction Date', '%Y-%m-%d', pair('Debit', 'Credit'),
         'hledger (simonmichael/hledger) examples/csv/banking/capital-one.csv.rules: "fields date, posting-date, _, '
         'description, _, amount-out, amount-in" (Transaction Date is the date, Debit money out, Credit money in); '
         'csv2ofx mappings/capitalone.py agrees on the sign (DEBIT if Debit) but dates by Posted Date',
         amountColumns=['Debit', 'Credit']),
    spec('us-mint-1.csv', 1, ',', 'utf-8', 'Date', '%m/%d/%y',
         direction('Amount', 'Transaction Type', ['debit'], ['credit']),
         C2O.format(m='mint', o='mint.ofx (type debit = negative TRNAMT)'),
         amountColumns=['Amount'], directionColumn='Transaction Type'),
    spec('us-mint-2.csv', 0, ',', 'utf-8', 0, '%m/%d/%y', direction(3, 4, ['debit'], ['credit']),
         C2O.format(m='mint_headerless', o='mint.qif (same transactions as mint.csv)')),
    spec('de-gls-1.csv', 1, ';', 'windows-1252', 'Buchungstag', '%d.%m.%Y', signed('Betrag', ','),
         C2O.format(m='gls', o='gls.ofx (run with -E windows-1252)'), amountColumns=['Betrag']),
    spec('es-ing-1.csv', 1, ',', 'utf-8', 'date', '%d/%m/%Y', signed('amount'),
         C2O.format(m='ingesp', o='ingesp.ofx'), amountColumns=['amount']),
    spec('fr-n26-1.csv', 1, ',', 'utf-8', 'Booking Date', '%Y-%m-%d', signed('Amount (EUR)'),
         C2O.format(m='n26', o='n26.ofx'), amountColumns=['Amount (EUR)']),
    spec('de-outbank-1.csv', 1, ';', 'utf-8', 'Date', '%m/%d/%y', signed('Amount', ','),
         C2O.format(m='outbank', o='outbank.ofx (dates month-first: 1/21/19)'), amountColumns=['Amount']),
    spec('us-payoneer-1.csv', 1, ',', 'utf-8', 'Transaction Date', '%m/%d/%Y',
         pair('Debit Amount', 'Credit Amount'),
         C2O.format(m='payoneer', o='payoneer.ofx (strptime "%m/%d/%Y", debit = "-" + Debit Amount)'),
         amountColumns=['Debit Amount', 'Credit Amount']),
    spec('ca-pcmastercard-1.csv', 1, ',', 'utf-8', 'Date', '%m/%d/%Y', signed('Amount', invert=True),
         C2O.format(m='pcmastercard', o='pcmastercard.ofx (amount * -1: charges listed as positive)'),
         amountColumns=['Amount']),
    spec('us-schwab-1.csv', 1, ',', 'utf-8', 'Date', '%m/%d/%Y', pair('Withdrawal', 'Deposit'),
         C2O.format(m='schwabchecking', o='schwab-checking.ofx (Withdrawal = debit)'),
         amountColumns=['Withdrawal', 'Deposit']),
    spec('us-stripe-1.csv', 1, ',', 'utf-8', 'created', '%Y-%m-%d %H:%M', signed('amount'),
         C2O.format(m='stripe', o='stripe-default.ofx'), kind='bank', amountColumns=['amount']),
    spec('ch-ubs-1.csv', 1, ';', 'utf-8', 'Date de valeur', '%d.%m.%Y', pair('Débit', 'Crédit'),
         C2O.format(m='ubs-ch-fr', o='(none in tests: mapping "debit if Débit != \'\'")'),
         amountColumns=['Débit', 'Crédit']),
    # ---- bank2ynab test data (DE, NL, CZ, SG, HU, BE, IE, LT, GB, AT) ----
    spec('de-n26-1.csv', 1, ',', 'utf-8', 'Datum', '%Y-%m-%d', signed('Betrag (EUR)'),
         B2Y.format(s='DE N26', rule='Date %Y-%m-%d, 7th column Inflow (signed)'), amountColumns=['Betrag (EUR)']),
    spec('nl-bunq-1.csv', 1, ',', 'utf-8', 'Datum', '%Y-%m-%d', signed('Bedrag', ','),
         B2Y.format(s='NL bunq', rule='Date,Inflow(signed),...; amounts with decimal comma'), amountColumns=['Bedrag']),
    spec('nl-bunq-2.csv', 1, ',', 'utf-8', 'Date', '%Y-%m-%d', signed('Amount', ','),
         B2Y.format(s='NL bunq', rule='Date,Inflow(signed),...; amounts with decimal comma'), amountColumns=['Amount']),
    spec('de-ostseesparkasse-1.csv', 1, ';', 'utf-8', 'Buchungstag', '%d.%m.%y', signed('Betrag', ','),
         B2Y.format(s='DE Ostseesparkasse Rostock checking', rule='skip,skip,Date(%d.%m.%y),..., 9th Inflow (signed)'),
         amountColumns=['Betrag']),
    spec('de-ostseesparkasse-2.csv', 1, ';', 'windows-1252', 'Buchungsdatum', '%d.%m.%y',
         signed('Buchungsbetrag', ','),
         B2Y.format(s='DE Ostseesparkasse Rostock credit card', rule='3rd column Date (%d.%m.%y), 7th Inflow (signed)'),
         amountColumns=['Buchungsbetrag']),
    spec('cz-raiffeisen-1.csv', 1, ';', 'windows-1252', 'Datum provedení', '%d.%m.%Y', signed(13, ','),
         B2Y.format(s='CZ Raiffeisen bank', rule='Date %d.%m.%Y first column, 14th column Inflow (signed)'),
         amountColumns=['Zaúčtovaná částka']),
    spec('sg-ocbc-1.csv', 6, ',', 'utf-8', 'Transaction date', '%d/%m/%Y',
         pair('Withdrawals (SGD)', 'Deposits (SGD)'),
         B2Y.format(s='SG OCBC Bank', rule='Header Rows = 6, Date(%d/%m/%Y),skip,Memo,Outflow,Inflow; the ",,text" '
                    'lines continue the previous transaction\'s description (plugin OCBC_Bank_SG) and carry no date '
                    'or amount: expected empty'),
         amountColumns=['Withdrawals (SGD)', 'Deposits (SGD)']),
    spec('hu-erste-1.csv', 1, ',', 'utf-8', 'Tranzakció dátuma', '%Y.%m.%d.', signed('Tranzakció összege'),
         B2Y.format(s='HU Erste Bank checking', rule='Date %Y.%m.%d., 7th column Inflow (signed)'),
         amountColumns=['Tranzakció összege'], directionColumn='Bevétel/Kiadás'),
    spec('be-kbc-1.csv', 1, ';', 'utf-8', 'Datum', '%d/%m/%Y', signed('Bedrag', ','),
         B2Y.format(s='BE KBC', rule='6th column Date %d/%m/%Y, 9th Inflow (signed)'), amountColumns=['Bedrag']),
    spec('be-kbc-2.csv', 1, ';', 'utf-8', 'datum verrichting', '%d/%m/%Y', signed('bedrag', ','),
         B2Y.format(s='BE KBC credit', rule='4th column Date %d/%m/%Y, 11th Inflow ("bedrag in EUR", signed; equal to "bedrag" in this file)'),
         amountColumns=['bedrag']),
    spec('ie-boi-1.csv', 1, ',', 'utf-8', 'Date', '%d/%m/%Y', pair('Debit', 'Credit'),
         B2Y.format(s='IE Bank of Ireland', rule='Date(%d/%m/%Y),Payee,Outflow,Inflow,skip'),
         amountColumns=['Debit', 'Credit']),
    spec('lt-swedbank-1.csv', 1, ',', 'utf-8', 'Date', '%Y-%m-%d', direction('Amount', 'D/K', ['D'], ['K']),
         B2Y.format(s='LV Swedbank (same D/K layout)', rule='"Inflow or Outflow Indicator = D/K": D debit '
                    '(negative), K credit; opening/turnover/closing-balance records are rows too and follow the '
                    'same rule'),
         amountColumns=['Amount'], directionColumn='D/K'),
    spec('gb-monzo-1.csv', 1, ',', 'utf-8', 'created', '%Y-%m-%d %H:%M:%S +0000', signed('amount'),
         B2Y.format(s='UK Monzo checking', rule='skip,Date(%Y-%m-%d %H:%M:%S +0000),Inflow(signed)'),
         amountColumns=['amount']),
    spec('at-raiffeisen-1.csv', 0, ';', 'utf-8', 0, '%d.%m.%Y', signed(3, ','),
         B2Y.format(s='AT Raiffeisen Bank 2018 / test.conf [test_record_i18n]',
                    rule='Header Rows = 0, Date(%d.%m.%Y),Payee,skip,Inflow (signed)')),
    spec('sg-posb-1.csv', 0, ',', 'utf-8', 0, '%d %b %Y', pair(2, 3),
         B2Y.format(s='SG POSB savings', rule='Header Rows = 0, Date(%d %b %Y),skip,Outflow,Inflow,Payee,Memo')),
    spec('de-commerzbank-1.csv', 1, ';', 'utf-8', 'Buchungstag', '%d.%m.%Y', signed('Betrag', ','),
         B2Y.format(s='DE Commerzbank checking', rule='Date(%d.%m.%Y) first column, Betrag Inflow (signed)'),
         amountColumns=['Betrag']),
    # ---- ofxstatement plugins (NL, DE, GB, AT) ----
    spec('nl-knab-1.csv', 2, ';', 'utf-8', 'Transactiedatum', '%d-%m-%Y',
         direction('Bedrag', 'CreditDebet', ['D'], ['C'], ','),
         OXS.format(repo='gpaulissen/ofxstatement-dutch', path='src/ofxstatement/plugins/nl/knab.py',
                    rule='title line "KNAB EXPORT", header on line 2; CreditDebet D = debit (negative), C = credit'),
         amountColumns=['Bedrag'], directionColumn='CreditDebet'),
    spec('nl-ing-1.csv', 1, ',', 'utf-8', 'Datum', '%Y%m%d', direction('Bedrag (EUR)', 'Af Bij', ['Af'], ['Bij'], ','),
         OXS.format(repo='gpaulissen/ofxstatement-dutch', path='src/ofxstatement/plugins/nl/ing.py',
                    rule='Datum %Y%m%d; "Af Bij": Af = debit (negative), Bij = credit'),
         amountColumns=['Bedrag (EUR)'], directionColumn='Af Bij'),
    spec('nl-ing-2.csv', 1, ';', 'utf-8', 'Datum', '%Y%m%d', direction('Bedrag (EUR)', 'Af Bij', ['Af'], ['Bij'], ','),
         OXS.format(repo='gpaulissen/ofxstatement-dutch', path='src/ofxstatement/plugins/nl/ing.py',
                    rule='";" variant; Datum %Y%m%d; Af = debit (negative), Bij = credit'),
         amountColumns=['Bedrag (EUR)'], directionColumn='Af Bij'),
    spec('nl-asn-1.csv', 0, ',', 'utf-8', 0, '%d-%m-%Y', signed(10),
         OXS.format(repo='gpaulissen/ofxstatement-dutch', path='src/ofxstatement/plugins/nl/asn.py',
                    rule='ASN "transactie-historie" CSV has no header; column 1 boekingsdatum (%d-%m-%Y), column 11 '
                    'transactiebedrag (signed), column 9 is the balance before it')),
    spec('de-ing-1.csv', 15, ';', 'windows-1252', 'Buchung', '%d.%m.%Y', signed('Betrag', ','),
         OXS.format(repo='fabolhak/ofxstatement-de-ing', path='src/ofxstatement_de_ing/ingde.py',
                    rule='account block + sentence, header "Buchung;..." on line 15; Betrag signed, decimal comma'),
         amountColumns=['Betrag']),
    spec('de-ing-2.csv', 14, ';', 'windows-1252', 'Buchung', '%d.%m.%Y', signed('Betrag', ','),
         OXS.format(repo='fabolhak/ofxstatement-de-ing', path='src/ofxstatement_de_ing/ingde.py',
                    rule='export without Saldo line: header on line 14; Betrag signed, decimal comma'),
         amountColumns=['Betrag']),
    spec('gb-lloyds-1.csv', 1, ',', 'utf-8', 'Transaction Date', '%d/%m/%Y', pair('Debit Amount', 'Credit Amount'),
         OXS.format(repo='Metasaura/ofxstatement-lloyds', path='src/ofxstatement_lloyds/plugin.py',
                    rule='header ends with a comma; Debit Amount negative, Credit Amount positive'),
         amountColumns=['Debit Amount', 'Credit Amount']),
    spec('at-easybank-1.csv', 0, ';', 'utf-8', 2, '%d.%m.%Y', signed(4, ','),
         OXS.format(repo='nblock/ofxstatement-austrian', path='src/ofxstatement/plugins/easybank.py',
                    rule='credit card export, no header; date = 3rd field (%d.%m.%Y), amount 5th (+/- signed); '
                    'tests/test_easybank.py asserts -5.99 on 2013-07-02')),
    spec('at-easybank-2.csv', 0, ';', 'windows-1252', 2, '%d.%m.%Y', signed(4, ','),
         OXS.format(repo='nblock/ofxstatement-austrian', path='src/ofxstatement/plugins/easybank.py',
                    rule='giro export, no header; date 3rd field, amount 5th (+/- signed), cp1252; '
                    'tests/test_easybank.py asserts -0.42 on 2014-01-01')),
    spec('at-ingdiba-1.csv', 1, ';', 'windows-1252', 'Datum', '%d.%m.%Y', pair('Soll', 'Haben', ','),
         OXS.format(repo='nblock/ofxstatement-austrian', path='src/ofxstatement/plugins/ingdiba.py',
                    rule='Soll (debit) negative, Haben (credit) positive; iso-8859-1'),
         amountColumns=['Soll', 'Haben']),
    spec('at-livebank-1.csv', 1, ';', 'windows-1252', 'Buchungsdatum', '%Y-%m-%d', signed('Betrag', ','),
         OXS.format(repo='nblock/ofxstatement-austrian', path='src/ofxstatement/plugins/livebank.py',
                    rule='Buchungsdatum %Y-%m-%d, Betrag signed (records wider than the header are kept)'),
         amountColumns=['Betrag']),
    spec('at-oberbank-1.csv', 1, ';', 'windows-1252', 'Buchungsdatum', '%d.%m.%Y', signed('Betrag', ','),
         OXS.format(repo='nblock/ofxstatement-austrian', path='src/ofxstatement/plugins/oberbank.py',
                    rule='date column 0 %d.%m.%Y, amount column 2 signed'),
         amountColumns=['Betrag']),
    spec('at-raiffeisen-2.csv', 0, ';', 'windows-1252', 0, '%d.%m.%Y', signed(3, ','),
         OXS.format(repo='nblock/ofxstatement-austrian', path='src/ofxstatement/plugins/raiffeisen.py',
                    rule='no header; date column 0 %d.%m.%Y, amount column 3 signed')),
    # ---- more importers' test data and documented samples (DE, LT, GB, US) ----
    spec('de-dkb-1.csv', 5, ';', 'utf-8', 'Buchungsdatum', '%d.%m.%y', signed('Betrag (€)', ','),
         RP.format(bank='DKB (Deutsche Kreditbank)', rule='UTF-8 with BOM, header from line 5 (lines 1-4 account '
                   'metadata), DD.MM.YY, decimal comma; Betrag signed'),
         amountColumns=['Betrag (€)']),
    spec('de-paypal-1.csv', 1, ',', 'utf-8', 'Datum', '%d.%m.%Y', signed('Brutto', ','),
         RP.format(bank='PayPal (Aktivitätsbericht)', rule='German PayPal activity download, BOM, DD.MM.YYYY, '
                   'decimal comma; Brutto (gross) is the signed transaction amount'),
         kind='bank', amountColumns=['Brutto']),
    spec('de-targobank-1.csv', 0, ';', 'utf-8', 0, '%d.%m.%Y', pair(2, 3, ','),
         RP.format(bank='Targobank Düsseldorf', rule='no header row; Datum, Buchungstext, Betrag (debits, written '
                   'negative, decimal comma), then credits in the next column (the "Gutschrift" row), IBAN last; '
                   'targobank-duesseldorf.qif (the bank\'s QIF of the same transactions) agrees, see check.py')),
    spec('de-vr-1.csv', 1, ';', 'utf-8', 'Buchungstag', '%d.%m.%Y', signed('Betrag', ','),
         RP.format(bank='VR-Teilhaberbank (Volksbank/Raiffeisenbank)', rule='BOM, header line 1, DD.MM.YYYY, '
                   'Betrag signed with decimal comma'),
         amountColumns=['Betrag']),
    spec('lt-revolut-1.csv', 1, ',', 'utf-8', 'Started Date', '%Y-%m-%d %H:%M:%S', signed('Amount'),
         OXS.format(repo='mlaitinen/ofxstatement-revolut', path='src/ofxstatement/plugins/revolut.py',
                    rule='Started Date (date_user, %Y-%m-%d %H:%M:%S), Amount signed (fee is a separate column)'),
         amountColumns=['Amount']),
    spec('lt-revolut-2.csv', 1, ',', 'utf-8', 'Started Date', '%Y-%m-%d %H:%M:%S', signed('Amount'),
         OXS.format(repo='mlaitinen/ofxstatement-revolut', path='src/ofxstatement/plugins/revolut.py',
                    rule='Started Date (date_user), Amount signed; a PENDING row has no Completed Date'),
         amountColumns=['Amount']),
    spec('gb-wise-1.csv', 1, ',', 'utf-8', 'Date', '%d-%m-%Y', signed('Amount'),
         OXS.format(repo='kedder/ofxstatement-transferwise', path='src/ofxstatement/plugins/transferwise.py',
                    rule='Date %d-%m-%Y, Amount signed; tests/__snapshots__/test_transferwise.ambr lists the same '
                    'amounts (-357.38, -11.35, 125.00, ...) on the same days'),
         amountColumns=['Amount']),
    spec('de-sparkasse-1.csv', 1, ';', 'windows-1252', 'Buchungstag', '%d.%m.%y', signed('Betrag', ','),
         OXS.format(repo='omarkohl/ofxstatement-sparkasse-freiburg', path='src/ofxstatement/plugins/sparkasse_freiburg.py',
                    rule='CSV-CAMT export, Betrag signed; tests/data/simple2.ofx is its expected output (check.py; '
                    'the plugin dates by Valutadatum, we by Buchungstag as bank2ynab.conf [DE Sparkasse Südholstein] '
                    'does for the same layout: "skip,Date,..." with %d.%m.%y)'),
         amountColumns=['Betrag']),
    spec('us-dcu-1.csv', 1, ',', 'utf-8', 'DATE', '%m/%d/%Y', signed('AMOUNT'),
         'beancount_reds_importers (redstreet/beancount_reds_importers) importers/dcu: date_format "%m/%d/%Y", '
         'AMOUNT signed ("-$7,971.39"); tests/Main_Checking_Account_Transactions.csv.extract is the expected '
         'ledger (check.py)',
         amountColumns=['AMOUNT']),
    # ---- Volksbank with S/H, PayPal (OCA), Fortis, UTF-16 ----
    spec('de-volksbank-1.csv', 13, ';', 'windows-1252', 'Buchungstag', '%d.%m.%Y',
         direction(11, 12, ['S'], ['H'], ','),
         'volksbanker (airblade/volksbanker) lib/volksbanker: title, account block and blank lines before the header on '
         'line 13; Umsatz is unsigned, the column named " " says S (Soll, money out) or H (Haben, money in); '
         'test/fixtures/result.stdout.csv is the expected output (check.py). The closing Anfangssaldo/Endsaldo '
         'records are rows too and follow the same S/H rule',
         amountColumns=['Umsatz'], directionColumn=' '),
    spec('de-volksbank-2.csv', 13, ';', 'windows-1252', 'Buchungstag', '%d.%m.%Y',
         direction(11, 12, ['S'], ['H'], ','),
         'volksbanker (airblade/volksbanker): same layout; a blank line inside a quoted field and between records '
         '(test "handles line feed shenanigans"); S = money out, H = money in; newlines.stderr.csv states the '
         'Anfangssaldo/Endsaldo balances 1234.56 / 3456.67',
         amountColumns=['Umsatz'], directionColumn=' '),
    spec('be-fortis-1.csv', 1, ';', 'utf-8', "DATE DE L'EXECUTION", '%d/%m/%Y', signed('MONTANT', ','),
         'moneyguru (hsoft/moneyguru) core/tests/testdata/csv/fortis.csv, a BNP Paribas Fortis export '
         '(core/tests/gui/csv_options_test.py): date of execution %d/%m/%Y, MONTANT signed with decimal comma',
         amountColumns=['MONTANT']),
    spec('xx-moneyguru-utf16-1.csv', 1, ';', 'utf-16le', 'Date', '%d/%m/%Y', signed('Amount'),
         'moneyguru (hsoft/moneyguru) core/tests/testdata/csv/utf16_encoded.csv: a minimal UTF-16LE file without BOM '
         'made for its UTF-16 support (issue hsoft/moneyguru#486, a bank that switched to UTF-16); not a bank\'s own '
         'file',
         amountColumns=['Amount']),
    spec('us-paypal-1.csv', 1, ',', 'utf-8', 'Date', '%m/%d/%Y', signed('Gross'),
         OCA.format(map='PayPal Statement (EN)', rule='date_format %m/%d/%Y, thousands comma, decimal dot, gross_column Gross'),
         amountColumns=['Gross']),
    spec('es-paypal-1.csv', 1, ',', 'utf-8', 'Fecha', '%d/%m/%Y', signed('Bruto', ','),
         OCA.format(map='PayPal Statement (ES)', rule='date_format %d/%m/%Y, thousands dot, decimal comma, gross_column Bruto'),
         amountColumns=['Bruto']),
    spec('gb-paypal-1.csv', 1, ',', 'utf-8', 'Date', '%d/%m/%Y', signed('Gross'),
         OCA.format(map='PayPal Activity (EN)', rule='date_format %d/%m/%Y, thousands comma, decimal dot, gross_column Gross'),
         amountColumns=['Gross']),
    # ---- beancount-import (jbms/beancount-import) test data ----
    spec('us-schwab-2.csv', 2, ',', 'utf-8', 'Date', '%m/%d/%Y', pair('Withdrawal (-)', 'Deposit (+)'),
         'beancount-import (jbms/beancount-import) beancount_import/source/schwab_csv.py _load_banking_transactions: '
         'a title line, the header on line 2, then the info records "Pending Transactions are not reflected within '
         'this sort criterion." and "Posted Transactions" (no transactions); amount = Deposit (+) minus '
         'Withdrawal (-), dates %m/%d/%Y',
         amountColumns=['Withdrawal (-)', 'Deposit (+)'],
         notTransactions=['Pending Transactions are not reflected within this sort criterion.', 'Posted Transactions']),
    spec('us-venmo-1.csv', 1, ',', 'utf-8', 'Datetime', '%Y-%m-%dT%H:%M:%S', signed('Amount (total)'),
         'beancount-import (jbms/beancount-import) beancount_import/source/venmo.py: Datetime (ISO, date taken as '
         'written), Amount (total) signed as "- $220.00" / "+ $1,150.00"; the header\'s first name has a leading space',
         amountColumns=['Amount (total)']),
    # ---- money apps (hledger's examples: the rules files are the reading rules) ----
    spec('xx-monefy-1.csv', 1, ',', 'utf-8', 'date', '%d/%m/%Y', signed('amount'),
         HLG.format(path='examples/csv/apps/monefy.csv.rules', rule='skip 1; date-format %d/%m/%Y; amount signed '
                    '("1,280.8", decimal-mark .); every date is 06/12/2021, so only the rules say day-first'),
         amountColumns=['amount']),
    spec('jo-ynab4-1.csv', 1, ',', 'utf-8', 'Date', '%Y/%m/%d', pair('Outflow', 'Inflow'),
         HLG.format(path='examples/csv/apps/ynab4-rtl.csv.rules', rule='YNAB 4 register with a right-to-left '
                    'currency mark before each number; amount-out Outflow, amount-in Inflow (the number after the '
                    'mark), currency JOD'),
         amountColumns=['Outflow', 'Inflow']),
    # ---- a few contact and product exports (header row, delimiter and encoding only) ----
    other('xx-thunderbird-contacts-1.csv', 'contact', 1, ',', 'utf-8',
          'Thunderbird address book CSV export (mozilla/mozilla-central mailnews/import/test/unit/resources/'
          'basic_addressbook.csv, read by test_csv_import.js): header on line 1, ending with a comma'),
    other('xx-shopify-products-1.csv', 'product', 1, ',', 'utf-8',
          "Shopify's product CSV template (earlier layout) as kept in umsu2/shopify_import_gen: header on line 1"),
    other('xx-shopify-products-2.csv', 'product', 1, ',', 'utf-8',
          "Shopify's product CSV template (current layout, with Product Category) as kept in "
          'kcohen1997/Shopify-Product-CSV-File-Forward-Fill: header on line 1; variant rows carry only some cells'),
]

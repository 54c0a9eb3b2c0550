import { headerTokens, lexiconPhrases, MEANINGS, normaliseHeader, type Lang } from './lexicon';
import { profileValues } from './lexicon-values';
import { readHeader } from './suggester';

const LANGS: Lang[] = ['en', 'de', 'fr', 'nl', 'es', 'it', 'pt', 'sv'];
const meaningsOf = (header: string, kind: 'bank' | 'contacts' | 'products' | null) =>
  readHeader(header, kind).map((r) => r.meaning.id);

describe('the lexicon', () => {
  it('has words in all eight languages for the meanings people map most', () => {
    const core = [
      'date',
      'bookingDate',
      'valueDate',
      'description',
      'counterparty',
      'amount',
      'debit',
      'credit',
      'balance',
      'currency',
      'reference',
      'transactionType',
      'firstName',
      'lastName',
      'fullName',
      'company',
      'jobTitle',
      'email',
      'phone',
      'mobile',
      'address',
      'street',
      'city',
      'state',
      'postcode',
      'country',
      'website',
      'notes',
      'tags',
      'sku',
      'barcode',
      'title',
      'body',
      'price',
      'comparePrice',
      'cost',
      'quantity',
      'weight',
      'vendor',
      'category',
      'status',
      'published',
      'image',
      'optionName',
      'optionValue',
    ];
    for (const id of core) {
      const m = MEANINGS.find((x) => x.id === id);
      expect(m).toBeDefined();
      const missing = LANGS.filter((l) => !m!.words[l]);
      expect({ id, missing }).toEqual({ id, missing: [] });
    }
  });

  it('keeps one meaning per phrase within a kind of file, except where the values must decide', () => {
    const clashes: string[] = [];
    for (const [phrase, entries] of lexiconPhrases()) {
      const kinds = entries.map((e) => e.meaning.kind ?? 'any');
      if (new Set(kinds).size !== kinds.length) clashes.push(phrase);
    }
    // "Buchungstext" is the booking type at some German banks and the whole description at others;
    // "Staat" is a state in Dutch and a country in German; a contact's "Title" is Mr/Ms in Outlook and
    // the job title in Salesforce
    expect(clashes.sort()).toEqual(['booking text', 'buchungstext', 'staat', 'title']);
  });

  it('stores every phrase normalised, and ids are unique', () => {
    for (const key of lexiconPhrases().keys()) expect(headerTokens(key).join(' ')).toBe(key);
    expect(new Set(MEANINGS.map((m) => m.id)).size).toBe(MEANINGS.length);
  });

  it('splits meanings that differ: company ≠ person, state ≠ country, cost ≠ price, value date ≠ amount', () => {
    expect(meaningsOf('Company', 'contacts')).toEqual(['company']);
    expect(meaningsOf('Organization', 'contacts')).toEqual(['company']);
    expect(meaningsOf('Name', 'contacts')).toEqual(['fullName']);
    expect(meaningsOf('Region', 'contacts')).toEqual(['state']);
    expect(meaningsOf('Country/Region', 'contacts')).toEqual(['country']);
    expect(meaningsOf('Cost', 'products')).toEqual(['cost']);
    expect(meaningsOf('Cost price', 'products')).toEqual(['cost']);
    expect(meaningsOf('Unit price', 'products')).toEqual(['price']);
    expect(meaningsOf('Value Date', 'bank')).toEqual(['valueDate']);
    expect(meaningsOf('Value', 'bank')).toEqual(['amount']);
    expect(meaningsOf('Customer ID', 'contacts')).toEqual(['id']);
  });

  it('reads a word by the kind of file: "Name" is a person, a product or the other party', () => {
    expect(meaningsOf('Name', 'contacts')).toEqual(['fullName']);
    expect(meaningsOf('Name', 'products')).toEqual(['title']);
    expect(meaningsOf('Name', 'bank')).toEqual(['counterparty']);
    expect(meaningsOf('Description', 'products')).toEqual(['body']);
    expect(meaningsOf('Description', 'bank')).toEqual(['description']);
    expect(meaningsOf('Internal Reference', 'products')).toEqual(['sku']);
    expect(meaningsOf('Internal Reference', 'bank')).toEqual(['reference']);
  });

  it('knows the words of eight languages', () => {
    const amount: [string, Lang][] = [
      ['Amount', 'en'],
      ['Betrag', 'de'],
      ['Montant', 'fr'],
      ['Bedrag (EUR)', 'nl'],
      ['Importe', 'es'],
      ['Importo', 'it'],
      ['Valor', 'pt'],
      ['Belopp', 'sv'],
    ];
    for (const [header, lang] of amount) {
      const [r] = readHeader(header, 'bank');
      expect([header, r?.meaning.id, r?.lang]).toEqual([header, 'amount', lang]);
    }
    expect(meaningsOf('Straße', 'contacts')).toEqual(['street']);
    expect(meaningsOf('Código postal', 'contacts')).toEqual(['postcode']);
    expect(meaningsOf('Förnamn', 'contacts')).toEqual(['firstName']);
    expect(meaningsOf('QUANTITÀ', 'products')).toEqual(['quantity']);
    expect(meaningsOf('Preço', 'products')).toEqual(['price']);
  });

  it('prefers whole words; generic words match only whole or with a qualifier that agrees', () => {
    expect(meaningsOf('Tax status', 'products')).toEqual(['taxStatus']);
    expect(meaningsOf('Product status', 'products')).toEqual(['status']);
    expect(meaningsOf('Available online only', 'products')).toEqual([]);
    expect(meaningsOf('tax_class_name', 'products')).toEqual(['taxClass']);
    expect(meaningsOf('SEO Description', 'products')).toEqual(['seoDescription']);
    expect(meaningsOf('E-mail 2 Address', 'contacts')).toEqual(['email2']);
    expect(meaningsOf('Date Created', 'contacts')).toEqual(['created']);
    expect(meaningsOf('Transaction Date', 'bank')).toEqual(['date']);
    expect(meaningsOf('Customer Email', 'contacts')).toEqual(['email']);
    expect(meaningsOf('Address 1 - City', 'contacts')[0]).toBe('city');
    // compounds of German, Dutch and Swedish
    expect(meaningsOf('Lieferdatum', 'bank')).toEqual(['date']);
  });

  it('reads any header without failing, words of the language runtime included', () => {
    for (const h of [
      'constructor',
      'Constructor Name',
      '__proto__',
      'toString',
      'hasOwnProperty',
      '',
      '###',
      '2024',
    ])
      expect(() => readHeader(h, null)).not.toThrow();
  });

  it('normalises headers: case, accents, punctuation, camelCase', () => {
    expect(normaliseHeader('E-Mail_Adresse')).toBe('e mail adresse');
    expect(normaliseHeader('ProductName')).toBe('product name');
    expect(normaliseHeader('  Straße & Nr. ')).toBe('strasse and nr');
    expect(headerTokens('Option1 Name')).toEqual(['option', '1', 'name']);
  });
});

describe('value profiles', () => {
  it('tells dates, amounts, emails, phones, countries and states apart', () => {
    const p = (v: string[]) => profileValues(v)!;
    expect(p(['31.01.2024', '01.02.2024', '10 Aug 2024']).date).toBe(1);
    expect(p(['-12,50', '1.234,56', '7,00']).decimalComma).toBe(1);
    expect(p(['-12,50', '1.234,56', '7,00']).date).toBe(0);
    expect(p(['ada@example.com', 'bob@example.org']).email).toBe(1);
    expect(p(['+44 20 7946 0000', '(555) 123-4567']).phoneStrong).toBe(1);
    // digits that are not phone-shaped
    const password = p(['12', '123456789012345678', 'hunter2']);
    expect(password.phoneStrong + password.phoneWeak).toBe(0);
    expect(p(['Germany', 'Deutschland', 'FR', 'España']).countryName).toBeGreaterThanOrEqual(0.75);
    expect(p(['California', 'NY', 'Ontario']).state).toBe(1);
    expect(p(['https://cdn.example.com/a.jpg', 'https://x.example/b.png?v=1']).image).toBe(1);
  });
});

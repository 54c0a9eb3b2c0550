import { COMMON_PASSWORDS } from './common-passwords';
import { isCommonPassword, passwordErrors, PasswordMessages } from './passwords';

const cap = (w: string) => w[0].toUpperCase() + w.slice(1);

describe('common passwords and their variants (issue 28)', () => {
  it.each(['Dragon1!', 'Football123!', 'Monkey2024$', '!Shadow99', 'P@ssw0rd99', 'Baseball#1', 'Qwerty123!'])(
    '%s is refused with the spec message',
    (pw) => {
      expect(passwordErrors(pw)).toEqual([PasswordMessages.common]);
    },
  );

  it('refuses every listed word of 4+ letters with digits and symbols around it', () => {
    const words = [...COMMON_PASSWORDS].filter((w) => /^[a-z]{4,}$/.test(w)).slice(0, 300);
    expect(words.length).toBe(300);
    const variants = words.flatMap((w) => [`${cap(w)}1!`, `${cap(w)}123!`, `${cap(w)}2024$`, `#${cap(w)}7`]);
    expect(variants.filter((v) => !isCommonPassword(v))).toEqual([]);
  });

  it.each(['Tr1cky-Mapper!', 'Correct-Horse-Battery-9', 'Zq8!vLm2#Rt', 'Abc!9f3kQ7xw'])(
    '%s is accepted',
    (pw) => {
      expect(passwordErrors(pw)).toEqual([]);
    },
  );
});

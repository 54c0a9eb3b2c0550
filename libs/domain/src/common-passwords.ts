// Passwords that are among the most used and breached; rejected even when they meet the composition rules.
// Compared lower-cased. Extended from public breach frequency lists.
const LIST = `password password1 password1! password123 password123! p@ssw0rd p@ssword1 p@ssw0rd1 p@ssw0rd! passw0rd!
welcome1 welcome1! welcome123! welcome@123 admin123! admin@123 qwerty123! qwerty1! letmein1! iloveyou1! abc123!!
changeme1! summer2024! summer2025! winter2024! winter2025! spring2025! autumn2025! football1! baseball1! monkey123!
dragon123! sunshine1! princess1! trustno1! master123! hello123! secret123! test123! test@123 pass@123 pass@word1
qwerty@123 abcd@1234 abcd1234! zaq1@wsx 1q2w3e4r! 1qaz@wsx passw0rd1 password@1 password@123 password#1 password!1`;

export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(LIST.split(/\s+/).filter(Boolean));

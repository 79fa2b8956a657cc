// The id shown on an error screen and sent with the report, so support can find one from the other.

const RANDOM_DIGITS = 8;

/** `err_{Date.now()}_{8 base-36 characters}`. */
export function newErrorId(now: number = Date.now(), random: () => number = Math.random): string {
  const suffix = Math.floor(random() * 36 ** RANDOM_DIGITS)
    .toString(36)
    .padStart(RANDOM_DIGITS, "0");
  return `err_${now}_${suffix}`;
}

export const ERROR_ID_PATTERN = /^err_\d+_[0-9a-z]{8}$/;

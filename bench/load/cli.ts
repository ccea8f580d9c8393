/** Command-line options of the bench scripts: `--name value`, with a default when absent. */
export function numberOption(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return def;
  const value = Number(process.argv[i + 1]);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} takes a number (got "${process.argv[i + 1]}")`);
  return value;
}

export function choiceOption<T extends string>(name: string, choices: readonly T[], def: T): T {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return def;
  const value = process.argv[i + 1] as T;
  if (!choices.includes(value)) throw new Error(`--${name} takes one of ${choices.join(', ')} (got "${value}")`);
  return value;
}

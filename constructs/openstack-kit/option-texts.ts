/** What explains an option to a user: oslo.config's name of its type and its help. */
export interface OptionTexts {
  readonly osloType?: string;
  readonly help?: string;
}

/** Where the texts of a schema's options are, for the schemas that keep them apart. */
const textSources = new WeakMap<object, (section: string, option: string) => OptionTexts | undefined>();

/**
 * Tells where the texts of `schema`'s options are. The generated schemas keep them in a file of
 * their own (`<name>.help.json`), read only when a problem is explained: they are three quarters
 * of the bytes, and parsing them cost every synthesis.
 */
export function keepTextsApart(
  schema: object,
  source: (section: string, option: string) => OptionTexts | undefined,
): void {
  textSources.set(schema, source);
}

/** The texts of `[section] option` of `schema` kept apart from it, if any. */
export function optionTexts(schema: object, section: string, option: string): OptionTexts | undefined {
  return textSources.get(schema)?.(section, option);
}

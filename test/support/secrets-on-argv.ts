import { KubeObject } from '../../lib/graph';

/**
 * Finds secret material that reaches a process's argv (readable by anyone on the node through
 * `/proc/<pid>/cmdline` and `ps`) in synthesised manifests: every container's command and args,
 * its exec probes and hooks, and the shell scripts of ConfigMaps.
 *
 * What is secret: the container's environment variables read from a Secret, variables whose value
 * Kubernetes composes from them (`$(DB_PASSWORD)` in a connection URL), and in shell scripts any
 * variable assigned from one of those or from a generator (`openssl rand`). A finding is
 * - a secret variable Kubernetes expands into command or args (`$(ADMIN_PASSWORD)`);
 * - a secret passed as an argument to a program the shell executes (anything but the builtins
 *   below): `mariadb -p"$PW"`, `curl -u "admin:$PW"`, `kubectl create --from-literal=k=$(openssl rand …)`;
 * - a password option given on a command line (`--password`, `--os-password`, `-p<value>`).
 * Here-document bodies are stdin, env assignments before a command are its environment, and the
 * builtins write into pipes and files: those are the ways a secret may travel.
 *
 * The shell model is deliberately small (no functions, aliases or `eval`): a script that uses
 * them is judged conservatively, a function call with a secret argument counts as a finding.
 */
export function secretsOnArgv(objects: readonly KubeObject[]): string[] {
  const findings: string[] = [];
  const allSecretNames = new Set<string>();
  for (const object of objects) {
    for (const container of containersOf(object)) {
      const secret = secretVariables(container);
      secret.forEach((name) => allSecretNames.add(name));
      const where = `${object.kind}/${object.metadata.name} container ${container.name}`;
      const argv = [...(container.command ?? []), ...(container.args ?? [])];
      findings.push(...argvFindings(argv, secret).map((f) => `${where}: ${f}`));
      for (const [name, command] of execCommands(container)) {
        findings.push(...argvFindings(command, secret).map((f) => `${where} ${name}: ${f}`));
      }
    }
  }
  for (const object of objects) {
    if (object.kind !== 'ConfigMap') continue;
    const data = (object as { data?: Record<string, string> }).data ?? {};
    for (const [file, script] of Object.entries(data)) {
      if (!file.endsWith('.sh')) continue;
      const where = `ConfigMap/${object.metadata.name} ${file}`;
      findings.push(...scriptFindings(script, allSecretNames).map((f) => `${where}: ${f}`));
    }
  }
  return findings;
}

interface Container {
  readonly name: string;
  readonly command?: string[];
  readonly args?: string[];
  readonly env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: unknown } }[];
  readonly readinessProbe?: Probe;
  readonly livenessProbe?: Probe;
  readonly startupProbe?: Probe;
  readonly lifecycle?: { postStart?: Probe; preStop?: Probe };
}

interface Probe {
  readonly exec?: { command?: string[] };
}

/** A password given as an option: `--password`, `--os-password=x`, `--bootstrap-password`, `-pSECRET`. */
const PASSWORD_OPTION = /^(--?[A-Za-z-]*(pass|PASS)(word|wd|WORD|WD)?(=|$)|-p\S)/;

/** Shell builtins and keywords: their arguments never become a process's argv. */
const NO_EXEC = new Set([
  ':',
  '[',
  'break',
  'case',
  'cd',
  'continue',
  'do',
  'done',
  'echo',
  'elif',
  'else',
  'esac',
  'exit',
  'export',
  'false',
  'fi',
  'for',
  'if',
  'local',
  'printf',
  'read',
  'return',
  'set',
  'shift',
  'test',
  'then',
  'true',
  'umask',
  'unset',
  'until',
  'wait',
  'while',
]);

/** Words that only open or close a compound command; the command proper follows them. */
const PREFIX_KEYWORDS = new Set(['!', '{', '}', 'do', 'else', 'elif', 'if', 'then', 'until', 'while']);

const SHELLS = /(^|\/)(sh|bash|dash|ash)$/;

function containersOf(object: KubeObject): Container[] {
  const spec = object.spec as
    | {
        template?: { spec?: PodSpec };
        jobTemplate?: { spec?: { template?: { spec?: PodSpec } } };
      }
    | undefined;
  const podSpec =
    object.kind === 'Pod'
      ? (object.spec as PodSpec | undefined)
      : (spec?.template?.spec ?? spec?.jobTemplate?.spec?.template?.spec);
  return [...(podSpec?.initContainers ?? []), ...(podSpec?.containers ?? [])];
}

interface PodSpec {
  readonly containers?: Container[];
  readonly initContainers?: Container[];
}

function execCommands(container: Container): [string, string[]][] {
  const probes: [string, Probe | undefined][] = [
    ['readinessProbe', container.readinessProbe],
    ['livenessProbe', container.livenessProbe],
    ['startupProbe', container.startupProbe],
    ['postStart', container.lifecycle?.postStart],
    ['preStop', container.lifecycle?.preStop],
  ];
  return probes.flatMap(([name, probe]) => (probe?.exec?.command ? [[name, probe.exec.command]] : []));
}

/** Variables from Secrets, and those Kubernetes composes from them (`$(DB_PASSWORD)`). */
function secretVariables(container: Container): Set<string> {
  const secret = new Set<string>();
  for (const variable of container.env ?? []) {
    const composed = [...(variable.value ?? '').matchAll(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g)].some(
      ([, name]) => secret.has(name),
    );
    if (variable.valueFrom?.secretKeyRef || composed) secret.add(variable.name);
  }
  return secret;
}

function argvFindings(argv: readonly string[], secret: ReadonlySet<string>): string[] {
  const findings: string[] = [];
  for (const word of argv) {
    for (const [, name] of word.matchAll(/(?<!\$)\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g)) {
      if (secret.has(name)) findings.push(`Kubernetes expands the secret $(${name}) into argv`);
    }
  }
  const scriptAt = shellScriptIndex(argv);
  if (scriptAt !== undefined) return [...findings, ...scriptFindings(argv[scriptAt], secret)];
  return [...findings, ...optionFindings(argv)];
}

/** The index of the script in `sh -c SCRIPT` (any option cluster with `c`), if argv is one. */
function shellScriptIndex(argv: readonly string[]): number | undefined {
  if (!argv[0] || !SHELLS.test(argv[0])) return undefined;
  const flag = argv.findIndex((word, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(word));
  return flag > 0 && flag + 1 < argv.length ? flag + 1 : undefined;
}

function optionFindings(argv: readonly string[]): string[] {
  return argv.filter((word) => PASSWORD_OPTION.test(word)).map((word) => `password option ${word} on argv`);
}

/** The findings of a shell script, given the variables that hold secrets when it starts. */
export function scriptFindings(script: string, secretAtStart: ReadonlySet<string>): string[] {
  const secret = new Set(secretAtStart);
  const findings: string[] = [];
  for (const command of simpleCommands(lex(script))) {
    for (const word of command) {
      for (const inner of word.substitutions) findings.push(...scriptFindings(inner, secret));
    }
    const words = [...command];
    while (words.length > 0 && PREFIX_KEYWORDS.has(words[0].text)) words.shift();
    const assignments: Word[] = [];
    while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0].text)) {
      assignments.push(words.shift() as Word);
    }
    if (words.length === 0) {
      // A plain assignment: the variable now holds a secret if its value does.
      for (const a of assignments) if (tainted(a, secret)) secret.add(a.text.split('=')[0]);
      continue;
    }
    const name = unquote(words[0].text);
    if (NO_EXEC.has(name)) continue;
    const program = name === 'exec' && words.length > 1 ? unquote(words[1].text) : name;
    const args = words.slice(1);
    for (const word of args) {
      if (tainted(word, secret)) findings.push(`\`${program}\` gets a secret on its argv: ${word.text}`);
    }
    findings.push(...optionFindings(args.map((w) => unquote(w.text))));
  }
  return findings;
}

/** A word of a command line (quotes kept) and the command substitutions inside it. */
interface Word {
  readonly text: string;
  readonly substitutions: readonly string[];
}

type Token = { readonly word: Word } | { readonly op: string };

function tainted(word: Word, secret: ReadonlySet<string>): boolean {
  const references = [...word.text.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)].map(([, name]) => name);
  return (
    references.some((name) => secret.has(name)) ||
    word.substitutions.some((inner) => /\bopenssl\s+rand\b/.test(inner))
  );
}

function unquote(text: string): string {
  return text.replace(/^(['"])(.*)\1$/s, '$2');
}

/** Splits tokens into simple commands at `;`, `&`, `&&`, `||`, `|`, newlines and parentheses. */
function simpleCommands(tokens: readonly Token[]): Word[][] {
  const commands: Word[][] = [];
  let current: Word[] = [];
  let skipNext = false;
  for (const token of tokens) {
    if ('op' in token) {
      if (token.op === 'redirect') {
        skipNext = true;
        continue;
      }
      if (current.length > 0) commands.push(current);
      current = [];
      continue;
    }
    if (skipNext) skipNext = false;
    else current.push(token.word);
  }
  if (current.length > 0) commands.push(current);
  return commands;
}

/**
 * A small POSIX shell lexer: quotes, escapes, `$(…)` and backquote substitutions, comments,
 * operators, redirections (their target is dropped) and here-documents (their body is stdin and
 * is skipped).
 */
function lex(script: string): Token[] {
  const tokens: Token[] = [];
  let text = '';
  let substitutions: string[] = [];
  let started = false;
  const pendingHeredocs: string[] = [];
  let expectHeredocDelimiter = false;
  const endWord = () => {
    if (!started) return;
    if (expectHeredocDelimiter) {
      pendingHeredocs.push(unquote(text).replace(/\\/g, ''));
      expectHeredocDelimiter = false;
    } else {
      tokens.push({ word: { text, substitutions } });
    }
    text = '';
    substitutions = [];
    started = false;
  };
  let i = 0;
  while (i < script.length) {
    const c = script[i];
    if (c === '\\' && script[i + 1] === '\n') {
      i += 2;
    } else if (c === '\\') {
      text += script.slice(i, i + 2);
      started = true;
      i += 2;
    } else if (c === ' ' || c === '\t') {
      endWord();
      i++;
    } else if (c === '\n') {
      endWord();
      tokens.push({ op: '\n' });
      i++;
      for (const delimiter of pendingHeredocs.splice(0)) {
        const end = script.indexOf('\n', i);
        let lineEnd = end < 0 ? script.length : end;
        while (script.slice(i, lineEnd).replace(/^\t+/, '') !== delimiter && i < script.length) {
          i = lineEnd + 1;
          const next = script.indexOf('\n', i);
          lineEnd = next < 0 ? script.length : next;
        }
        i = lineEnd + 1;
      }
    } else if (c === '#' && !started) {
      while (i < script.length && script[i] !== '\n') i++;
    } else if (c === "'") {
      const end = script.indexOf("'", i + 1);
      const close = end < 0 ? script.length : end + 1;
      text += script.slice(i, close);
      started = true;
      i = close;
    } else if (c === '"') {
      let j = i + 1;
      while (j < script.length && script[j] !== '"') {
        if (script[j] === '\\') j += 2;
        else if (script.startsWith('$(', j) && !script.startsWith('$((', j)) {
          const end = closingParen(script, j + 1);
          substitutions.push(script.slice(j + 2, end));
          j = end + 1;
        } else if (script[j] === '`') {
          const end = script.indexOf('`', j + 1);
          substitutions.push(script.slice(j + 1, end));
          j = end + 1;
        } else j++;
      }
      text += script.slice(i, j + 1);
      started = true;
      i = j + 1;
    } else if (script.startsWith('$((', i)) {
      // Arithmetic expansion: runs nothing.
      const end = closingParen(script, i + 1);
      text += script.slice(i, end + 1);
      started = true;
      i = end + 1;
    } else if (script.startsWith('$(', i)) {
      const end = closingParen(script, i + 1);
      substitutions.push(script.slice(i + 2, end));
      text += script.slice(i, end + 1);
      started = true;
      i = end + 1;
    } else if (c === '`') {
      const end = script.indexOf('`', i + 1);
      substitutions.push(script.slice(i + 1, end));
      text += script.slice(i, end + 1);
      started = true;
      i = end + 1;
    } else if ('|&;()'.includes(c)) {
      endWord();
      const double = script.slice(i, i + 2);
      const op = ['||', '&&', ';;'].includes(double) ? double : c;
      tokens.push({ op });
      i += op.length;
    } else if (c === '<' || c === '>') {
      // `2>`, `>&2`, `>>`: a redirection; a word made only of digits before it is its fd.
      if (/^\d+$/.test(text)) {
        text = '';
        substitutions = [];
        started = false;
      } else endWord();
      const match = /^(<<-?|<>|>>|>&|<&|>\||<|>)(\d+|-)?/.exec(script.slice(i)) as RegExpExecArray;
      i += match[0].length;
      if (match[1].startsWith('<<')) expectHeredocDelimiter = true;
      else if (match[2] === undefined) tokens.push({ op: 'redirect' });
    } else {
      text += c;
      started = true;
      i++;
    }
  }
  endWord();
  return tokens;
}

/** The index of the `)` closing the `(` at `open`, skipping quoted text and nested parentheses. */
function closingParen(script: string, open: number): number {
  let depth = 0;
  for (let i = open; i < script.length; i++) {
    const c = script[i];
    if (c === '\\') i++;
    else if (c === "'") i = script.indexOf("'", i + 1);
    else if (c === '"') {
      i++;
      while (i < script.length && script[i] !== '"') i += script[i] === '\\' ? 2 : 1;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
    if (i < 0) break;
  }
  return script.length;
}

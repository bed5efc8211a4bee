/**
 * A small real dice-formula engine for the simulated `Roll`
 * (https://foundryvtt.com/api/classes/foundry.dice.Roll.html): `NdX` with optional `kh`/`kl`,
 * `+ - * /`, parentheses, numeric constants and `@path` substitution from roll data; math functions
 * (`min(a, b)`, `abs(x)`… as FunctionTerm, https://foundryvtt.com/api/classes/foundry.dice.terms.FunctionTerm.html);
 * a parenthetical dice number, "(@level)d6", evaluated before the dice
 * (https://foundryvtt.com/article/dice-advanced/, "Parentheses"); and a game system's lettered dice
 * ("2dp", "1da"), which exist only once the system registers its term class under that denomination
 * in `CONFIG.Dice.terms` (https://foundryvtt.com/api/classes/foundry.dice.terms.DiceTerm.html#DENOMINATION;
 * StarWarsFFG 2.0.3 `modules/swffg-main.js` and Mezryss/FVTT-Genesys `src/dice/index.ts` do so).
 * Die results come from the server's injectable dice.
 */
import { getProperty, isPlainObject, type Dict, type Json, type JsonObject } from "./utils.js";

export interface DieResult {
  result: number;
  active: boolean;
}
export interface DieTerm {
  class: string;
  number: number;
  faces: number;
  /** A lettered die's denomination ("p"); absent for numbered dice. */
  denomination?: string;
  modifiers: string[];
  results: DieResult[];
}
type Node =
  | { kind: "num"; value: number }
  | { kind: "die"; die: DieTerm }
  | { kind: "bin"; op: "+" | "-" | "*" | "/"; left: Node; right: Node }
  | { kind: "neg"; expr: Node }
  | { kind: "paren"; expr: Node }
  | { kind: "fn"; name: MathFunction; args: Node[] };

/** The math functions a formula may call (Foundry's FunctionTerm calls the `Math` function of that name). */
const MATH_FUNCTIONS = ["abs", "ceil", "floor", "max", "min", "round", "sign", "trunc"] as const;
type MathFunction = (typeof MATH_FUNCTIONS)[number];
const isMathFunction = (name: string): name is MathFunction => (MATH_FUNCTIONS as readonly string[]).includes(name);
const first = (values: number[]): number => values[0] ?? NaN;
const MATH: Record<MathFunction, (values: number[]) => number> = {
  abs: (v) => Math.abs(first(v)),
  ceil: (v) => Math.ceil(first(v)),
  floor: (v) => Math.floor(first(v)),
  max: (v) => Math.max(...v),
  min: (v) => Math.min(...v),
  round: (v) => Math.round(first(v)),
  sign: (v) => Math.sign(first(v)),
  trunc: (v) => Math.trunc(first(v)),
};

/** A registered lettered die: its term class's name and faces. */
export interface LetteredDie {
  readonly className: string;
  readonly faces: number;
}

/** What `CONFIG.Dice.terms` registers under a denomination, or null. */
export type DieLookup = (denomination: string) => LetteredDie | null;

export function parseFormula(formula: string, lookup: DieLookup = () => null): Node {
  const src = formula.replace(/\s+/g, "");
  let i = 0;
  const fail = (): never => {
    throw new Error(`Unresolved or invalid roll formula "${formula}"`);
  };
  const num = (): number | null => {
    const m = /^\d+(\.\d+)?/.exec(src.slice(i));
    if (!m) return null;
    i += m[0].length;
    return Number(m[0]);
  };
  const dice = (count: number): Node => {
    // After the "d": faces as a number, or a lettered denomination a system registered.
    const faces = num();
    if (faces === null) {
      const letter = /^[a-zA-Z]/.exec(src.slice(i))?.[0];
      const term = letter === undefined ? null : lookup(letter);
      if (letter === undefined || term === null) return fail();
      i += 1;
      return {
        kind: "die",
        die: {
          class: term.className,
          number: count,
          faces: term.faces,
          denomination: letter,
          modifiers: [],
          results: [],
        },
      };
    }
    if (faces < 1 || !Number.isInteger(faces)) return fail();
    if (!Number.isInteger(count) || count < 0 || count > 1000) fail();
    const modifiers: string[] = [];
    const m = /^(kh|kl)(\d*)/.exec(src.slice(i));
    if (m) {
      modifiers.push(m[0]);
      i += m[0].length;
    }
    return { kind: "die", die: { class: "Die", number: count, faces, modifiers, results: [] } };
  };
  /** A parenthetical (or function) followed by "d": its value, which must not roll dice, is the dice number. */
  const maybeDiceNumber = (inner: Node): Node => {
    if (src[i] !== "d" && src[i] !== "D") return inner;
    if (collectDice(inner).length > 0) return fail();
    i++;
    const count = evaluateNode(inner, () => 0);
    if (!Number.isInteger(count) || count < 0) return fail();
    return dice(count);
  };
  const primary = (): Node => {
    if (src[i] === "(") {
      i++;
      const e = expr();
      if (src[i] !== ")") fail();
      i++;
      return maybeDiceNumber({ kind: "paren", expr: e });
    }
    const name = /^[a-z]+(?=\()/.exec(src.slice(i))?.[0];
    if (name !== undefined) {
      if (!isMathFunction(name)) return fail();
      i += name.length + 1;
      const args: Node[] = [expr()];
      while (src[i] === ",") {
        i++;
        args.push(expr());
      }
      if (src[i] !== ")") fail();
      i++;
      return maybeDiceNumber({ kind: "fn", name, args });
    }
    const n = num();
    if (src[i] === "d" || src[i] === "D") {
      i++;
      return dice(n ?? 1);
    }
    if (n === null) return fail();
    return { kind: "num", value: n };
  };
  const unary = (): Node => {
    if (src[i] === "-") {
      i++;
      return { kind: "neg", expr: unary() };
    }
    if (src[i] === "+") i++;
    return primary();
  };
  const term = (): Node => {
    let left = unary();
    while (src[i] === "*" || src[i] === "/") {
      const op = src[i] as "*" | "/";
      i++;
      left = { kind: "bin", op, left, right: unary() };
    }
    return left;
  };
  const expr = (): Node => {
    let left = term();
    while (src[i] === "+" || src[i] === "-") {
      const op = src[i] as "+" | "-";
      i++;
      left = { kind: "bin", op, left, right: term() };
    }
    return left;
  };
  if (!src) fail();
  const root = expr();
  if (i !== src.length) fail();
  return root;
}

function show(n: Node): string {
  switch (n.kind) {
    case "num":
      return String(n.value);
    case "die":
      return `${n.die.number}d${n.die.denomination ?? n.die.faces}${n.die.modifiers.join("")}`;
    case "fn":
      return `${n.name}(${n.args.map(show).join(", ")})`;
    case "neg":
      return `-${show(n.expr)}`;
    case "paren":
      return `(${show(n.expr)})`;
    case "bin":
      return `${show(n.left)} ${n.op} ${show(n.right)}`;
  }
}

function evaluateNode(n: Node, draw: (faces: number) => number): number {
  switch (n.kind) {
    case "num":
      return n.value;
    case "neg":
      return -evaluateNode(n.expr, draw);
    case "paren":
      return evaluateNode(n.expr, draw);
    case "fn": {
      const values = n.args.map((a) => evaluateNode(a, draw));
      return MATH[n.name](values);
    }
    case "die": {
      const d = n.die;
      d.results = Array.from({ length: d.number }, () => ({ result: draw(d.faces), active: true }));
      const mod = d.modifiers[0];
      if (mod) {
        const keep = Number(mod.slice(2) || "1");
        const sorted = [...d.results].sort((a, b) =>
          mod.startsWith("kh") ? b.result - a.result : a.result - b.result,
        );
        sorted.slice(keep).forEach((r) => (r.active = false));
      }
      return d.results.filter((r) => r.active).reduce((s, r) => s + r.result, 0);
    }
    case "bin": {
      const a = evaluateNode(n.left, draw);
      const b = evaluateNode(n.right, draw);
      return n.op === "+" ? a + b : n.op === "-" ? a - b : n.op === "*" ? a * b : a / b;
    }
  }
}

function collectDice(n: Node, out: DieTerm[] = []): DieTerm[] {
  if (n.kind === "die") out.push(n.die);
  else if (n.kind === "bin") collectDice(n.right, collectDice(n.left, out));
  else if (n.kind === "neg" || n.kind === "paren") collectDice(n.expr, out);
  else if (n.kind === "fn") for (const a of n.args) collectDice(a, out);
  return out;
}

/** Top-level terms in Foundry's shape (Die, NumericTerm, OperatorTerm, ParentheticalTerm). */
function flatTerms(n: Node): Dict[] {
  switch (n.kind) {
    case "num":
      return [{ class: "NumericTerm", number: n.value }];
    case "die":
      return [n.die as unknown as Dict];
    case "neg":
      return [{ class: "OperatorTerm", operator: "-" }, ...flatTerms(n.expr)];
    case "paren":
      return [{ class: "ParentheticalTerm", term: show(n.expr) }];
    case "fn":
      return [{ class: "FunctionTerm", fn: n.name, terms: n.args.map(show) }];
    case "bin":
      return [...flatTerms(n.left), { class: "OperatorTerm", operator: n.op }, ...flatTerms(n.right)];
  }
}

export interface RollEnv {
  drawDie(faces: number): number;
  /** The lettered dice the realm's `CONFIG.Dice.terms` registers. */
  lookupDie?: DieLookup;
  /** The Roll class of that name among the realm's `CONFIG.Dice.rolls` (a system's own, e.g. RollFFG). */
  rollClassOf?: (name: string) => unknown;
  warn(message: string): void;
  /** `options` are the caller's (v13 `rollMode`, v14 `messageMode`). */
  toMessage(roll: unknown, messageData: Dict, options: Dict, create: boolean): Promise<unknown>;
}

/** Builds one realm's `Roll` class. */
export function createRollClass(env: RollEnv) {
  class Roll {
    readonly data: Dict;
    readonly options: Dict;
    readonly _formula: string;
    private readonly ast: Node | null;
    private readonly error: Error | null;
    _evaluated = false;
    _total: number | undefined = undefined;

    constructor(formula: string, data: Dict = {}, options: Dict = {}) {
      this.data = data;
      this.options = options;
      const replaced = Roll.replaceFormulaData(formula, data, { missing: "0", warn: true });
      let ast: Node | null = null;
      let error: Error | null = null;
      try {
        ast = parseFormula(replaced, env.lookupDie);
      } catch (err) {
        error = err instanceof Error ? err : new Error(String(err));
      }
      this.ast = ast;
      this.error = error;
      this._formula = ast ? show(ast) : replaced;
    }

    /**
     * `@path` references are replaced from the roll data; missing ones become "0" with a UI warning
     * (https://github.com/foundryvtt/dnd5e/pull/1747 describes core's global warning).
     */
    static replaceFormulaData(
      formula: string,
      data: Dict,
      { missing, warn = false }: { missing?: string; warn?: boolean } = {},
    ): string {
      return formula.replace(/@([a-zA-Z_][\w.-]*)/g, (match, path: string) => {
        const v = getProperty(data, path);
        if (typeof v === "number" || (typeof v === "string" && v !== "")) return String(v);
        if (warn) env.warn(`The attribute ${match} was not present in the provided roll data.`);
        return missing ?? match;
      });
    }

    static validate(formula: string): boolean {
      try {
        parseFormula(Roll.replaceFormulaData(formula, {}, { missing: "0" }), env.lookupDie);
        return true;
      } catch {
        return false;
      }
    }

    static create(formula: string, data: Dict = {}, options: Dict = {}): Roll {
      return new this(formula, data, options);
    }

    static fromData(json: unknown): Roll {
      const src = typeof json === "string" ? (JSON.parse(json) as unknown) : json;
      if (!isPlainObject(src)) throw new Error("Invalid roll data");
      // The stored `class` names the Roll class to rebuild, looked up among CONFIG.Dice.rolls
      // (https://foundryvtt.com/api/classes/foundry.dice.Roll.html#fromdata; a system's RollFFG
      // comes back as a RollFFG).
      const named = typeof src.class === "string" ? env.rollClassOf?.(src.class) : undefined;
      const Cls = typeof named === "function" ? (named as typeof Roll) : this;
      const roll = new Cls(String(src.formula), {}, isPlainObject(src.options) ? src.options : {});
      const dice = Array.isArray(src.terms)
        ? src.terms.filter((t): t is Dict => isPlainObject(t) && Array.isArray(t.results))
        : [];
      roll.dice.forEach((d, i) => {
        const r = dice[i]?.results;
        if (Array.isArray(r)) d.results = r as DieResult[];
      });
      roll._evaluated = src.evaluated === true;
      roll._total = typeof src.total === "number" ? src.total : undefined;
      return roll;
    }
    static fromJSON(json: string): Roll {
      return this.fromData(json);
    }

    get formula(): string {
      return this._formula;
    }
    get total(): number | undefined {
      return this._total;
    }
    get result(): string {
      return this.terms
        .map((t) =>
          Array.isArray(t.results)
            ? String((t as unknown as DieTerm).results.filter((r) => r.active).reduce((s, r) => s + r.result, 0))
            : String(t.operator ?? t.number ?? t.term),
        )
        .join(" ");
    }
    get terms(): Dict[] {
      return this.ast ? flatTerms(this.ast) : [];
    }
    get dice(): DieTerm[] {
      return this.ast ? collectDice(this.ast) : [];
    }
    get isDeterministic(): boolean {
      return this.dice.length === 0;
    }

    /**
     * `minimize` / `maximize` give every die its least or greatest face and draw nothing
     * (https://foundryvtt.com/api/v13/classes/foundry.dice.Roll.html#evaluate).
     */
    evaluateSync({ minimize = false, maximize = false }: { minimize?: boolean; maximize?: boolean } = {}): this {
      if (this._evaluated) throw new Error("The Roll has already been evaluated");
      if (!this.ast) throw this.error ?? new Error("Invalid roll");
      const draw = (faces: number): number => (minimize ? 1 : maximize ? faces : env.drawDie(faces));
      this._total = evaluateNode(this.ast, draw);
      this._evaluated = true;
      return this;
    }
    async evaluate(options: Dict = {}): Promise<this> {
      return this.evaluateSync({ minimize: options.minimize === true, maximize: options.maximize === true });
    }
    async roll(options: Dict = {}): Promise<this> {
      return this.evaluate(options);
    }

    toJSON(): JsonObject {
      return JSON.parse(
        JSON.stringify({
          class: this.constructor.name,
          options: this.options,
          formula: this.formula,
          terms: this.terms,
          total: this.total ?? null,
          evaluated: this._evaluated,
        }),
      ) as JsonObject;
    }

    /** https://foundryvtt.com/api/classes/foundry.dice.Roll.html#toMessage */
    async toMessage(messageData: Dict = {}, options: Dict = {}): Promise<unknown> {
      if (!this._evaluated) await this.evaluate();
      const { create = true, ...rest } = options;
      return env.toMessage(this, messageData, rest, create !== false);
    }
  }
  return Roll;
}

export type RollClass = ReturnType<typeof createRollClass>;
export type RollInstance = InstanceType<RollClass>;
export type { Json };

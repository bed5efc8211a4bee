// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

/** Names that must not reach the pure rules layer: Foundry's globals, the DOM and the clock. */
const impure = [
  "game",
  "CONFIG",
  "Hooks",
  "foundry",
  "ui",
  "canvas",
  "Roll",
  "ChatMessage",
  "CONST",
  "window",
  "document",
  "globalThis",
  "Date",
];

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "dist-playground/**",
      "release/**",
      "node_modules/**",
      "coverage/**",
      "test-artefacts/**",
      ".vite/**",
    ],
  },
  js.configs.recommended,
  {
    files: ["**/*.ts"],
    extends: [...tseslint.configs.strictTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/ban-ts-comment": "error",
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // fvtt-types models documents as interfaces merged with their classes; this rule cannot see that
      // `game.user` and friends come from Foundry's constructors.
      "@typescript-eslint/no-unsafe-class-instance-assignment": "off",
    },
  },
  {
    files: ["src/core/**/*.ts", "src/modes/*/rules/**/*.ts"],
    rules: {
      "no-restricted-globals": [
        "error",
        ...impure.map((name) => ({
          name,
          message: "src/core/ and src/modes/*/rules/ are pure: no Foundry globals, DOM, clock or randomness.",
        })),
      ],
      "no-restricted-properties": [
        "error",
        { object: "Math", property: "random", message: "Dice results arrive as data." },
      ],
    },
  },
  {
    // The pure layer imports only from itself: core from core, a mode's rules from core and their own
    // folder; nothing from Foundry.
    files: ["src/core/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["fvtt-types", "fvtt-types/*"], message: "src/core/ imports nothing from Foundry." },
            { regex: "^\\.\\./", message: "src/core/ imports only from src/core/ (nothing from Foundry)." },
          ],
        },
      ],
    },
  },
  {
    files: ["src/modes/*/rules/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["fvtt-types", "fvtt-types/*"], message: "src/modes/*/rules/ imports nothing from Foundry." },
            {
              regex: "^\\.\\./(?!\\.\\./\\.\\./core/)",
              message: "A mode's rules import only from src/core/ and their own folder (nothing from Foundry).",
            },
          ],
        },
      ],
    },
  },
  {
    // The simulated Foundry mirrors Foundry's async API shapes (async methods that need no await) and
    // stringifies JSON document fields the way Foundry's own server does.
    files: ["test/sim/**/*.ts"],
    rules: {
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/no-base-to-string": "off",
    },
  },
  {
    files: ["**/*.{js,mjs}"],
    languageOptions: { globals: { ...globals.node } },
  },
);

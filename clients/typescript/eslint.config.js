// ESLint for the TypeScript client (`make lint`, clients/typescript/lint.sh):
// the recommended JavaScript and TypeScript rules over the hand-written
// sources, tests and scripts. src/generated/ is generated from the OpenAPI
// document (scripts/generate.mjs) and left out.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "src/generated/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // A `let` that a callback reads and a later line sets once (the
      // proxies' servers call back into the proxy made after them).
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
    },
  },
  {
    files: ["scripts/**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
);

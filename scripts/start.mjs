// `npm start`: builds the module and says where it is. The browser playground replaces this
// once the tracker lands (see the README).
import { execSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
execSync("npm run build", { cwd: root, stdio: "inherit" });
const dist = path.join(root, "dist");
console.log(`\nStructured Initiative is built in ${dist}`);
console.log(`Link or copy it into Foundry: ln -s "${dist}" "<FoundryData>/Data/modules/structured-initiative"`);

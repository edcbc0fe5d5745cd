import { render } from "preact";
import { App } from "./App";
import "./styles.css";
import { startTheme } from "./theme";

startTheme();

const root = document.getElementById("app");
if (root) {
  root.textContent = ""; // the "Loading" line index.html shows until this runs
  render(<App />, root);
}
